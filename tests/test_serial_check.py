"""scripts/serial_check.py: the plain recursive solver agrees with shipped least totals (capped ones within
their cap), and says so when a file claims another."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "serial_check.py"
SHIPPED = ROOT / "trees" / "mastermind-optimal-average.json"


def check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True)


def test_agrees_with_the_shipped_mastermind_optimum():
    res = check(SHIPPED)
    assert res.returncode == 0, res.stderr
    assert "serial solver proves 5625" in res.stdout and "its tree totals 5625" in res.stdout
    assert res.stdout.splitlines()[-1] == "agree"


def test_a_file_claiming_another_optimum_differs(tmp_path):
    data = json.loads(SHIPPED.read_text())
    data["provenance"]["optimal_total"] = data["provenance"]["lower_bound"] = 5624
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps(data))
    res = check(claim)
    assert res.returncode == 1, (res.stdout, res.stderr)
    assert res.stdout.splitlines()[-1] == "DIFFER"


def test_capped_trees_are_checked_within_their_cap():
    for name in ("mastermind-optimal-average-max5.json", "mastermind-optimal-worst.json"):
        res = check(ROOT / "trees" / name)
        assert res.returncode == 0, res.stderr
        assert "serial solver proves 5626 within 5 guesses" in res.stdout, res.stdout


def test_a_crush_tree_is_refused():
    res = check(ROOT / "trees" / "mastermind-optimal-crush.json")
    assert res.returncode == 2 and "not a least-total tree" in res.stderr


def test_a_missing_file_is_one_line(tmp_path):
    res = check(tmp_path / "none.json")
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1 and "Traceback" not in res.stderr


def refute(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(path), "--refute", *args], capture_output=True, text=True)


def named(res: subprocess.CompletedProcess) -> list[str]:
    """The first guesses a --refute run names, searched or refuted by bounds."""
    return [line.split(":")[0].strip() for line in res.stdout.splitlines() if line.startswith("  first guess ")]


def test_refute_proves_the_shipped_lower_bound_in_parts():
    whole = refute(SHIPPED)
    assert whole.returncode == 0, whole.stderr
    assert whole.stdout.splitlines()[-1] == "agree"
    assert "refuted, at least" in whole.stdout
    owned = re.search(r"of the (\d+) first guesses bounded below beta 5625, order (\w+), this part owns (\d+)",
                      whole.stdout)
    assert owned and owned[1] == owned[3], whole.stdout
    # The whole run names every first guess below beta once.
    assert len(named(whole)) == len(set(named(whole))) == int(owned[1])
    parts = [refute(SHIPPED, "--part", f"{i}/2") for i in (1, 2)]
    assert all(p.returncode == 0 and p.stdout.splitlines()[-1] == "agree" for p in parts), parts
    # The parts deal out the same order, and between them name every first guess once.
    assert all(f"order {owned[2]}," in p.stdout for p in parts)
    dealt = named(parts[0]) + named(parts[1])
    assert sorted(dealt) == sorted(named(whole))
    assert named(parts[0]) and named(parts[1])


def test_refute_finds_a_cheaper_first_guess(tmp_path):
    # The least total within 5 guesses (5626) is one more than the least with no cap (5625): with the cap
    # left out of the file, its tree still verifies, and refuting at 5626 finds a first guess costing 5625.
    data = json.loads((ROOT / "trees" / "mastermind-optimal-average-max5.json").read_text())
    del data["provenance"]["max_guesses"]
    claim = tmp_path / "uncapped.json"
    claim.write_text(json.dumps(data))
    res = refute(claim)
    assert res.returncode == 1, (res.stdout, res.stderr)
    assert "COSTS 5625" in res.stdout and res.stdout.splitlines()[-1] == "DIFFER"


def test_refute_with_a_fresh_memo_per_class_proves_and_refutes_the_same(tmp_path):
    # Each class searched with an empty memo (less memory): the same first guesses named, the same verdicts.
    whole, fresh = refute(SHIPPED), refute(SHIPPED, "--fresh-memo")
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.splitlines()[-1] == "agree"
    assert sorted(named(fresh)) == sorted(named(whole))
    data = json.loads((ROOT / "trees" / "mastermind-optimal-average-max5.json").read_text())
    del data["provenance"]["max_guesses"]
    claim = tmp_path / "uncapped.json"
    claim.write_text(json.dumps(data))
    res = refute(claim, "--fresh-memo")
    assert res.returncode == 1 and "COSTS 5625" in res.stdout and res.stdout.splitlines()[-1] == "DIFFER"


def test_refute_part_must_be_one_of_k():
    res = refute(SHIPPED, "--part", "3/2")
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1 and "--part" in res.stderr


def test_refute_needs_a_claimed_total_and_part_needs_refute(tmp_path):
    data = json.loads(SHIPPED.read_text())
    del data["provenance"]["optimal_total"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data))
    res = refute(bare)
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1 and "optimal_total" in res.stderr
    for extra in (["--part", "1/2"], ["--fresh-memo"]):
        res = subprocess.run([sys.executable, str(SCRIPT), str(SHIPPED), *extra], capture_output=True, text=True)
        assert res.returncode == 2 and len(res.stderr.splitlines()) == 1 and "--refute" in res.stderr


def test_refute_names_the_guesses_bounds_refute_between_and_after_searched_ones(monkeypatch, capsys):
    # A stand-in solver whose next_open opens places 1 and 4 of 7: every other place, before, between or
    # after them, was refuted by bounds, and each part must name exactly its own (places I, I+K, ...).
    import importlib.util
    from types import SimpleNamespace

    import numpy as np

    from treegen.rules import format_code, resolve_game

    spec = importlib.util.spec_from_file_location("serial_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = resolve_game("mastermind")
    beta, opened = 100, (1, 4)

    class Stub:
        counts = SimpleNamespace(nodes=0)

        def full_depth(self):
            return 5

        def scan(self, secrets, beta, history, depth):
            return SimpleNamespace(guesses=np.arange(10, 17, dtype=np.int32))

        def next_open(self, scan, start, beta):
            i = next((i for i in opened if i >= start), None)
            return None if i is None else SimpleNamespace(
                index=i, guess=int(scan.guesses[i]), total=90, classes=lambda: [(0, np.arange(3), 5)])

        def solve(self, cls, budget, history, depth):
            return budget  # the class takes the whole budget: the guess reaches beta exactly

    tree = SimpleNamespace(game=game, provenance={"optimal_total": beta, "objective": "average"})
    monkeypatch.setattr(module, "verify_tree", lambda t: SimpleNamespace(total=beta, max_guesses=5))
    for part, searched, bounded in ((1, [4], [0, 2, 6]), (2, [1], [3, 5])):
        assert module.refute(tree, Stub(), np.arange(3), part, 2) == 0
        out = capsys.readouterr().out
        names = {line.split(":")[0].split()[-1]: line.split(": ")[1] for line in out.splitlines()
                 if line.startswith("  first guess ")}
        want = {format_code(game, 10 + i): "refuted, at least 100" for i in searched}
        want.update({format_code(game, 10 + i): "refuted by bounds" for i in bounded})
        assert names == want, out
        assert out.splitlines()[-1] == "agree"
