"""Interchange formats: read other tools' strategy trees and write treegen's trees for them.

Paired ``parse_*`` / ``format_*`` functions, one pair per format (``docs/tree-format.md``, "Import and
export"):

- ``paths``: one line per secret, ``SECRET: GUESS1 GUESS2 ... SECRET``.
- ``irving``: the notation that ``mmstrat`` of fancidev/mastermind prints (Irving 1978/79, Knuth 1976):
  ``1296 (1122: 1, 16 (1213: ...), 96A, ...)`` with named sub-trees ``A = (...)``.
- ``arfst23``: the punch-card ``solution-P-C-D`` files of arfst23/Mastermind, and ``arfst23-yml``, their
  ``.yml`` twins (nested ``[guess, {pegs: code or node}]`` lists).
- ``dot`` (Graphviz) and ``csv`` (one row per node): export only.

A ``parse_*`` function reads the text into a :class:`Parsed` (the game, the root :class:`~treegen.tree.Node`
and what was assumed); :func:`import_tree` then checks it as ``treegen verify`` does
(``verify.make_tree`` and ``verify.verify_tree``) and returns the checked :class:`~treegen.tree.Tree`.
Exports read trees through ``tree.walk``, the one walk that partitions secrets. Malformed text raises
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

import bisect
import csv
import hashlib
import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from .rules import (
    ACCEPTED_SYMBOLS,
    MAX_CODES,
    PRESETS,
    SYMBOLS,
    Game,
    GameError,
    NumberError,
    TreegenError,
    format_hint,
    game_from_dict,
    game_to_dict,
    parse_int,
    resolve_game,
    score_symbols,
    shorten,
    symbols_problem,
)
from .tree import InvalidTree, Node, Tree, walk
from .verify import make_tree, verify_tree

IMPORT_FORMATS = ("paths", "irving", "arfst23", "arfst23-yml")
EXPORT_FORMATS = ("paths", "irving", "arfst23", "arfst23-yml", "dot", "csv")
HEADER = "# treegen: "


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


# -- shared helpers --------------------------------------------------------------------------------


def _err(source: str, line: int, col: int, msg: str) -> FormatError:
    return FormatError(f"{source}:{line}:{col}: {msg}")


def _number(text: str, what: str, source: str, line: int, col: int, lo: int = 0, hi: int | None = None) -> int:
    """A count or row number of a file (``rules.parse_int``: ASCII digits only), as a FormatError there."""
    try:
        return parse_int(text, what, lo, hi)
    except NumberError as exc:
        raise _err(source, line, col, str(exc)) from None


def _fold(symbols: str) -> str:
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
    src, dst = _fold(src), _fold(dst)
    if not src or len(src) != len(dst) or len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise FormatError(f"alphabet map {shown!r} is not a one-to-one map; {accepted}")
    return dict(zip(src, dst))


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


def _symbol_map(
    game: Game, used: set[str], given: str | None, occurrences: Iterable[tuple[str, int, int]] = (),
    source: str = "",
) -> tuple[dict[str, str] | None, str | None]:
    """The map from the file's symbols to the game's, and its ``FROM=TO`` text (None: identity).

    Without ``given``: identity when every symbol used is in the game's alphabet; otherwise the file is
    taken to write the game's symbols in order as 0..N-1, 1..N or A.. (the first of these that holds
    every symbol used), which is what tools that number colours do. ``occurrences`` (code, line,
    column) locate a symbol that fits no map in the message.
    """
    folded = set(_fold(game.alphabet))  # the game's symbols as ``used`` and the maps write them
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
        if set(_fold(raw)) & odd:
            where = f"{source}:{line}:{col}: code {shorten(raw)!r}: "
            break
    raise FormatError(
        f"{where}the file uses the symbols {shorten(''.join(sorted(used)))}, which do not fit {game.name} "
        f"(symbols {game.alphabet}); give --alphabet FROM=TO to say which of the file's symbols is which"
    )


class _Codes:
    """Maps the file's code strings to the game's, checking each one; errors name the position."""

    def __init__(self, game: Game, mapping: dict[str, str] | None, source: str) -> None:
        self.game, self.mapping, self.source = game, mapping, source
        self.index = game.code_index

    def __call__(self, raw: str, line: int, col: int) -> tuple[int, ...]:
        game = self.game
        shown = shorten(raw)
        what = f"{game.positions} symbols from {game.alphabet}{'' if game.repeats else ', all different'}"
        odd = next((ch for ch in raw if not ch.isascii()), None)
        if odd is not None:  # as rules.parse_symbols: no full-width digits, and 'ß' is not 'SS'
            raise _err(self.source, line, col, f"code {shown!r} uses {odd!r}; {game.name} codes have {what}")
        text = raw.upper()  # ASCII: one character each
        if self.mapping is not None:
            out = []
            for ch in text:
                if ch not in self.mapping:
                    raise _err(self.source, line, col, f"code {shown!r} uses {ch!r}, which the symbol map does not cover")
                out.append(self.mapping[ch])
            text = "".join(out)
        if len(text) != game.positions:
            raise _err(self.source, line, col, f"code {shown!r} has {len(text)} symbols; {game.name} codes have {what}")
        lookup = game.symbol_lookup
        if any(ch not in lookup for ch in text):
            raise _err(self.source, line, col, f"code {shown!r} is not a {game.name} code: codes have {what}")
        code = tuple(lookup[ch] for ch in text)
        if code not in self.index:
            raise _err(self.source, line, col, f"code {shown!r} repeats a symbol; {game.name} codes have {what}")
        return code


def _code_text(game: Game, code: tuple[int, ...]) -> str:
    return "".join(game.alphabet[s] for s in code)


def _partition(game: Game, guess: tuple[int, ...], secrets: list) -> dict[int, list]:
    groups: dict[int, list] = {}
    for s in secrets:
        groups.setdefault(score_symbols(game, guess, s), []).append(s)
    return groups


def _read_header(lines: list[str], source: str) -> dict | None:
    for number, line in enumerate(lines, 1):
        if line.startswith(HEADER):
            try:
                meta = orjson.loads(line[len(HEADER) :])
            except orjson.JSONDecodeError as exc:
                raise _err(source, number, len(HEADER) + 1, f"the treegen header is not JSON ({exc})") from None
            if not isinstance(meta, dict) or not isinstance(meta.get("game"), dict):
                raise _err(source, number, 1, "the treegen header must be a JSON object with a 'game'")
            return meta
        if line.strip() and not line.lstrip().startswith("#"):
            return None
    return None


def _header_game(meta: dict | None, source: str) -> Game | None:
    if meta is None:
        return None
    try:
        return game_from_dict(meta["game"])
    except (GameError, TypeError, ValueError) as exc:
        raise FormatError(f"{source}: the treegen header names an unknown game: {exc}") from None


def _header_alphabet(meta: dict | None, given: str | None, source: str) -> str | None:
    """``--alphabet`` if given, else the map a treegen header names (an export with ``--alphabet``)."""
    if given is not None or meta is None or meta.get("alphabet") is None:
        return given
    if not isinstance(meta["alphabet"], str):
        raise FormatError(f"{source}: the treegen header's 'alphabet' must be a string FROM=TO")
    return meta["alphabet"]


def _choose_game(
    given: Game | None, meta_game: Game | None, guessed: Game | None, source: str, why: str
) -> tuple[Game, list[str]]:
    if given is not None:
        if meta_game is not None and (meta_game.positions, meta_game.alphabet, meta_game.repeats) != (
            given.positions, given.alphabet, given.repeats
        ):
            raise FormatError(f"{source} is a tree for {meta_game.describe()}, not for {given.describe()}")
        return given, []
    if meta_game is not None:
        return meta_game, []
    if guessed is not None:
        return guessed, [f"game {guessed.name} ({guessed.describe().split(': ', 1)[1]}), from {why}"]
    raise FormatError(f"{source}: cannot tell the game from {why}; give --game G (a preset or bc:P:N / mm:P:N)")


def _header_line(tree: Tree, alphabet: str | None = None) -> str:
    meta: dict[str, Any] = {"game": game_to_dict(tree.game), "strategy": tree.strategy, "stats": tree.stats.to_obj()}
    if tree.provenance is not None:
        meta["provenance"] = dict(tree.provenance)
    if alphabet is not None:
        meta["alphabet"] = alphabet
    return HEADER + orjson.dumps(meta).decode() + "\n"


def _relabel(tree: Tree, alphabet: str) -> Tree:
    """The tree written in other symbols: ``FROM=TO`` says the game's ``TO[i]`` is written ``FROM[i]``.

    The result's game is the same game with the symbols renamed (for writing only: its name no longer
    matches its alphabet). Scoring compares symbol indices, so hints and classes are unchanged.
    """
    mapping = parse_alphabet_map(alphabet)
    back = {to: frm for frm, to in mapping.items()}
    game = tree.game
    missing = [c for c in game.alphabet if _fold(c) not in back]
    if missing:
        raise FormatError(
            f"--alphabet {shorten(alphabet)} does not say how to write {''.join(missing)}; give every symbol of "
            f"{game.name} ({game.alphabet}) on the right of '='"
        )
    table = str.maketrans({c: back[_fold(c)] for c in game.alphabet})

    def node(n: Node) -> Node:
        return Node(n.guess.translate(table), tuple((k, node(c)) for k, c in n.next))

    renamed = Game(game.name, game.positions, game.alphabet.translate(table), game.repeats, game.notation)
    return Tree(renamed, tree.strategy, node(tree.root), tree.stats, tree.provenance)


def _parse_own(game: Game, text: str) -> tuple[int, ...]:
    return tuple(game.alphabet.index(ch) for ch in text)


# -- paths -----------------------------------------------------------------------------------------

_PATHS_ACCEPTED = "each line is SECRET: GUESS1 GUESS2 ... SECRET (comments start with #)"


def parse_paths(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<paths>"
) -> Parsed:
    """Read the paths format. Same history, same guess: lines that disagree are named."""
    lines = text.splitlines()
    meta = _read_header(lines, source)
    rows: list[tuple[int, str, int, list[tuple[str, int]]]] = []  # line, secret, its column, (guess, column)
    for number, line in enumerate(lines, 1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        if ":" not in body:
            raise _err(source, number, 1, f"no ':' after the secret; {_PATHS_ACCEPTED}")
        head, tail = body.split(":", 1)
        secret = head.strip()
        if not secret or len(secret.split()) != 1:
            raise _err(source, number, 1, f"expected one secret before ':'; {_PATHS_ACCEPTED}")
        guesses = [(m.group(), len(head) + 2 + m.start()) for m in re.finditer(r"\S+", tail)]
        if not guesses:
            raise _err(source, number, len(head) + 2, f"no guesses after ':'; {_PATHS_ACCEPTED}")
        rows.append((number, secret, len(head) - len(head.lstrip()) + 1, guesses))
    if not rows:
        raise FormatError(f"{source} has no paths; {_PATHS_ACCEPTED}")
    lengths = {len(r[1]) for r in rows}
    guessed = guess_game(len(rows[0][1]), len(rows)) if len(lengths) == 1 else None
    g, notes = _choose_game(game, _header_game(meta, source), guessed, source,
                            f"{len(rows)} paths of {len(rows[0][1])}-symbol codes")
    used = {ch for r in rows for word in [r[1]] + [w for w, _ in r[3]] for ch in _fold(word)}
    alphabet = _header_alphabet(meta, alphabet, source)
    occ = ((w, r[0], c) for r in rows for w, c in [(r[1], r[2])] + r[3])
    mapping, map_text = _symbol_map(g, used, alphabet, occ, source)
    if map_text and alphabet is None:
        notes.append(f"symbols mapped as --alphabet {map_text}")
    codes = _Codes(g, mapping, source)
    win = g.win_hint

    # One trie node per history: [guess, line that first made it, {hint: node}].
    root: list | None = None
    seen: dict[tuple, int] = {}
    for number, secret_raw, scol, guesses in rows:
        secret = codes(secret_raw, number, scol)
        if secret in seen:
            raise InvalidTree((), f"line {number} repeats the secret {_code_text(g, secret)} of line {seen[secret]}")
        seen[secret] = number
        history: list[str] = []
        slot_parent: list | None = None
        slot_key = 0
        for k, (graw, gcol) in enumerate(guesses):
            guess = codes(graw, number, gcol)
            gtext = _code_text(g, guess)
            node = root if slot_parent is None else slot_parent[2].get(slot_key)
            if node is None:
                node = [gtext, number, {}]
                if slot_parent is None:
                    root = node
                else:
                    slot_parent[2][slot_key] = node
            elif node[0] != gtext:
                where = f"after {' '.join(history)}" if history else "first"
                raise InvalidTree(
                    history, f"line {number} guesses {gtext} {where} but line {node[1]} guesses {node[0]}"
                )
            hint = score_symbols(g, guess, secret)
            history += [gtext, format_hint(g, hint)]
            if hint == win:
                if k != len(guesses) - 1:
                    raise InvalidTree(history, f"line {number}: {gtext} is the secret, yet the line goes on")
                break
            slot_parent, slot_key = node, hint
        else:
            raise InvalidTree(
                history, f"line {number}: the path for {_code_text(g, secret)} ends before guessing the secret"
            )
    missing = [c for c in g.codes if c not in seen]
    if missing:
        shown = " ".join(_code_text(g, c) for c in missing[:3]) + (" ..." if len(missing) > 3 else "")
        raise InvalidTree((), f"no path for {len(missing)} secret{'s' if len(missing) != 1 else ''} ({shown})")

    def build(t: list) -> Node:
        if not t[2]:
            return Node(t[0])
        return Node.build(t[0], {format_hint(g, h): build(c) for h, c in t[2].items()})

    return Parsed(g, build(root), tuple(notes), meta, map_text)


def format_paths(tree: Tree, header: bool = True, alphabet: str | None = None) -> str:
    """One line per secret in code order: ``SECRET: GUESS1 ... SECRET``, after the treegen header.

    With ``alphabet`` (``FROM=TO``), the game's symbol ``TO[i]`` is written ``FROM[i]``, and the header
    says so, so that the import maps the symbols back by itself.
    """
    out = [_header_line(tree, alphabet)] if header else []
    if alphabet is not None:
        tree = _relabel(tree, alphabet)
    game = tree.game
    lines: list[tuple[tuple, str]] = []
    for visit in walk(game, tree.root):
        for s in visit.groups.get(game.win_hint, ()):  # the secret this guess solves, if any
            guesses = visit.path[0::2] + (visit.node.guess,)
            lines.append((s, f"{visit.node.guess}: {' '.join(guesses)}\n"))
    lines.sort()
    out += [line for _, line in lines]
    return "".join(out)


# -- Irving notation -------------------------------------------------------------------------------


def _irving_order(game: Game) -> list[tuple[int, int]]:
    """The (bulls, cows) of each entry: bulls 0..P, cows high to low, never (P-1, 1) (impossible)."""
    p = game.positions
    return [(a, b) for a in range(p + 1) for b in range(p - a, -1, -1) if not (a == p - 1 and b == 1)]


_DIGITS = re.compile(r"[0-9]+")  # not \d, which also takes '１' and '٣'
_LABELS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # sub-tree names: not str.isupper, which takes 'Ä'


@dataclass
class _IState:
    count: int | None  # the class size written (None for a definition's body)
    line: int
    col: int
    label: str | None = None
    guess: str | None = None
    guess_at: tuple[int, int] = (0, 0)
    flag: str = ""  # '', '*' or 'x'
    entries: list | None = None  # elaborated: one _IState per entry of _irving_order


class _IrvingReader:
    def __init__(self, text: str, source: str, positions: int) -> None:
        self.text, self.source, self.pos = text, source, 0
        self.positions = positions
        self.order = _irving_order(Game("probe", positions, SYMBOLS[: max(positions, 2)], True))
        self.knuth = False
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, pos: int | None = None) -> tuple[int, int]:
        pos = self.pos if pos is None else pos
        k = bisect.bisect_right(self.line_starts, pos) - 1
        return k + 1, pos - self.line_starts[k] + 1

    def fail(self, msg: str, pos: int | None = None) -> FormatError:
        line, col = self.where(pos)
        return _err(self.source, line, col, msg)

    def skip(self) -> None:
        t = self.text
        while self.pos < len(t):
            ch = t[self.pos]
            if ch in " \t\r\n":
                self.pos += 1
            elif ch == "#":
                while self.pos < len(t) and t[self.pos] != "\n":
                    self.pos += 1
            else:
                break

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch: str, what: str) -> None:
        if self.peek() != ch:
            got = repr(self.peek()) if self.peek() else "the end of the file"
            raise self.fail(f"expected {what}, found {got}")
        self.pos += 1

    def number(self) -> int:
        self.skip()
        m = _DIGITS.match(self.text, self.pos)
        if not m:
            got = repr(self.peek()) if self.peek() else "the end of the file"
            raise self.fail(f"expected the number of secrets in a class, found {got}")
        line, col = self.where()
        self.pos = m.end()
        # No class has more secrets than a game has codes; parse_int also spares int() 5000 digits.
        return _number(m.group(), "the number of secrets in a class", self.source, line, col, 0, MAX_CODES)

    def state(self, with_count: bool) -> _IState:
        self.skip()
        line, col = self.where()
        st = _IState(self.number() if with_count else None, line, col)
        ch = self.peek()
        if with_count and ch in _LABELS:
            st.label = ch
            self.pos += 1
            return st
        if ch != "(":
            if not with_count:
                raise self.fail("expected '(' to open a named sub-tree")
            return st
        self.pos += 1
        self.skip()
        st.guess_at = self.where()
        m = re.compile(r"[0-9A-Za-z]+").match(self.text, self.pos)
        if not m:
            raise self.fail("expected a guess after '('")
        word = m.group()
        self.pos = m.end()
        if word.endswith("x"):  # Knuth's mark: the guess leaves classes of at most two secrets
            st.flag, word = "x", word[:-1]
        elif self.peek() in ("*", "x"):
            st.flag = self.peek()
            self.pos += 1
        st.guess = word
        ch = self.peek()
        if ch == ")":
            self.pos += 1
            return st
        if ch != ":":
            raise self.fail(f"expected ')' or ':' after the guess {word}")
        self.pos += 1
        st.entries = self.entries()
        return st

    def entries(self) -> list:
        """The entries of an elaborated guess, in ``_irving_order``.

        Knuth (1976) also writes the impossible entry (P-1 bulls, 1 cow) as an explicit ``0`` before
        (P-1, 0); like mmstrat's reader, a bare 0 followed by ',' there is that entry and is dropped.
        """
        p = self.positions
        out = []
        for k, (a, b) in enumerate(self.order):
            st = self.state(True)
            if (a, b) == (p - 1, 0) and self.peek() == "," and st.count == 0 and st.guess is None and st.label is None:
                self.pos += 1
                self.knuth = True
                st = self.state(True)
            out.append(st)
            last = k == len(self.order) - 1
            sep = ")" if last else ("," if self.order[k + 1][0] == a else ";")
            if self.peek() != sep:
                got = repr(self.peek()) if self.peek() else "the end of the file"
                raise self.fail(
                    f"expected {sep!r} after the entry for {a} bulls and {b} cows, found {got} "
                    f"(entries go bulls 0..{p}, cows high to low, ',' within a bulls group, ';' between groups)"
                )
            self.pos += 1
        return out


def parse_irving(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<irving>"
) -> Parsed:
    """Read a strategy in Irving notation (see the module docstring and docs/tree-format.md).

    ``N`` alone is a class of N secrets left to the obvious play: 0 (no branch), 1 (guess it), 2 (guess
    the lower code, then the other); ``N (G)`` guesses G and every class it leaves has at most two
    secrets (played the same way); ``N (G: ...)`` lists the classes after G; ``N X`` is the class
    spelled out in ``X = (G: ...)``. Every written class size must be the true size.
    """
    lines = text.splitlines()
    meta = _read_header(lines, source)
    # The positions come from the first guess: the order of the entries depends on them.
    m = re.search(r"\(\s*([0-9A-Za-z]+?)x?\s*[:)*x]", re.sub(r"#[^\n]*", "", text))
    if not m:
        raise FormatError(f"{source}: no guess found; a strategy in Irving notation starts like 1296 (1122: ...)")
    p = len(m.group(1))
    meta_game = _header_game(meta, source)
    reader = _IrvingReader(text, source, p)
    root = reader.state(True)
    defs: dict[str, _IState] = {}
    while reader.peek():
        at = reader.pos
        ch = reader.peek()
        if ch not in _LABELS:
            raise reader.fail(f"expected a sub-tree definition such as 'A = (...)', found {ch!r}")
        reader.pos += 1
        reader.expect("=", "'=' after the sub-tree name")
        if ch in defs:
            raise reader.fail(f"sub-tree {ch} is defined twice", at)
        defs[ch] = reader.state(False)
    guessed = guess_game(p, root.count) if root.count else None
    g, notes = _choose_game(game, meta_game, guessed, source, f"the root class of {root.count} {p}-symbol codes")
    if g.positions != p:
        raise FormatError(f"{source}: the guesses have {p} symbols but {g.name} codes have {g.positions}")
    if reader.knuth:
        notes.append("the impossible hint (P-1 bulls, 1 cow) is written as an explicit 0 (Knuth's layout)")

    used: set[str] = set()

    def collect(st: _IState) -> None:
        if st.guess:
            used.update(_fold(st.guess))
        for e in st.entries or ():
            collect(e)

    collect(root)
    for d in defs.values():
        collect(d)
    occ: list[tuple[str, int, int]] = []

    def locate(st: _IState) -> None:
        if st.guess:
            occ.append((st.guess, *st.guess_at))
        for e in st.entries or ():
            locate(e)

    for st in [root, *defs.values()]:
        locate(st)
    alphabet = _header_alphabet(meta, alphabet, source)
    mapping, map_text = _symbol_map(g, used, alphabet, occ, source)
    if map_text and alphabet is None:
        notes.append(f"symbols mapped as --alphabet {map_text}")
    codes = _Codes(g, mapping, source)
    entries = _irving_order(g)
    win = g.win_hint
    used_labels: dict[str, tuple[int, int]] = {}

    def obvious(secrets: list, path: tuple[str, ...], st: _IState) -> Node:
        if len(secrets) == 1:
            return Node(_code_text(g, secrets[0]))
        if len(secrets) == 2:
            low, high = sorted(secrets)
            h = format_hint(g, score_symbols(g, low, high))
            return Node.build(_code_text(g, low), {h: Node(_code_text(g, high))})
        raise InvalidTree(
            path, f"line {st.line}: a class of {len(secrets)} secrets has no guess (only classes of 1 or 2 may be left bare)"
        )

    def build(st: _IState, secrets: list, path: tuple[str, ...]) -> Node | None:
        if st.count is not None and st.count != len(secrets):
            raise InvalidTree(
                path, f"line {st.line} column {st.col}: the class is written as {st.count} secrets but has {len(secrets)}"
            )
        if st.label is not None:
            if st.label not in defs:
                raise _err(source, st.line, st.col, f"sub-tree {st.label} is used but never defined")
            if st.label in used_labels:
                raise _err(source, st.line, st.col, f"sub-tree {st.label} is used twice (first on line {used_labels[st.label][0]})")
            used_labels[st.label] = (st.line, st.col)
            return build(defs[st.label], secrets, path)
        if not secrets:
            if st.guess is not None:
                raise InvalidTree(path, f"line {st.line}: a guess for a class that no secret reaches")
            return None
        if st.guess is None:
            return obvious(secrets, path, st)
        guess = codes(st.guess, *st.guess_at)
        gtext = _code_text(g, guess)
        groups = _partition(g, guess, secrets)
        possible = groups.pop(win, None) is not None
        if st.entries is None:
            # The marks are indications only (mmstrat's reader ignores them); one that does not hold
            # is reported as a note, since the strategy itself is still complete.
            largest = max((len(s) for s in groups.values()), default=0)
            mark = {"": "')': the guess is possible and every class it leaves is one secret",
                    "*": "'*': the guess is not possible and every class it leaves is one secret",
                    "x": "'x': every class the guess leaves has at most two secrets"}[st.flag]
            holds = largest <= 2 if st.flag == "x" else (largest <= 1 and possible == (st.flag == ""))
            if not holds:
                mismarked.append(f"line {st.guess_at[0]} column {st.guess_at[1]} ({gtext})")
                mismarked_what.setdefault(mark, 0)
                mismarked_what[mark] += 1
            if not groups:
                return Node(gtext)
            return Node.build(
                gtext, {format_hint(g, h): obvious(s, path + (gtext, format_hint(g, h)), st) for h, s in groups.items()}
            )
        kids: dict[str, Node] = {}
        for (a, b), e in zip(entries, st.entries):
            h = g.hint(a, b)
            cls = [] if h not in g.possible_hints else groups.get(h, [])
            if h == win:
                n = len(secrets) - sum(len(s) for s in groups.values())
                if e.count != n or e.guess is not None or e.label is not None:
                    raise InvalidTree(
                        path + (gtext,),
                        f"line {e.line} column {e.col}: the all-bulls entry must be {n} "
                        f"({'the guess is' if n else 'the guess is not'} a possible secret)",
                    )
                continue
            key = format_hint(g, h)
            child = build(e, cls, path + (gtext, key))
            if child is not None:
                kids[key] = child
        if not kids:
            return Node(gtext)
        return Node.build(gtext, kids)

    mismarked: list[str] = []
    mismarked_what: dict[str, int] = {}
    node = build(root, list(g.codes), ())
    if mismarked:
        kinds = "; ".join(f"{n} x {m}" for m, n in mismarked_what.items())
        notes.append(f"{len(mismarked)} guess mark{'s do' if len(mismarked) != 1 else ' does'} not hold "
                     f"(ignored, as mmstrat does): {kinds}; first at {mismarked[0]}")
    unused = sorted(set(defs) - set(used_labels))
    if unused:
        d = defs[unused[0]]
        raise _err(source, d.line, d.col, f"sub-tree {unused[0]} is defined but never used")
    if node is None:
        raise FormatError(f"{source}: the strategy is empty")
    return Parsed(g, node, tuple(notes), meta, map_text)


def format_irving(tree: Tree, header: bool = True, alphabet: str | None = None) -> str:
    """The tree in Irving notation, as ``mmstrat`` prints it, after the treegen header line.

    A class is ``0`` (none), ``1`` (its secret is guessed next), ``N (G)`` / ``N (G*)`` when every class
    G leaves is a single secret (``*``: G itself is not possible), or ``N (G: e, ...; ...)``. The root's
    children with at least P(P+3)/2 secrets that need more than two guesses are named ``A``, ``B``, ...
    and spelled out after the root, each as ``X = (G: ...)``, with a blank line after each.
    ``alphabet`` as for :func:`format_paths`.
    """
    head = _header_line(tree, alphabet) if header else ""
    if alphabet is not None:
        tree = _relabel(tree, alphabet)
    game = tree.game
    p = game.positions
    order = _irving_order(game)
    win = game.win_hint
    named: list[tuple[str, str]] = []

    def depth(node: Node) -> int:
        return 1 + max((depth(c) for _, c in node.next), default=0)

    def state(node: Node | None, secrets: list, level: int) -> str:
        n = len(secrets)
        if node is None:
            return "0"
        d = depth(node)
        if d <= 1:
            return str(n)
        guess = _parse_own(game, node.guess)
        groups = _partition(game, guess, secrets)
        star = "" if win in groups else "*"
        if d <= 2:
            return f"{n} ({node.guess}{star})"
        kids = dict(node.next)
        parts = []
        for k, (a, b) in enumerate(order):
            h = game.hint(a, b)
            if a == p:
                text = "1" if win in groups else "0"
            else:
                key = format_hint(game, h)
                text = state(kids.get(key), groups.get(h, []), level + 1)
            sep = "," if b > 0 else (")" if a == p else ";")
            parts.append(f" {text}{sep}")
        body = f" ({node.guess}:" + "".join(parts)
        if level == 1 and n >= p * (p + 3) // 2 and len(named) < 26:
            label = chr(ord("A") + len(named))
            named.append((label, body))
            return f"{n}{label}"
        return f"{n}{body}"

    out = [head, state(tree.root, list(game.codes), 0) + "\n\n"]
    for label, body in named:
        out.append(f"{label} ={body}\n\n")
    return "".join(out)


# -- arfst23 punch cards and their yml twins -------------------------------------------------------

_ARFST_NAME = re.compile(r"solution-([0-9]+)-([0-9]+)-(\w+?)(?:\.ya?ml)?$", re.ASCII)


def arfst23_game(source: str) -> tuple[Game | None, int | None]:
    """The game (and the guess cap, None for ``unique``) that an arfst23 file name ``solution-P-C-D`` says."""
    m = _ARFST_NAME.search(os.path.basename(source))
    if not m:
        return None, None
    try:  # a name is only a hint: numbers that fit no game (or 5000 digits) just say nothing
        p, c, d = parse_int(m.group(1), "P"), parse_int(m.group(2), "C"), m.group(3)
        if d == "unique":
            return game_for(p, c, False), None
        if _DIGITS.fullmatch(d):
            return game_for(p, c, True), parse_int(d, "D")
    except (GameError, NumberError):
        return None, None
    return None, None


# A card has a row per guess node; no tree of a supported game has that many nodes or depth.
_MAX_ROW = 10**9


def _pegs(text: str) -> tuple[int, int] | None:
    """(bulls, cows) of a peg string such as ``XO--`` (X black, O white, - none)."""
    if not text or set(text) - set("XO-"):
        return None
    return text.count("X"), text.count("O")


def _peg_text(game: Game, hint: int) -> str:
    b, c = game.split_hint(hint)
    return ("X" * b + "O" * c).ljust(game.positions, "-")


def parse_arfst23(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<arfst23>"
) -> Parsed:
    """Read an arfst23 punch card: a header of peg columns, then ``ROW DEPTH GUESS CELL...`` rows.

    A cell is ``>N`` (continue at row N), a code (the one secret of that class, guessed next; in the
    all-bulls column the row's own guess) or dashes (no secret). Lines such as ``cpu=0.5s`` are ignored.
    Every row must be reached exactly once, at the depth it states.
    """
    header: list[tuple[int, int]] | None = None
    rows: dict[int, tuple[int, int, str, int, list[tuple[str, int]]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]
        if not words or line.startswith("cpu=") or words[0][0].startswith("#"):
            continue
        if header is None:
            hs = []
            for w, col in words:
                bc = _pegs(w)
                if bc is None:
                    raise _err(source, number, col, f"header column {shorten(w)!r} is not a peg string such as XO-- "
                               "(X black, O white, - none)")
                hs.append(bc)
            header = hs
            continue
        if len(words) != 3 + len(header):
            raise _err(source, number, 1, f"a row is ROW DEPTH GUESS and {len(header)} cells, one per header "
                       f"column; this line has {len(words)} fields")
        (r, rc), (d, dc) = words[0], words[1]
        for w, c in ((r, rc), (d, dc)):
            if not _DIGITS.fullmatch(w):  # not str.isdigit, which also takes '²' and '１'
                raise _err(source, number, c, "a row starts with its number and its depth")
        row = _number(r, "a row number", source, number, rc, 0, _MAX_ROW)
        if row in rows:
            raise _err(source, number, rc, f"row {r} appears twice (first on line {rows[row][0]})")
        row_depth = _number(d, "a depth", source, number, dc, 0, _MAX_ROW)
        rows[row] = (number, row_depth, words[2][0], words[2][1], words[3:])
    if header is None or not rows:
        raise FormatError(f"{source} has no rows; an arfst23 punch card is a header of peg columns, then rows")
    g0, cap = arfst23_game(source)
    p = len(rows[min(rows)][2])
    guessed = g0 if g0 is not None and g0.positions == p else None
    g, notes = _choose_game(game, None, guessed, source, "the file name solution-P-C-D")
    used = {ch for _, _, gw, _, cells in rows.values() for w in [gw] + [c for c, _ in cells]
            if not w.startswith(">") and set(w) != {"-"} for ch in _fold(w)}
    occ = ((w, number, c) for number, _, gw, gc, cells in rows.values() for w, c in [(gw, gc)] + cells
           if not w.startswith(">"))
    mapping, map_text = _symbol_map(g, used, alphabet, occ, source)
    if map_text and alphabet is None:
        notes.append(f"symbols mapped as --alphabet {map_text}")
    codes = _Codes(g, mapping, source)
    win = g.win_hint
    hints = []
    for a, b in header:
        if a + b > g.positions:
            raise FormatError(f"{source}: header column {'X' * a + 'O' * b} does not fit {g.name}")
        hints.append(g.hint(a, b))
    reached: dict[int, int] = {}

    def build(r: int, depth: int, secrets: list, path: tuple[str, ...], from_line: int) -> Node:
        if r not in rows:
            raise _err(source, from_line, 1, f"row {r} is referenced but does not exist")
        if r in reached:
            raise InvalidTree(path, f"row {r} is reached twice (first from line {reached[r]})")
        reached[r] = from_line
        number, d, graw, gcol, cells = rows[r]
        if d != depth:
            raise InvalidTree(path, f"row {r} (line {number}) says depth {d} but is reached at depth {depth}")
        guess = codes(graw, number, gcol)
        gtext = _code_text(g, guess)
        groups = _partition(g, guess, secrets)
        kids: dict[str, Node] = {}
        for h, (cell, col) in zip(hints, cells):
            key = format_hint(g, h)
            here = path + (gtext, key)
            cls = groups.get(h, [])
            if set(cell) == {"-"}:
                if cls:
                    n = len(cls)
                    raise InvalidTree(here if h != win else path + (gtext,),
                                      f"line {number} column {col}: {'-' * len(cell)} says no secret, but {n} "
                                      f"secret{'s' if n != 1 else ''} give{'s' if n == 1 else ''} "
                                      f"{key} ({' '.join(_code_text(g, s) for s in cls[:3])})")
                continue
            if h == win:
                if codes(cell, number, col) != guess:
                    raise _err(source, number, col, f"the all-bulls cell must repeat the row's guess {graw}, not {cell}")
                if not cls:
                    raise InvalidTree(path + (gtext,), f"line {number}: {graw} is not a possible secret here")
                continue
            if cell.startswith(">"):
                if not _DIGITS.fullmatch(cell[1:]):
                    raise _err(source, number, col, f"cell {shorten(cell)!r} is not >ROW, a code or dashes")
                kids[key] = build(_number(cell[1:], "a row number", source, number, col, 0, _MAX_ROW),
                                  depth + 1, cls, here, number)
            else:
                code = codes(cell, number, col)
                if cls != [code]:
                    n = len(cls)
                    raise InvalidTree(here, f"line {number} column {col}: the cell says the secret is {cell}, but "
                                      f"{n} secret{'s' if n != 1 else ''} give{'s' if n == 1 else ''} {key} here"
                                      + (f" ({' '.join(_code_text(g, s) for s in cls[:3])})" if n else ""))
                kids[key] = Node(_code_text(g, code))
        return Node.build(gtext, kids) if kids else Node(gtext)

    root = build(min(rows), 1, list(g.codes), (), 1)
    unreached = sorted(set(rows) - set(reached))
    if unreached:
        raise _err(source, rows[unreached[0]][0], 1, f"row {unreached[0]} is never reached from row {min(rows)}")
    extra = {"cap": cap} if cap is not None else {}
    return Parsed(g, root, tuple(notes), None, map_text, extra)


def format_arfst23(tree: Tree) -> str:
    """The tree as an arfst23 punch card, laid out as arfst23's program writes it.

    Rows in breadth-first order, numbered from 000; one column per hint of P positions except the
    impossible (P-1 bulls, 1 cow), in bulls-then-cows order, even for hints that this game never gives.
    """
    game = tree.game
    p = game.positions
    cols = [game.hint(a, b) for a in range(p + 1) for b in range(p + 1 - a) if not (a == p - 1 and b == 1)]
    win = game.win_hint
    dash = "-" * p
    # Rows breadth first; a row's cells are filled once every row has its number. A child that is a
    # leaf for the one secret of its class is written as that code, any other child gets a row.
    rows: list[tuple[Node, int, list, dict[int, str]]] = [(tree.root, 1, list(game.codes), {})]
    k = 0
    while k < len(rows):
        node, d, secrets, cells = rows[k]
        groups = _partition(game, _parse_own(game, node.guess), secrets)
        kids = dict(node.next)
        for h in cols:
            if h == win:
                cells[h] = node.guess if win in groups else dash
            elif h not in groups:
                cells[h] = dash
            else:
                child = kids[format_hint(game, h)]
                if not child.next and [_code_text(game, s) for s in groups[h]] == [child.guess]:
                    cells[h] = child.guess
                else:
                    cells[h] = f">{len(rows):03d}"
                    rows.append((child, d + 1, groups[h], {}))
        k += 1
    lead = 3 + 1 + 1 + 1 + p + 1  # the header is indented past "000 1 GUESS " (arfst23 writes %03d)
    out = [" " * lead + " ".join(_peg_text(game, h) for h in cols) + "\n"]
    for i, (node, d, _, cells) in enumerate(rows):
        out.append(f"{i:03d} {d} {node.guess} " + " ".join(cells[h] for h in cols) + "\n")
    return "".join(out)


# A tiny reader for the YAML that arfst23 writes: block sequences and mappings of plain scalars.
# (A general YAML reader would turn a code such as 0012 into the number 10.)


def _yml_tokens(text: str, source: str) -> list[tuple[int, int, str, str | None, str | None]]:
    """(line, column, kind, key, value): kind is 'dash', 'key' or 'scalar'; '- ' prefixes become dashes."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.strip() in ("---", "...") or line.lstrip().startswith("#"):
            continue
        col = len(line) - len(line.lstrip(" "))
        rest = line[col:]
        if "\t" in line[: col + 1]:
            raise _err(source, number, 1, "tabs cannot indent YAML")
        while rest.startswith("- ") or rest == "-":
            out.append((number, col + 1, "dash", None, None))
            col += 2
            rest = rest[2:].lstrip(" ") if rest != "-" else ""
            col = len(line) - len(rest)
        if not rest:
            continue
        m = re.fullmatch(r"([^:\s]+):(?:\s+(\S+))?", rest)
        if m:
            out.append((number, col + 1, "key", m.group(1), m.group(2)))
        elif re.fullmatch(r"\S+", rest):
            out.append((number, col + 1, "scalar", None, rest))
        else:
            raise _err(source, number, col + 1, f"cannot read {shorten(rest)!r}; expected '- VALUE', 'KEY: VALUE' or 'KEY:'")
    return out


def _yml_parse(text: str, source: str) -> Any:
    toks = _yml_tokens(text, source)
    pos = 0

    def value(col: int) -> Any:
        nonlocal pos
        line, c, kind, key, val = toks[pos]
        if c != col:
            raise _err(source, line, c, f"unexpected indentation (expected column {col})")
        if kind == "scalar":
            pos += 1
            return (val, line, c)
        if kind == "dash":
            items = []
            while pos < len(toks) and toks[pos][1] == col and toks[pos][2] == "dash":
                dline = toks[pos][0]
                pos += 1
                if pos < len(toks) and toks[pos][1] > col:
                    items.append(value(toks[pos][1]))
                else:
                    raise _err(source, dline, col, "an empty list item")
            return items
        mapping: dict[str, Any] = {}
        while pos < len(toks) and toks[pos][1] == col and toks[pos][2] == "key":
            line, c, _, key, val = toks[pos]
            if key in mapping:
                raise _err(source, line, c, f"key {shorten(key)} appears twice")
            pos += 1
            if val is not None:
                mapping[key] = (val, line, c + len(key) + 2)
            elif pos < len(toks) and (toks[pos][1] > col or (toks[pos][1] == col and toks[pos][2] == "dash")):
                mapping[key] = value(toks[pos][1])
            else:
                raise _err(source, line, c, f"key {shorten(key)} has no value")
        return (mapping, line)

    if not toks:
        raise FormatError(f"{source} is empty; an arfst23 yml file is a list [GUESS, {{PEGS: CODE or list}}]")
    doc = value(toks[0][1])
    if pos != len(toks):
        line, c = toks[pos][0], toks[pos][1]
        raise _err(source, line, c, "unexpected text after the tree (wrong indentation?)")
    return doc


def parse_arfst23_yml(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<arfst23-yml>"
) -> Parsed:
    """Read an arfst23 ``.yml`` tree: a node is ``[GUESS, {PEGS: CODE or node}]``.

    A code value is the one secret of that class, guessed next; the all-bulls key (``XXXX``) holds the
    node's own guess when it is a possible secret.
    """
    doc = _yml_parse(text, source)
    accepted = "a node is a list of two items: the guess, and a map from peg strings (XO--) to a code or a node"

    def shape(n: Any) -> tuple[tuple[str, int, int], dict, int]:
        if not isinstance(n, list) or len(n) != 2 or not isinstance(n[0], tuple) or not isinstance(n[1], tuple) \
                or not isinstance(n[1][0], dict) or not isinstance(n[0][0], str):
            line = n[0][1] if isinstance(n, tuple) else (n[0][1] if isinstance(n, list) and n and isinstance(n[0], tuple) else 1)
            raise _err(source, line, 1, accepted)
        return n[0], n[1][0], n[1][1]

    (graw, gline, gcol), _, _ = shape(doc)
    g0, cap = arfst23_game(source)
    guessed = g0 if g0 is not None and g0.positions == len(graw) else None
    g, notes = _choose_game(game, None, guessed, source, "the file name solution-P-C-D")
    used: set[str] = set()

    def collect(n: Any) -> None:
        (gw, _, _), mp, _ = shape(n)
        used.update(_fold(gw))
        for v in mp.values():
            if isinstance(v, tuple):
                used.update(_fold(v[0]))
            else:
                collect(v)

    collect(doc)
    mapping, map_text = _symbol_map(g, used, alphabet, (), source)
    if map_text and alphabet is None:
        notes.append(f"symbols mapped as --alphabet {map_text}")
    codes = _Codes(g, mapping, source)
    win = g.win_hint

    def build(n: Any, secrets: list, path: tuple[str, ...]) -> Node:
        (gw, gl, gc), mp, mline = shape(n)
        guess = codes(gw, gl, gc)
        gtext = _code_text(g, guess)
        groups = _partition(g, guess, secrets)
        kids: dict[str, Node] = {}
        seen: set[int] = set()
        for key, v in mp.items():
            bc = _pegs(key)
            if bc is None or len(key) != g.positions or bc[0] + bc[1] > g.positions:
                raise _err(source, mline, 1, f"key {shorten(key)!r} is not a peg string of {g.positions} (X black, O white, - none)")
            h = g.hint(*bc)
            seen.add(h)
            cls = groups.get(h, [])
            hkey = format_hint(g, h)
            if isinstance(v, tuple):
                code = codes(*v)
                if h == win:
                    if code != guess or not cls:
                        raise InvalidTree(path + (gtext,), f"line {v[1]}: {key}: {v[0]} must repeat the guess, "
                                          "and only when it is a possible secret")
                    continue
                if cls != [code]:
                    n_ = len(cls)
                    raise InvalidTree(path + (gtext, hkey), f"line {v[1]}: {key}: {v[0]} says the secret is {v[0]}, but "
                                      f"{n_} secret{'s' if n_ != 1 else ''} give{'s' if n_ == 1 else ''} {hkey} here")
                kids[hkey] = Node(_code_text(g, code))
            else:
                if h == win:
                    raise InvalidTree(path + (gtext,), f"line {mline}: the all-bulls key {key} cannot hold a sub-tree")
                kids[hkey] = build(v, cls, path + (gtext, hkey))
        missing = [h for h in groups if h not in seen]
        if missing:
            h = min(missing)
            n_ = len(groups[h])
            what = "the guess itself is a possible secret" if h == win else (
                f"{n_} secret{'s' if n_ != 1 else ''} give{'s' if n_ == 1 else ''} it")
            raise InvalidTree(path + (gtext,), f"line {gl}: no key {_peg_text(g, h)} ({format_hint(g, h)}), but {what}")
        return Node.build(gtext, kids) if kids else Node(gtext)

    root = build(doc, list(g.codes), ())
    extra = {"cap": cap} if cap is not None else {}
    return Parsed(g, root, tuple(notes), None, map_text, extra)


def format_arfst23_yml(tree: Tree) -> str:
    """The tree as arfst23's ``.yml``: ``- GUESS`` then ``- PEGS: CODE`` / ``PEGS:`` and a nested node."""
    game = tree.game
    win = game.win_hint
    out = ["---\n"]

    def node_lines(node: Node, secrets: list, ind: int) -> None:
        groups = _partition(game, _parse_own(game, node.guess), secrets)
        out.append(" " * ind + f"- {node.guess}\n")
        kids = dict(node.next)
        first = True
        for h in sorted(groups):
            lead = " " * ind + "- " if first else " " * (ind + 2)
            first = False
            key = _peg_text(game, h)
            if h == win:
                out.append(f"{lead}{key}: {node.guess}\n")
                continue
            child = kids[format_hint(game, h)]
            cls = groups[h]
            if not child.next and len(cls) == 1 and _code_text(game, cls[0]) == child.guess:
                out.append(f"{lead}{key}: {child.guess}\n")
            else:
                out.append(f"{lead}{key}:\n")
                node_lines(child, cls, ind + 4)

    node_lines(tree.root, list(game.codes), 0)
    return "".join(out)


# -- dot and csv (export only) ---------------------------------------------------------------------


def _dot_string(text: str) -> str:
    """``text`` as the inside of a DOT quoted string, as Graphviz shows it in a label.

    Every string from a file (the strategy, the game's name, codes of symbols such as ``"`` or ``\\``)
    goes through here: an unescaped ``"`` would end the string and let the rest add attributes (a
    ``URL="javascript:..."`` in the SVG that dot makes). Backslashes are doubled, since Graphviz reads
    ``\\N``, ``\\G`` and ``\\l`` in labels; a line break becomes ``\\n`` (a label line break) and other
    control characters a space.
    """
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r" or (ch < " " and ch != "\t") or ch == "\x7f":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def format_dot(tree: Tree, depth: int | None = None) -> str:
    """Graphviz: one box per guess (the code and how many secrets reach it), edges labelled by hint.

    With ``depth``, only the first ``depth`` levels of guesses are drawn; a box whose subtree is cut
    says how many secrets lie below it. Every text from the tree is escaped (:func:`_dot_string`).
    """
    game = tree.game
    if depth is not None and depth < 1:
        raise FormatError(f"--depth must be at least 1, not {depth}")
    s = tree.stats
    title = _dot_string(f"{game.name}: {tree.strategy}, total {s.total}, max {s.max_guesses}")
    out = [
        "digraph treegen {\n",
        f'  label="{title}";\n',
        '  labelloc=t;\n  node [shape=box, fontname="monospace"];\n  edge [fontname="monospace"];\n',
    ]
    ids: dict[tuple[str, ...], int] = {}
    for visit in walk(game, tree.root, depth):
        path, node = visit.path, visit.node
        n = sum(len(s) for s in visit.groups.values())
        i = len(ids)
        ids[path] = i
        cut = depth is not None and visit.depth == depth and node.next
        label = f"{_dot_string(node.guess)}\\n{n} secret{'s' if n != 1 else ''}"
        if cut:
            label += "\\n(subtree cut)"
        out.append(f'  n{i} [label="{label}"{", style=dashed" if cut else ""}];\n')
        if path:
            out.append(f'  n{ids[path[:-2]]} -> n{i} [label="{_dot_string(path[-1])}"];\n')
    out.append("}\n")
    return "".join(out)


# A spreadsheet opening the CSV runs a cell that starts with one of these as a formula (OWASP's list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(text: str) -> str:
    """A text cell made safe to open in a spreadsheet: a leading apostrophe if it could start a formula.

    Only text cells (codes and histories, written in the game's symbols, which a tree file chooses);
    the secrets column is a count that treegen computes and stays a number.
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def format_csv(tree: Tree) -> str:
    """One row per node, depth first: ``history,guess,secrets`` (history: guesses and hints, spaced).

    Written by the csv module (a cell with a comma, quote or line break is quoted, quotes doubled), with
    the formula guard of :func:`_csv_text` on the text cells.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["history", "guess", "secrets"])
    for visit in walk(tree.game, tree.root):
        n = sum(len(s) for s in visit.groups.values())
        writer.writerow([_csv_text(" ".join(visit.path)), _csv_text(visit.node.guess), n])
    return buf.getvalue()


