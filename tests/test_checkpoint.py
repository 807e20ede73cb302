"""Checkpoint folders: a damaged, tampered or foreign entry is reported and recomputed, never trusted;
a folder of another search is refused. The reference is always a clean search without checkpoints."""

from __future__ import annotations

import ast
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clitools import TREEGEN, run_main

import treegen
from treegen.exact import checkpoint, contracts, coordinator, solve
from treegen.exact.checkpoint import CheckpointError, CheckpointStore
from treegen.exact.options import Options
from treegen.rules import resolve_game
from treegen.tree import tree_to_bytes

GAME = "bc:3:5"  # 60 secrets, a few dozen checkpoint entries, well under a second


@pytest.fixture(scope="module")
def clean() -> bytes:
    return tree_to_bytes(solve.solve_game(resolve_game(GAME)))


def _entries(folder) -> list:
    return sorted(p for p in folder.glob("*.json") if p.name != checkpoint.MANIFEST)


def _solve(folder, warnings=None) -> bytes:
    warn = warnings.append if warnings is not None else None
    return tree_to_bytes(solve.solve_game(resolve_game(GAME), checkpoint=str(folder), warn=warn))


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


@pytest.mark.parametrize("field,value,said", [("treegen", "0.0.1", "treegen 0.0.1"),
                                              ("code", "0123456789ab" + "0" * 52, "code 0123456789ab")])
def test_an_entry_of_another_version_is_recomputed(filled, clean, field, value, said):
    path, entry = _exact_entries(filled)[0]
    entry["key"][field] = value
    _rewrite(path, entry, True)
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert len(warnings) == 1 and "made by another search" in warnings[0] and said in warnings[0]


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
            solve.solve_game(resolve_game(game), objective, cap, checkpoint=str(filled))
    # A lever the description leaves out is named: bc:3:5 is small, so the folder's search had no memo by orbit.
    with pytest.raises(CheckpointError, match=r"they differ in options\.orbits: False there, True here\)"):
        solve.solve_game(resolve_game(GAME), checkpoint=str(filled), options=Options(orbits=True))


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
        return contracts.Outcome(outcome.value - 1, outcome.exact, outcome.nodes, outcome.tree)

    monkeypatch.setattr(coordinator.Coordinator, "coordinate", lying)
    out = tmp_path / "t.json"
    status, stdout, err = run_main(capsys, "solve", "--game", GAME, "-o", str(out), "-q")
    assert status == 3, (stdout, err)
    assert "internal error" in err and "proved total" in err and err.count("\n") == 1
    assert not out.exists() and stdout == ""


# -- entries and manifests that are not regular files of a sane size (issue #40, class 4) -----------------------


def _run_limited(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The treegen command as a process, with a time limit and 1 GB of address space: code that waited on a
    FIFO or read /dev/zero to the end fails here instead of hanging or eating the machine's memory."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run([TREEGEN, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=limit)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero"])
def test_an_entry_that_is_no_regular_file_is_reported_and_replaced(filled, clean, tmp_path, kind):
    """An entry replaced by a FIFO blocked a resumed solve for good; one replaced by a link to /dev/zero
    read until MemoryError. Each is now one line, recomputed, and replaced by a regular entry."""
    path = _entries(filled)[0]
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    out = tmp_path / "t.json"
    try:
        res = _run_limited("solve", "--game", GAME, "--checkpoint", str(filled), "-o", str(out), "-q")
    except subprocess.TimeoutExpired:
        pytest.fail(f"the solve still waits on the {kind} after 60 s")
    assert res.returncode == 0, res.stderr
    what = "a named pipe" if kind == "fifo" else "a device"
    assert res.stderr == (f"treegen: cannot read checkpoint entry {path}: it is {what}, not a regular file; "
                          "recomputing it\n")
    assert out.read_bytes() == clean
    assert path.is_file() and not path.is_symlink()  # replaced by the recomputed entry, which is trusted again
    assert _solve(filled, warnings := []) == clean and warnings == []


def test_an_entry_too_big_is_not_read(filled, clean):
    path = _entries(filled)[0]
    with open(path, "r+b") as f:
        f.truncate(checkpoint.ENTRY_LIMIT + 1)  # sparse: no disk, and no memory unless read
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert warnings == [f"cannot read checkpoint entry {path}: it holds {checkpoint.ENTRY_LIMIT + 1} bytes, more "
                        f"than the {checkpoint.ENTRY_LIMIT // 2**20} MB treegen reads; recomputing it"]
    assert path.stat().st_size < 10_000


def test_an_entry_linked_elsewhere_is_replaced_not_written_through(filled, clean, tmp_path):
    """A symlink where an entry belongs is read like any entry (and here fails as one), but the recomputed
    entry replaces the link: it is never written through it, to a file outside the folder."""
    path = _entries(filled)[0]
    outside = tmp_path / "someone-elses.txt"
    outside.write_text("not treegen's\n")
    path.unlink()
    path.symlink_to(outside)
    warnings: list[str] = []
    assert _solve(filled, warnings) == clean
    assert len(warnings) == 1 and "not valid JSON" in warnings[0]
    assert outside.read_text() == "not treegen's\n"
    assert path.is_file() and not path.is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "too big"])
