"""treegen.analysis (the coach) and ``treegen analyze``: every value against a brute-force optimum written here.

The reference is a plain memoised recursion over every guess of a tiny game (no symmetry, no bounds, no
solver): T*(S) = min over guesses g that split S of |S| + sum of T*(S_h) over the other hints. Tiny games
have 20 to 30 secrets, where it runs in seconds.
"""

from __future__ import annotations

import json
import random
import subprocess
from fractions import Fraction

import numpy as np
import pytest
from brute import optimum
from clitools import TREEGEN

from treegen.analysis import AnalysisError, Analyzer, TreeIndex, analysis_to_obj
from treegen.exact import solve_game
from treegen.rules import format_code, format_hint, parse_code, resolve_game
from treegen.tree import load_tree

TINY = ["mm:3:3", "bc:3:4", "mm:2:5"]


def naive_hint(game, g: int, s: int) -> int:
    a, b = game.codes[g], game.codes[s]
    bulls = sum(x == y for x, y in zip(a, b))
    common = sum(min(a.count(x), b.count(x)) for x in set(a))
    return game.hint(bulls, common - bulls)


def brute(game):
    """T*(S) and the value of each move, by the plain recursion of brute.py with the naive scorer above."""
    return optimum(range(game.size), lambda g, s: naive_hint(game, g, s), game.win_hint)


def random_game(game, rng, moves: int):
    secret = rng.randrange(game.size)
    history, alive = [], set(range(game.size))
    for _ in range(moves):
        g = rng.randrange(game.size)
        h = naive_hint(game, g, secret)
        history.append((g, h))
        alive = {x for x in alive if naive_hint(game, g, x) == h}
        if h == game.win_hint:
            break
    return history


@pytest.fixture(scope="module")
def tiny_trees():
    return {name: solve_game(name) for name in TINY}


@pytest.mark.parametrize("name", TINY)
@pytest.mark.parametrize("with_tree", [False, True])
def test_values_match_brute_force(name, with_tree, tiny_trees):
    game = resolve_game(name)
    best, move = brute(game)
    analyzer = Analyzer(game, tiny_trees[name] if with_tree else None)
    rng = random.Random(hash(name) & 0xFFFF)
    for _ in range(25):
        history = random_game(game, rng, rng.randrange(1, 6))
        a = analyzer.analyze(history)
        alive = frozenset(range(game.size))
        for m, (g, h) in zip(a.moves, history):
            after = frozenset(x for x in alive if naive_hint(game, g, x) == h)
            assert (m.before, m.after) == (len(alive), len(after))
            assert m.best.exact and m.best.lower == best(alive)
            want = move(alive, g)
            want = want if want is not None else len(alive) + best(alive)  # a guess that splits nothing
            assert m.value.exact and m.value.lower == want, (history, m)
            assert m.loss == (Fraction(want - best(alive), len(alive)),) * 2
            assert m.best_guess is not None and move(alive, m.best_guess) == best(alive)
            then = 1 if h == game.win_hint else 1 + Fraction(best(after), len(after))
            assert m.luck == Fraction(want, len(alive)) - then
            alive = after
        if a.won:
            # the guesses used, as the start's value plus the loss minus the luck (a telescoping sum)
            assert a.start.expected + a.loss[0] - a.luck == len(a.moves)
            assert a.position is None
        else:
            assert a.position.lower == best(alive) and move(alive, a.advice) in (best(alive), None) or len(alive) == 1


@pytest.mark.parametrize("name", ["bulls-cows", "mastermind"])
def test_the_trees_own_moves_lose_nothing_under_any_relabelling(name):
    """A game that follows the shipped least-total tree, relabelled by a random permutation of positions
    and symbols, is found in the tree at every move: loss exactly 0, values from the tree."""
    tree = load_tree(f"trees/{name}-optimal-average.json")
    game = tree.game
    analyzer = Analyzer(game, tree)
    rng = random.Random(5)
    for _ in range(6):
        perm = list(range(game.positions))
        rng.shuffle(perm)
        sym = list(range(game.symbols))
        rng.shuffle(sym)

        def relabel(code: int) -> int:
            c = game.codes[code]
            out = [0] * game.positions
            for p in range(game.positions):
                out[perm[p]] = sym[c[p]]
            return game.code_index[tuple(out)]

        secret = rng.randrange(game.size)
        node, history = tree.root, []
        while True:
            g = parse_code(game, node.guess)
            h = naive_hint(game, g, secret)
            history.append((relabel(g), h))  # the same hint: relabelling both codes keeps it
            if h == game.win_hint:
                break
            node = node.child(format_hint(game, h))
        a = analyzer.analyze(history)
        assert all(m.loss == (0, 0) for m in a.moves) and a.optimal == len(a.moves)
        assert all(m.value.source == "tree" and m.best.source == "tree" for m in a.moves)
        assert a.start.lower == tree.stats.total
        # the best guess offered is the tree's, brought back into the player's labels: as good as the move
        alive = np.arange(game.size, dtype=np.int32)
        for k, (m, (g, h)) in enumerate(zip(a.moves, history)):
            assert analyzer.move_value(alive, history[:k], m.best_guess, float("inf")).lower == m.best.lower
            alive = alive[[naive_hint(game, g, int(x)) == h for x in alive]]
        assert a.moves[-1].best_guess == history[-1][0]  # the last: the secret itself


