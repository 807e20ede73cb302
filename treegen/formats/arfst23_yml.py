"""arfst23's ``.yml`` trees, the YAML twins of its punch cards, and the small YAML reader they need.

A node is ``[GUESS, {PEGS: CODE or node}]`` in block YAML: a code is the one secret of that class,
guessed next, and the all-bulls key holds the node's own guess when it is possible. The peg strings and
the file name ``solution-P-C-D`` are the punch card's (``arfst23``). The writer nests nodes in hint
order, as arfst23's program does.
"""

from __future__ import annotations

import re
from typing import Any

from ..rules import Game, format_hint, shorten
from ..tree import InvalidTree, Node, Tree, partition
from .arfst23 import card_game, peg_text, pegs
from .common import FormatError, Parsed, code_reader, code_text, error_at, fold, secrets_give, visits


# -- a tiny reader for the YAML that arfst23 writes ------------------------------------------------
# Block sequences and mappings of plain scalars, nothing more: a general YAML reader would turn a code
# such as 0012 into the number 10, and the standard library has none.


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
            raise error_at(source, number, 1, "tabs cannot indent YAML")
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
            raise error_at(source, number, col + 1, f"cannot read {shorten(rest)!r}; expected '- VALUE', 'KEY: VALUE' or 'KEY:'")
    return out


def _yml_parse(text: str, source: str) -> Any:
    toks = _yml_tokens(text, source)
    pos = 0

    def value(col: int) -> Any:
        nonlocal pos
        line, c, kind, key, val = toks[pos]
        if c != col:
            raise error_at(source, line, c, f"unexpected indentation (expected column {col})")
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
                    raise error_at(source, dline, col, "an empty list item")
            return items
        mapping: dict[str, Any] = {}
        while pos < len(toks) and toks[pos][1] == col and toks[pos][2] == "key":
            line, c, _, key, val = toks[pos]
            if key in mapping:
                raise error_at(source, line, c, f"key {shorten(key)} appears twice")
            pos += 1
            if val is not None:
                mapping[key] = (val, line, c + len(key) + 2)
            elif pos < len(toks) and (toks[pos][1] > col or (toks[pos][1] == col and toks[pos][2] == "dash")):
                mapping[key] = value(toks[pos][1])
            else:
                raise error_at(source, line, c, f"key {shorten(key)} has no value")
        return (mapping, line)

    if not toks:
        raise FormatError(f"{source} is empty; an arfst23 yml file is a list [GUESS, {{PEGS: CODE or list}}]")
    doc = value(toks[0][1])
    if pos != len(toks):
        line, c = toks[pos][0], toks[pos][1]
        raise error_at(source, line, c, "unexpected text after the tree (wrong indentation?)")
    return doc


# -- the tree in it --------------------------------------------------------------------------------


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
            raise error_at(source, line, 1, accepted)
        return n[0], n[1][0], n[1][1]

    (graw, gline, gcol), _, _ = shape(doc)
    g, notes, extra = card_game(game, source, len(graw))
    used: set[str] = set()

    def collect(n: Any) -> None:
        (gw, _, _), mp, _ = shape(n)
        used.update(fold(gw))
        for v in mp.values():
            if isinstance(v, tuple):
                used.update(fold(v[0]))
            else:
                collect(v)

    collect(doc)
    codes = code_reader(g, used, alphabet, (), source, notes)
    win = g.win_hint

    def build(n: Any, secrets: list, path: tuple[str, ...]) -> Node:
        (gw, gl, gc), mp, mline = shape(n)
        guess = codes(gw, gl, gc)
        gtext = code_text(g, guess)
        classes = partition(g, guess, secrets)
        kids: dict[str, Node] = {}
        seen: set[int] = set()
        for key, v in mp.items():
            bc = pegs(key)
            if bc is None or len(key) != g.positions or bc[0] + bc[1] > g.positions:
                raise error_at(source, mline, 1, f"key {shorten(key)!r} is not a peg string of {g.positions} (X black, O white, - none)")
            h = g.hint(*bc)
            seen.add(h)
            cls = classes.get(h, [])
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
                                      f"{secrets_give(n_)} {hkey} here")
                kids[hkey] = Node(code_text(g, code))
            else:
                if h == win:
                    raise InvalidTree(path + (gtext,), f"line {mline}: the all-bulls key {key} cannot hold a sub-tree")
                kids[hkey] = build(v, cls, path + (gtext, hkey))
        missing = [h for h in classes if h not in seen]
        if missing:
            h = min(missing)
            n_ = len(classes[h])
            what = "the guess itself is a possible secret" if h == win else (
                f"{secrets_give(n_)} it")
            raise InvalidTree(path + (gtext,), f"line {gl}: no key {peg_text(g, h)} ({format_hint(g, h)}), but {what}")
        return Node.build(gtext, kids) if kids else Node(gtext)

    root = build(doc, list(g.codes[: g.secret_count]), ())
    return Parsed(g, root, tuple(notes), None, codes.map_text, extra)


def format_arfst23_yml(tree: Tree) -> str:
    """The tree as arfst23's ``.yml``: ``- GUESS`` then ``- PEGS: CODE`` / ``PEGS:`` and a nested node."""
    game = tree.game
    win = game.win_hint
    out = ["---\n"]

    visited = visits(tree)  # the secrets at each node, by path: tree.walk's partition

    def node_lines(path: tuple[str, ...], ind: int) -> None:
        visit = visited[path]
        node, classes = visit.node, visit.partition
        out.append(" " * ind + f"- {node.guess}\n")
        kids = dict(node.next)
        first = True
        for h in sorted(classes):
            lead = " " * ind + "- " if first else " " * (ind + 2)
            first = False
            key = peg_text(game, h)
            if h == win:
                out.append(f"{lead}{key}: {node.guess}\n")
                continue
            hkey = format_hint(game, h)
            child = kids[hkey]
            cls = classes[h]
            if not child.next and len(cls) == 1 and code_text(game, cls[0]) == child.guess:
                out.append(f"{lead}{key}: {child.guess}\n")
            else:
                out.append(f"{lead}{key}:\n")
                node_lines(path + (node.guess, hkey), ind + 4)

    node_lines((), 0)
    return "".join(out)


