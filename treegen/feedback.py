"""Feedback tables: the hint of every guess against every secret, as numpy arrays built by the kernels."""

from __future__ import annotations

from functools import cache

import numpy as np

from . import kernels
from .rules import Game, TreegenError, format_code, format_hint

CODE_DTYPE = np.int32  # code indices; the largest supported game has 200000 codes


@cache
def code_digits(game: Game) -> np.ndarray:
    """(codes, positions) uint8 array of symbol indices, in code order. Read-only."""
    out = np.array(game.codes, dtype=np.uint8).reshape(game.size, game.positions)
    out.flags.writeable = False
    return out


@cache
def _code_counts(game: Game) -> np.ndarray:
    digits = code_digits(game)
    counts = np.zeros((game.size, game.symbols), dtype=np.uint8)
    for p in range(game.positions):
        np.add.at(counts, (np.arange(game.size), digits[:, p]), 1)
    counts.flags.writeable = False
    return counts


@cache
def _code_masks(game: Game) -> np.ndarray:
    digits = code_digits(game).astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), digits), axis=1)
    masks.flags.writeable = False
    return masks


def score_many(game: Game, guesses, secrets) -> np.ndarray:
    """Hints (uint8) of each of ``guesses`` (rows) against each of ``secrets`` (columns), as code ints."""
    g = np.asarray(guesses, dtype=np.int64)
    s = np.asarray(secrets, dtype=np.int64)
    digits = code_digits(game)
    if not game.repeats:
        masks = _code_masks(game)
        return kernels.score_matrix_distinct(digits[g], masks[g], digits[s], masks[s])
    counts = _code_counts(game)
    return kernels.score_matrix(digits[g], counts[g], digits[s], counts[s])


@cache
def feedback_table(game: Game) -> np.ndarray:
    """The (codes, codes) uint8 table of hints, guess by secret. Built on first use and cached per game.

    The table is symmetric: swapping guess and secret changes neither bulls nor common symbols.
    """
    every = np.arange(game.size)
    table = score_many(game, every, every)
    table.flags.writeable = False
    return table


def all_codes(game: Game) -> np.ndarray:
    return np.arange(game.size, dtype=CODE_DTYPE)


class InconsistentHints(TreegenError):
    """No secret of the game gives every one of the hints."""


def consistent_secrets(game: Game, history, secrets=None) -> np.ndarray:
    """The secrets that give every (guess, hint) pair of ``history``, in code order.

    Raises InconsistentHints when none does.
    """
    alive = all_codes(game) if secrets is None else np.asarray(secrets, dtype=CODE_DTYPE)
    for guess, hint in history:
        alive = alive[score_many(game, [guess], alive)[0] == hint]
    if alive.size == 0:
        said = ", ".join(f"{format_code(game, g)}={format_hint(game, h)}" for g, h in history)
        raise InconsistentHints(f"no secret of {game.name} gives these hints: {said}")
    return alive
