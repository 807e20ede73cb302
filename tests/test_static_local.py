"""scripts/static_local.py: the sets it prints separate every secret (checked with the naive scorer), it
reaches the least size of small games whose static number the brute force in test_static knows, and bad
arguments get one line and exit 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_static import naive_separates, naive_static_number
from treegen.rules import parse_code, resolve_game

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "static_local.py"


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


def test_a_size_below_the_static_number_is_not_found():
    res = run("--game", "mm:2:4", "--size", "2", "--time-limit", "1")  # static(mm:2:4) is 3
    assert res.returncode == 1 and "no static set of 2 found within 1 s" in res.stdout


@pytest.mark.parametrize("args, says", [(["--game", "nope", "--size", "3"], "nope"),
                                        (["--game", "mm:2:4", "--size", "0"], "at least 1")])
def test_bad_arguments_get_one_line(args, says):
    res = run(*args)
    assert res.returncode == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1
