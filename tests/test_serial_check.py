"""scripts/serial_check.py: the plain recursive solver agrees with shipped least totals (capped ones within
their cap), and says so when a file claims another."""

from __future__ import annotations

import json
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