def test_a_manifest_that_is_no_small_regular_file_is_refused(filled, kind):
    manifest = filled / checkpoint.MANIFEST
    if kind == "too big":
        with open(manifest, "r+b") as f:
            f.truncate(checkpoint.MANIFEST_LIMIT + 1)
        what = f"it holds {checkpoint.MANIFEST_LIMIT + 1} bytes, more than the 1 MB treegen reads"
    else:
        manifest.unlink()
        if kind == "fifo":
            os.mkfifo(manifest)
        else:
            manifest.symlink_to("/dev/zero")
        what = f"it is {'a named pipe' if kind == 'fifo' else 'a device'}, not a regular file"
    before = sorted(os.listdir(filled))
    with pytest.raises(CheckpointError) as caught:
        _solve(filled)
    assert str(caught.value) == f"cannot read checkpoint manifest {manifest}: {what}; give a fresh checkpoint folder"
    assert sorted(os.listdir(filled)) == before


# -- the code that wrote a folder (class 5a) -------------------------------------------------------------------


def _package_copy(tmp_path, change: str | None) -> Path:
    """A copy of the treegen package under test, with ``change`` (a file name) given one more comment line."""
    root = tmp_path / "copy"
    shutil.copytree(Path(treegen.__file__).parent, root / "treegen", ignore=shutil.ignore_patterns("__pycache__"))
    if change is not None:
        with open(root / "treegen" / change, "a") as f:
            f.write("# a change that alters no behaviour, but the code is no longer the code that was\n")
    return root


_SOLVE_THERE = """
import sys
from treegen.exact import solve_game
from treegen.exact.checkpoint import CheckpointError
from treegen.rules import resolve_game
try:
    tree = solve_game(resolve_game(sys.argv[1]), checkpoint=sys.argv[2])
except CheckpointError as exc:
    print("refused:", exc)
else:
    print("solved:", tree.stats.total)
"""


def test_a_folder_of_another_version_of_the_code_is_refused(filled, tmp_path):
    """The search's own code, changed by a comment in exact/solver.py, makes a folder of its own: the entries of
    the code before are never reused, whatever its version number says."""
    copy = _package_copy(tmp_path, "exact/solver.py")
    env = dict(os.environ, PYTHONPATH=str(copy))
    res = subprocess.run([sys.executable, "-c", _SOLVE_THERE, GAME, str(filled)], capture_output=True, text=True,
                         env=env, timeout=300, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    line = res.stdout.strip()
    assert line.startswith(f"refused: checkpoint folder {filled} holds another search: it was made by another "
                           "version of the search's code (code "), line
    assert line.endswith("whose entries this one does not reuse; give a fresh folder")
    # while an unchanged copy of the code, elsewhere, has the same digest (only bytes count, not places)
    same = _package_copy(tmp_path / "same", None)
    res = subprocess.run([sys.executable, "-c", "from treegen.exact import checkpoint; print(checkpoint.code_digest())"],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(same)), timeout=60,
                         cwd=tmp_path)
    assert res.stdout.strip() == checkpoint.code_digest(), res.stderr


def test_a_folder_of_a_treegen_before_code_digests_is_refused(filled):
    """A folder made before entries were keyed by the code (a hand-bumped search format instead)."""
    manifest = filled / checkpoint.MANIFEST
    key = json.loads(manifest.read_bytes())
    key.pop("code", None)
    key["search_format"] = 6
    manifest.write_text(json.dumps(key))
    with pytest.raises(CheckpointError, match=r"another version of the search's code \(code unknown \(an older "
                                              r"treegen\) there, [0-9a-f]{12} here\)"):
        _solve(filled)


