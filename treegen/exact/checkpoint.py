"""The checkpoint folder of a search: finished subproblems on disk, so that a killed search resumes.

A folder belongs to one search: its manifest (``treegen-checkpoint.json``) records the key of what
produced it (game, objective, cap, search levers, treegen version, and ``code``: the SHA-256 of the
search's own source files, see :func:`code_digest`), and a folder made for another key is refused rather
than mixed, a folder made by another version of the search's code included. Each entry is one
subproblem's outcome, with the key again and a SHA-256 checksum of its content. An entry that is not a
regular file of at most ``ENTRY_LIMIT`` bytes (a FIFO, a link to ``/dev/zero``, a folder), cannot be read,
belongs to another key, fails its checksum or fails the caller's own check (an exact value must be the
cost of the tree stored with it) is reported in one line and recomputed: it is never trusted.

What a folder is trusted for: a checkpoint folder is trusted to be treegen's own work. Every entry is
checked for damage, for belonging to this search and this code, and an exact value against the tree
stored with it, and the final tree is replayed over every secret, so a resumed solve always writes a real
tree that achieves the total it states. But an entry rewritten with a worse, self-consistent outcome (a
higher value with a matching worse tree, or a lower bound above the true cost; anyone can recompute its
checksum) passes every check, and the solve would then claim as optimal, or as impossible, what it never
proved. So resume only from a folder that nothing but treegen has written; for a claim that others must
trust, solve without a checkpoint folder or with a fresh one.

Writes are atomic (``files.write_atomic``). A write that fails for this entry alone (a folder stands at
its path) costs that entry; one that fails in the folder (a full disk, a folder made read-only or
removed) stops checkpointing for the rest of the search, said once (:class:`CheckpointStopped`).

Standard library and orjson only.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import orjson

from ..files import InputError, OutputError, output_folder, read_input, write_atomic
from ..rules import TreegenError

MANIFEST = "treegen-checkpoint.json"
FORMAT = "treegen-checkpoint"

# The modules whose code decides what a subproblem is and what its outcome holds (value, exactness, node
# count, tree), as paths in the treegen package: their bytes are the ``code`` of every key (see code_digest). tests/test_checkpoint.py
# checks that every treegen module the search imports is here or named there as deciding no outcome.
# (This replaces a search-format number bumped by hand, which an older search's entries passed whenever
# a change forgot the bump: the digest changes with any change of these files, a comment's included.)
SEARCH_SOURCES = ("exact/checkpoint.py", "exact/contracts.py", "exact/coordinator.py", "exact/memo.py",
                  "exact/objectives.py", "exact/options.py", "exact/search_kernels.py", "exact/solve.py",
                  "exact/solver.py", "exact/tables.py", "exact/tasks.py", "feedback.py", "rules.py",
                  "scoring_kernels.py", "symmetry.py", "symmetry_kernels.py")

# An entry holds one subproblem's tree, about 15 bytes a secret (mm:4:7's biggest, 582 secrets, is 8.7 kB):
# a whole game of a million codes would be some 15 MB. Anything bigger is no entry of treegen's, and
# reading it would only eat memory; the manifest is a few hundred bytes.
ENTRY_LIMIT = 64 * 2**20
MANIFEST_LIMIT = 2**20


class CheckpointError(TreegenError):
    """A checkpoint folder that cannot be used for this search."""


class EntryError(CheckpointError):
    """One entry that cannot be written (a folder stands at its path); other entries still can."""


class CheckpointStopped(CheckpointError):
    """Writing in the checkpoint folder failed (a full disk, say): the store saves nothing more."""


@cache
def code_digest() -> str:
    """The SHA-256 (hex) of the search's source files, ``SEARCH_SOURCES`` in sorted order, each hashed as
    its name, its length and its bytes; computed once per process.

    It is the ``code`` of every checkpoint key, so that no entry written by another version of the search
    (an older one, perhaps with a bug since fixed) is ever reused: refusing a folder costs a recomputation,
    reusing a wrong entry would cost a wrong proof. Raises :class:`CheckpointError` when a source file
    cannot be read (an install without its ``.py`` files).
    """
    digest = hashlib.sha256()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the treegen package
    for name in sorted(SEARCH_SOURCES):
        try:
            with open(os.path.join(here, name), "rb") as f:
                data = f.read()
        except OSError as exc:
            raise CheckpointError(f"cannot use checkpoints: the search's source file {name} cannot be read "
                                  f"({exc.strerror or exc}), and entries are keyed by its digest") from None
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _digest(obj: Any) -> str:
    return hashlib.sha256(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _code(key: Mapping[str, Any]) -> str:
    code = key.get("code")
    return code[:12] if isinstance(code, str) else "unknown (an older treegen)"


def _describe(key: Mapping[str, Any]) -> str:
    cap = key.get("cap")
    return (f"game {key.get('game')}, objective {key.get('objective')}"
            f"{f', at most {cap} guesses' if cap is not None else ''}, treegen {key.get('treegen')}, "
            f"code {_code(key)}")


def _differences(theirs: Mapping[str, Any], ours: Mapping[str, Any]) -> str:
    """What differs between two keys, field by field (a lever of the options, say, which the descriptions
    above leave out): "options.orbits: True there, False here"."""
    parts = []
    for field in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(field), ours.get(field)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            parts += [f"{field}.{k}: {a.get(k)!r} there, {b.get(k)!r} here" for k in sorted(set(a) | set(b))
                      if a.get(k) != b.get(k)]
        else:
            parts.append(f"{field}: {a!r} there, {b!r} here")
    return "; ".join(parts)


class CheckpointStore:
    """The finished subproblems of one search in ``folder``.

    ``key`` says what produces the entries (the store adds the format and :func:`code_digest`);
    ``warn(message)`` hears about every entry that is not trusted. ``created`` tells whether the folder
    was made by this store. Raises :class:`CheckpointError` for a folder of another search (another
    version of the search's code included), a manifest that is not a small regular file of JSON, or a
    folder that holds other files and no manifest.
    """

    def __init__(self, folder: str, key: Mapping[str, Any], warn: Callable[[str], None]) -> None:
        self.folder = folder
        self.key = dict(key, format=FORMAT, code=code_digest())
        self.warn = warn
        self.stopped = False  # see save
        self._stop_lock = threading.Lock()
        self.created = output_folder(folder, "checkpoint folder")
        manifest = os.path.join(folder, MANIFEST)
        if os.path.lexists(manifest):
            try:
                theirs = orjson.loads(read_input(manifest, "checkpoint manifest", MANIFEST_LIMIT))
            except InputError as exc:  # a FIFO, a link to a device, a huge file: never read without end
                raise CheckpointError(f"{exc}; give a fresh checkpoint folder") from None
            except orjson.JSONDecodeError as exc:
                raise CheckpointError(
                    f"checkpoint folder {folder}: its {MANIFEST} is unreadable ({exc}); give a fresh folder"
                ) from None
            if theirs != self.key:
                # The same search but for its code (a folder of an older treegen has a search format instead).
                same = {"code": None, "search_format": None}
                if isinstance(theirs, dict) and {**theirs, **same} == {**self.key, **same}:
                    raise CheckpointError(
                        f"checkpoint folder {folder} holds another search: it was made by another version of "
                        f"the search's code (code {_code(theirs)} there, {_code(self.key)} here), whose "
                        "entries this one does not reuse; give a fresh folder"
                    )
                what = _describe(theirs) if isinstance(theirs, dict) else repr(theirs)
                differs = f" (they differ in {_differences(theirs, self.key)})" if isinstance(theirs, dict) else ""
                raise CheckpointError(
                    f"checkpoint folder {folder} holds another search ({what}); this one is "
                    f"{_describe(self.key)}{differs}: give a fresh folder"
                )
        else:
            stray = [n for n in os.listdir(folder) if not n.startswith(".")]
            if stray:
                raise CheckpointError(
                    f"checkpoint folder {folder} is not empty and holds no {MANIFEST}: "
                    "give a fresh or empty folder (treegen never mixes its entries with other files)"
                )
            write_atomic(manifest, orjson.dumps(self.key, option=orjson.OPT_SORT_KEYS) + b"\n", "checkpoint manifest")

    def path(self, task: Mapping[str, Any]) -> str:
        return os.path.join(self.folder, _digest({"key": self.key, "task": task})[:32] + ".json")

    def load(self, task: Mapping[str, Any], check: Callable[[dict], str | None]) -> dict | None:
        """The stored outcome of ``task``, or None when there is none or it is not to be trusted (then
        ``warn`` hears why, in one line).

        ``check(outcome)`` returns None for an outcome it accepts, else what is wrong with it.
        """
        path = self.path(task)
        if not os.path.lexists(path):
            return None
        outcome, problem = self._read(path, task, check)
        if problem is not None:
            self.warn(f"{problem}; recomputing it")
        return outcome

    def _read(self, path: str, task: Mapping[str, Any], check: Callable[[dict], str | None]) -> tuple[dict | None, str | None]:
        """(the entry's outcome, None) if it is to be trusted, else (None, what is wrong, path included)."""
        try:
            # Only a regular file of at most ENTRY_LIMIT bytes is read: a FIFO would block the search for
            # good, a link to /dev/zero would fill memory.
            data = read_input(path, "checkpoint entry", ENTRY_LIMIT)
        except InputError as exc:
            return None, str(exc)
        try:
            entry = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None, f"checkpoint entry {path}: not valid JSON (a partial or damaged file)"
        why = self._wrong(entry, task, check)
        if why is not None:
            return None, f"checkpoint entry {path}: {why}"
        return entry["outcome"], None

    def _wrong(self, entry: Any, task: Mapping[str, Any], check: Callable[[dict], str | None]) -> str | None:
        """What is wrong with the parsed ``entry`` of ``task``, or None."""
        if not isinstance(entry, dict) or not {"key", "task", "outcome", "sha256"} <= set(entry):
            return "not a checkpoint entry (it lacks key, task, outcome or sha256)"
        if entry["key"] != self.key:
            return f"made by another search ({_describe(entry['key']) if isinstance(entry['key'], dict) else '?'})"
        if entry["task"] != task:
            return "made for another subproblem"
        if entry["sha256"] != _digest({"key": entry["key"], "task": entry["task"], "outcome": entry["outcome"]}):
            return "checksum mismatch: its content changed after it was written"
        return check(entry["outcome"])

    def save(self, task: Mapping[str, Any], outcome: Mapping[str, Any]) -> None:
        """Write the entry of ``task``, atomically.

        Raises :class:`EntryError` when this entry alone cannot be written (a folder stands at its path),
        and :class:`CheckpointStopped`, once, when writing in the folder fails (a full disk, a folder made
        read-only or removed): from then on ``stopped`` is True and every save does nothing, so that a
        search is told once and goes on without checkpoints. Safe to call from several threads.
        """
        if self.stopped:
            return
        entry = {"key": self.key, "task": dict(task), "outcome": dict(outcome)}
        entry["sha256"] = _digest(entry)
        path = self.path(task)
        try:
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                mode = None
            if mode is not None and stat.S_ISDIR(mode):
                raise EntryError(f"cannot write checkpoint entry {path}: it is a folder, not a regular file")
            if mode is not None and not stat.S_ISREG(mode):
                # A FIFO, a device node or a symlink where this entry belongs (load reported it): replace
                # it, as any untrusted entry is. write_atomic would refuse the first two and write through a
                # link, to wherever it points (a file outside the folder, say).
                os.unlink(path)
            write_atomic(path, orjson.dumps(entry) + b"\n", "checkpoint entry", durable=False)
        except (OSError, OutputError) as exc:
            reason = (str(exc) if isinstance(exc, OutputError)
                      else f"cannot write checkpoint entry {path}: {exc.strerror or exc}")
            with self._stop_lock:
                first, self.stopped = not self.stopped, True
            if first:
                raise CheckpointStopped(reason) from None
