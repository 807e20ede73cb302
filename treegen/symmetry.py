"""Symmetry reduction of guesses: one representative per class of guesses that no strategy can tell apart."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from . import symmetry_kernels
from .feedback import CODE_DTYPE, code_digits
from .rules import Game

# The group. An element is a position permutation pi with a symbol permutation sigma, acting on codes by
# (g.c)[pi(p)] = sigma(c[p]). Given the guesses made so far (the history) and the secrets still possible,
# split the symbols into
#   A  absent: in no remaining secret,
#   F' free:   in no history guess, and not absent,
#   U  used:   in some history guess, and not absent.
# The allowed elements map A to A and F' to F' in any way and fix every history guess h once its absent
# symbols are wildcards: h[p] in A <=> h[pi(p)] in A, and sigma(h[p]) = h[pi(p)] otherwise. A guess symbol
# from A scores neither bulls nor cows against any remaining secret, so such an element maps the set of
# secrets consistent with the history's hints onto itself, and equivalent guesses split it into classes of
# the same sizes under the same hints; a guess is a possible secret iff its images are.
#
# For one position permutation at most one sigma on U is consistent with the history. Fixing it, the
# smallest code of the orbit under renaming F' and A renames their symbols in order of first occurrence to
# the smallest ones of each role; the class minimum is the smallest of these over the consistent elements.


@cache
def permutations(positions: int) -> np.ndarray:
    """Every permutation of the positions (int8 rows), the identity first (the node's group here, and
    exact.memo.SetOrbits's whole group)."""
    perms = np.array(list(itertools.permutations(range(positions))), dtype=np.int8)
    perms.flags.writeable = False
    return perms


def _group(game: Game, history, secrets):
    digits = code_digits(game)
    hist = digits[np.asarray(history, dtype=np.int64).reshape(-1)]
    if secrets is None:
        role = symmetry_kernels.symbol_roles(digits, game.symbols, hist, np.empty(0, CODE_DTYPE), True)
    else:
        role = symmetry_kernels.symbol_roles(digits, game.symbols, hist, np.asarray(secrets, dtype=CODE_DTYPE), False)
    aut_perm, aut_sigma = symmetry_kernels.history_automorphisms(hist, role, permutations(game.positions))
    return digits, role, aut_perm, aut_sigma


class NodeGuesses:
    """:func:`canonical_guesses` bound to one game, for a search that calls it at every node.

    Below the first guesses no position permutation fixes the history (over 97% of bulls-cows nodes),
    and then the classes depend on the symbols' roles alone, which few nodes do not share (under 500
    role vectors in the 10 000 nodes of bulls-cows' largest classes): those answers are kept, so such
    a node costs the roles, not a pass over every code (about 35 us there). Each solver has its own.
    """

    LIMIT = 1 << 14  # role vectors kept (at most 3**symbols occur); past it the cache starts again

    def __init__(self, game: Game) -> None:
        self.digits = code_digits(game)
        self.symbols = game.symbols
        self.perms = permutations(game.positions)
        self._by_roles: dict[bytes, np.ndarray] = {}
        # A list game (words) has no symmetry: a relabelling need not map its list onto itself. Every code
        # is its own class.
        self._every = np.arange(game.size, dtype=CODE_DTYPE) if game.listed else None

    def __call__(self, history=(), secrets=None) -> np.ndarray:
        if self._every is not None:
            return self._every
        hist = np.asarray(history, dtype=np.int64).reshape(-1)
        if secrets is None:
            role, aut_perm, aut_sigma = symmetry_kernels.node_group(self.digits, self.symbols, hist,
                                                                    np.empty(0, CODE_DTYPE), True, self.perms)
        else:
            role, aut_perm, aut_sigma = symmetry_kernels.node_group(self.digits, self.symbols, hist,
                                                                    np.asarray(secrets, dtype=CODE_DTYPE), False,
                                                                    self.perms)
        if aut_perm.shape[0]:
            return symmetry_kernels.canonical_codes(self.digits, role, aut_perm, aut_sigma)
        key = role.tobytes()
        out = self._by_roles.get(key)
        if out is None:
            if len(self._by_roles) >= self.LIMIT:
                self._by_roles.clear()
            # Shared by every node with these roles, so never written to; left writeable all the same,
            # since a read-only array is another type to numba and would compile the search's kernels twice.
            out = symmetry_kernels.canonical_codes(self.digits, role, aut_perm, aut_sigma)
            self._by_roles[key] = out
        return out


def canonical_guesses(game: Game, history=(), secrets=None) -> np.ndarray:
    """One guess per class of equivalent guesses, the smallest code of its class (int32, ascending).

    ``history`` is the sequence of guesses (code ints) made so far and ``secrets`` the secrets still
    possible after their hints (None: every code). ``secrets`` must be the set that the history's hints
    leave (or any set that the group maps onto itself): then equivalent guesses split it alike.
    """
    return NodeGuesses(game)(history, secrets)


def guess_classes(game: Game, history=(), secrets=None) -> tuple[np.ndarray, np.ndarray]:
    """The representatives of :func:`canonical_guesses` and how many codes each class has (int64).

    Slower than ``canonical_guesses`` (it maps every code to its class); meant for statistics and tests.
    """
    if game.listed:
        return np.arange(game.size, dtype=CODE_DTYPE), np.ones(game.size, dtype=np.int64)
    digits, role, aut_perm, aut_sigma = _group(game, history, secrets)
    minima = symmetry_kernels.class_minima(digits, role, aut_perm, aut_sigma, game.repeats)
    reps, sizes = np.unique(minima, return_counts=True)
    return reps.astype(CODE_DTYPE), sizes.astype(np.int64)


def class_of(game: Game, history=(), secrets=None) -> np.ndarray:
    """For every code, the smallest code of its class (int32)."""
    if game.listed:
        return np.arange(game.size, dtype=CODE_DTYPE)
    digits, role, aut_perm, aut_sigma = _group(game, history, secrets)
    return symmetry_kernels.class_minima(digits, role, aut_perm, aut_sigma, game.repeats)


def fresh_symbol_guesses(game: Game, history=()) -> np.ndarray:
    """The codes whose symbols unused in ``history`` are the smallest unused ones, first occurrences in
    increasing order: seed 001's enumeration ("unused digits in increasing order"), a coarser reduction
    than :func:`canonical_guesses` (int32, ascending)."""
    if game.listed:
        return np.arange(game.size, dtype=CODE_DTYPE)
    digits = code_digits(game)
    hist = digits[np.asarray(history, dtype=np.int64).reshape(-1)]
    role = symmetry_kernels.symbol_roles(digits, game.symbols, hist, np.empty(0, CODE_DTYPE), True)
    none = np.empty((0, game.positions), dtype=np.int8)
    return symmetry_kernels.canonical_codes(digits, role, none, np.empty((0, game.symbols), dtype=np.int16))