def test_the_code_digest_covers_every_module_the_search_imports():
    """Every treegen module that the search's own modules import (at any depth, in functions too) is hashed
    into the code digest, or named here as deciding no subproblem's outcome (and then not followed). Modules
    are named by their path in the package, without ``.py`` (``exact/solver``)."""
    decides_nothing = {
        "__init__": "the version string, in the key by itself",
        "exact/__init__": "the package's lazily loaded names",
        "tree": "exact/solver.py takes only the Wire type from it; solve builds the final tree with it",
        "verify": "replays the final tree; no entry goes through it",
        "files": "reads and writes files",
        "jitcache": "where numba keeps compiled code",
        "exact/executors": "where a task runs (exact/tasks.py, hashed, is what it runs)",
        "exact/warmup": "compiles kernels ahead of their first call, or Ctrl-C while they compile",
        "exact/certify": "the certifying search of solve --certificate, which runs without a checkpoint",
        "certificate": "the certificate's file, written by the certifying search only",
    }
    package = Path(treegen.__file__).parent

    def path_of(dotted: list[str]) -> str:
        """The module (or package: its __init__) at ``dotted`` in the treegen package."""
        name = "/".join(dotted)
        return name if (package / f"{name}.py").exists() else f"{name}/__init__".lstrip("/")

    def imported(name: str) -> set[str]:
        out = set()
        here = name.split("/")[:-1]  # the package the module is in
        for node in ast.walk(ast.parse((package / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = here[: len(here) - (node.level - 1)]
                if node.module:
                    out.add(path_of(base + node.module.split(".")))
                else:  # from . import search_kernels, from .. import __version__
                    for a in node.names:
                        module = path_of(base + [a.name])
                        out.add(module if (package / f"{module}.py").exists() else path_of(base))
        return out

    hashed = {name.removesuffix(".py") for name in checkpoint.SEARCH_SOURCES}
    reached: set[str] = set()
    todo = ["exact/solver", "exact/coordinator", "exact/checkpoint", "exact/solve"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            if name not in decides_nothing:
                todo += imported(name)
    assert reached - set(decides_nothing) == hashed
    assert imported("exact/solver") & set(decides_nothing) == {"tree"}
    search_imports = [n for n in ast.walk(ast.parse((package / "exact/solver.py").read_text()))
                      if isinstance(n, ast.ImportFrom) and n.module == "tree"]
    assert [[a.name for a in n.names] for n in search_imports] == [["Wire"]]


def test_the_code_digest_is_the_same_in_every_process():
    res = subprocess.run([sys.executable, "-c", "from treegen.exact import checkpoint; print(checkpoint.code_digest())"],
                         capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == checkpoint.code_digest()
    assert int(checkpoint.code_digest(), 16) and len(checkpoint.code_digest()) == 64


# -- a full disk (class 9) ---------------------------------------------------------------------------------------


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 kB tmpfs (16 pages: a manifest and some 15 entries), unmounted at the end."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {res.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_full_disk_stops_checkpointing_with_one_warning(tiny_disk, capsys, tmp_path):
    """Mastermind writes 32 entries; the tiny disk holds about 15. Once a write fails the search says so
    once (it said so for every entry after: 1348 lines on a real full disk) and goes on without saving."""
    game = resolve_game("mastermind")
    want = tree_to_bytes(solve.solve_game(game))
    folder = tiny_disk / "ckpt"
    warnings: list[str] = []
    assert tree_to_bytes(solve.solve_game(game, checkpoint=str(folder), warn=warnings.append)) == want
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"checkpointing stopped: cannot write checkpoint entry {folder}/")
    assert warnings[0].endswith(": No space left on device; the search goes on without saving checkpoints")
    saved = _entries(folder)
    assert 5 <= len(saved) < 32
    # What was saved serves the next run, which again says once that it cannot save more; so does the command.
    out = tmp_path / "t.json"
    status, stdout, err = run_main(capsys, "solve", "--game", "mastermind", "--checkpoint", str(folder), "-o", str(out),
                                   "-q")
    assert status == 0, err
    assert out.read_bytes() == want
    assert err.count("\n") == 1 and err.startswith("treegen: checkpointing stopped: ") and "recomputing" not in err
    assert _entries(folder) == saved
