"""Relabellings: a permutation of the positions with one of the symbols, under which hints do not change.

Scoring a guess against a secret counts the positions where they agree and the symbols they share; both
counts stay the same when the same permutation of positions and the same renaming of symbols is applied to
guess and secret. So a history of guesses and hints maps to another with the same hints, and the set of
secrets it leaves to the image of the set. The coach (``analysis``) and the console's advice (``play``)
use this to find a position in a tree whose own history is the image of the player's.

Standard library only (the console and the page's server import it).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .rules import Code, Game, Hint, format_hint, parse_code


@dataclass(frozen=True)
class Relabelling:
    """A map of the game's symmetry: code c goes to c' with c'[perm[p]] = symbols[c[p]]. ``symbols``
    holds only the symbols constrained so far (a partial map, extended as needed; -1 elsewhere)."""

    perm: tuple[int, ...]
    symbols: tuple[int, ...]

    def extend(self, source: Sequence[int], target: Sequence[int]) -> Relabelling | None:
        """This map extended so that it takes the symbol tuple ``source`` to ``target``, or None when no
        extension does (a symbol would go to two symbols, or two symbols to one)."""
        sym = list(self.symbols)
        for p, a in enumerate(source):
            b = target[self.perm[p]]
            if sym[a] == -1:
                if b in sym:
                    return None
                sym[a] = b
            elif sym[a] != b:
                return None
        return Relabelling(self.perm, tuple(sym))

    def inverse_code(self, target: Sequence[int]) -> tuple[int, ...]:
        """A symbol tuple that this map (extended) takes to ``target``: target's symbols that the map
        does not reach yet come from the unused symbols, lowest first, in order of first occurrence."""
        inv = {b: a for a, b in enumerate(self.symbols) if b != -1}
        free = iter(a for a in range(len(self.symbols)) if self.symbols[a] == -1)
        out = [0] * len(target)
        for p in range(len(target)):
            b = target[self.perm[p]]
            if b not in inv:
                inv[b] = next(free)
            out[p] = inv[b]
        return tuple(out)

    @classmethod
    def every(cls, game: Game) -> Iterator[Relabelling]:
        """One relabelling per permutation of the positions, its symbols not yet constrained; for a list game
        (words), the identity alone, since a relabelling need not map the list onto itself."""
        if game.listed:
            yield cls(tuple(range(game.positions)), tuple(range(game.symbols)))
            return
        for perm in itertools.permutations(range(game.positions)):
            yield cls(perm, (-1,) * game.symbols)


def follow(game: Game, start, history: Sequence[tuple[Code, Hint]], guess_of, child_of):
    """The node that the image of ``history`` reaches from ``start``, with every relabelling that maps the
    history's guesses onto the nodes' guesses; None when none follows the tree to the end.

    ``history`` holds guesses (code ints) and their hints (ints), none all-bulls; ``guess_of(node)`` is a
    node's guess as a symbol tuple and ``child_of(node, hint)`` its child for a hint int, or None. (A
    relabelling leaves hints alone, so the image's hints are the history's own.)
    """
    maps = []
    node_at = None
    for m in Relabelling.every(game):
        node = start
        for g, h in history:
            m = m.extend(game.codes[g], guess_of(node))
            if m is None:
                break
            node = child_of(node, h)
            if node is None:
                m = None
                break
        if m is not None:
            maps.append(m)
            node_at = node
    return None if node_at is None else (node_at, maps)


def find(game: Game, root, history: Sequence[tuple[Code, Hint]]):
    """:func:`follow` through the tree at ``root`` (a ``tree.Node``): (node, relabellings) or None."""
    codes: dict[str, tuple[int, ...]] = {}

    def guess_of(node) -> tuple[int, ...]:
        if node.guess not in codes:
            codes[node.guess] = game.codes[parse_code(game, node.guess)]
        return codes[node.guess]

    return follow(game, root, history, guess_of, lambda node, h: node.child(format_hint(game, h)))


def bring_back(game: Game, maps: Sequence[Relabelling], tree_guess: str) -> Code:
    """The tree's guess ``tree_guess`` in the player's labels (through the first map)."""
    return game.code_index[maps[0].inverse_code(game.codes[parse_code(game, tree_guess)])]
