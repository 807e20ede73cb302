"""arfst23's punch cards: the ``solution-P-C-D`` text files of arfst23/Mastermind.

A header line of peg strings (X black, O white, - none), then one row per guess, ``ROW DEPTH GUESS
CELL...``, a cell being ``>ROW``, the one secret of that class, or dashes. The file name says the game.
The card's peg strings and its name are also those of its YAML twin (``arfst23_yml``), which imports them
from here. The writer numbers rows breadth first, as arfst23's program does.
"""

from __future__ import annotations

import os
import re

from ..rules import Game, GameError, NumberError, format_hint, parse_int, shorten
from ..tree import InvalidTree, Node, Tree, Visit, partition
from .common import (
    DIGITS,
    FormatError,
    Parsed,
    choose_game,
    code_reader,
    code_text,
    error_at,
    fold,
    game_for,
    read_number,
    secrets_give,
    visits,
)

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
        if DIGITS.fullmatch(d):
            return game_for(p, c, True), parse_int(d, "D")
    except (GameError, NumberError):
        return None, None
    return None, None


# A card has a row per guess node; no tree of a supported game has that many nodes or depth.
_MAX_ROW = 10**9


def card_game(game: Game | None, source: str, positions: int) -> tuple[Game, list[str], dict]:
    """The game of an arfst23 file (``--game``, else its name ``solution-P-C-D`` when P is the length of
    its codes), the notes on what was assumed, and ``Parsed.extra`` (``{"cap": D}`` when D is a number)."""
    named, cap = arfst23_game(source)
    guessed = named if named is not None and named.positions == positions else None
    chosen, notes = choose_game(game, None, guessed, source, "the file name solution-P-C-D")
    return chosen, notes, ({"cap": cap} if cap is not None else {})


def pegs(text: str) -> tuple[int, int] | None:
    """(bulls, cows) of a peg string such as ``XO--`` (X black, O white, - none)."""
    if not text or set(text) - set("XO-"):
        return None
    return text.count("X"), text.count("O")


