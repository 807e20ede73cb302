"""Checkpoint folders: a damaged, tampered or foreign entry is reported and recomputed, never trusted;
a folder of another search is refused. The reference is always a clean search without checkpoints."""

from __future__ import annotations

import json
import os

import pytest
from clitools import run_main

from treegen import checkpoint, coordinator
from treegen.checkpoint import CheckpointError, CheckpointStore
from treegen.rules import resolve_game
from treegen.search import Options
from treegen.tree import tree_to_bytes

GAME = "bc:3:5"  # 60 secrets, a few dozen checkpoint entries, well under a second


@pytest.fixture(scope="module")
def clean() -> bytes:
    return tree_to_bytes(coordinator.solve_game(resolve_game(GAME)))


def _entries(folder) -> list:
    return sorted(p for p in folder.glob("*.json") if p.name != checkpoint.MANIFEST)


def _solve(folder, warnings=None) -> bytes:
    warn = warnings.append if warnings is not None else None
    return tree_to_bytes(coordinator.solve_game(resolve_game(GAME), checkpoint=str(folder), warn=warn))


@pytest.fixture
def filled(tmp_path, clean):
    folder = tmp_path / "ckpt"
    assert _solve(folder) == clean
    assert _entries(folder)
    return folder


def _exact_entries(folder) -> list:
    out = []
    for p in _entries(folder):
        d = json.loads(p.read_bytes())
        if d["outcome"]["exact"] and d["outcome"]["value"] > 3:
            out.append((p, d))
    assert out
    return out


def _rewrite(path, entry, fix_checksum: bool) -> None:
    if fix_checksum:
        entry["sha256"] = checkpoint._digest({k: entry[k] for k in ("key", "task", "outcome")})
    path.write_text(json.dumps(entry))


@pytest.mark.parametrize("fix_checksum", [False, True], ids=["checksum-stale", "checksum-recomputed"])
def test_a_changed_value_is_recomputed(filled, clean, fix_checksum):
    """The defect of the issue: a stored value changed (lower, so that a trusting search would prove a
    false optimum). With the checksum left stale it fails the checksum; with the checksum recomputed
    too it fails the check that an exact value is the cost of its own tree."""
    path, entry = _exact_entries(filled)[0]
    true_outcome = dict(entry["outcome"])
    entry["outcome"]["value"] -= 1
    _rewrite(path, entry, fix_checksum)
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert len(warnings) == 1 and str(path) in warnings[0] and "recomputing" in warnings[0]
    assert ("checksum mismatch" if not fix_checksum else "but its tree costs") in warnings[0]
    assert json.loads(path.read_bytes())["outcome"] == true_outcome  # recomputed and rewritten
    assert _solve(filled, warnings := []) == clean and warnings == []  # and trusted again


@pytest.mark.parametrize("fix_checksum", [False, True], ids=["checksum-stale", "checksum-recomputed"])
def test_a_changed_tree_is_recomputed(filled, clean, fix_checksum):
    path, entry = _exact_entries(filled)[0]
    entry["outcome"]["tree"][0] = (entry["outcome"]["tree"][0] + 1) % 60  # another first guess
    _rewrite(path, entry, fix_checksum)
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert len(warnings) == 1
    assert ("checksum mismatch" if not fix_checksum else "does not solve the subproblem") in warnings[0]


def test_an_entry_of_another_version_is_recomputed(filled, clean):
    path, entry = _exact_entries(filled)[0]
    entry["key"]["treegen"] = "0.0.1"
    _rewrite(path, entry, True)
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert len(warnings) == 1 and "made by another search" in warnings[0] and "treegen 0.0.1" in warnings[0]


@pytest.mark.parametrize("damage", ["truncated", "wrong types", "not an object", "a folder"])
def test_damaged_entries_are_recomputed(filled, clean, damage):
    paths = _entries(filled)[:3]
    for p in paths:
        if damage == "truncated":
            p.write_bytes(p.read_bytes()[:40])
        elif damage == "wrong types":
            d = json.loads(p.read_bytes())
            d["outcome"]["value"] = str(d["outcome"]["value"])
            _rewrite(p, d, True)
        elif damage == "not an object":
            p.write_text("[1, 2, 3]")
        else:
            p.unlink()
            p.mkdir()
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    recomputed = [w for w in warnings if "recomputing" in w]
    assert len(recomputed) == 3, warnings
    if damage == "a folder":
        # it cannot be rewritten either: said once more per entry, and the search goes on
        assert sum("going on without that checkpoint entry" in w for w in warnings) == 3


def test_a_folder_of_another_search_is_refused(filled, tmp_path):
    for game, objective, cap in [("bc:3:6", "average", None), (GAME, "worst", None), (GAME, "average", 4)]:
        with pytest.raises(CheckpointError, match="holds another search.*give a fresh folder"):
            coordinator.solve_game(resolve_game(game), objective, cap, checkpoint=str(filled))
    # A lever the description leaves out is named: bc:3:5 is small, so the folder's search had no memo by orbit.
    with pytest.raises(CheckpointError, match=r"they differ in options\.orbits: False there, True here\)"):
        coordinator.solve_game(resolve_game(GAME), checkpoint=str(filled), options=Options(orbits=True))


def test_a_folder_that_is_not_a_checkpoint_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(CheckpointError, match="not empty and holds no treegen-checkpoint.json"):
        CheckpointStore(str(tmp_path), {"game": GAME}, print)
    assert os.listdir(tmp_path) == ["notes.txt"]  # nothing of the user's is touched


def test_the_command_reports_a_tampered_entry_and_writes_the_true_tree(filled, clean, tmp_path, capsys):
    path, entry = _exact_entries(filled)[0]
    entry["outcome"]["value"] -= 1
    _rewrite(path, entry, True)
    out = tmp_path / "t.json"
    status, stdout, err = run_main(capsys, "solve", "--game", GAME, "--checkpoint", str(filled), "-o", str(out), "-q")
    assert status == 0, err
    assert err.count("\n") == 1 and f"checkpoint entry {path}" in err and "recomputing" in err
    assert out.read_bytes() == clean
    total = json.loads(clean)["stats"]["total"]
    assert f"proved   optimal total {total} (lower bound {total})" in stdout


def test_a_search_bug_is_an_internal_error_and_writes_nothing(monkeypatch, tmp_path, capsys):
    """If the search's proved figure and the tree it builds disagree, nothing is written (exit 3)."""
    real = coordinator.Coordinator.coordinate

    def lying(self, *args):
        outcome = real(self, *args)
        return coordinator.Outcome(outcome.value - 1, outcome.exact, outcome.nodes, outcome.tree)

    monkeypatch.setattr(coordinator.Coordinator, "coordinate", lying)
    out = tmp_path / "t.json"
    status, stdout, err = run_main(capsys, "solve", "--game", GAME, "-o", str(out), "-q")
    assert status == 3, (stdout, err)
    assert "internal error" in err and "proved total" in err and err.count("\n") == 1
    assert not out.exists() and stdout == ""
