"""The paths format: one line per secret, ``SECRET: GUESS1 GUESS2 ... SECRET`` (``#`` starts a comment).

Hints are not written: the reader plays each line's guesses against its secret and rebuilds the tree,
and lines that share a history must make the same next guess. The writer starts with the ``# treegen:``
header line, so that importing an export gives back the same tree file byte for byte.
"""

from __future__ import annotations

import re

from ..rules import Game, format_hint, score_symbols
from ..tree import InvalidTree, Node, Tree, walk
from .common import (
    FormatError,
    Parsed,
    choose_game,
    code_reader,
    code_text,
    error_at,
    fold,
    guess_game,
    header_alphabet,
    header_game,
    header_line,
    read_header,
    relabel,
)

_ACCEPTED = "each line is SECRET: GUESS1 GUESS2 ... SECRET (comments start with #)"


def parse_paths(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<paths>"
) -> Parsed:
    """Read the paths format. Same history, same guess: lines that disagree are named."""
    lines = text.splitlines()
    meta = read_header(lines, source)
    rows: list[tuple[int, str, int, list[tuple[str, int]]]] = []  # line, secret, its column, (guess, column)
    for number, line in enumerate(lines, 1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        if ":" not in body:
            raise error_at(source, number, 1, f"no ':' after the secret; {_ACCEPTED}")
        head, tail = body.split(":", 1)
        secret = head.strip()
        if not secret or len(secret.split()) != 1:
            raise error_at(source, number, 1, f"expected one secret before ':'; {_ACCEPTED}")
        guesses = [(m.group(), len(head) + 2 + m.start()) for m in re.finditer(r"\S+", tail)]
        if not guesses:
            raise error_at(source, number, len(head) + 2, f"no guesses after ':'; {_ACCEPTED}")
        rows.append((number, secret, len(head) - len(head.lstrip()) + 1, guesses))
    if not rows:
        raise FormatError(f"{source} has no paths; {_ACCEPTED}")
    lengths = {len(r[1]) for r in rows}
    guessed = guess_game(len(rows[0][1]), len(rows)) if len(lengths) == 1 else None
    g, notes = choose_game(game, header_game(meta, source), guessed, source,
                           f"{len(rows)} paths of {len(rows[0][1])}-symbol codes")
    used = {ch for r in rows for word in [r[1]] + [w for w, _ in r[3]] for ch in fold(word)}
    alphabet = header_alphabet(meta, alphabet, source)
    occ = ((w, r[0], c) for r in rows for w, c in [(r[1], r[2])] + r[3])
    codes = code_reader(g, used, alphabet, occ, source, notes)
    win = g.win_hint

    # One trie node per history: [guess, line that first made it, {hint: node}].
    root: list | None = None
    seen: dict[tuple, int] = {}
    for number, secret_raw, scol, guesses in rows:
        secret = codes(secret_raw, number, scol)
        if secret in seen:
            raise InvalidTree((), f"line {number} repeats the secret {code_text(g, secret)} of line {seen[secret]}")
        if g.code_index[secret] >= g.secret_count:  # a list game's other guesses are never the secret
            raise InvalidTree((), f"line {number}: {code_text(g, secret)} may be guessed but is never the secret")
        seen[secret] = number
        history: list[str] = []
        slot_parent: list | None = None
        slot_key = 0
        for k, (graw, gcol) in enumerate(guesses):
            guess = codes(graw, number, gcol)
            gtext = code_text(g, guess)
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
            # One secret's hint, not a partition: each line is played on its own.
            hint = score_symbols(g, guess, secret)
            history += [gtext, format_hint(g, hint)]
            if hint == win:
                if k != len(guesses) - 1:
                    raise InvalidTree(history, f"line {number}: {gtext} is the secret, yet the line goes on")
                break
            slot_parent, slot_key = node, hint
        else:
            raise InvalidTree(
                history, f"line {number}: the path for {code_text(g, secret)} ends before guessing the secret"
            )
    missing = [c for c in g.codes[: g.secret_count] if c not in seen]  # not a list game's other guesses
    if missing:
        shown = " ".join(code_text(g, c) for c in missing[:3]) + (" ..." if len(missing) > 3 else "")
        raise InvalidTree((), f"no path for {len(missing)} secret{'s' if len(missing) != 1 else ''} ({shown})")

    def build(t: list) -> Node:
        if not t[2]:
            return Node(t[0])
        return Node.build(t[0], {format_hint(g, h): build(c) for h, c in t[2].items()})

    return Parsed(g, build(root), tuple(notes), meta, codes.map_text)


def format_paths(tree: Tree, header: bool = True, alphabet: str | None = None) -> str:
    """One line per secret in code order: ``SECRET: GUESS1 ... SECRET``, after the treegen header.

    With ``alphabet`` (``FROM=TO``), the game's symbol ``TO[i]`` is written ``FROM[i]``, and the header
    says so, so that the import maps the symbols back by itself.
    """
    out = [header_line(tree, alphabet)] if header else []
    if alphabet is not None:
        tree = relabel(tree, alphabet)
    game = tree.game
    lines: list[tuple[tuple, str]] = []
    for visit in walk(game, tree.root):
        for s in visit.partition.get(game.win_hint, ()):  # the secret this guess solves, if any
            guesses = visit.path[0::2] + (visit.node.guess,)
            lines.append((s, f"{visit.node.guess}: {' '.join(guesses)}\n"))
    lines.sort()
    out += [line for _, line in lines]
    return "".join(out)
