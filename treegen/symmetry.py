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


def canonical_guesses(game: Game, history=(), secrets=None) -> np.ndarray:
    """One guess per class of equivalent guesses, the smallest code of its class (int32, ascending).

    ``history`` is the sequence of guesses (code ints) made so far and ``secrets`` the secrets still
    possible after their hints (None: every code). ``secrets`` must be the set that the history's hints
    leave (or any set that the group maps onto itself): then equivalent guesses split it alike.
    """
    digits, role, aut_perm, aut_sigma = _group(game, history, secrets)
    return kernels.canonical_codes(digits, role, aut_perm, aut_sigma)


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
