"""The prelude every format module shares: reading text, naming a place in it, the game and its codes.

What each parser did alike before it got to its own syntax: decode the bytes (a byte-order mark
dropped), raise :class:`FormatError` as ``FILE:LINE:COLUMN: message``, read the ``# treegen:`` header,
settle the game (``--game``, the header, or a guess from the file's shape), map the file's symbols to the
game's (``--alphabet FROM=TO`` or a guess) and read each code through :class:`CodeReader`. The writers
share the header line and :func:`relabel` (a tree written in other symbols), and read a finished tree
through ``tree.walk`` (:func:`visits`).

Standard library and orjson only. Imports downward only: rules, tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..rules import (
    ACCEPTED_SYMBOLS,
    PRESETS,
    SYMBOLS,
    Game,
    GameError,
    NumberError,
    TreegenError,
    game_from_dict,
    game_to_dict,
    parse_int,
    resolve_game,
    shorten,
    symbols_problem,
)
from ..tree import Node, Tree, Visit, walk

HEADER = "# treegen: "
DIGITS = re.compile(r"[0-9]+")  # not \d, which also takes '１' and '٣'


class FormatError(TreegenError):
    """Text that is not a well-formed file of its format; the message names the line and column."""


@dataclass(frozen=True)
class Parsed:
    """What a ``parse_*`` function read: the game, the root node and how the file was interpreted.

    ``notes`` are human sentences about what was assumed (the game, a symbol mapping); ``meta`` is the
    ``# treegen:`` header object when the file has one, else None; ``alphabet`` is the mapping applied,
    as ``FROM=TO``, or None.
    """

    game: Game
    root: Node
    notes: tuple[str, ...] = ()
    meta: dict | None = None
    alphabet: str | None = None
    extra: dict = field(default_factory=dict)


# -- text and places in it -------------------------------------------------------------------------


def decode(data: bytes, source: str) -> str:
    """The file's bytes as text: UTF-8, without a leading byte-order mark."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    # A byte-order mark (Windows editors write one) is no part of the text: left in, it would be read
    # as a symbol of the first code or count. Lines and columns are unchanged (it is not a column).
    # The provenance's sha256 stays that of the file as given.
    return text.removeprefix("\ufeff")


def error_at(source: str, line: int, col: int, msg: str) -> FormatError:
    return FormatError(f"{source}:{line}:{col}: {msg}")


def read_number(text: str, what: str, source: str, line: int, col: int, lo: int = 0, hi: int | None = None) -> int:
    """A count or row number of a file (``rules.parse_int``: ASCII digits only), as a FormatError there."""
    try:
        return parse_int(text, what, lo, hi)
    except NumberError as exc:
        raise error_at(source, line, col, str(exc)) from None


def secrets_give(n: int) -> str:
    """``1 secret gives`` / ``2 secrets give``: how the parsers name a class's size in a message."""
    return f"{n} secret{'s' if n != 1 else ''} give{'s' if n == 1 else ''}"


# -- the treegen header ----------------------------------------------------------------------------


def read_header(lines: list[str], source: str) -> dict | None:
    """The ``# treegen: {...}`` object, if it comes before the first line that is not a comment."""
    for number, line in enumerate(lines, 1):
        if line.startswith(HEADER):
            try:
                meta = orjson.loads(line[len(HEADER) :])
            except orjson.JSONDecodeError as exc:
                raise error_at(source, number, len(HEADER) + 1, f"the treegen header is not JSON ({exc})") from None
            if not isinstance(meta, dict) or not isinstance(meta.get("game"), dict):
                raise error_at(source, number, 1, "the treegen header must be a JSON object with a 'game'")
            return meta
        if line.strip() and not line.lstrip().startswith("#"):
            return None
    return None


def header_game(meta: dict | None, source: str) -> Game | None:
    if meta is None:
        return None
    try:
        return game_from_dict(meta["game"])
    except (GameError, TypeError, ValueError) as exc:
        raise FormatError(f"{source}: the treegen header names an unknown game: {exc}") from None


def header_alphabet(meta: dict | None, given: str | None, source: str) -> str | None:
    """``--alphabet`` if given, else the map a treegen header names (an export with ``--alphabet``)."""
    if given is not None or meta is None or meta.get("alphabet") is None:
        return given
    if not isinstance(meta["alphabet"], str):
        raise FormatError(f"{source}: the treegen header's 'alphabet' must be a string FROM=TO")
    return meta["alphabet"]


def header_line(tree: Tree, alphabet: str | None = None) -> str:
    """The ``# treegen:`` line that makes an export's round trip exact (game, strategy, stats, provenance)."""
    meta: dict[str, Any] = {"game": game_to_dict(tree.game), "strategy": tree.strategy, "stats": tree.stats.to_obj()}
    if tree.provenance is not None:
        meta["provenance"] = dict(tree.provenance)
    if alphabet is not None:
        meta["alphabet"] = alphabet
    return HEADER + orjson.dumps(meta).decode() + "\n"


