"""scripts/static_local.py: the sets it prints separate every secret (checked with the naive scorer), it
reaches the least size of small games whose static number the brute force in test_static knows, and bad
arguments get one line and exit 2."""

from __future__ import annotations

import importlib.util
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_static import naive_separates, naive_static_number
from treegen.feedback import feedback_table
from treegen.rules import parse_code, resolve_game
from treegen.rules import score_symbols as score

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "static_local.py"


def load_script():
    spec = importlib.util.spec_from_file_location("static_local", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


@pytest.mark.parametrize("name", ["mm:2:4", "mm:3:3", "bc:3:4"])
def test_finds_a_least_static_set_of_a_small_game(name):
    game = resolve_game(name)
    least = naive_static_number(game)
    res = run("--game", name, "--size", str(least + 1), "--seed", "3", "--time-limit", "2")
    assert res.returncode == 0, res.stderr
    found = [line.split(": found ")[1].split() for line in res.stdout.splitlines() if ": found " in line]
    assert found and len(found[0]) == least + 1
    for codes in found:  # every set it reports separates, and none is below the static number
        assert len(codes) >= least and naive_separates(game, [parse_code(game, c) for c in codes])
    assert len(found[-1]) == least
    assert re.search(rf"smallest found: {least} guesses", res.stdout)
    assert f"treegen static --game {name} --guesses '{' '.join(found[-1])}'" in res.stdout


@pytest.mark.parametrize("name", ["mm:2:4", "mm:3:3", "bc:3:4"])
def test_tabu_finds_a_least_static_set_of_a_small_game(name):
    game = resolve_game(name)
    least = naive_static_number(game)
    res = run("--game", name, "--size", str(least + 1), "--seed", "3", "--time-limit", "2", "--tabu")
    assert res.returncode == 0, res.stderr
    found = [line.split(": found ")[1].split() for line in res.stdout.splitlines() if ": found " in line]
    assert [len(codes) for codes in found] == [least + 1, least]
    assert all(naive_separates(game, [parse_code(game, c) for c in codes]) for codes in found)


@pytest.mark.parametrize("name", ["mm:2:4", "bc:3:4", "mm:3:3"])
def test_tabu_scores_every_code_by_its_unseparated_pairs(name):
    """unseparated_pairs_by_code against pairs of secrets counted one pair at a time by the naive scorer,
    for every code added to each base of one code and to the empty base."""
    game = resolve_game(name)
    module = load_script()
    table = feedback_table(game)
    hints = int(table.max()) + 1
    for base in [[]] + [[c] for c in range(game.size)]:
        got = module.unseparated_pairs_by_code(table, module.hint_labels(table, base), hints)
        for code in range(game.size):
            vectors = [tuple(score(game, game.codes[g], s) for g in [*base, code]) for s in game.codes]
            pairs = sum(a == b for a, b in itertools.combinations(vectors, 2))
            assert got[code] == pairs, (base, code)


def test_a_size_below_the_static_number_is_not_found():
    res = run("--game", "mm:2:4", "--size", "2", "--time-limit", "1")  # static(mm:2:4) is 3
    assert res.returncode == 1 and "no static set of 2 found within 1 s" in res.stdout


@pytest.mark.parametrize("args, says", [(["--game", "nope", "--size", "3"], "nope"),
                                        (["--game", "mm:2:4", "--size", "0"], "at least 1")])
def test_bad_arguments_get_one_line(args, says):
    res = run(*args)
    assert res.returncode == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["mm:2:4", "bc:3:4", "mm:3:3"])
def test_complete_two_agrees_with_brute_force_on_every_base(name):
    """For every base of one code (and the empty base), complete_two finds two codes exactly when some
    two codes, tried all by the naive scorer, make the base a static set, and what it finds is one."""
    game = resolve_game(name)
    table = feedback_table(game)
    complete_two = load_script().complete_two
    for base in [[]] + [[c] for c in range(game.size)]:
        exists = any(naive_separates(game, base + list(pair))
                     for pair in itertools.combinations(range(game.size), 2))
        got = complete_two(table, base)
        assert (got is not None) == exists, (base, got)
        if got is not None:
            assert len(set(base + list(got))) == len(base) + 2 and naive_separates(game, base + list(got))


def test_complete_keeps_the_walk_finding_static_sets():
    """With --complete at every step, the walk on bc:3:6 (static number 4) still ends in static sets, and
    says how many bases of k - 2 codes it completed in vain (for size 3, each one code: none completes)."""
    res = run("--game", "bc:3:6", "--size", "4", "--seed", "1", "--time-limit", "4", "--complete", "1000")
    assert res.returncode == 0, res.stderr
    assert "sets of k - 2 codes completed exhaustively without success" in res.stdout
    found = [line.split(": found ")[1].split() for line in res.stdout.splitlines() if ": found " in line]
    game = resolve_game("bc:3:6")
    assert found and all(naive_separates(game, [parse_code(game, c) for c in codes]) for codes in found)
