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
    res = subprocess.run([sys.executable, str(SCRIPT), str(SHIPPED), "--part", "1/2"], capture_output=True, text=True)
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1 and "--refute" in res.stderr
