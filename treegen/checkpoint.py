"""The checkpoint folder of a search: finished subproblems on disk, so that a killed search resumes.

A folder belongs to one search: its manifest (``treegen-checkpoint.json``) records the key of what
produced it (game, objective, cap, search levers, treegen version and the search-format version), and a
folder made for another key is refused rather than mixed. Each entry is one subproblem's outcome, with
the key again and a SHA-256 checksum of its content. An entry that cannot be read, belongs to another
key, fails its checksum or fails the caller's own check (an exact value must be the cost of the tree
stored with it) is reported in one line and recomputed: it is never trusted.

Standard library and orjson only; writes are atomic (``files.write_atomic``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from typing import Any

import orjson

from .files import output_folder, write_atomic
from .rules import TreegenError

MANIFEST = "treegen-checkpoint.json"
FORMAT = "treegen-checkpoint"
SEARCH_FORMAT = 6  # bump when the search's subproblems or their outcomes change meaning (3: the raised
# class bound of de57688 changed node counts and, among equal totals, the trees; 4: the memo by orbit
# changed node counts; 5: shares of the slack and outcomes carried over between subproblems changed the
# subproblems and node counts; 6: outcomes carried over within every chain and coordinator, not only
# between the root's waves)


class CheckpointError(TreegenError):
    """A checkpoint folder that cannot be used for this search."""


def _digest(obj: Any) -> str:
    return hashlib.sha256(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _describe(key: Mapping[str, Any]) -> str:
    cap = key.get("cap")
    return (f"game {key.get('game')}, objective {key.get('objective')}"
            f"{f', at most {cap} guesses' if cap is not None else ''}, treegen {key.get('treegen')}, "
            f"search format {key.get('search_format')}")


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

    ``key`` says what produces the entries; ``warn(message)`` hears about every entry that is not
    trusted. ``created`` tells whether the folder was made by this store.
    """

    def __init__(self, folder: str, key: Mapping[str, Any], warn: Callable[[str], None]) -> None:
        self.folder = folder
        self.key = dict(key, format=FORMAT, search_format=SEARCH_FORMAT)
        self.warn = warn
        self.created = output_folder(folder, "checkpoint folder")
        manifest = os.path.join(folder, MANIFEST)
        if os.path.isfile(manifest):
            try:
                with open(manifest, "rb") as f:
                    theirs = orjson.loads(f.read())
            except (OSError, orjson.JSONDecodeError) as exc:
                raise CheckpointError(
                    f"checkpoint folder {folder}: its {MANIFEST} is unreadable ({exc}); give a fresh folder"
                ) from None
            if theirs != self.key:
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
        """The stored outcome of ``task``, or None when there is none or it is not to be trusted.

        ``check(outcome)`` returns None for an outcome it accepts, else what is wrong with it.
        """
        path = self.path(task)
        if not os.path.lexists(path):
            return None
        outcome, why = self._read(path, task, check)
        if why is not None:
            self.warn(f"checkpoint entry {path}: {why}; recomputing it")
        return outcome

    def _read(self, path: str, task: Mapping[str, Any], check: Callable[[dict], str | None]) -> tuple[dict | None, str | None]:
        """(the entry's outcome, None) if it is to be trusted, else (None, what is wrong)."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            return None, f"unreadable ({exc.strerror or exc})"
        try:
            entry = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None, "not valid JSON (a partial or damaged file)"
        if not isinstance(entry, dict) or not {"key", "task", "outcome", "sha256"} <= set(entry):
            return None, "not a checkpoint entry (it lacks key, task, outcome or sha256)"
        if entry["key"] != self.key:
            return None, f"made by another search ({_describe(entry['key']) if isinstance(entry['key'], dict) else '?'})"
        if entry["task"] != task:
            return None, "made for another subproblem"
        if entry["sha256"] != _digest({"key": entry["key"], "task": entry["task"], "outcome": entry["outcome"]}):
            return None, "checksum mismatch: its content changed after it was written"
        why = check(entry["outcome"])
        if why is not None:
            return None, why
        return entry["outcome"], None

    def save(self, task: Mapping[str, Any], outcome: Mapping[str, Any]) -> None:
        entry = {"key": self.key, "task": dict(task), "outcome": dict(outcome)}
        entry["sha256"] = _digest(entry)
        write_atomic(self.path(task), orjson.dumps(entry) + b"\n", "checkpoint entry", durable=False)