# -- which game ------------------------------------------------------------------------------------


def _falling(n: int, p: int) -> int:
    out = 1
    for k in range(p):
        out *= n - k
    return out


def game_for(positions: int, symbols: int, repeats: bool) -> Game:
    """The preset with this shape if exactly one has it, else the spec ``mm:P:N`` / ``bc:P:N``."""
    same = [g for g in PRESETS.values() if (g.positions, g.symbols, g.repeats) == (positions, symbols, repeats)]
    if len(same) == 1:
        return same[0]
    return resolve_game(f"{'mm' if repeats else 'bc'}:{positions}:{symbols}")


def guess_game(positions: int, secrets: int) -> Game | None:
    """The game with ``positions`` positions and exactly ``secrets`` codes, if only one shape fits."""
    fits = []
    for n in range(2, len(SYMBOLS) + 1):
        if n**positions == secrets:
            fits.append((n, True))
        if n >= positions and _falling(n, positions) == secrets:
            fits.append((n, False))
    if len(fits) != 1:
        return None
    try:
        return game_for(positions, *fits[0])
    except GameError:
        return None


def choose_game(
    given: Game | None, meta_game: Game | None, guessed: Game | None, source: str, why: str
) -> tuple[Game, list[str]]:
    """``--game``, else the header's game, else the one the file's shape says (``why``), and the notes."""
    if given is not None:
        if meta_game is not None and not meta_game.same_rules(given):
            raise FormatError(f"{source} is a tree for {meta_game.describe()}, not for {given.describe()}")
        return given, []
    if meta_game is not None:
        return meta_game, []
    if guessed is not None:
        return guessed, [f"game {guessed.name} ({guessed.describe().split(': ', 1)[1]}), from {why}"]
    raise FormatError(f"{source}: cannot tell the game from {why}; give --game G (a preset or bc:P:N / mm:P:N)")


# -- which symbols ---------------------------------------------------------------------------------


def fold(symbols: str) -> str:
    """Symbols as files write them in any case: upper-cased, ASCII only (``'ß'.upper()`` is ``'SS'``)."""
    return "".join(ch.upper() if ch.isascii() else ch for ch in symbols)


def parse_alphabet_map(text: str) -> dict[str, str]:
    """``FROM=TO`` (e.g. ``012345=123456``): the file's symbol ``FROM[i]`` is the game's ``TO[i]``.

    Letters count the same in either case (codes are read so); each side must pass
    ``rules.symbols_problem``, since the FROM side becomes the symbols an export writes.
    """
    accepted = "write --alphabet FROM=TO with as many distinct symbols on each side, e.g. 012345=123456"
    shown = shorten(text)
    if text.count("=") != 1:
        raise FormatError(f"alphabet map {shown!r} is not FROM=TO; {accepted}")
    src, dst = (s.strip() for s in text.split("="))
    for side, name in ((src, "FROM"), (dst, "TO")):
        problem = symbols_problem(side)
        if problem:
            raise FormatError(f"alphabet map {shown!r}: {name} {problem}; {ACCEPTED_SYMBOLS}")
    src, dst = fold(src), fold(dst)
    if not src or len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise FormatError(f"alphabet map {shown!r} is not a one-to-one map; {accepted}")
    return dict(zip(src, dst))


def _symbol_map(
    game: Game, used: set[str], given: str | None, occurrences: Iterable[tuple[str, int, int]], source: str
) -> tuple[dict[str, str] | None, str | None]:
    """The map from the file's symbols to the game's, and its ``FROM=TO`` text (None: identity).

    Without ``given``: identity when every symbol used is in the game's alphabet; otherwise the file is
    taken to write the game's symbols in order as 0..N-1, 1..N or A.. (the first of these that holds
    every symbol used), which is what tools that number colours do. ``occurrences`` (code, line,
    column) locate a symbol that fits no map in the message.
    """
    folded = set(fold(game.alphabet))  # the game's symbols as ``used`` and the maps write them
    if given is not None:
        mapping = parse_alphabet_map(given)
        bad = sorted(set(mapping.values()) - folded)
        if bad:
            raise FormatError(
                f"--alphabet maps to {''.join(bad)}, which {game.name} does not use; its symbols are {game.alphabet}"
            )
        src = "".join(mapping)
        return mapping, f"{src}={''.join(mapping[c] for c in src)}"
    if used <= folded:
        return None, None
    n = game.symbols
    for src in (SYMBOLS[:n], SYMBOLS[1 : n + 1], SYMBOLS[10 : 10 + n]):
        if len(src) == n and used <= set(src):
            return dict(zip(src, game.alphabet)), f"{src}={game.alphabet}"
    where = f"{source}: "
    odd = used - folded
    for raw, line, col in occurrences:
        if set(fold(raw)) & odd:
            where = f"{source}:{line}:{col}: code {shorten(raw)!r}: "
            break
    raise FormatError(
        f"{where}the file uses the symbols {shorten(''.join(sorted(used)))}, which do not fit {game.name} "
        f"(symbols {game.alphabet}); give --alphabet FROM=TO to say which of the file's symbols is which"
    )