def test_relabelled_opening_finds_the_tree():
    """Opening bulls-cows with 9876 instead of 0123 keeps the tree's values (every opening is alike)."""
    tree = load_tree("trees/bulls-cows-optimal-average.json")
    game = tree.game
    index = TreeIndex(tree)
    g = parse_code(game, "9876")
    found = index.locate([(g, game.hint(0, 2))])
    assert found is not None
    node, maps = found
    assert index.total[node] == index.total[index.children[0][game.hint(0, 2)]]


def test_a_tree_that_is_not_least_total_is_refused():
    with pytest.raises(AnalysisError, match="not a proved least-total tree"):
        TreeIndex(load_tree("trees/bulls-cows-optimal-worst.json"))


def test_out_of_time_gives_labelled_bounds():
    game = resolve_game("mm:4:7")
    a = Analyzer(game, None).analyze([(parse_code(game, "1234"), game.hint(1, 0))], budget=0.001)
    m = a.moves[0]
    assert not m.best.exact and m.best.source == "bound" and m.best.upper is None
    assert m.luck is None and m.loss[1] is None
    obj = analysis_to_obj(a)
    assert obj["moves"][0]["best"]["exact"] is False and obj["moves"][0]["loss"]["exact"] is False


def test_inconsistent_history_is_refused():
    game = resolve_game("mastermind")
    with pytest.raises(AnalysisError, match="no secret of mastermind gives every hint"):
        Analyzer(game, None).analyze([(0, game.hint(0, 0)), (1, game.hint(2, 0))])  # no 1, so 1112 scores one black at most


# -- the command ------------------------------------------------------------------------------------


def test_cli_json_agrees_with_brute_force():
    game = resolve_game("mm:3:3")
    best, move = brute(game)
    history = random_game(game, random.Random(3), 4)
    argv = [f"{format_code(game, g)}={format_hint(game, h)}" for g, h in history]
    proc = subprocess.run([TREEGEN, "analyze", "--game", "mm:3:3", "--json", *argv], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    alive = frozenset(range(game.size))
    for m, (g, h) in zip(obj["moves"], history):
        want = move(alive, g) or len(alive) + best(alive)
        assert m["value"]["total"] == want and m["best"]["total"] == best(alive)
        assert Fraction(m["loss"]["fraction"]) == Fraction(want - best(alive), len(alive))
        assert m["optimal"] == (want == best(alive))
        alive = frozenset(x for x in alive if naive_hint(game, g, x) == h)


def test_cli_table_on_the_shipped_tree():
    proc = subprocess.run([TREEGEN, "analyze", "9876=0A2B", "0123=0A1B", "4567=2A1B", "4617=4A0B"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[2].split()[:6] == ["1", "9876", "0A2B", "5,040", "→", "1,260"]
    assert lines[2].split()[6:9] == ["5.2131", "5.2131", "0123"]  # 26274/5040, from the tree, relabelled
    assert "of your 4 moves" in lines[-1] and "4 guesses = 5.2131 expected at the start" in lines[-1]


@pytest.mark.parametrize("argv, words", [
    (["0123=1A2B", "4567=9A9B"], "9A9B"),
    (["0123=4A0B", "4567=0A0B"], "move 2 comes after the secret was found with 0123"),
    (["0123=0A0B", "4567=0A0B", "8901=0A0B"], "no secret of bulls-cows gives every hint"),
    (["0123"], "is not GUESS=HINT"),
    (["--game", "bc:5:10", "01234=1A0B"], "the coach analyses games of at most"),
    (["--tree", "trees/bulls-cows-optimal-worst.json", "0123=1A0B"], "not a proved least-total tree"),
    (["--tree", "trees/mastermind-optimal-average.json", "0123=1A0B"], "is a tree for mastermind"),
])
def test_cli_bad_input_is_one_line(argv, words):
    proc = subprocess.run([TREEGEN, "analyze", *argv], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "", (argv, proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr


@pytest.mark.parametrize("name", TINY)
def test_openings_match_brute_force(name):
    game = resolve_game(name)
    best, move = brute(game)
    rows = Analyzer(game, None).openings()
    everything = frozenset(range(game.size))
    assert sum(size for _, size, _ in rows) == game.size  # the classes cover every code once
    for code, _, value in rows:
        assert value.exact and value.lower == (move(everything, code) or game.size + best(everything))
    assert rows[0][2].lower == best(everything)
    assert [v.lower for _, _, v in rows] == sorted(v.lower for _, _, v in rows)


def test_shipped_openings_table():
    """trees/openings.json: each game's best opening is its least-total tree's total, and mastermind's rows
    are what the analyzer computes now."""
    table = json.loads(open("trees/openings.json").read())
    assert table["format"] == "treegen-openings"
    for name, entry in table["games"].items():
        tree = load_tree(f"trees/{entry['tree']}")
        assert entry["openings"][0]["total"] == tree.stats.total, name
        assert sum(o["codes"] for o in entry["openings"]) == resolve_game(name).size
    game = resolve_game("mastermind")
    rows = Analyzer(game, load_tree("trees/mastermind-optimal-average.json")).openings()
    assert [(format_code(game, c), n, v.lower) for c, n, v in rows] == \
        [(o["guess"], o["codes"], o["total"]) for o in table["games"]["mastermind"]["openings"]]
