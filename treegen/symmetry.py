"""Symmetry reduction of guesses: one representative per class of guesses that no strategy can tell apart."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from . import kernels
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
def _permutations(positions: int) -> np.ndarray:
    """Every permutation of the positions (int8 rows), the identity first."""
    perms = np.array(list(itertools.permutations(range(positions))), dtype=np.int8)
    perms.flags.writeable = False
    return perms


def _group(game: Game, history, secrets):
    digits = code_digits(game)
    hist = digits[np.asarray(history, dtype=np.int64).reshape(-1)]
    if secrets is None:
        role = kernels.symbol_roles(digits, game.symbols, hist, np.empty(0, CODE_DTYPE), True)
    else:
        role = kernels.symbol_roles(digits, game.symbols, hist, np.asarray(secrets, dtype=CODE_DTYPE), False)
    aut_perm, aut_sigma = kernels.history_automorphisms(hist, role, _permutations(game.positions))
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
        self.perms = _permutations(game.positions)
        self._by_roles: dict[bytes, np.ndarray] = {}

    def __call__(self, history=(), secrets=None) -> np.ndarray:
        hist = np.asarray(history, dtype=np.int64).reshape(-1)
        if secrets is None:
            role, aut_perm, aut_sigma = kernels.node_group(self.digits, self.symbols, hist, np.empty(0, CODE_DTYPE),
                                                           True, self.perms)
        else:
            role, aut_perm, aut_sigma = kernels.node_group(self.digits, self.symbols, hist,
                                                           np.asarray(secrets, dtype=CODE_DTYPE), False, self.perms)
        if aut_perm.shape[0]:
            return kernels.canonical_codes(self.digits, role, aut_perm, aut_sigma)
        key = role.tobytes()
        out = self._by_roles.get(key)
        if out is None:
            if len(self._by_roles) >= self.LIMIT:
                self._by_roles.clear()
            # Shared by every node with these roles, so never written to; left writeable all the same,
            # since a read-only array is another type to numba and would compile the search's kernels twice.
            out = kernels.canonical_codes(self.digits, role, aut_perm, aut_sigma)
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
    digits, role, aut_perm, aut_sigma = _group(game, history, secrets)
    minima = kernels.class_minima(digits, role, aut_perm, aut_sigma, game.repeats)
    reps, sizes = np.unique(minima, return_counts=True)
    return reps.astype(CODE_DTYPE), sizes.astype(np.int64)


def class_of(game: Game, history=(), secrets=None) -> np.ndarray:
    """For every code, the smallest code of its class (int32)."""
    digits, role, aut_perm, aut_sigma = _group(game, history, secrets)
    return kernels.class_minima(digits, role, aut_perm, aut_sigma, game.repeats)


def fresh_symbol_guesses(game: Game, history=()) -> np.ndarray:
    """The codes whose symbols unused in ``history`` are the smallest unused ones, first occurrences in
    increasing order: seed 001's enumeration ("unused digits in increasing order"), a coarser reduction
    than :func:`canonical_guesses` (int32, ascending)."""
    digits = code_digits(game)
    hist = digits[np.asarray(history, dtype=np.int64).reshape(-1)]
    role = kernels.symbol_roles(digits, game.symbols, hist, np.empty(0, CODE_DTYPE), True)
    none = np.empty((0, game.positions), dtype=np.int8)
    return kernels.canonical_codes(digits, role, none, np.empty((0, game.symbols), dtype=np.int16))


class SetOrbits:
    """Sets of secrets up to the whole group (every position permutation with every symbol permutation):
    a key that equivalent sets share, and an element that maps one set onto another when there is one.

    Every hint is invariant under the group (a bull stays a bull when both codes are permuted alike, a cow
    a cow), so an element that maps a set S onto S' maps each guess's classes over S onto its image's
    classes over S': S' costs what S costs within any number of guesses, and the image of S's best guess
    is a best guess of S'. The search uses this to share one memo entry between equivalent sets (see
    search.Solver._orbit_answer).

    The key is the matrix of how often each symbol stands at each position in the set, taken up to a
    permutation of its rows (symbols) and of its columns (positions): the least, over the column
    permutations, of the sorted rows. Equivalent sets have the same key; sets with the same key need not
    be equivalent, so :meth:`element` decides.
    """

    LIMIT = 720  # symbol maps tried per position permutation; past it the sets count as not equivalent

    def __init__(self, game: Game) -> None:
        self.digits = code_digits(game)
        self.symbols = game.symbols
        self.perms = _permutations(game.positions)
        # a code's digits as one base-`symbols` number, and the codes in the order of those numbers (the
        # order of the codes themselves, in every game here), to find a code from its digits
        self.place = self.symbols ** np.arange(game.positions - 1, -1, -1, dtype=np.int64)
        values = self.digits.astype(np.int64) @ self.place
        self.order = np.argsort(values, kind="stable").astype(np.int64)
        self.values = values[self.order]
        self._mark = np.zeros(game.size, dtype=np.int8)

    def key(self, secrets: np.ndarray) -> bytes:
        """The same bytes for every set the group maps ``secrets`` onto (kernels.orbit_key)."""
        out = np.empty(self.symbols, dtype=np.int64)
        kernels.orbit_key(self.digits, secrets, self.symbols, self.perms, out)
        return out.tobytes()

    def element(self, source: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """A position permutation ``perm`` and symbol permutation ``sigma`` such that the codes with digits
        ``sigma[digits[c][perm]]``, for c in ``source``, are exactly ``target``; None when there is none, or
        when more than LIMIT symbol maps per position permutation would have to be tried
        (kernels.orbit_element)."""
        perm = np.empty(self.perms.shape[1], dtype=np.int64)
        sigma = np.empty(self.symbols, dtype=np.int64)
        if kernels.orbit_element(self.digits, self.values, self.order, self.place, source, target, self.symbols,
                                 self.perms, self.LIMIT, self._mark, perm, sigma):
            return perm, sigma
        return None
