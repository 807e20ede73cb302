"""Two trees of one game side by side: their figures, and the first positions where they choose differently.

Both trees are walked together from the root. While they make the same guess they meet the same classes,
so each hint leads to a pair of nodes with the same history; the first pair whose guesses differ is a
**difference**, and the walk does not go below it (below, the histories differ). Differences are listed
shallowest first, then by the size of their set, largest first: the places where the two strategies part
and that matter most.

Standard library only, like the rest of what reads tree files.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import TreegenError
from .tree import Node, Stats, Tree, walk


@dataclass(frozen=True)
class Subtree:
    """What a subtree does for the secrets that reach it: how many there are, the guesses they need from
    this node on (this one counted), and the most any needs."""

    secrets: int
    total: int
    most: int


@dataclass(frozen=True)
class Difference:
    """A position both trees reach by ``path`` (guesses and hints) where they guess differently."""

    path: tuple[str, ...]
    guesses: tuple[str, str]
    subtrees: tuple[Subtree, Subtree]

    @property
    def depth(self) -> int:
        return len(self.path) // 2 + 1


@dataclass(frozen=True)
class Comparison:
    stats: tuple[Stats, Stats]
    differences: tuple[Difference, ...]  # shallowest first, then largest set first
    positions: int  # positions both trees reach with the same history, differences included


def _subtrees(tree: Tree) -> dict[tuple[str, ...], Subtree]:
    """Every node's Subtree, by its path: T(node) = |S| + the children's T (each secret here costs this
    guess, then what its class costs), and the most is one more than the children's most."""
    size: dict[tuple[str, ...], int] = {}
    for visit in walk(tree.game, tree.root):
        size[visit.path] = sum(len(c) for c in visit.partition.values())
    total = dict(size)
    most = dict.fromkeys(size, 1)
    for path in sorted(size, key=len, reverse=True):  # children before their parents
        if path:
            parent = path[:-2]
            total[parent] += total[path]
            most[parent] = max(most[parent], most[path] + 1)
    return {p: Subtree(size[p], total[p], most[p]) for p in size}


def compare_trees(a: Tree, b: Tree) -> Comparison:
    """The figures of ``a`` and ``b`` and every first position where they guess differently.

    Raises TreegenError when the trees are for different games.
    """
    if a.game != b.game:
        raise TreegenError(f"the trees are for different games: {a.game.name} and {b.game.name}")
    sa, sb = _subtrees(a), _subtrees(b)
    diffs: list[Difference] = []
    positions = 0
    stack: list[tuple[Node, Node, tuple[str, ...]]] = [(a.root, b.root, ())]
    while stack:
        na, nb, path = stack.pop()
        positions += 1
        if na.guess != nb.guess:
            diffs.append(Difference(path, (na.guess, nb.guess), (sa[path], sb[path])))
            continue
        kids_b = nb.children
        for hint, child in reversed(na.next):
            if hint in kids_b:  # the same guess meets the same classes: every hint is in both
                stack.append((child, kids_b[hint], path + (na.guess, hint)))
    diffs.sort(key=lambda d: (d.depth, -d.subtrees[0].secrets, d.path))
    return Comparison((a.stats, b.stats), tuple(diffs), positions)
