"""Interchange formats: read other tools' strategy trees and write treegen's trees for them.

One module per format, each with its ``parse_*`` and/or ``format_*`` function (``docs/tree-format.md``,
"Import and export"); :data:`FORMATS` below is the one list of them, and the functions here are what the
command line calls:

- ``paths``: one line per secret, ``SECRET: GUESS1 GUESS2 ... SECRET``.
- ``irving``: the notation that ``mmstrat`` of fancidev/mastermind prints (Irving 1978/79, Knuth 1976):
  ``1296 (1122: 1, 16 (1213: ...), 96A, ...)`` with named sub-trees ``A = (...)``.
- ``arfst23``: the punch-card ``solution-P-C-D`` files of arfst23/Mastermind, and ``arfst23_yml``, their
  ``.yml`` twins (nested ``[guess, {pegs: code or node}]`` lists).
- ``dot`` (Graphviz) and ``csv`` (one row per node): export only.
- ``common``: the prelude they share (decoding, ``FILE:LINE:COLUMN`` errors, the ``# treegen:`` header,
  the game, the symbol map and the code reader).

A ``parse_*`` function reads the text into a :class:`Parsed` (the game, the root :class:`~treegen.tree.Node`
and what was assumed), partitioning secrets with ``tree.partition`` as it builds the tree;
:func:`import_tree` then checks it as ``treegen verify`` does (``verify.make_tree`` and
``verify.verify_tree``) and returns the checked :class:`~treegen.tree.Tree`. Every ``format_*`` function
reads the finished tree through ``tree.walk``, the one walk that partitions secrets. Malformed text raises
:class:`FormatError` naming the line and column; a well-formed file that is not a complete, consistent
strategy raises :class:`~treegen.tree.InvalidTree` naming the path of guesses and hints to the first fault.

Round trips are exact by design: ``format_paths`` and ``format_irving`` start with one comment line
``# treegen: {...}`` carrying the game, strategy, stats and provenance of the tree, and the body determines
every guess, so importing the export gives a tree whose file has the same bytes. Without that line (a file
from another tool, or ``header=False``) the import records ``strategy "imported:FORMAT"`` and
``provenance {"source", "sha256", "format"[, "alphabet"]}``.

Standard library and orjson only; the library never prints. Imports downward only: rules, tree, verify.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import Game, shorten
from ..tree import InvalidTree, Tree
from ..verify import make_tree, verify_tree
from .arfst23 import arfst23_game, format_arfst23, parse_arfst23
from .arfst23_yml import format_arfst23_yml, parse_arfst23_yml
from .common import FormatError, Parsed, decode, game_for, guess_game, parse_alphabet_map, relabel
from .csv import format_csv
from .dot import format_dot
from .irving import format_irving, parse_irving
from .paths import format_paths, parse_paths


@dataclass(frozen=True)
class Format:
    """One format: its reader (None: export only), its writer, and the export options it takes.

    ``parse(text, game, alphabet, source) -> Parsed``. ``write(tree, **options)``: with ``header``, the
    writer takes ``header`` and ``alphabet`` itself (the ``# treegen:`` line records the map); with
    ``alphabet`` only, :func:`export_tree` relabels the tree first; with ``depth``, it takes ``depth``.
    """

    name: str
    parse: Callable[..., Parsed] | None
    write: Callable[..., str]
    header: bool = False
    alphabet: bool = False
    depth: bool = False
    counts: bool = False  # writes a hint as its two counts (bulls, cows), which a per-position hint is not


FORMATS: tuple[Format, ...] = (
    Format("paths", parse_paths, format_paths, header=True, alphabet=True),
    Format("irving", parse_irving, format_irving, header=True, alphabet=True, counts=True),
    Format("arfst23", parse_arfst23, format_arfst23, alphabet=True, counts=True),
    Format("arfst23-yml", parse_arfst23_yml, format_arfst23_yml, alphabet=True, counts=True),
    Format("dot", None, format_dot, depth=True),
    Format("csv", None, format_csv),
)
_BY_NAME = {f.name: f for f in FORMATS}

IMPORT_FORMATS = tuple(f.name for f in FORMATS if f.parse is not None)
EXPORT_FORMATS = tuple(f.name for f in FORMATS)


def _names(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: the formats an option applies to, in a message."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def import_format(fmt: str, source: str) -> str:
    """The format to read ``source`` with: ``arfst23`` on a ``.yml``/``.yaml`` file means ``arfst23-yml``."""
    if fmt not in IMPORT_FORMATS:
        raise FormatError(f"unknown import format {shorten(fmt)!r}; use one of {', '.join(IMPORT_FORMATS)}")
    if fmt == "arfst23" and source.lower().endswith((".yml", ".yaml")):
        return "arfst23-yml"
    return fmt


def import_tree(
    fmt: str, data: bytes, source: str, game: Game | None = None, alphabet: str | None = None
) -> tuple[Tree, Parsed]:
    """Read ``data`` in format ``fmt`` and return the checked tree and what the parser read.

    Raises :class:`FormatError` for malformed input and :class:`InvalidTree` (with the path) for a file
    that is not a complete, consistent strategy, including stats in a treegen header that the tree does
    not achieve.
    """
    fmt = import_format(fmt, source)
    text = decode(data, source)
    if game is not None:
        _refuse_marks(_BY_NAME[fmt], game)
    parsed = _BY_NAME[fmt].parse(text, game, alphabet, source)
    meta = parsed.meta
    if meta is not None:
        strategy = meta.get("strategy")
        prov = meta.get("provenance")
        if not isinstance(strategy, str) or (prov is not None and not isinstance(prov, dict)):
            raise FormatError(f"{source}: the treegen header needs a string 'strategy' and an object 'provenance'")
    else:
        strategy = f"imported:{fmt}"
        prov = {"source": os.path.basename(source), "sha256": hashlib.sha256(data).hexdigest(), "format": fmt}
        if parsed.alphabet:
            prov["alphabet"] = parsed.alphabet
    tree = make_tree(parsed.game, strategy, parsed.root, prov)
    if meta is not None and "stats" in meta:
        want = meta["stats"]
        have = tree.stats.to_obj()
        for key in ("secrets", "total", "max_guesses", "histogram"):
            if not isinstance(want, dict) or want.get(key) != have[key]:
                claimed = want.get(key) if isinstance(want, dict) else want
                raise InvalidTree((), f"stats: {key} is {claimed} in the header but the tree gives {have[key]}")
    verify_tree(tree)  # the whole check, as `treegen verify` does: also every claim of the provenance
    return tree, parsed


def _refuse_marks(form: Format, game: Game) -> None:
    """FormatError when ``form`` writes hints as two counts and ``game``'s hints are per-position marks."""
    if form.counts and game.rule == "per-position":
        raise FormatError(f"the {form.name} format writes a hint as two counts; {shorten(game.name)}'s hints are a "
                          f"mark per position, which {_names([f.name for f in FORMATS if not f.counts])} take")


def export_tree(
    fmt: str, tree: Tree, depth: int | None = None, header: bool = True, alphabet: str | None = None
) -> str:
    """The text of ``tree`` in format ``fmt`` (``EXPORT_FORMATS``).

    ``depth`` is for dot only, ``header=False`` for paths and irving only; ``alphabet`` (``FROM=TO``:
    the game's ``TO[i]`` is written ``FROM[i]``) for every format but dot and csv.
    """
    if fmt not in _BY_NAME:
        raise FormatError(f"unknown export format {shorten(fmt)!r}; use one of {', '.join(EXPORT_FORMATS)}")
    form = _BY_NAME[fmt]
    if depth is not None and not form.depth:
        raise FormatError(f"--depth applies to the {_names([f.name for f in FORMATS if f.depth])} format only")
    if not header and not form.header:
        raise FormatError(f"--bare applies to the {_names([f.name for f in FORMATS if f.header])} formats only "
                          "(the others have no header)")
    if alphabet is not None and not form.alphabet:
        raise FormatError(f"--alphabet applies to {_names([f.name for f in FORMATS if f.alphabet])}")
    _refuse_marks(form, tree.game)
    if form.header:
        return form.write(tree, header, alphabet)
    if alphabet is not None:
        tree = relabel(tree, alphabet)
    if form.depth:
        return form.write(tree, depth)
    return form.write(tree)


__all__ = [
    "EXPORT_FORMATS", "FORMATS", "IMPORT_FORMATS", "Format", "FormatError", "Parsed",
    "parse_paths", "format_paths", "parse_irving", "format_irving", "parse_arfst23", "format_arfst23",
    "parse_arfst23_yml", "format_arfst23_yml", "format_dot", "format_csv", "import_format", "import_tree",
    "export_tree", "guess_game", "game_for", "parse_alphabet_map", "arfst23_game",
]
