"""The search's memo: :class:`Memo`, what the search knows of each set it met (a :class:`MemoEntry`), in the
compiled hash table that its inner loop reads and writes too; and :class:`SetOrbits`, the sets up to the
game's symmetry, by which the memo by orbit (``Options.orbits``) answers a set from an equivalent one."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ..feedback import code_digits
from ..rules import Code, Game
from ..symmetry import permutations
from . import search_kernels
from .contracts import Cost

@cache
def _zobrist(codes: int) -> np.ndarray:
    """A random 62-bit number per code for the memo's set hashes (fixed seed: runs are reproducible)."""
    z = np.random.default_rng(20261122).integers(0, 1 << 62, size=codes, dtype=np.int64)
    z.flags.writeable = False
    return z


GUESS_TO_FIND = -2
"""A memo entry's guess when its value is exact but was carried over from an equivalent set (see
Solver._orbit_answer): tree() searches for the set's own best guess."""


@dataclass(frozen=True, slots=True)
class MemoEntry(Cost):
    """What the memo knows of a set: a :class:`Cost` with, when exact, a best ``guess`` (or GUESS_TO_FIND);
    ``guess`` is None exactly when the value is only a lower bound."""

    guess: Code | None


class Memo:
    """The search's memo of sets: a :class:`MemoEntry` per set of secrets and key depth, in the arrays of
    the kernels' hash table (see search_kernels.memo_find). There a best guess of -1 marks a bound (and -2
    is GUESS_TO_FIND): :meth:`get` and :meth:`put` convert between that and ``MemoEntry.exact``, the one
    place that reads or writes the -1."""
    def __init__(self, codes: int, entries: int = 1 << 12) -> None:
        self.zob = _zobrist(codes)
        self.slots = np.full(2 * entries, -1, dtype=np.int64)
        self.ent = np.empty((entries, 6), dtype=np.int64)
        self.pool = np.empty(16 * entries, dtype=np.int32)
        self.state = np.zeros(2, dtype=np.int64)  # entries used, pool places used

    def __len__(self) -> int:
        return int(self.state[0])

    def arrays(self) -> tuple:
        return self.slots, self.ent, self.pool, self.state, self.zob

    def make_room(self, entries: int, places: int) -> None:
        """Grow so that ``entries`` more entries with ``places`` more secrets fit (slots stay at most
        half full, so probes stay short)."""
        used, placed = int(self.state[0]), int(self.state[1])
        cap = self.ent.shape[0]
        while used + entries > cap:
            cap *= 2
        if cap > self.ent.shape[0]:
            ent = np.empty((cap, 6), dtype=np.int64)
            ent[:used] = self.ent[:used]
            self.ent = ent
            self.slots = np.full(2 * cap, -1, dtype=np.int64)
            search_kernels.memo_rehash(self.slots, self.ent, used)
        size = self.pool.shape[0]
        while placed + places > size:
            size *= 2
        if size > self.pool.shape[0]:
            pool = np.empty(size, dtype=np.int32)
            pool[:placed] = self.pool[:placed]
            self.pool = pool

    def get(self, secrets: np.ndarray, keydepth: int) -> MemoEntry | None:
        """What the memo knows of a set, or None."""
        e, _ = search_kernels.memo_find(self.slots, self.ent, self.pool, self.zob, secrets, keydepth)
        if e < 0:
            return None
        best = int(self.ent[e, search_kernels.MEMO_BEST])
        return MemoEntry(int(self.ent[e, search_kernels.MEMO_VALUE]), best != -1, None if best == -1 else best)

    def put(self, secrets: np.ndarray, keydepth: int, entry: MemoEntry) -> None:
        self.make_room(1, secrets.shape[0])
        best = entry.guess if entry.exact else -1
        search_kernels.memo_put(self.slots, self.ent, self.pool, self.state, self.zob, secrets, keydepth, entry.value,
                                best)


class SetOrbits:
    """Sets of secrets up to the whole group (every position permutation with every symbol permutation):
    a key that equivalent sets share, and an element that maps one set onto another when there is one.

    Every hint is invariant under the group (a bull stays a bull when both codes are permuted alike, a cow
    a cow), so an element that maps a set S onto S' maps each guess's classes over S onto its image's
    classes over S': S' costs what S costs within any number of guesses, and the image of S's best guess
    is a best guess of S'. The search uses this to share one memo entry between equivalent sets (see
    solver.Solver._orbit_answer).

    The key is the matrix of how often each symbol stands at each position in the set, taken up to a
    permutation of its rows (symbols) and of its columns (positions): the least, over the column
    permutations, of the sorted rows. Equivalent sets have the same key; sets with the same key need not
    be equivalent, so :meth:`element` decides.
    """

    LIMIT = 720  # symbol maps tried per position permutation; past it the sets count as not equivalent

    def __init__(self, game: Game) -> None:
        self.digits = code_digits(game)
        self.symbols = game.symbols
        self.perms = permutations(game.positions)
        # a code's digits as one base-`symbols` number, and the codes in the order of those numbers (the
        # order of the codes themselves, in every game here), to find a code from its digits
        self.place = self.symbols ** np.arange(game.positions - 1, -1, -1, dtype=np.int64)
        values = self.digits.astype(np.int64) @ self.place
        self.order = np.argsort(values, kind="stable").astype(np.int64)
        self.values = values[self.order]
        self._mark = np.zeros(game.size, dtype=np.int8)

    def key(self, secrets: np.ndarray) -> bytes:
        """The same bytes for every set the group maps ``secrets`` onto (search_kernels.set_orbit_key)."""
        out = np.empty(self.symbols, dtype=np.int64)
        search_kernels.set_orbit_key(self.digits, secrets, self.symbols, self.perms, out)
        return out.tobytes()

    def element(self, source: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """A position permutation ``perm`` and symbol permutation ``sigma`` such that the codes with digits
        ``sigma[digits[c][perm]]``, for c in ``source``, are exactly ``target``; None when there is none, or
        when more than LIMIT symbol maps per position permutation would have to be tried
        (search_kernels.set_orbit_element)."""
        perm = np.empty(self.perms.shape[1], dtype=np.int64)
        sigma = np.empty(self.symbols, dtype=np.int64)
        if search_kernels.set_orbit_element(self.digits, self.values, self.order, self.place, source, target,
                                            self.symbols, self.perms, self.LIMIT, self._mark, perm, sigma):
            return perm, sigma
        return None