class CodeReader:
    """Maps the file's code strings to the game's, checking each one; errors name the position.

    Made by :func:`code_reader`; ``map_text`` is the symbol map applied (``FROM=TO``), or None.
    """

    def __init__(self, game: Game, mapping: dict[str, str] | None, map_text: str | None, source: str) -> None:
        self.game, self.mapping, self.map_text, self.source = game, mapping, map_text, source
        self.index = game.code_index

    def __call__(self, raw: str, line: int, col: int) -> tuple[int, ...]:
        game = self.game
        shown = shorten(raw)
        what = f"{game.positions} symbols from {game.alphabet}{'' if game.repeats else ', all different'}"
        odd = next((ch for ch in raw if not ch.isascii()), None)
        if odd is not None:  # as rules.parse_symbols: no full-width digits, and 'ß' is not 'SS'
            raise error_at(self.source, line, col, f"code {shown!r} uses {odd!r}; {game.name} codes have {what}")
        text = raw.upper()  # ASCII: one character each
        if self.mapping is not None:
            out = []
            for ch in text:
                if ch not in self.mapping:
                    raise error_at(self.source, line, col,
                                   f"code {shown!r} uses {ch!r}, which the symbol map does not cover")
                out.append(self.mapping[ch])
            text = "".join(out)
        if len(text) != game.positions:
            raise error_at(self.source, line, col, f"code {shown!r} has {len(text)} symbols; {game.name} codes have {what}")
        lookup = game.symbol_lookup
        if any(ch not in lookup for ch in text):
            raise error_at(self.source, line, col, f"code {shown!r} is not a {game.name} code: codes have {what}")
        code = tuple(lookup[ch] for ch in text)
        if code not in self.index:
            raise error_at(self.source, line, col, f"code {shown!r} repeats a symbol; {game.name} codes have {what}")
        return code


def code_reader(
    game: Game, used: set[str], alphabet: str | None, occurrences: Iterable[tuple[str, int, int]], source: str,
    notes: list[str],
) -> CodeReader:
    """The reader of the file's codes, once the game is settled: the symbol map (``alphabet``, or the one
    that ``used``, the file's symbols folded, fits), said in ``notes`` when it was guessed."""
    mapping, map_text = _symbol_map(game, used, alphabet, occurrences, source)
    if map_text and alphabet is None:
        notes.append(f"symbols mapped as --alphabet {map_text}")
    return CodeReader(game, mapping, map_text, source)


def code_text(game: Game, code: tuple[int, ...]) -> str:
    """A symbol tuple (``game.codes[code]``) as the game writes it."""
    return "".join(game.alphabet[s] for s in code)


# -- writing ---------------------------------------------------------------------------------------


def visits(tree: Tree) -> dict[tuple[str, ...], Visit]:
    """Every node of the tree as ``tree.walk`` visits it, by path: for the writers whose layout is not
    the walk's depth-first order (nesting, rows breadth first)."""
    return {visit.path: visit for visit in walk(tree.game, tree.root)}


def relabel(tree: Tree, alphabet: str) -> Tree:
    """The tree written in other symbols: ``FROM=TO`` says the game's ``TO[i]`` is written ``FROM[i]``.

    The result's game is the same game with the symbols renamed (for writing only: its name no longer
    matches its alphabet). Scoring compares symbol indices, so hints and classes are unchanged.
    """
    mapping = parse_alphabet_map(alphabet)
    back = {to: frm for frm, to in mapping.items()}
    game = tree.game
    missing = [c for c in game.alphabet if fold(c) not in back]
    if missing:
        raise FormatError(
            f"--alphabet {shorten(alphabet)} does not say how to write {''.join(missing)}; give every symbol of "
            f"{game.name} ({game.alphabet}) on the right of '='"
        )
    extra = sorted(set(back) - {fold(c) for c in game.alphabet})
    if extra:  # the import of the file would refuse it: export only what reads back
        raise FormatError(f"--alphabet {shorten(alphabet)} maps to {''.join(extra)}, which {game.name} does not use; "
                          f"its symbols are {game.alphabet}")
    table = str.maketrans({c: back[fold(c)] for c in game.alphabet})

    def node(n: Node) -> Node:
        return Node(n.guess.translate(table), tuple((k, node(c)) for k, c in n.next))

    renamed = Game(game.name, game.positions, game.alphabet.translate(table), game.repeats, game.notation)
    return Tree(renamed, tree.strategy, node(tree.root), tree.stats, tree.provenance)
