"""The static game: CP-SAT against brute force over all subsets, the tree file, verify and the command."""

from __future__ import annotations

import itertools
import os

import orjson
import pytest

from clitools import run
from treegen import static
from treegen.static.cases import _need
from treegen.rules import format_code, parse_code, resolve_game
from treegen.rules import score_symbols as score
from treegen.tree import InvalidTree, Node, load_tree, tree_from_bytes
from treegen.verify import check_root, verify_tree

GREENWELL = ["1221", "2354", "3311", "4524", "5656", "6643"]  # seed 001's (1,2,2,1), (2,3,5,4), ...


# -- an independent reference: every subset, smallest first, scored with rules.score -----------------


def naive_separates(game, guesses) -> bool:
    vectors = {tuple(score(game, game.codes[g], s) for g in guesses) for s in game.codes}
    return len(vectors) == game.size


def naive_static_number(game) -> int:
    for k in range(1, game.size + 1):
        if any(naive_separates(game, subset) for subset in itertools.combinations(range(game.size), k)):
            return k
    raise AssertionError("the whole code list always separates")


TINY = ["mm:2:2", "mm:2:3", "mm:2:4", "mm:2:5", "mm:3:2", "mm:3:3", "bc:3:4", "mm:3:4"]
# The lazy loop with every lever off is slow beyond these (see scripts/static_results.py for timings).
BARE = {"mm:2:2", "mm:2:3", "mm:3:2", "mm:2:4"}


@pytest.mark.parametrize("method", static.METHODS)
@pytest.mark.parametrize("name", TINY)
def test_both_methods_agree_with_brute_force(name, method):
    game = resolve_game(name)
    want = naive_static_number(game)
    got = static.find_static(game, method=method)
    assert got.proved and not got.timed_out and got.method == method
    assert len(got.guesses) == got.lower_bound == want
    assert naive_separates(game, got.guesses)
    if name in BARE:  # with every lever off: the lazy loop (or the plain search) alone over all codes
        bare = static.find_static(game, want - 1, method=method, symmetry=False, use_bounds=False)
        assert bare.proved and bare.guesses is None and bare.lower_bound == want
        found = static.find_static(game, want, method=method, symmetry=False, use_bounds=False)
        assert found.proved and naive_separates(game, found.guesses)


def naive_case(game, k, fixed, allowed) -> bool:
    """Whether some k-set holding ``fixed`` and otherwise codes of ``allowed`` separates: every subset."""
    return any(naive_separates(game, [*fixed, *rest])
               for rest in itertools.combinations([int(c) for c in allowed], k - len(fixed)))


@pytest.mark.parametrize("name", ["mm:3:4", "bc:3:4", "mm:2:5", "mm:3:3"])
def test_the_methods_agree_case_by_case_with_brute_force(name):
    # Every symmetry case at the least size and one below: the depth-first search (with and without its
    # third-guess subcases) and CP-SAT against every subset of the case's codes.
    from treegen.feedback import feedback_table
    from treegen.static.dfs import search_case
    from treegen.symmetry import class_of

    game = resolve_game(name)
    table = feedback_table(game)
    h = static.hint_count(game)
    want = naive_static_number(game)
    cases = static.symmetry_cases(game, table)
    for k in (want - 1, want):
        dfs = static.decide_cases(game, k, "dfs")
        sat = static.decide_cases(game, k, "cp-sat")
        assert [r.status for r in dfs] != [] and len(dfs) == len(sat) == len(cases)
        for case, a, b in zip(cases, dfs, sat):
            truth = naive_case(game, k, case.fixed, case.allowed)
            if a.status == "counting":
                assert b.status == "counting" and not truth  # a counting bound never closes a live case
                continue
            assert a.status == ("found" if truth else "infeasible"), (case.fixed, a)
            assert b.status in (("found",) if truth else ("infeasible", "filter")), (case.fixed, b)
            plain = search_case(game, table, k, case.fixed, case.allowed, h=h)  # no third-level subcases
            assert (plain is not None) == truth
            for got in (a, b):
                if truth:
                    codes = [parse_code(game, c) for c in got.found]
                    assert naive_separates(game, codes) and len(codes) == k
                    assert all(c in codes for c in case.fixed)
        assert any(r.status == "found" for r in dfs) == (k == want)
    orbits = class_of(game, cases[0].fixed)
    assert len(set(orbits.tolist())) < game.size  # the subcases really merge codes in these games