def peg_text(game: Game, hint: int) -> str:
    """The peg string of ``hint``: X per bull, O per cow, dashes to the game's length."""
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
                bc = pegs(w)
                if bc is None:
                    raise error_at(source, number, col, f"header column {shorten(w)!r} is not a peg string such as XO-- "
                               "(X black, O white, - none)")
                hs.append(bc)
            header = hs
            continue
        if len(words) != 3 + len(header):
            raise error_at(source, number, 1, f"a row is ROW DEPTH GUESS and {len(header)} cells, one per header "
                       f"column; this line has {len(words)} fields")
        (r, rc), (d, dc) = words[0], words[1]
        for w, c in ((r, rc), (d, dc)):
            if not DIGITS.fullmatch(w):  # not str.isdigit, which also takes '²' and '１'
                raise error_at(source, number, c, "a row starts with its number and its depth")
        row = read_number(r, "a row number", source, number, rc, 0, _MAX_ROW)
        if row in rows:
            raise error_at(source, number, rc, f"row {r} appears twice (first on line {rows[row][0]})")
        row_depth = read_number(d, "a depth", source, number, dc, 0, _MAX_ROW)
        rows[row] = (number, row_depth, words[2][0], words[2][1], words[3:])
    if header is None or not rows:
        raise FormatError(f"{source} has no rows; an arfst23 punch card is a header of peg columns, then rows")
    g, notes, extra = card_game(game, source, len(rows[min(rows)][2]))
    used = {ch for _, _, gw, _, cells in rows.values() for w in [gw] + [c for c, _ in cells]
            if not w.startswith(">") and set(w) != {"-"} for ch in fold(w)}
    occ = ((w, number, c) for number, _, gw, gc, cells in rows.values() for w, c in [(gw, gc)] + cells
           if not w.startswith(">"))
    codes = code_reader(g, used, alphabet, occ, source, notes)
    win = g.win_hint
    hints = []
    for a, b in header:
        if a + b > g.positions:
            raise FormatError(f"{source}: header column {'X' * a + 'O' * b} does not fit {g.name}")
        hints.append(g.hint(a, b))
    reached: dict[int, int] = {}

    def build(r: int, depth: int, secrets: list, path: tuple[str, ...], from_line: int) -> Node:
        if r not in rows:
            raise error_at(source, from_line, 1, f"row {r} is referenced but does not exist")
        if r in reached:
            raise InvalidTree(path, f"row {r} is reached twice (first from line {reached[r]})")
        reached[r] = from_line
        number, d, graw, gcol, cells = rows[r]
        if d != depth:
            raise InvalidTree(path, f"row {r} (line {number}) says depth {d} but is reached at depth {depth}")
        guess = codes(graw, number, gcol)
        gtext = code_text(g, guess)
        classes = partition(g, guess, secrets)
        kids: dict[str, Node] = {}
        for h, (cell, col) in zip(hints, cells):
            key = format_hint(g, h)
            here = path + (gtext, key)
            cls = classes.get(h, [])
            if set(cell) == {"-"}:
                if cls:
                    n = len(cls)
                    raise InvalidTree(here if h != win else path + (gtext,),
                                      f"line {number} column {col}: {'-' * len(cell)} says no secret, but "
                                      f"{secrets_give(n)} {key} ({' '.join(code_text(g, s) for s in cls[:3])})")
                continue
            if h == win:
                if codes(cell, number, col) != guess:
                    raise error_at(source, number, col, f"the all-bulls cell must repeat the row's guess {graw}, not {cell}")
                if not cls:
                    raise InvalidTree(path + (gtext,), f"line {number}: {graw} is not a possible secret here")
                continue
            if cell.startswith(">"):
                if not DIGITS.fullmatch(cell[1:]):
                    raise error_at(source, number, col, f"cell {shorten(cell)!r} is not >ROW, a code or dashes")
                kids[key] = build(read_number(cell[1:], "a row number", source, number, col, 0, _MAX_ROW),
                                  depth + 1, cls, here, number)
            else:
                code = codes(cell, number, col)
                if cls != [code]:
                    n = len(cls)
                    raise InvalidTree(here, f"line {number} column {col}: the cell says the secret is {cell}, but "
                                      f"{secrets_give(n)} {key} here"
                                      + (f" ({' '.join(code_text(g, s) for s in cls[:3])})" if n else ""))
                kids[key] = Node(code_text(g, code))
        return Node.build(gtext, kids) if kids else Node(gtext)

    root = build(min(rows), 1, list(g.codes[: g.secret_count]), (), 1)
    unreached = sorted(set(rows) - set(reached))
    if unreached:
        raise error_at(source, rows[unreached[0]][0], 1, f"row {unreached[0]} is never reached from row {min(rows)}")
    return Parsed(g, root, tuple(notes), None, codes.map_text, extra)


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
    visited = visits(tree)  # the secrets at each node, by path: tree.walk's partition
    rows: list[tuple[Visit, dict[int, str]]] = [(visited[()], {})]
    k = 0
    while k < len(rows):
        visit, cells = rows[k]
        node, classes = visit.node, visit.partition
        kids = dict(node.next)
        for h in cols:
            if h == win:
                cells[h] = node.guess if win in classes else dash
            elif h not in classes:
                cells[h] = dash
            else:
                key = format_hint(game, h)
                child = kids[key]
                if not child.next and [code_text(game, s) for s in classes[h]] == [child.guess]:
                    cells[h] = child.guess
                else:
                    cells[h] = f">{len(rows):03d}"
                    rows.append((visited[visit.path + (node.guess, key)], {}))
        k += 1
    lead = 3 + 1 + 1 + 1 + p + 1  # the header is indented past "000 1 GUESS " (arfst23 writes %03d)
    out = [" " * lead + " ".join(peg_text(game, h) for h in cols) + "\n"]
    for i, (visit, cells) in enumerate(rows):
        out.append(f"{i:03d} {visit.depth} {visit.node.guess} " + " ".join(cells[h] for h in cols) + "\n")
    return "".join(out)


