"""Feedback tables: the hint of every guess against every secret, as numpy arrays (uint8 hints).

A table has codes² bytes (one uint8 hint per guess and secret), so it stops fitting in memory well
before the largest supported game: bc:6:10 has 151200 codes and would need 22.9 GB. Callers ask
:func:`table_bytes` and :func:`table_fits` first; :func:`feedback_table` refuses, with the estimate,
a table over the memory budget (:func:`default_memory`, a quarter of the machine's memory) instead of
dying of a MemoryError or the kernel's OOM killer. ``treegen.livescore`` scores without a table.
"""

from __future__ import annotations

import os
import re
from functools import cache

import numpy as np

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
    if game.rule != "bulls-cows":
        return _score_rule(game, digits[g], _code_counts(game)[g], digits[s], _code_counts(game)[s])
    if not game.repeats:
        from . import scoring_kernels  # numba, loaded by the first caller that scores (the memory helpers need none)

        masks = _code_masks(game)
        return scoring_kernels.score_matrix_distinct(digits[g], masks[g], digits[s], masks[s])
    counts = _code_counts(game)
    if s.shape[0] < g.shape[0]:
        # numpy is slow on short rows (many guesses against a few secrets, as play's suggestions score them):
        # score the other way round, since a hint does not change when guess and secret swap places.
        return np.ascontiguousarray(_score_repeats(digits[s], counts[s], digits[g], counts[g], game.positions).T)
    return _score_repeats(digits[g], counts[g], digits[s], counts[s], game.positions)


