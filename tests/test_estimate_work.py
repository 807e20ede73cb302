"""scripts/estimate_work.py: its measurements are of the right problems, and its sampling estimator is unbiased.

The estimate is only as good as what it measures: each sampled subproblem is solved in a forked child,
so these tests check the child's answers against a brute-force optimum written here from the rules,
that a CPU limit stops a child (a censored sample, never a wrong value), and that the Hansen-Hurwitz sum
the estimator extrapolates with has the true sum as its expectation (computed exactly over all draws).
"""

import importlib.util
import itertools
import math
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from treegen.rules import resolve_game
from treegen.exact.solver import Solver

_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "estimate_work.py"


@pytest.fixture(scope="module")
def ew():
    spec = importlib.util.spec_from_file_location("estimate_work", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["estimate_work"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def brute_optimum(codes, secrets, split) -> int:
    """The least total guesses over ``secrets`` (code indices), trying every code as the guess at every
    set: plain recursion with a memo, nothing from treegen.exact."""

    @cache
    def best(alive: frozenset) -> int:
        if len(alive) == 1:
            return 1
        out = math.inf
        for g in range(len(codes)):
            classes = split(codes, g, sorted(alive))
            if classes is None:
                continue
            out = min(out, len(alive) + sum(best(frozenset(c)) for c in classes))
        return out

    return best(frozenset(secrets))


def test_forked_solves_match_brute_force(ew, naive_split):
    game = resolve_game("bc:3:4")
    codes = list(itertools.permutations(range(4), 3))  # the game's codes in its own (sorted) order
    solver = Solver(game)
    first, root = ew.first_guess(game, solver)
    assert first == 0 and root.classes
    for cls in root.classes:
        got = ew.solve_forked(solver, cls, (first,), 60)
        assert not got.censored and got.n == cls.shape[0] and got.cpu >= 0
        assert got.value == brute_optimum(codes, cls.tolist(), naive_split)


def test_cpu_limit_censors_instead_of_answering(ew):
    game = resolve_game("bc:4:10")
    solver = Solver(game)
    first, root = ew.first_guess(game, solver)
    biggest = root.classes[0]  # 0A1B, 1440 secrets: several CPU seconds
    assert biggest.shape[0] == 1440
    got = ew.solve_forked(solver, biggest, (first,), 1)
    assert got.censored and got.value is None
    assert 0.9 <= got.cpu <= 3


@pytest.mark.parametrize("k", [1, 2])
def test_hansen_hurwitz_expectation_is_the_true_sum(ew, k):
    sizes = [40, 25, 9, 3]
    values = {0: 7.0, 1: 2.5, 2: 0.3, 3: 0.01}
    w = np.array(sizes, float) ** 2.0
    p = w / w.sum()
    # Every ordered k-tuple of draws with its probability, as pps_sample weighs each draw: k * p.
    expect = 0.0
    for picks in itertools.product(range(len(sizes)), repeat=k):
        prob = math.prod(p[i] for i in picks)
        expect += prob * ew.hansen_hurwitz([(i, k * p[i]) for i in picks], values)
    assert expect == pytest.approx(sum(values.values()))
    # And the sampler draws with those probabilities: its weights are k * p of the class drawn.
    draws = ew.pps_sample(sizes, k, 2.0, np.random.default_rng(5))
    assert len(draws) == k and all(kp == pytest.approx(k * p[i]) for i, kp in draws)
    # With k at least the classes, every class once with weight 1: the exact sum.
    everything = ew.pps_sample(sizes, 4, 2.0, np.random.default_rng(5))
    assert ew.hansen_hurwitz(everything, values) == pytest.approx(sum(values.values()))


def test_mm_first_guesses_cover_the_game(ew, naive_split):
    """An mm game has one first guess per partition shape: the estimator takes any of them (the search's
    best-first by default), its forked solves are exact, and the least total over the choices is the game's
    brute-force optimum (so estimating every choice's subtree covers refuting the others)."""
    game = resolve_game("mm:3:3")
    codes = list(itertools.product(range(3), repeat=3))
    assert [tuple(c) for c in game.codes] == codes
    solver = Solver(game)
    choices = ew.first_choices(game)
    assert sorted(codes[g] for g in choices) == [(0, 0, 0), (0, 0, 1), (0, 1, 2)]
    best_first, _ = ew.first_guess(game, solver)
    assert best_first == int(solver.scan(np.arange(game.size, dtype=np.int32), ew.INF, (), ew.UNCAPPED).guesses[0])
    totals = {}
    for g in choices:
        first, root = ew.first_guess(game, solver, g)
        assert first == g
        got = {tuple(c.tolist()): ew.solve_forked(solver, c, (g,), 60) for c in root.classes}
        total = game.size
        for cls in naive_split(codes, g, list(range(game.size))):
            want = brute_optimum(codes, cls, naive_split)
            if len(cls) >= 3:  # the root split keeps the classes of three or more (smaller: closed forms)
                assert not got[tuple(sorted(cls))].censored and got[tuple(sorted(cls))].value == want
            total += want
        totals[g] = total
    assert min(totals.values()) == brute_optimum(codes, list(range(game.size)), naive_split)
    # 011 is equivalent to 001 but not the representative the search tries: refused, naming the choices.
    with pytest.raises(ValueError, match="000, 001, 012"):
        ew.first_guess(game, solver, codes.index((0, 1, 1)))


def test_mm_estimate_runs_and_says_what_it_covers(ew, capsys):
    argv = ["--game", "mm:4:6", "--calibrate", "mm:4:4,mm:4:5", "--span-games", "mm:4:5", "--budget", "0.5",
            "--min-class", "100", "--limit", "10", "--seed", "2"]
    assert ew.main(argv + ["--first", "0011"]) == 0
    out = capsys.readouterr().out
    assert "first guess 0011" in out and "refuting the other 4 first guesses" in out and "NOT covered" in out
    assert "whole game" not in out
    assert ew.main(argv + ["--others", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "first guess 0012" in out and "whole game" in out and out.count("its chain's span") == 4
    # Bad input: one line on stderr, exit 2, before any calibration.
    assert ew.main(["--game", "mm:4:6", "--first", "0111"]) == 2
    err = capsys.readouterr()
    assert err.out == "" and err.err.count("\n") == 1 and "0000, 0001, 0011, 0012, 0123" in err.err


def test_spans_with_a_split_divisor_coordinate_what_the_split_schedule_would(ew, capsys):
    """--split-divisor D measures ``solve_game(split=N)``'s schedule with N = codes / D: mm:3:4's classes are all
    below the default's 600 secrets (no class coordinated), but with D = 8 each of at least 8 is, and its
    outcome is the solver's (coordinated_spans checks the value), its span at most its work."""
    assert ew.main(["--spans", "mm:3:4"]) == 0
    assert capsys.readouterr().out == ""
    assert ew.main(["--spans", "mm:3:4", "--split-divisor", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.endswith("split 8") for line in lines)
    for line in lines:
        work = float(line.split("coordinated work")[1].split()[0])
        span = float(line.split("span")[1].split()[0])
        assert span <= work + 0.01


def test_a_sample_is_evaluated_under_any_ratio(ew):
    """A Sample keeps the draws, so the estimate under another R costs no new solve: scan + R(n) times the
    Hansen-Hurwitz sum at every level, R taken at the set's level and scaled by exp(shift * sd)."""
    leaf = lambda cpu: ew.Sample(10, 3, leaf=ew.Solved(10, 30, cpu, 1, 0.0))
    # Two levels: a class of the first guess (level 1, 400 secrets) whose draws (class 0 twice, weights
    # k*p = 1.5 and 1.5) reach a set of 100 (level 2) with classes 0 and 1 drawn once each (weight 1).
    inner = ew.Sample(100, 2, 0.5, [(0, 1.0), (1, 1.0)], {0: leaf(2.0), 1: leaf(3.0)})
    top = ew.Sample(400, 1, 1.0, [(0, 1.5), (0, 1.5)], {0: inner})
    flat = ew.RatioModel(0.0, 0.0, 0.5, 3)  # R(n) = 1 for every n and level, residual sd 0.5 in log
    assert inner.value(flat) == pytest.approx(0.5 + 5.0)
    assert top.value(flat) == pytest.approx(1.0 + (5.5 / 1.5) * 2)
    # Shifted by log 2 (= shift * sd): R = 2 at both levels.
    two = math.log(2) / flat.sd
    assert top.value(flat, two) == pytest.approx(1.0 + 2 * ((0.5 + 2 * 5.0) / 1.5) * 2)
    e = top.estimate(flat, two)
    assert (e.low, e.mid, e.high) == pytest.approx((top.value(flat, two - 1), top.value(flat, two),
                                                    top.value(flat, two + 1)))
    assert e.low < e.mid < e.high and e.largest_child == pytest.approx(inner.value(flat, two))
    # By level: R = 1 at level 1, 3 below it; moved by log 2 below level 1 only (R = 6 there).
    levels = ew.LevelRatios(flat, ew.RatioModel(math.log(3), 0.0, 0.5, 3))
    assert top.value(levels) == pytest.approx(1.0 + ((0.5 + 3 * 5.0) / 1.5) * 2)
    assert top.value(levels.moved(math.log(2))) == pytest.approx(1.0 + ((0.5 + 6 * 5.0) / 1.5) * 2)


def test_level_ratios_fit_each_level_apart(ew):
    """LevelRatios.fit fits log R on log n over the classes of the first guess and, apart, over the sets
    below them (the same least squares as RatioModel.fit on each part), and needs three sets in each."""
    def node(level, n, ratio):
        return ew.Node(level, n, "0A1B", ew.Solved(n, 1, ratio, 1, 0.0), 0.0,
                       [ew.Node(level + 1, 3, "0A0B", ew.Solved(3, 5, 1.0, 1, 0.0))])

    first = [("g", node(1, n, 0.01 * n)) for n in (200, 400, 800)]  # R = 0.01 n exactly
    deeper = [("g", node(2, n, 1e-6 * n ** 3)) for n in (100, 200, 300, 500)]  # R = 1e-6 n^3
    got = ew.LevelRatios.fit(first + deeper)
    assert got.first.beta == pytest.approx(1.0) and got.first(1000) == pytest.approx(10.0)
    assert got.deeper.beta == pytest.approx(3.0) and got.deeper(1000) == pytest.approx(1000.0)
    assert got.at(1) is got.first and got.at(2) is got.deeper and got.at(3) is got.deeper
    assert ew.LevelRatios.fit(first + deeper[:2]) is None


def test_leaf_ratio_is_the_leafs_own_r(ew, monkeypatch):
    """leaf_ratio divides the leaf's CPU by its scan plus its best-first guess's classes solved alone, the
    same R as calibration's (Node.ratio), and gives None when a class hits the CPU limit."""
    game = resolve_game("bc:4:8")
    solver = Solver(game)
    first, root = ew.first_guess(game, solver)
    secrets = root.classes[0]
    ex = ew.expand(solver, secrets, (first,))
    solved = []
    real = ew.solve_forked

    def counting(solver_, cls, history, limit):
        got = real(solver_, cls, history, limit)
        assert history == (first, ex.guess) and not got.censored and got.value is not None
        solved.append(got.cpu)
        return got

    monkeypatch.setattr(ew, "solve_forked", counting)
    ratio = ew.leaf_ratio(solver, secrets, (first,), 7.0, 60)
    assert len(solved) == len(ex.classes) and ratio is not None
    # Its denominator is the scan (timed again, so only bounded) plus the classes' own seconds.
    assert 7.0 / ratio >= sum(solved) - 1e-9
    monkeypatch.undo()
    # A class over the CPU limit: bc:4:10 whole, whose best-first guess's biggest class (0A1B, 1440
    # secrets, taken first) needs several seconds, under a limit of one.
    game = resolve_game("bc:4:10")
    solver = Solver(game)
    assert ew.leaf_ratio(solver, np.arange(game.size, dtype=np.int32), (), 7.0, 1) is None


def test_leaf_ratios_shift_the_estimate(ew, capsys, tmp_path):
    """The total is printed again with R fitted by level; with leaves of at least RATIO_MIN secrets (and
    RATIO_MIN_CPU seconds) the target's own R is printed against the fit below level 1, and a third total
    with that fit moved to them; --no-leaf-ratios leaves those out. (The second run reads the first's
    calibration from its file, rather than solving bc:4:8 and bc:4:9 again.)"""
    argv = ["--game", "bc:4:10", "--calibrate", "bc:4:8,bc:4:9", "--span-games", "bc:4:8", "--levels", "1",
            "--budget", "1", "--limit", "20", "--seed", "2", "--calibration", str(tmp_path / "calibration.json")]
    assert ew.main(argv) == 0
    out = capsys.readouterr().out
    assert "its own R" in out and "R at the target's own" in out and "below level 1 moved to them" in out
    assert "with R by level:" in out
    assert ew.main(argv + ["--no-leaf-ratios"]) == 0
    out = capsys.readouterr().out
    assert "its own R" not in out and "R at the target's own" not in out
