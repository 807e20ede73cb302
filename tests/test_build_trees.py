"""scripts/build_trees.py: a slow build's time survives a build killed outright (no ``finally`` runs), and the
trees' table is the same on a checkout without the unshipped certificates."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "build_trees.py"


def _load():
    spec = importlib.util.spec_from_file_location("build_trees", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seconds_so_far_count_a_finished_run_on_top_of_earlier_runs(tmp_path):
    spent = tmp_path / "seconds-so-far"
    _load()._run_counting([sys.executable, "-c", "import time; time.sleep(0.6)"], str(spent), 100.0,
                          time.perf_counter(), every=0.1)
    assert 100.6 <= float(spent.read_text()) < 130


def test_seconds_so_far_survive_a_build_killed_outright(tmp_path):
    spent = tmp_path / "seconds-so-far"
    # The builder runs in its own process group, killed with SIGKILL mid-solve: only the periodic
    # records can have counted its time.
    builder = (f"import sys, time; sys.path.insert(0, {str(_SCRIPT.parent)!r}); import build_trees; "
               f"build_trees._run_counting([sys.executable, '-c', 'import time; time.sleep(30)'], {str(spent)!r}, 5.0, "
               f"time.perf_counter(), every=0.1)")
    proc = subprocess.Popen([sys.executable, "-c", builder], start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (spent.exists() and float(spent.read_text() or 0) >= 6.0):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert float(spent.read_text()) >= 6.0  # more than the 5 s spent before it: the killed run counted


def test_a_failing_solve_raises_and_still_records(tmp_path):
    spent = tmp_path / "seconds-so-far"
    with pytest.raises(subprocess.CalledProcessError):
        _load()._run_counting([sys.executable, "-c", "raise SystemExit(3)"], str(spent), 1.0, time.perf_counter())
    assert float(spent.read_text()) >= 1.0


def test_the_table_of_trees_is_regenerated_without_the_unshipped_certificates():
    """A fresh checkout lacks the certificates too large to ship; the table still says what they hold, from
    the record a build writes, so `--table` there gives trees/README.md as committed."""
    module = _load()
    missing = [c for c in module.UNSHIPPED if not os.path.exists(os.path.join(module.TREES_DIR, c))]
    assert set(orjson.loads(Path(module.UNSHIPPED_RECORD).read_bytes())) == module.UNSHIPPED
    table = module.readme_table()
    assert table == (Path(module.TREES_DIR) / "README.md").read_text()
    for cert in missing:
        claims, _ = orjson.loads(Path(module.UNSHIPPED_RECORD).read_bytes())[cert]
        assert f"yes, not shipped ({claims:,} claims" in table


def test_a_tree_of_in_parts_is_solved_then_certified_in_parts_and_verified(tmp_path, monkeypatch):
    """The route of the trees too big for the one-process certifying search, taken by mastermind for speed:
    the solve through its checkpoint, then `treegen certify --split` through a parts folder beside it, then
    `treegen verify --certificate`; the certificate proves the tree's total, and the scratch folder goes."""
    from treegen.certificate import certificate_from_bytes, check_certificate

    module = _load()
    name = "mastermind-optimal-average.json"
    monkeypatch.setattr(module, "IN_PARTS", {name: 200})
    monkeypatch.setattr(module, "CERTIFIED", module.CERTIFIED - {name})
    monkeypatch.setattr(module.tempfile, "gettempdir", lambda: str(tmp_path / "scratch"))
    out = tmp_path / "trees"
    out.mkdir()
    seconds, checked = module.build(name, ["solve", "--game", "mastermind"], str(out), slow=True)
    assert seconds > 0 and checked is not None
    cert = out / module.certificate_name(name)
    proof = check_certificate(certificate_from_bytes(cert.read_bytes()))
    assert proof.least_cost == orjson.loads((out / name).read_bytes())["stats"]["total"] == 5625
    assert not (tmp_path / "scratch" / "treegen-build-checkpoints" / name).exists()
