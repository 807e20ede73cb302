"""The value of the game: column generation against an LP over every tree, enumerated by brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from clitools import run
from treegen.valuefile import check_value, value_from_bytes, value_to_bytes
from treegen.rules import resolve_game
from treegen.exact.contracts import INF
from treegen.exact.solver import Solver
from treegen.value import game_value, solve_matrix_game


# -- an independent reference: every tree's depth vector, and a per-secret LP over all of them ---------


def all_depth_vectors(game, split) -> list[tuple[int, ...]]:
    """The guesses-per-secret vector of every strategy tree (secrets in code order), without the dominated
    ones (a tree at least as deep for every secret is never needed by the guesser). Tiny games only."""
    codes = game.codes

    def trees(secrets: tuple[int, ...]) -> set[tuple[int, ...]]:
        if len(secrets) == 1:
            return {(1,)}
        out: set = set()
        for g in range(game.size):
            classes = split(codes, g, secrets)
            if classes is None:
                continue  # learns nothing: dominated
            parts = [(tuple(c), trees(tuple(c))) for c in classes]
            for choice in itertools.product(*(vs for _, vs in parts)):
                depth = {g: 1} if g in secrets else {}
                for (members, _), vec in zip(parts, choice):
                    for s, d in zip(members, vec):
                        depth[s] = d + 1
                out.add(tuple(depth[s] for s in secrets))
        return {v for v in out if not any(u != v and all(a <= b for a, b in zip(u, v)) for u in out)}

    return sorted(trees(tuple(range(game.size))))


def lp_value_over_all_trees(vectors) -> float:
    """max over p of min over trees of E_p[depth], per secret (no symmetry), with GLOP."""
    from ortools.linear_solver import pywraplp

    n = len(vectors[0])
    lp = pywraplp.Solver.CreateSolver("GLOP")
    p = [lp.NumVar(0, 1, f"p{s}") for s in range(n)]
    v = lp.NumVar(-lp.infinity(), lp.infinity(), "v")
    lp.Add(sum(p) == 1)
    for vec in vectors:
        lp.Add(sum(d * x for d, x in zip(vec, p)) >= v)  # no tree averages below v against p
    lp.Maximize(v)
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    return v.solution_value()


TINY = ["mm:2:2", "mm:3:2", "bc:3:3", "bc:2:4"]  # the enumeration explodes beyond these (bc:3:4, mm:2:3)


@pytest.mark.parametrize("name", TINY)
def test_value_matches_an_lp_over_every_tree(name, naive_split):
    game = resolve_game(name)
    vectors = all_depth_vectors(game, naive_split)
    gv = game_value(game)
    assert gv.proved
    assert abs(float(gv.value) - lp_value_over_all_trees(vectors)) < 1e-9
    # Exactly: the setter's distribution holds every tree to at least the value, and some tree to it.
    size = {rep: s for rep, s in gv.orbits}
    from treegen.symmetry import class_of

    rep = class_of(game)
    prob = dict(zip((r for r, _ in gv.orbits), gv.setter))
    per_secret = [prob[int(rep[s])] / size[int(rep[s])] for s in range(game.size)]
    assert sum(per_secret) == 1
    assert min(sum(p * d for p, d in zip(per_secret, vec)) for vec in vectors) == gv.value


def test_one_orbit_games_have_the_ordinary_optimum_as_value():
    for name in ("bc:3:5", "bc:3:6"):
        game = resolve_game(name)
        total = Solver(game).solve(np.arange(game.size, dtype=np.int32), INF)
        gv = game_value(game)
        assert len(gv.orbits) == 1 and gv.setter == (1,)
        assert gv.value == Fraction(total, game.size) == gv.uniform


def test_mm_2_3_setter_is_bonnet_and_viennots():
    """Bonnet and Viennot, "Nash Equilibrium in Mastermind" (CG 2016), footnote 3 on 2 pegs and 3 colours:
    "3 unicolor codes and 6 bicolor codes ... 3 x 1/6 + 6 x 1/12 = 1"."""
    gv = game_value(resolve_game("mm:2:3"))
    assert [p / size for (_, size), p in zip(gv.orbits, gv.setter)] == [Fraction(1, 6), Fraction(1, 12)]
    assert gv.value == Fraction(29, 12)


def test_mm_3_4_needs_a_mixture_and_beats_the_uniform_setter():
    gv = game_value(resolve_game("mm:3:4"))
    assert gv.proved and gv.value > gv.uniform and len(gv.guesser) > 1
    assert sum(w for w, _ in gv.guesser) == 1


def random_positive_matrix(rng, m, n):
    return [[Fraction(int(rng.integers(1, 20)), int(rng.integers(1, 5))) for _ in range(n)] for _ in range(m)]


def test_the_exact_matrix_game_solver_agrees_with_glop():
    from treegen.value import glop_restricted

    rng = np.random.default_rng(11)
    for _ in range(30):
        m, n = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        a = random_positive_matrix(rng, m, n)
        v, p, q = solve_matrix_game(a)
        z, _, _ = glop_restricted([[float(x) for x in row] for row in a])
        assert abs(float(v) - z) < 1e-9
        # the optimality conditions, recomputed here
        assert min(sum(p[r] * a[r][c] for r in range(m)) for c in range(n)) == v
        assert max(sum(q[c] * a[r][c] for c in range(n)) for r in range(m)) == v


def test_matching_pennies_shifted():
    v, p, q = solve_matrix_game([[Fraction(2), Fraction(1)], [Fraction(1), Fraction(2)]])
    assert v == Fraction(3, 2) and p == [Fraction(1, 2)] * 2 and q == [Fraction(1, 2)] * 2


# -- the file and the command ----------------------------------------------------------------------------


def test_the_value_file_round_trips_and_checks():
    gv = game_value(resolve_game("mm:3:3"))
    data = value_to_bytes(gv.to_file())
    vf = value_from_bytes(data)
    check_value(vf)
    assert value_to_bytes(vf) == data


def test_value_command_writes_a_file_that_verify_and_recheck_accept(tmp_path):
    out = tmp_path / "v.json"
    r = run("value", "--game", "mm:3:4", "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    assert "value    219/68" in r.stdout
    again = tmp_path / "w.json"
    assert run("value", "--game", "mm:3:4", "-o", str(again), "-q").returncode == 0
    assert out.read_bytes() == again.read_bytes()  # deterministic
    r = run("verify", str(out))
    assert r.returncode == 0 and "valid value file" in r.stdout, r.stderr
    r = run("value", "--recheck", str(out))
    assert r.returncode == 0 and "rechecked" in r.stdout, r.stderr


def test_value_command_writes_a_certificate_that_the_value_file_names_and_verify_checks(tmp_path):
    import hashlib
    import json

    out, cert = tmp_path / "v.json", tmp_path / "v.cert.json.gz"
    r = run("value", "--game", "bc:3:5", "-o", str(out), "-q", "--certificate", str(cert))  # one orbit: all 60 codes
    assert r.returncode == 0, r.stderr
    assert "wrote    certificate" in r.stdout and "that no tree averages below 49/15 against the setter" in r.stdout
    named = json.loads(out.read_bytes())["provenance"]["certificate"]
    assert named == {"file": "v.cert.json.gz", "sha256": hashlib.sha256(cert.read_bytes()).hexdigest()}
    r = run("verify", str(out))
    assert r.returncode == 0, r.stderr
    assert "certified no tree averages below 49/15 against the setter" in r.stdout and "1 claims checked" in r.stdout
    assert "rests on the exact search" in run("verify", str(out), "--no-certificate").stdout
    # `treegen certify` writes the same certificate for the value file afterwards, in one process
    again = tmp_path / "again.cert.json.gz"
    r = run("certify", str(out), "-o", str(again), "-q")
    assert r.returncode == 0 and again.read_bytes() == cert.read_bytes(), r.stderr
    r = run("certify", str(out), "-o", str(again), "--parts", str(tmp_path / "p"))
    assert r.returncode == 2 and "--parts does not apply to a value file" in r.stderr
    # the tree's certificate, given by name, certifies the value too: the same 60 secrets and total
    tree = tmp_path / "t.json"
    assert run("solve", "--game", "bc:3:5", "-q", "-o", str(tree), "--certificate", str(tmp_path / "t.cert")).returncode == 0
    r = run("verify", str(out), "--certificate", str(tmp_path / "t.cert"))
    assert r.returncode == 0 and "certified no tree averages below 49/15" in r.stdout, r.stderr
    # another game's certificate in its place: not the one the value file names
    assert run("solve", "--game", "mm:2:3", "-q", "-o", str(tree), "--certificate", str(cert)).returncode == 0
    r = run("verify", str(out))
    assert r.returncode == 1 and "is not the certificate the file names" in r.stderr
    # mm:3:4's setter draws its codes unalike (2/17 on the 4 codes 000 ..., 9/17 on 36, 6/17 on 24): a
    # certificate with weights 2, 1 and 1 (of 68), proving the value's 219/68 from below
    out, cert = tmp_path / "m.json", tmp_path / "m.cert.json.gz"
    r = run("value", "--game", "mm:3:4", "-o", str(out), "-q", "--certificate", str(cert))
    assert r.returncode == 0 and cert.exists(), r.stderr
    r = run("verify", str(out))
    assert r.returncode == 0, r.stderr
    assert ("certified no tree averages below 219/68 against the setter: no strategy's total weighted by the "
            "setter's probabilities (1, 2 of 68) over its 64 codes is below 219") in r.stdout
    # refused up front: with --recheck, and onto the value file itself
    r = run("value", "--recheck", str(out), "--certificate", str(cert))
    assert r.returncode == 2 and "--certificate does not go with --recheck" in r.stderr
    r = run("value", "--game", "mm:2:3", "-o", str(out), "--certificate", str(out))
    assert r.returncode == 2 and "give two files" in r.stderr


def test_bad_input_to_value_is_one_line(tmp_path):
    r = run("value", "--game", "mm:9:9")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    tree = tmp_path / "t.json"
    assert run("solve", "--game", "mm:2:3", "-o", str(tree), "-q").returncode == 0
    r = run("value", "--recheck", str(tree))
    assert r.returncode == 2 and "not a value file" in r.stderr
    r = run("show", str(tmp_path / "missing.json"))
    assert r.returncode == 2


@pytest.mark.parametrize("name, pegs, colours, tight", [("mastermind-value.json", 4, 6, True),
                                                        ("mm-4-7-value.json", 4, 7, True),
                                                        ("royale-value.json", 5, 5, False)])
def test_shipped_values_lower_side_by_the_plain_solver(name, pegs, colours, tight):
    """A second method for the weighted search's lower bound, by the plain (unweighted) solver.

    Scale the setter's per-code probabilities to integer weights w and cut them into layers: with
    thresholds t_1 < ... < t_k the distinct positive weights (t_0 = 0), w = sum_j (t_j - t_(j-1)) * [w >= t_j].
    Any tree T for the whole game, followed only on the secrets of a layer L_j, is a tree for L_j, so its
    weighted total sum_s w_s * d_T(s) is at least sum_j (t_j - t_(j-1)) * opt(L_j), opt being the plain
    least total. A zero-weight secret never raises the others' cost (a tree for the rest extends to it by
    guessing it wherever its hints lead), so with one layer the bound is the best reply's total exactly:
    mastermind's and mm:4:7's setters are uniform over the codes that are not one colour. royale's has four
    layers and the bound is strictly lower, a check on the value's lower side only from below."""
    from pathlib import Path

    vf = value_from_bytes((Path(__file__).resolve().parents[1] / "trees" / name).read_bytes())
    codes = np.array(list(itertools.product(range(colours), repeat=pegs)))
    # a code's orbit under position and symbol permutations is its sorted multiset of symbol counts
    shape = [tuple(sorted(np.bincount(c, minlength=colours), reverse=True)) for c in codes]
    per_code = {shape[rep]: p / size for (rep, size), p in zip(vf.orbits, vf.setter)}
    scale = np.lcm.reduce([q.denominator for q in per_code.values()])
    w = np.array([int(per_code[s] * scale) for s in shape])
    total_weight = int(w.sum())
    bound, below = 0, 0
    for t in sorted(set(w.tolist()) - {0}):
        layer = np.flatnonzero(w >= t).astype(np.int32)
        bound += (t - below) * Solver(vf.game).solve(layer, INF)
        below = t
    assert Fraction(bound, total_weight) <= vf.value
    if tight:  # mastermind 5600/1290, mm:4:7 11196/2394
        assert Fraction(bound, total_weight) == vf.value
    else:  # royale: 75966/17620 = 4.3112 <= 76311/17620
        assert Fraction(bound, total_weight) < vf.value
