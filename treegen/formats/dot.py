"""Graphviz DOT, export only: one box per guess (the code and how many secrets reach it), edges labelled
by hint, optionally cut at a depth. Every text from the tree is escaped for DOT's quoted strings.
"""

from __future__ import annotations

from ..tree import Tree, walk
from .common import FormatError


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
        n = sum(len(s) for s in visit.partition.values())
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


