"""Text for people: a tree's stats table, its description and an outline of its first levels.

Presentation only: these functions return strings and never print (the command line does). Standard
library only, like the tree module they read.
"""

from __future__ import annotations

from .rules import format_hint
from .tree import Stats, Tree, walk


def format_stats(stats: Stats) -> str:
    """The summary table: secrets, total, average, max and the histogram of guesses."""
    ks = range(1, len(stats.histogram))
    counts = [stats.histogram[k] for k in ks]
    w = max([len(str(k)) for k in ks] + [len(str(c)) for c in counts] + [1])
    lines = [
        f"secrets  {stats.secrets}",
        f"total    {stats.total}",
        f"average  {stats.average:.3f}",
        f"max      {stats.max_guesses}",
        "guesses: " + " ".join(f"{k:>{w}}" for k in ks),
        "secrets: " + " ".join(f"{c:>{w}}" for c in counts),
    ]
    return "\n".join(lines)


def describe_tree(tree: Tree) -> str:
    return f"game     {tree.game.describe()}\nstrategy {tree.strategy}"


def outline(tree: Tree, depth: int = 2) -> list[str]:
    """The top ``depth`` levels of guesses as indented lines: each hint with the size of its class.

    A line ``0A1B  1440  -> 1045`` says that 1440 secrets give 0A1B and the tree then guesses 1045.
    Works on invalid trees too (missing and dead branches are marked).
    """
    game = tree.game
    win = game.win_hint
    width = len(str(game.size))
    # Each visited node's own lines, each with the path of the node it leads to; assembled in order below.
    own: dict[tuple[str, ...], list[tuple[str, tuple[str, ...] | None]]] = {}
    for visit in walk(game, tree.root, max_depth=depth):
        indent = "  " * visit.depth
        lines: list[tuple[str, tuple[str, ...] | None]] = []
        own[visit.path] = lines
        if visit.code is None:
            lines.append((f"{indent}(guess {visit.node.guess!r} is not a legal code)", None))
            continue
        kids = dict(visit.node.next)
        for h in sorted(visit.partition):
            key = format_hint(game, h)
            size = len(visit.partition[h])
            head = f"{indent}{key}  {size:>{width}}"
            if h == win:
                lines.append((f"{head}  solved", None))
                continue
            child = kids.pop(key, None)
            if child is None:
                lines.append((f"{head}  (no branch)", None))
                continue
            last = "" if child.next or size != 1 else "  (last)"
            lines.append((f"{head}  -> {child.guess}{last}", visit.path + (visit.node.guess, key)))
        for key, child in kids.items():
            lines.append((f"{indent}{key}  {0:>{width}}  -> {child.guess}  (dead branch: no secret gets here)", None))

    out = [f"{tree.root.guess}  ({game.secret_count} secrets)"]

    def emit(path: tuple[str, ...]) -> None:
        for line, below in own.get(path, ()):
            out.append(line)
            if below is not None and below in own:
                emit(below)

    if depth >= 1:
        emit(())
    return out