def test_two_peg_numbers_match_the_published_table():
    # Rosenbaum, "Static-Mastermind" (February 2002): C(m, 2) = 2, 2, 3, 4, 4, 5, 6, 6, 7 for m = 2..10
    # colours (his Table 1 of what was known marks the last three "?"; his Theorem 1 proves C(3k, 2) =
    # C(3k - 1, 2) = 2k and C(3k + 1, 2) = 2k + 1 for k > 1); Goddard (2003), as quoted in a later chapter, a
    # ceil(2c/3 + 1)-strategy for two pegs, whose final guess makes it ceil(2c/3) static guesses: the same.
    for colours, published in zip(range(2, 11), (2, 2, 3, 4, 4, 5, 6, 6, 7)):
        got = static.find_static(resolve_game(f"mm:2:{colours}"))
        assert got.proved and len(got.guesses) == published == -(-2 * colours // 3)


@pytest.mark.parametrize("colours", [5, 7])
def test_three_peg_numbers_match_goddards_formula(colours):
    # Goddard (2003), as quoted: a c-strategy for three pegs (c - 1 static guesses and the final one),
    # "optimal for sufficiently large c"; it holds from 4 colours (docs/results.md#static-game).
    got = static.find_static(resolve_game(f"mm:3:{colours}"))
    assert got.proved and len(got.guesses) == colours - 1


def test_cp_sat_splits_cases_of_three_free_guesses_into_subcases():
    # mm:2:8 needs 6: at sizes 5 and 6 every live case leaves three or four guesses free, so CP-SAT decides it
    # subcase by subcase (cases.subcases). Case by case against the depth-first search, and at size 5 against
    # every three codes of each case's list, scored with rules.score (numpy over all triples at once).
    import numpy as np

    from treegen.feedback import feedback_table

    game = resolve_game("mm:2:8")
    cases = static.symmetry_cases(game, feedback_table(game))
    ids: dict = {}
    scores = np.array([[ids.setdefault(score(game, g, s), len(ids)) for s in game.codes] for g in game.codes])
    for k in (5, 6):
        dfs = static.decide_cases(game, k, "dfs")
        sat = static.decide_cases(game, k, "cp-sat")
        assert {r.status for r in sat} >= {"infeasible"} and len(dfs) == len(sat) == len(cases)
        for case, a, b in zip(cases, dfs, sat):
            if a.status == "counting":
                assert b.status == "counting"
                continue
            assert b.subcases > 0 and (a.status == "found") == (b.status == "found"), (case.fixed, a, b)
            if b.status == "found":
                assert naive_separates(game, [parse_code(game, c) for c in b.found])
            if k == 5:
                base = scores[case.fixed[0]] * 16 + scores[case.fixed[1]]
                triples = np.array(list(itertools.combinations([int(c) for c in case.allowed], 3)))
                keys = np.sort(((base * 16 + scores[triples[:, 0]]) * 16 + scores[triples[:, 1]]) * 16
                               + scores[triples[:, 2]], axis=1)
                separates = ~(keys[:, 1:] == keys[:, :-1]).any(axis=1)
                assert not separates.any() and a.status == "infeasible", case.fixed


def test_cp_sat_refutes_a_size_with_clauses():
    # Without the counting bounds, refuting 2 guesses for mm:3:4 takes the lazy clause loop.
    game = resolve_game("mm:3:4")
    got = static.find_static(game, 2, method="cp-sat", use_bounds=False)
    assert got.proved and got.guesses is None and got.lower_bound == 3
    assert got.iterations > 0 and got.constraints > 0
    assert not any(naive_separates(game, s) for s in itertools.combinations(range(game.size), 2))
    found = static.find_static(game, 3, method="cp-sat", use_bounds=False)
    assert found.proved and naive_separates(game, found.guesses)
    assert sum(r.solves for r in got.cases) == got.iterations
    assert sum(r.clauses for r in found.cases) > 0  # size 3 leaves one free guess, so a model with clauses


def test_counting_bounds_are_never_above_the_truth():
    for name in TINY + ["mm:2:7"]:
        game = resolve_game(name)
        assert static.counting_bounds(game).lower <= len(static.find_static(game).guesses)


def test_hint_counts():
    assert static.hint_count(resolve_game("mastermind")) == 14  # 3A1B never occurs
    assert static.hint_count(resolve_game("bulls-cows")) == 14
    assert static.hint_count(resolve_game("royale")) == 20


def test_every_static_set_of_a_size_has_the_same_total():
    game = resolve_game("mm:2:4")
    totals = set()
    for subset in itertools.combinations(range(game.size), 3):
        if naive_separates(game, subset):
            for order in itertools.permutations(subset):
                root = static.static_root(game, order)
                totals.add(check_root(game, root).total)
    assert totals == {static.static_total(game.size, 3)} == {3 * 4 // 2 + (16 - 3) * 4}


# -- the tree file --------------------------------------------------------------------------------


def test_greenwell_set_is_static_and_verifies(tmp_path):
    game = resolve_game("mastermind")
    codes = [parse_code(game, c) for c in GREENWELL]
    assert naive_separates(game, codes)
    out = tmp_path / "g.json"
    done = run("static", "--game", "mastermind", "--guesses", " ".join(GREENWELL), "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    check = run("verify", str(out))
    assert check.returncode == 0, check.stderr
    tree = load_tree(out)
    claim = tree.provenance["static"]
    assert claim["guesses"] == sorted(GREENWELL) and claim["size"] == 6
    assert tree.stats.total == 6 * 7 // 2 + (1296 - 6) * 7 == claim["total"]
    assert tree.stats.max_guesses == 7


def test_a_non_static_set_is_refused(tmp_path):
    out = tmp_path / "x.json"
    done = run("static", "--game", "mastermind", "--guesses", " ".join(GREENWELL[:5]), "-o", str(out), "-q")
    assert done.returncode == 1 and "do not tell" in done.stderr
    assert not out.exists()


def _static_file(tmp_path):
    out = tmp_path / "s.json"
    done = run("static", "--game", "mm:2:5", "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    return out, orjson.loads(out.read_bytes())


def _rewrite(tmp_path, obj) -> str:
    path = tmp_path / "tampered.json"
    path.write_bytes(orjson.dumps(obj) + b"\n")
    return str(path)


def test_tampered_claims_fail_verify(tmp_path):
    _, obj = _static_file(tmp_path)
    for key, value in [("guesses", None), ("size", 5), ("lower_bound", 5), ("proved_minimum", False),
                       ("total", 1), ("worst_case", 4)]:
        bad = orjson.loads(orjson.dumps(obj))
        if key == "guesses":
            bad["provenance"]["static"]["guesses"] = list(reversed(bad["provenance"]["static"]["guesses"]))
        else:
            bad["provenance"]["static"][key] = value
        done = run("verify", _rewrite(tmp_path, bad))
        assert done.returncode == 1, (key, done.stdout)
        assert "static" in done.stderr


def test_an_adaptive_subtree_is_not_static(tmp_path):
    # Swap the 2nd and 3rd guesses under one first hint: still a valid tree, but no longer static.
    game = resolve_game("mm:2:5")
    _, obj = _static_file(tmp_path)
    g = obj["provenance"]["static"]["guesses"]
    root = static.static_root(game, [parse_code(game, c) for c in g])
    hint, child = root.next[0]
    order = [g[0], g[2], g[1], g[3]]
    swapped_root = static.static_root(game, [parse_code(game, c) for c in order])
    other = swapped_root.child(hint)
    mixed = Node(root.guess, tuple((h, other if h == hint else n) for h, n in root.next))
    assert other.guess != child.guess
    check_root(game, mixed)  # a valid tree
    obj["root"] = mixed.to_obj()
    tree = tree_from_bytes(orjson.dumps(obj))
    with pytest.raises(InvalidTree, match="not static"):
        verify_tree(tree)


def test_same_command_same_bytes(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for out in (a, b):
        done = run("static", "--game", "mm:3:4", "-o", str(out), "-q")
        assert done.returncode == 0, done.stderr
    assert a.read_bytes() == b.read_bytes()
    claim = load_tree(a).provenance["static"]
    assert claim["proved_minimum"] and claim["lower_bound"] == claim["size"] == 3


def test_average_objective_reports_the_constant_total(tmp_path):
    out = tmp_path / "avg.json"
    done = run("static", "--game", "mm:2:5", "--objective", "average", "-o", str(out), "-q")
    assert done.returncode == 0 and "same for every static set" in done.stdout
    tree = load_tree(out)
    assert tree.provenance["static"]["objective"] == "average"
    assert tree.stats.total == static.static_total(25, 4)


def test_impossible_size_exits_1(tmp_path):
    out = tmp_path / "n.json"
    done = run("static", "--game", "mm:3:4", "--size", "2", "-o", str(out), "-q")
    assert done.returncode == 1
    assert "no static set of 2 guesses separates the secrets of mm:3:4" in done.stderr
    assert not out.exists()


def test_case_log_and_methods_from_the_command(tmp_path):
    # Both methods through the command: the same least size, a file that verifies, and one log line per case.
    for method in static.METHODS:
        out, log = tmp_path / f"{method}.json", tmp_path / f"{method}.jsonl"
        done = run("static", "--game", "mm:3:4", "--method", method, "--case-log", str(log), "-o", str(out), "-q")
        assert done.returncode == 0, done.stderr
        assert ("depth-first" if method == "dfs" else "CP-SAT") in done.stdout
        claim = load_tree(out).provenance["static"]
        assert claim["method"] == method and claim["size"] == 3 and claim["proved_minimum"]
        assert run("verify", str(out)).returncode == 0
        lines = [orjson.loads(line) for line in log.read_bytes().splitlines()]
        cases = len(static.symmetry_cases(resolve_game("mm:3:4"), static_table("mm:3:4")))
        assert lines[-1]["status"] == "found" and lines[-1]["size"] == 3
        assert sorted(lines[-1]["found"]) == claim["guesses"]
        # Counting needs 3, so only size 3 is searched: every case before the one with the set is closed.
        assert all(line["size"] == 3 for line in lines) and len(lines) <= cases
        assert all(line["status"] in ("counting", "infeasible", "filter") for line in lines[:-1])
        assert any(line["status"] == "counting" for line in lines)


def static_table(name):
    from treegen.feedback import feedback_table

    return feedback_table(resolve_game(name))


@pytest.mark.parametrize("args", [["--size", "0"], ["--time-limit", "-1"], ["--workers", "0"],
                                  ["--guesses", "1299"], ["--game", "xx"], ["--memory", "1"],
                                  ["--method", "sat"]])
def test_bad_input_exits_2(tmp_path, args):
    done = run("static", "--game", "mastermind", *args, "-o", str(tmp_path / "b.json"), "-q")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not os.listdir(tmp_path)


def test_time_limit_exits_4_with_bounds(tmp_path):
    out = tmp_path / "t.json"
    done = run("static", "--game", "mm:3:4", "--time-limit", "0.01", "-o", str(out), "-q")
    assert done.returncode == 4, done.stderr
    if out.exists():  # the greedy set, not proved least
        claim = load_tree(out).provenance["static"]
        assert not claim["proved_minimum"] and claim["lower_bound"] < claim["size"]
        assert run("verify", str(out)).returncode == 0
    else:
        assert "time limit" in done.stderr


def test_format_of_the_guesses_is_the_games():
    game = resolve_game("mastermind")
    got = static.static_tree(game, static.StaticResult(game, 6, tuple(parse_code(game, c) for c in GREENWELL),
                                                       4, False, False, static.Bounds(14, 3, 0, 4)))
    assert got.root.guess == "1221" and [format_code(game, parse_code(game, c)) for c in GREENWELL] == GREENWELL


SHIPPED = sorted(
    f for f in os.listdir(os.path.join(os.path.dirname(__file__), "..", "trees")) if "static" in f
)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_static_files_verify(name):
    path = os.path.join(os.path.dirname(__file__), "..", "trees", name)
    tree = load_tree(path)
    verify_tree(tree)  # includes the static checks
    claim = tree.provenance["static"]
    game = tree.game
    assert naive_separates(game, [parse_code(game, c) for c in claim["guesses"]])
    assert claim["lower_bound"] >= _need(game.size, static.hint_count(game))  # h^k >= N


def test_greenwell_is_shipped():
    assert "mastermind-static-greenwell.json" in SHIPPED
    tree = load_tree(os.path.join(os.path.dirname(__file__), "..", "trees", "mastermind-static-greenwell.json"))
    assert tree.provenance["static"]["guesses"] == GREENWELL


def test_sigterm_stops_a_cp_sat_solve_at_once(tmp_path):
    # CP-SAT's solve is one long C++ call, inside which Python runs no signal handler: before the solve ran
    # in a helper thread, an mm:4:7 case ignored SIGTERM for minutes. At size 6 mm:4:7's first subcase (0000
    # 0001 0002, three guesses free) ends its first solve in about 20 s and its second takes over a minute, so
    # a signal sent once the first solve has ended lands inside the second. (Mastermind's size-5 subcases,
    # two guesses free, are solved in a second or two: too short to tell.)
    import signal
    import subprocess
    import time

    from clitools import TREEGEN

    err = tmp_path / "err"
    with open(err, "w") as stderr:
        proc = subprocess.Popen([TREEGEN, "static", "--game", "mm:4:7", "--size", "6", "--method", "cp-sat",
                                 "--workers", "1", "-o", str(tmp_path / "s.json")], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and "pairs unseparated" not in err.read_text():
            time.sleep(0.1)
        assert proc.poll() is None, err.read_text()
        time.sleep(1)  # into the next solve
        proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        proc.wait(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143
    assert waited < 5, f"ended {waited:.1f} s after SIGTERM"
    assert err.read_text().replace("\r", "\n").strip().splitlines()[-1] == "treegen: terminated"
    assert not (tmp_path / "s.json").exists()