def _score_repeats(gdigits, gcounts, sdigits, scounts, positions: int) -> np.ndarray:
    """Hints (uint8) of every guess (rows of the digit and symbol-count arrays) against every secret.

    A hint is bulls * (positions + 1) + cows with cows = common - bulls, where common is the sum over
    symbols of min(times in guess, times in secret): so bulls * positions + common. numpy builds it a
    whole block of rows at a time, one position and one symbol after another. On games with repeats this
    beats a numba kernel that scores pair by pair (numbers-baseball's table: 0.9 s against 2.9 s; mastermind's
    0.01 s) and leaves one kernel fewer to compile on a first run (0.65 s). Games without repeats keep
    theirs (scoring_kernels.score_matrix_distinct), which counts common symbols by a popcount and is the faster there.
    """
    out = np.empty((gdigits.shape[0], sdigits.shape[0]), dtype=np.uint8)
    # A block of rows at a time, so that the two scratch blocks take at most 1% of a whole table of at least
    # 3200 codes (the block's size changes the time by a few percent at most).
    step = max(16, sdigits.shape[0] // 200)
    same = np.empty((min(step, gdigits.shape[0]), sdigits.shape[0]), dtype=np.bool_)
    least = np.empty(same.shape, dtype=np.uint8)
    for i in range(0, gdigits.shape[0], step):
        block = out[i : i + step]
        rows = block.shape[0]
        block[:] = 0
        for p in range(gdigits.shape[1]):
            np.equal(gdigits[i : i + rows, p, None], sdigits[None, :, p], out=same[:rows])
            block += same[:rows]
        block *= np.uint8(positions)
        for x in range(gcounts.shape[1]):
            np.minimum(gcounts[i : i + rows, x, None], scounts[None, :, x], out=least[:rows])
            block += least[:rows]
    return out


def _score_rule(game: Game, gdigits, gcounts, sdigits, scounts) -> np.ndarray:
    """Hints (uint8) under a rule other than bulls and cows (``Game.rule_hint``), from the bulls and the common
    symbols of every guess (rows) and secret, a block of rows at a time."""
    p = game.positions
    out = np.empty((gdigits.shape[0], sdigits.shape[0]), dtype=np.uint8)
    step = max(16, sdigits.shape[0] // 200)
    if game.rule == "per-position":
        for i in range(0, gdigits.shape[0], step):
            out[i : i + step] = _per_position(gdigits[i : i + step], sdigits)
        return out
    for i in range(0, gdigits.shape[0], step):
        rows = slice(i, i + step)
        bulls = np.zeros((gdigits[rows].shape[0], sdigits.shape[0]), dtype=np.uint8)
        for k in range(p):
            bulls += gdigits[rows, k, None] == sdigits[None, :, k]
        if game.rule == "black-pegs":
            out[rows] = bulls * np.uint8(p + 1)
            continue
        common = np.zeros(bulls.shape, dtype=np.uint8)
        for x in range(gcounts.shape[1]):
            common += np.minimum(gcounts[rows, x, None], scounts[None, :, x])
        out[rows] = np.where(bulls == p, np.uint8(game.win_hint), common)  # jotto
    return out


def _per_position(gdigits, sdigits) -> np.ndarray:
    """Per-position hints (uint8: the sum of mark_k * 3**k, ``rules.score_symbols``) of every guess (rows) against
    every secret. A position not right is marked elsewhere when its letter's rank among the guess's letters not
    right, counted from the left, is at most the copies of that letter among the secret's positions not right:
    which is what marking left to right, each mark using up one copy, comes to."""
    p = gdigits.shape[1]
    right = gdigits[:, None, :] == sdigits[None, :, :]  # (guesses, secrets, positions)
    out = np.zeros(right.shape[:2], dtype=np.uint8)
    for k in range(p):
        out += right[:, :, k].astype(np.uint8) * np.uint8(2 * 3**k)
        letter = gdigits[:, k, None]
        # copies of the letter in the secret's positions not right, and its rank among the guess's not right
        copies = np.zeros(out.shape, dtype=np.uint8)
        rank = np.zeros(out.shape, dtype=np.uint8)
        for j in range(p):
            copies += (sdigits[None, :, j] == letter) & ~right[:, :, j]
            if j <= k:
                rank += (gdigits[:, j, None] == letter) & ~right[:, :, j]
        out += (~right[:, :, k] & (rank <= copies)).astype(np.uint8) * np.uint8(3**k)
    return out


class TableTooLarge(TreegenError):
    """A game whose feedback table would not fit in the memory budget."""


def table_bytes(game: Game) -> int:
    """Bytes of ``game``'s feedback table: one uint8 hint per (guess, secret) pair, codes² in all.

    Building it needs little more than this (it is written in place: by a kernel, or by numpy for games
    with repeats, whose two scratch blocks of rows take at most 1% of it from 3200 codes up; the code
    arrays it reads are codes * (positions + symbols + 8) bytes, under 1% of it for every game of at
    least 4000 codes), so this is the estimate to compare with a budget.
    """
    return game.size * game.size


def memory_total() -> int:
    """The machine's physical memory in bytes (``os.sysconf``; ``/proc/meminfo`` where sysconf lacks it)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        pass
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30  # unknown: assume a small machine, so that the default budget stays safe (1 GiB)


def default_memory() -> int:
    """The default memory budget for a feedback table: a quarter of the machine's memory.

    A quarter leaves room for the rest of the process (the search's memo, the tree being built) and
    for other programs; ``--memory`` overrides it.
    """
    return memory_total() // 4


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.I)


def parse_memory(text: str) -> int:
    """Bytes from ``4G``, ``512M``, ``1.5GB``, ``2GiB`` or a plain number of bytes (powers of 1024)."""
    m = _SIZE.match(str(text))
    if not m or float(m.group(1)) <= 0:
        raise TreegenError(f"memory {text!r} is not a size: write it as 4G, 512M, 1.5GB or a number of bytes")
    return int(float(m.group(1)) * 1024 ** "bkmgt".index(m.group(2).lower() or "b"))


def format_bytes(n: int) -> str:
    """``n`` bytes for humans: 22.9 GB (decimal units, three significant figures)."""
    for unit, size in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def table_fits(game: Game, memory: int | None = None) -> bool:
    """Whether ``game``'s table fits in ``memory`` bytes (default :func:`default_memory`)."""
    return table_bytes(game) <= (default_memory() if memory is None else memory)


def check_table(game: Game, memory: int | None = None) -> None:
    """Raise :class:`TableTooLarge`, with the estimate and what is accepted, unless the table fits."""
    budget = default_memory() if memory is None else memory
    need = table_bytes(game)
    if need > budget:
        largest = int(budget**0.5)
        raise TableTooLarge(
            f"{game.name} has {game.size} codes: its feedback table would need {format_bytes(need)}, over the "
            f"memory budget of {format_bytes(budget)}; accepted are games of at most {largest} codes within "
            f"this budget (raise it with --memory where a command offers it)"
        )


def feedback_table(game: Game, memory: int | None = None) -> np.ndarray:
    """The (codes, codes) uint8 table of hints, guess by secret. Built on first use and cached per game.

    Raises :class:`TableTooLarge` before allocating anything when the table needs more than ``memory``
    bytes (default :func:`default_memory`). The table is symmetric (swapping guess and secret changes
    neither bulls nor common symbols) but under the per-position rule.
    """
    check_table(game, memory)
    return _feedback_table(game)


@cache
def _feedback_table(game: Game) -> np.ndarray:
    every = np.arange(game.size)
    table = score_many(game, every, every)
    table.flags.writeable = False
    return table


def by_secret(game: Game, table: np.ndarray) -> np.ndarray:
    """``table`` (guess by secret, or any table indexed so) read by secret: ``out[s, g]`` is the hint of g on s.
    The table itself where hints are symmetric; under the per-position rule, whose hint changes when guess and
    secret swap (SPEED scores --Y-Y on ABIDE, ABIDE ---YY on SPEED), its transpose."""
    return np.ascontiguousarray(table.T) if game.rule == "per-position" else table


def all_codes(game: Game) -> np.ndarray:
    return np.arange(game.size, dtype=CODE_DTYPE)


class InconsistentHints(TreegenError):
    """No secret of the game gives every one of the hints."""


def consistent_secrets(game: Game, history, secrets=None) -> np.ndarray:
    """The secrets that give every (guess, hint) pair of ``history``, in code order.

    Raises InconsistentHints when none does.
    """
    alive = np.arange(game.secret_count, dtype=CODE_DTYPE) if secrets is None else np.asarray(secrets, dtype=CODE_DTYPE)
    for guess, hint in history:
        alive = alive[score_many(game, [guess], alive)[0] == hint]
    if alive.size == 0:
        said = ", ".join(f"{format_code(game, g)}={format_hint(game, h)}" for g, h in history)
        raise InconsistentHints(f"no secret of {game.name} gives these hints: {said}")
    return alive