# -- import and export -----------------------------------------------------------------------------


_PARSERS = {
    "paths": parse_paths,
    "irving": parse_irving,
    "arfst23": parse_arfst23,
    "arfst23-yml": parse_arfst23_yml,
}


def import_format(fmt: str, source: str) -> str:
    """The format to read ``source`` with: ``arfst23`` on a ``.yml``/``.yaml`` file means ``arfst23-yml``."""
    if fmt not in _PARSERS:
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
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    # A byte-order mark (Windows editors write one) is no part of the text: left in, it would be read
    # as a symbol of the first code or count. Lines and columns are unchanged (it is not a column).
    # The provenance's sha256 stays that of the file as given.
    text = text.removeprefix("\ufeff")
    parsed = _PARSERS[fmt](text, game, alphabet, source)
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


def export_tree(
    fmt: str, tree: Tree, depth: int | None = None, header: bool = True, alphabet: str | None = None
) -> str:
    """The text of ``tree`` in format ``fmt`` (``EXPORT_FORMATS``).

    ``depth`` is for dot only, ``header=False`` for paths and irving only; ``alphabet`` (``FROM=TO``:
    the game's ``TO[i]`` is written ``FROM[i]``) for every format but dot and csv.
    """
    if fmt not in EXPORT_FORMATS:
        raise FormatError(f"unknown export format {shorten(fmt)!r}; use one of {', '.join(EXPORT_FORMATS)}")
    if depth is not None and fmt != "dot":
        raise FormatError("--depth applies to the dot format only")
    if not header and fmt not in ("paths", "irving"):
        raise FormatError("--bare applies to the paths and irving formats only (the others have no header)")
    if alphabet is not None and fmt in ("dot", "csv"):
        raise FormatError("--alphabet applies to paths, irving, arfst23 and arfst23-yml")
    if fmt == "paths":
        return format_paths(tree, header, alphabet)
    if fmt == "irving":
        return format_irving(tree, header, alphabet)
    if alphabet is not None:
        tree = _relabel(tree, alphabet)
    if fmt == "arfst23":
        return format_arfst23(tree)
    if fmt == "arfst23-yml":
        return format_arfst23_yml(tree)
    if fmt == "dot":
        return format_dot(tree, depth)
    return format_csv(tree)


__all__ = [
    "EXPORT_FORMATS", "IMPORT_FORMATS", "FormatError", "Parsed",
    "parse_paths", "format_paths", "parse_irving", "format_irving", "parse_arfst23", "format_arfst23",
    "parse_arfst23_yml", "format_arfst23_yml", "format_dot", "format_csv", "import_tree", "export_tree",
    "guess_game", "game_for", "parse_alphabet_map", "arfst23_game",
]
