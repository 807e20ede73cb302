"""scripts/profile_set.py: the set it profiles is the path's, and --guesses counts what the set's node did.

The set is checked against a filter of the game's codes written here from the rules (bulls and cows by
counting), and the value against a brute-force optimum; the guesses --guesses reports are the ones the
node searched, of which exactly the non-best are refuted, and its R is a positive ratio of two times.
"""

import importlib.util
import itertools
import re
import sys
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "profile_set.py"


@pytest.fixture(scope="module")
def ps():
    spec = importlib.util.spec_from_file_location("profile_set", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["profile_set"] = module
    spec.loader.exec_module(module)
    return module


def bulls_cows(a, b):
    bulls = sum(x == y for x, y in zip(a, b))
    return bulls, len(set(a) & set(b)) - bulls


def brute(secrets, codes):
    """Least total guesses to find any of ``secrets`` (tuples), any code a guess: plain recursion."""
    from functools import cache

    @cache
    def best(alive):
        if len(alive) == 1:
            return 1
        out = None
        for g in codes:
            parts = {}
            for s in alive:
                parts.setdefault(bulls_cows(g, s), []).append(s)
            if len(parts) == 1 and g not in alive:
                continue
            cost = len(alive) + sum(best(tuple(p)) for h, p in parts.items() if h != (len(g), 0))
            out = cost if out is None else min(out, cost)
        return out

    return best(tuple(secrets))


def test_guesses_reports_the_nodes_searches(ps, capsys):
    codes = list(itertools.permutations(range(6), 3))  # bc:3:6
    path = [((0, 1, 2), (0, 1))]  # 012 answered 0A1B
    secrets = [c for c in codes if all(bulls_cows(g, c) == h for g, h in path)]
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--top", "3", "--guesses"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(secrets)} secrets")
    value = int(re.search(r"^value (\d+)", out, re.MULTILINE).group(1))
    assert value == brute(secrets, codes)
    m = re.search(r"searched the classes of ([\d,]+) guesses \(of ([\d,]+) it tries\); ([\d,]+) were refuted;"
                  r" .* \(value (\d+)\)", out)
    assert m, out
    searched, tried, refuted, again = (int(x.replace(",", "")) for x in m.groups())
    assert again == value and 1 <= searched <= tried and refuted < searched
    best = re.search(r"its best guess \d+ \((\d+)\) was number ([\d,]+) of them", out)
    assert best and int(best.group(1)) == value and int(best.group(2).replace(",", "")) <= searched
    r = re.search(r"^R = [\d.]+ s / [\d.]+ s = ([\d.]+)", out, re.MULTILINE)
    assert (r and float(r.group(1)) > 0) or "took no measurable time" in out
    # Under a beta: the value when it is below, a bound of at least beta when it is not.
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--top", "1", "--beta", str(value + 1)]) == 0
    assert re.search(rf"^value {value},", capsys.readouterr().out, re.MULTILINE)
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--top", "1", "--beta", str(value)]) == 0
    bound = int(re.search(r"^at least \d+: bound (\d+),", capsys.readouterr().out, re.MULTILINE).group(1))
    assert bound >= value
    # Bad input: one line on stderr, exit 2.
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--beta", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert ps.main(["--game", "bc:3:6", "--path", "012"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GUESS:HINT" in err


def test_gaps_sum_each_bounds_shortfall(ps, capsys):
    """--gaps: for refuted guesses, one-step <= two-step <= exact cost, each exact cost at least the set's
    value (the guess was refuted), and the shortfall by class size adds up to the guesses' own."""
    assert ps.main(["--game", "bc:4:7", "--path", "0123:0A2B", "--top", "1", "--guesses", "--gaps", "3"]) == 0
    out = capsys.readouterr().out
    value = int(re.search(r"^value (\d+)", out, re.MULTILINE).group(1))
    rows = re.findall(r"^  \d+: raised \d+, one step (\d+), two steps (\d+), exact (\d+)$", out, re.MULTILINE)
    assert len(rows) == 3
    for one, two, exact in ((int(a), int(b), int(c)) for a, b, c in rows):
        assert one <= two <= exact and exact >= value
    buckets = re.search(r"^the two-step bound's shortfall by class size: (.*)$", out, re.MULTILINE).group(1)
    summed = sum(int(x) for x in re.findall(r": (\d+) over \d+ classes", buckets))
    assert summed == sum(int(c) - int(b) for _, b, c in rows)
    # None refuted (bc:3:6's 012 0A1B: its first guess is the best): said, not divided by zero.
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--top", "1", "--guesses", "--gaps", "2"]) == 0
    assert "no guess was refuted" in capsys.readouterr().out
    assert ps.main(["--game", "bc:3:6", "--path", "012:0A1B", "--gaps", "2"]) == 2
    assert "--guesses" in capsys.readouterr().err
