"""treegen.compare and ``treegen compare``, against a reference that plays every secret through both trees.

Two trees part where, for some secret, the guesses they play first differ; every secret that parts at the
same history shares that position. The reference finds each position, its secrets and both trees'
guesses from there with ``play.moves_for`` alone.
"""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from clitools import TREEGEN

from treegen.compare import compare_trees
from treegen.play import moves_for
from treegen.rules import format_code
from treegen.tree import load_tree

TREES = Path(__file__).resolve().parent.parent / "trees"
PAIRS = [("bulls-cows-optimal-average.json", "bulls-cows-optimal-crush.json"),
         ("mastermind-optimal-average.json", "mastermind-optimal-worst.json"),
         ("mastermind-optimal-average.json", "mastermind-optimal-average-hard.json")]


def reference(a, b):
    """{history: (secrets, total from there in a, in b, most in a, in b, guess of a, guess of b)}."""
    parts = defaultdict(lambda: [0, 0, 0, 0, 0, None, None])
    for code in range(a.game.size):
        secret = format_code(a.game, code)
        pa, pb = moves_for(a, secret), moves_for(b, secret)
        k = next((i for i, (x, y) in enumerate(zip(pa, pb)) if x[0] != y[0]), None)
        if k is None:
            assert pa == pb
            continue
        path = tuple(s for step in pa[:k] for s in step)
        p = parts[path]
        p[0] += 1
        p[1] += len(pa) - k
        p[2] += len(pb) - k
        p[3] = max(p[3], len(pa) - k)
        p[4] = max(p[4], len(pb) - k)
        p[5], p[6] = pa[k][0], pb[k][0]
    return {k: tuple(v) for k, v in parts.items()}


@pytest.mark.parametrize("first, second", PAIRS)
def test_differences_match_every_secret_played(first, second):
    a, b = load_tree(TREES / first), load_tree(TREES / second)
    c = compare_trees(a, b)
    got = {d.path: (d.subtrees[0].secrets, d.subtrees[0].total, d.subtrees[1].total, d.subtrees[0].most,
                    d.subtrees[1].most, *d.guesses) for d in c.differences}
    assert got == reference(a, b)
    assert c.stats == (a.stats, b.stats)
    keys = [(d.depth, -d.subtrees[0].secrets) for d in c.differences]
    assert keys == sorted(keys)  # shallowest first, then larger sets


def test_a_tree_against_itself():
    a = load_tree(TREES / "mastermind-optimal-average.json")
    c = compare_trees(a, a)
    assert c.differences == () and c.positions == a.root.nodes()


def test_cli_text_and_json():
    first, second = (str(TREES / n) for n in PAIRS[0])
    proc = subprocess.run([TREEGEN, "compare", first, second], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "26,274" in proc.stdout and "26,450" in proc.stdout
    assert "guess 2 after 0123 0A1B (1,440 secrets): A plays 1456" in proc.stdout
    proc = subprocess.run([TREEGEN, "compare", first, second, "--json", "--limit", "0"], capture_output=True,
                          text=True, timeout=120)
    obj = json.loads(proc.stdout)
    assert [t["total"] for t in obj["trees"]] == [26274, 26450]
    assert len(obj["differences"]) == obj["differences_found"] == len(reference(load_tree(first), load_tree(second)))


def test_cli_refuses_trees_of_two_games():
    proc = subprocess.run([TREEGEN, "compare", str(TREES / PAIRS[0][0]), str(TREES / PAIRS[1][0])],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "different games: bulls-cows and mastermind" in proc.stderr
