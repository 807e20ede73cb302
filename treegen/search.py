"""Exact search: depth-first branch and bound for strategy trees of minimum total or minimum worst case.

Costs count guesses: a tree's total is the sum, over its secrets, of the guesses that solve each one (the
final all-bulls guess included). For a set S and a guess g that splits S into classes S_h,

    cost(S, g) = |S| + sum over non-winning hints h of cost(S_h)

because every secret of S pays for g, and the secret equal to g (if any) is solved by it.

This module is the solver of one process: bounds, the memo, ``Solver.solve``. Running a whole game
(objectives, parallel subproblems, checkpoints) is ``treegen.coordinator``'s job; it calls the solver's
per-node step (``Solver.scan`` and ``Solver.next_open``) exactly as ``Solver.solve`` does.

Sentinels, one of each (the rule every routine here keeps):
  1. A cost is an int in [0, INF]. ``INF`` means "no tree solves the set within the depth left"; it is
     also a valid lower bound for any beta.
  2. ``NO_BOUND`` (> INF) is only the starting value of a least-bound-so-far; results are clamped with
     ``min(bound, INF)`` before they leave a routine, so it is never returned or memoised.
  3. A search result is exact when it is below the beta it was given, else a lower bound >= beta. Where
     a result travels with its guess (the memo, the coordinator), it is a named type that says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

import numpy as np

from . import kernels
from .feedback import feedback_table
from .rules import Code, Game
from .symmetry import NodeGuesses, SetOrbits
from .tree import Wire

INF = int(kernels.INF)
NO_BOUND = int(kernels.NO_BOUND)
UNCAPPED = 64  # "depth left" for searches without a cap on guesses (no tree is this deep)

DenseHint = int
"""A hint renumbered 0..nh-1 over the game's possible hints (``SearchTables.hints`` maps it back), so
that per-guess counters pack into bytes of 64-bit words."""


@dataclass(frozen=True)
class Options:
    """Search levers, each switchable for ablation measurements.

    ``symmetry``: one guess per class of equivalent guesses. ``lookahead``: the one-step lower bound per
    guess (off: a guess is bounded by |S| alone until its classes are split). ``ordering``: guesses
    best-first by that bound. ``memo``: remember solved sets (exact results are kept regardless, to
    rebuild the tree). ``two_phase``: raise every big class to its own least lookahead bound before any
    class is searched in depth. ``orbits``: a set the memo does not know is looked up by its orbit under
    the game's symmetry (see symmetry.SetOrbits), so that equivalent sets share one search (off without
    ``memo``, which it lives in); None (the default): on for games of more than ``ORBITS_MIN_CODES`` codes
    (see :func:`uses_orbits`). ``shares``: a guess searched once a better one is known gives each of its
    big classes a share of its slack first (see share_slack).
    """

    symmetry: bool = True
    lookahead: bool = True
    ordering: bool = True
    memo: bool = True
    two_phase: bool = True
    orbits: bool | None = None
    shares: bool = True

    def resolved(self, game: Game) -> Options:
        """These options with ``orbits`` decided for ``game`` and the memo (what a search of it does, and
        records)."""
        return replace(self, orbits=uses_orbits(game, self.orbits, self.memo))


ORBITS_MIN_CODES = 2000
"""The memo by orbit is on by default only for games of more codes than this. On smaller games it saves
little and costs the first run its two kernels' compile: mastermind's search takes 5583 sets with it and
5605 without, in the same time (0.9 s either way, whole processes), while ``orbit_key`` and
``orbit_element`` take about 1.8 s of CPU to compile on an empty cache (scripts/first_run.py)."""


def uses_orbits(game: Game, orbits: bool | None, memo: bool = True) -> bool:
    """Whether a search of ``game`` uses the memo by orbit when asked for ``orbits`` (None: by size), with
    the ``memo`` on or off: the memo by orbit lives in the memo, so it is off without it."""
    return memo and (game.size > ORBITS_MIN_CODES if orbits is None else orbits)


@dataclass(frozen=True)
class Bounds:
    """Lower-bound tables for one game.

    ``b`` is the most non-winning classes a guess can make (possible hints minus the all-bulls hint).
    ``lb[d, k]`` is the counting bound on the total of k secrets within at most d guesses: a tree's
    node at level j solves at most one secret, and there are at most b**(j-1) nodes at level j, so
    the cheapest conceivable tree fills levels 1, 2, ... greedily; if k exceeds 1 + b + ... + b**(d-1),
    no tree exists and the bound is INF.

    ``extra`` is the crush objective's price of a secret solved with the last guess the cap allows: in
    row d (d guesses left, the last of them at the cap) a secret at level d costs d + extra. Filling the
    levels greedily still gives the least conceivable cost: it puts the fewest secrets at level d and
    the least total on the others at once, so the bound stays valid for either part of the price.
    """

    b: int
    lb: np.ndarray  # (UNCAPPED + 1, n + 1) int64

    @classmethod
    def for_game(cls, b: int, n: int, extra: int = 0) -> Bounds:
        lb = np.full((UNCAPPED + 1, n + 1), INF, dtype=np.int64)
        for d in range(UNCAPPED + 1):
            total = 0
            level_cap = 1
            k = 0
            lb[d, 0] = 0
            for level in range(1, d + 1):
                for _ in range(level_cap):
                    k += 1
                    if k > n:
                        break
                    total += level + (extra if level == d else 0)
                    lb[d, k] = total
                if k > n:
                    break
                level_cap = min(level_cap * b, n + 1)
        lb.flags.writeable = False
        return cls(b, lb)


@dataclass(frozen=True)
class SearchTables:
    """One game's feedback table with dense hint ids, shared by every solver of the process."""

    table: np.ndarray  # (codes, codes) uint8 dense hint ids
    hints: np.ndarray  # dense id -> game hint int
    nh: int
    win: int  # dense id of the all-bulls hint
    bounds: Bounds
    all_guesses: np.ndarray
    fast_limit: np.ndarray  # kernels.fast_bound_limit of each depth's bound table (int64)
    excess_limit: np.ndarray  # kernels.excess_bound_limit of each depth's bound table (int64)
    onehot: np.ndarray  # (codes, codes) uint16 or uint32: 1 << dense hint id, or (0, 0) (see onehot_table)


# The one-hot table costs two or four bytes per pair of codes; games whose table would pass this go without.
ONEHOT_MAX_BYTES = 256 << 20


def onehot_dtype(codes: int, nh: int):
    """The dtype of the one-hot table of a game of ``codes`` codes and ``nh`` hints (see onehot_table):
    uint16 up to 16 hints, uint32 up to 32, or None (no table) past that or past ONEHOT_MAX_BYTES."""
    dtype = np.uint16 if nh <= 16 else np.uint32 if nh <= 32 else None
    if dtype is None or np.dtype(dtype).itemsize * codes * codes > ONEHOT_MAX_BYTES:
        return None
    return dtype


def onehot_bytes(codes: int, nh: int) -> int:
    """The bytes of a game's one-hot table (see onehot_table): 0 when it has none."""
    dtype = onehot_dtype(codes, nh)
    return 0 if dtype is None else np.dtype(dtype).itemsize * codes * codes


def wide_onehot(game: Game) -> bool:
    """Whether ``game``'s one-hot table is uint32 (the search's kernels then compile for that type; see
    kernels.search_signature)."""
    return onehot_dtype(game.size, len(game.possible_hints)) is np.uint32


def onehot_table(dense: np.ndarray, nh: int) -> np.ndarray:
    """``1 << dense[s, g]``, the least lookahead bound's hint masks ready to OR together (see
    kernels.least_bound), as uint16 for games of at most 16 hints (about 2.5 times as fast as shifting
    each byte of ``dense`` into a 32-bit mask) or uint32 for up to 32 (about 1.4 times), while it fits in
    ONEHOT_MAX_BYTES; else an empty (0, 0) uint16 table: class_bound then counts class sizes in packed
    bytes (up to 24 hints and 255 secrets) or plainly per guess (more of either)."""
    codes = dense.shape[0]
    dtype = onehot_dtype(codes, nh)
    if dtype is None:
        onehot = np.empty((0, 0), dtype=np.uint16)
    else:
        onehot = np.empty((codes, codes), dtype=dtype)
        for i in range(0, codes, 1024):  # by blocks of rows: no temporary the size of the table
            np.left_shift(dtype(1), dense[i : i + 1024], out=onehot[i : i + 1024], dtype=dtype)
    onehot.flags.writeable = False
    return onehot


def search_tables(game: Game, extra: int = 0) -> SearchTables:
    """The tables of ``game``; ``extra``: the crush objective's price of the last guess (see Bounds).
    Built once per process: ``search_tables(game)`` and ``search_tables(game, 0)`` share one copy."""
    return _search_tables(game, extra)


@cache
def _search_tables(game: Game, extra: int) -> SearchTables:
    # functools.cache keys on the arguments as passed, so the public function passes both, always.
    if extra:
        plain = search_tables(game)
        bounds = Bounds.for_game(plain.bounds.b, game.size, extra)
        fast = np.array([kernels.fast_bound_limit(row) for row in bounds.lb], dtype=np.int64)
        excess = np.array([kernels.excess_bound_limit(row, t) for row, t in zip(bounds.lb, fast)], dtype=np.int64)
        fast.flags.writeable = excess.flags.writeable = False
        return SearchTables(plain.table, plain.hints, plain.nh, plain.win, bounds, plain.all_guesses, fast, excess,
                            plain.onehot)
    table = feedback_table(game)
    hints = sorted(game.possible_hints)
    remap = np.zeros(256, dtype=np.uint8)
    for i, h in enumerate(hints):
        remap[h] = i
    # Dense hint ids (0..nh-1) keep per-guess counters small enough to pack into 64-bit words.
    dense = remap[table]
    dense.flags.writeable = False
    bounds = Bounds.for_game(len(hints) - 1, game.size)
    fast = np.array([kernels.fast_bound_limit(row) for row in bounds.lb], dtype=np.int64)
    excess = np.array([kernels.excess_bound_limit(row, t) for row, t in zip(bounds.lb, fast)], dtype=np.int64)
    fast.flags.writeable = excess.flags.writeable = False
    return SearchTables(
        dense,
        np.array(hints, dtype=np.int64),
        len(hints),
        hints.index(game.win_hint),
        bounds,
        np.arange(game.size, dtype=np.int32),
        fast,
        excess,
        onehot_table(dense, len(hints)),
    )


def small_tree(t: SearchTables, secrets: np.ndarray) -> Wire:
    """The optimal tree of one secret (guess it) or two (guess the lower, then the other: cost 3)."""
    a = int(secrets[0])
    if secrets.shape[0] == 1:
        return [a, []]
    b = int(secrets[1])
    return [a, [[int(t.hints[t.table[a, b]]), [b, []]]]]


def wire_node(t: SearchTables, guess: Code, secrets: np.ndarray, subtree) -> Wire:
    """``[guess, children]`` in wire form: a child per non-empty non-winning class of ``guess`` over
    ``secrets``, in hint order, its tree ``subtree(class)``."""
    members, starts, _ = kernels.split_classes(t.table, guess, secrets, t.nh, t.win)
    return [guess, [[int(t.hints[h]), subtree(members[starts[h] : starts[h + 1]])]
                    for h in range(t.nh) if h != t.win and starts[h + 1] > starts[h]]]


@cache
def _zobrist(codes: int) -> np.ndarray:
    """A random 62-bit number per code for the memo's set hashes (fixed seed: runs are reproducible)."""
    z = np.random.default_rng(20261122).integers(0, 1 << 62, size=codes, dtype=np.int64)
    z.flags.writeable = False
    return z


GUESS_TO_FIND = -2
"""A memo entry's guess when its value is exact but was carried over from an equivalent set (see
Solver._orbit_answer): tree() searches for the set's own best guess."""


class MemoEntry(NamedTuple):
    """What the memo knows of a set: its exact cost and a best guess (or GUESS_TO_FIND), or (``guess``
    None) a lower bound."""

    value: int
    guess: Code | None

    @property
    def exact(self) -> bool:
        return self.guess is not None


class Memo:
    """The search's memo of sets: a :class:`MemoEntry` per set of secrets and key depth, in the arrays of
    the kernels' hash table (see kernels.memo_find; there a best guess of -1 marks a bound, and -2 is GUESS_TO_FIND)."""

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
            kernels.memo_rehash(self.slots, self.ent, used)
        size = self.pool.shape[0]
        while placed + places > size:
            size *= 2
        if size > self.pool.shape[0]:
            pool = np.empty(size, dtype=np.int32)
            pool[:placed] = self.pool[:placed]
            self.pool = pool

    def get(self, secrets: np.ndarray, keydepth: int) -> MemoEntry | None:
        """What the memo knows of a set, or None."""
        e, _ = kernels.memo_find(self.slots, self.ent, self.pool, self.zob, secrets, keydepth)
        if e < 0:
            return None
        best = int(self.ent[e, kernels.MEMO_BEST])
        return MemoEntry(int(self.ent[e, kernels.MEMO_VALUE]), None if best == -1 else best)

    def put(self, secrets: np.ndarray, keydepth: int, entry: MemoEntry) -> None:
        self.make_room(1, secrets.shape[0])
        best = entry.guess if entry.guess is not None else -1
        kernels.memo_put(self.slots, self.ent, self.pool, self.state, self.zob, secrets, keydepth, entry.value, best)


@dataclass
class SearchCounts:
    """What a solver has done since its last reset (the node figures of a search)."""

    nodes: int = 0  # sets whose guesses were scanned (memo hits and closed forms excluded)
    memo_hits: int = 0
    bound_scans: int = 0  # sets bounded by one lookahead scan before any search (counted by the kernels)


class NodeView(NamedTuple):
    """A node's codes by their keys over its set, for its classes' least bounds (see kernels.least_bound):
    ``nkeys`` each code's key over the set; ``order`` and ``runs`` the codes sorted by key, highest first,
    in runs of one key, once a class needs them (``runs[0, kernels.RUNS]`` is -1 until then); ``src`` the
    node's one-hot rows with their columns in that order, row r filled up to ``built[r]`` as the bounds
    need them. An empty ``order``: every code, in code order (:func:`no_view`)."""

    src: np.ndarray
    nkeys: np.ndarray
    order: np.ndarray
    runs: np.ndarray
    built: np.ndarray


def no_view(onehot: np.ndarray) -> NodeView:
    """The view of no node: least_bound then takes every code, in code order."""
    return NodeView(np.empty((0, 0), dtype=onehot.dtype), np.empty(0, dtype=np.uint8), np.empty(0, dtype=np.int32),
                    np.full((2, kernels.RUNS + 1), -1, dtype=np.int64), np.zeros(1, dtype=np.int64))


def node_view(onehot: np.ndarray, secrets: np.ndarray, keys: np.ndarray) -> NodeView:
    """The view of the node of ``secrets`` whose codes have ``keys`` over it (uint8, one per code; copied).
    Cheap: the kernels sort and fill it only if a class of the node is bounded by hint masks."""
    codes = keys.shape[0]
    return NodeView(np.empty((secrets.shape[0], codes), dtype=onehot.dtype), keys.copy(),
                    np.empty(codes, dtype=np.int32), np.full((2, kernels.RUNS + 1), -1, dtype=np.int64),
                    np.zeros(secrets.shape[0], dtype=np.int64))


@dataclass
class GuessScan:
    """The guesses of one node under a beta, best first, with their one-step lookahead bounds (see
    :meth:`Solver.scan`); ``least`` is the least bound >= beta among the guesses refuted so far."""

    secrets: np.ndarray
    depth: int
    guesses: np.ndarray
    bounds: np.ndarray
    least: int
    most: int  # the most key of the set (kernels.least_bound), or 3|S| where no class bound is taken from it
    view: NodeView  # the codes by their keys over the set, for its classes' least bounds


@dataclass
class OpenGuess:
    """A guess still below beta once its big classes are raised to their cheap bounds (see
    :meth:`Solver.next_open`): ``total`` = |S| + the bound of every class, where the class of dense hint
    ``big[j]`` (``members[starts[h]:starts[h + 1]]``, largest first) counts ``base[j]``."""

    index: int
    guess: Code
    total: int
    members: np.ndarray
    starts: np.ndarray
    big: np.ndarray
    base: np.ndarray

    def classes(self):
        """(dense hint, secrets, bound) of each big class, largest first."""
        for j, h in enumerate(self.big):
            yield int(h), self.members[self.starts[h] : self.starts[h + 1]], int(self.base[j])


def share_slack(values: list[int], total: int, beta: int, search_class: Callable[[int, int], int]) -> int:
    """Search the big classes of a guess whose lower bound ``total`` is below ``beta`` when a better guess
    is known already (so this one most likely fails), each with a share of the slack instead of the whole
    of it; returns the new total, with ``values`` (each class's bound, then what its search returned)
    updated. ``search_class(i, class_beta)`` searches class i under ``class_beta`` and returns its value,
    with solve's contract. Solver._search and the coordinator's chains both share their slack so.

    The classes go largest first. Class i is searched with beta ``values[i] + share``, where ``share``
    is the slack left (beta - total) split in proportion to the classes' bounds (class i's part of the
    bounds of the classes from i on, rounded up): below it the class's value is exact, else a bound >= it,
    so ``total`` stays a lower bound of the guess's cost. If every class fails its share, the shares add
    up to the slack and the guess is refuted without any class searched under the whole slack, and a
    search under a lower beta cuts more (bulls-cows' 0A2B class in one process: 1214 sets searched and
    31,504 bound scans instead of 4218 and 141,579). A class that comes in under its share passes what it
    left to the classes after it. The last class's share would be the whole slack left, which the caller's
    pass gives it, so it is left to that pass, as are the classes that failed their shares if the guess
    still stands: that pass searches them with the whole slack (in the solver their memo entries, bounds,
    raise their own classes' bounds there).
    """
    weight = sum(max(v, 1) for v in values)
    for i in range(len(values)):
        slack = beta - total
        w = max(values[i], 1)
        share = -(-slack * w // weight)  # at least 1: the class's beta is above its bound
        weight -= w
        if share >= slack:
            break
        value = search_class(i, values[i] + share)
        total += value - values[i]
        values[i] = value
        if total >= beta:
            break
    return total


@dataclass
class Solver:
    """Branch and bound over one game's feedback table. Not thread-safe; one per process.

    ``cap`` limits guesses per secret (None: unlimited). ``symmetry`` reduces guesses to one per class
    of equivalent guesses. ``lookahead`` enables the one-step lower bound per guess; without it a
    guess is bounded by |S| alone until its classes are split (for ablation). ``consistent_only`` is
    hard mode: every guess must be a secret still possible (the bounds below stay valid: each is a
    minimum over more guesses than hard mode allows, so it can only be lower). ``extra`` is the crush
    objective: each secret solved with the cap's last guess costs ``extra`` more, so that with extra
    above any total the cost orders trees by the secrets at the cap first, then by total. ``orbits``:
    the memo also answers a set by an equivalent one searched before (see _orbit_answer); None: by the
    game's size; either way off without the memo (see uses_orbits, which decides it here). ``shares``:
    a guess searched once a better one is known shares its slack among its classes first
    (see share_slack).
    """

    game: Game
    cap: int | None = None
    symmetry: bool = True
    lookahead: bool = True
    ordering: bool = True
    memo_enabled: bool = True
    two_phase: bool = True
    consistent_only: bool = False
    extra: int = 0
    orbits: bool | None = None
    shares: bool = True

    @classmethod
    def with_options(cls, game: Game, cap: int | None, options: Options, consistent_only: bool = False,
                     extra: int = 0) -> Solver:
        return cls(game, cap, options.symmetry, options.lookahead, options.ordering, options.memo, options.two_phase,
                   consistent_only, extra, options.orbits, options.shares)

    def __post_init__(self) -> None:
        if self.extra and self.cap is None:
            raise ValueError("the crush price (extra) needs a cap: it prices the last guess the cap allows")
        t = self.tables = search_tables(self.game, self.extra)
        self.table, self.hints, self.nh, self.win = t.table, t.hints, t.nh, t.win
        self.bounds, self.all_guesses = t.bounds, t.all_guesses
        self.fast_limit, self.excess_limit = t.fast_limit, t.excess_limit
        self._node_guesses = NodeGuesses(self.game)
        self.memo = Memo(self.game.size)
        self._feasible: dict = {}  # feasible()'s memo: (secrets bytes, depth) -> a guess that fits, or -1
        # scratch counters for kernels.least_bound, one word pair per code
        self._w0 = np.empty(self.game.size, dtype=np.uint64)
        self._w1 = np.empty(self.game.size, dtype=np.uint64)
        self._counts = np.zeros(3, dtype=np.int64)  # kernels.STAT_*: nodes, memo hits, bound scans (SearchCounts)
        self._no_view = no_view(t.onehot)
        # The memo by orbit: (key depth, orbit key) -> the sets searched under that key, with what the
        # memo learnt of each (see _orbit_answer).
        self.orbits = uses_orbits(self.game, self.orbits, self.memo_enabled)
        self._set_orbits = SetOrbits(self.game) if self.orbits else None
        self._by_orbit: dict[tuple[int, bytes], list[tuple[np.ndarray, MemoEntry]]] = {}

    @property
    def counts(self) -> SearchCounts:
        return SearchCounts(*(int(c) for c in self._counts))

    def take_counts(self) -> SearchCounts:
        """The counts so far, zeroed for the next piece of work."""
        counts = self.counts
        self._counts[:] = 0
        return counts

    def reset(self) -> None:
        """Forget every memoised set and zero the counts (a fresh search with the same tables)."""
        self.memo = Memo(self.game.size)
        self._by_orbit = {}
        self._feasible = {}
        self._counts[:] = 0

    # -- lower bounds ------------------------------------------------------------------------------
    def _flat_bounds(self) -> np.ndarray:
        """Ablation of the lookahead bound: with every class bounded by 0, each guess is bounded by
        |S| alone (still valid: every secret pays for the guess)."""
        return np.zeros(self.game.size + 1, dtype=np.int64)

    def _keydepth(self, depth: int) -> int:
        """The depth in a set's memo key: the guesses left when a cap makes them matter, else 0."""
        return depth if self.cap is not None else 0

    def full_depth(self) -> int:
        """The guesses a whole game may take: the cap, or UNCAPPED."""
        return self.cap if self.cap is not None else UNCAPPED

    # -- one node: the step that Solver.solve and the coordinator share ----------------------------------
    def candidate_guesses(self, secrets: np.ndarray, history: tuple[Code, ...]) -> np.ndarray:
        """The guesses worth trying at a node: every code, or with ``symmetry`` one per class of
        guesses that the symmetries fixing the history and the secrets make equivalent; in hard mode
        only the secrets among them (a symmetry maps the secrets onto themselves, so a class of
        guesses lies wholly inside or wholly outside them, and its representative tells which)."""
        if self.symmetry:
            guesses = self._node_guesses(history, secrets)
        else:
            guesses = self.all_guesses
        if self.consistent_only:
            guesses = guesses[np.isin(guesses, secrets, assume_unique=True)]
        return guesses

    def scan(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int) -> GuessScan:
        """The guesses of a node that may cost less than ``beta``, under this solver's levers.

        Each guess g is bounded by the one-step lookahead |S| + sum over its classes of the counting
        bound ``lb[depth - 1, |class|]`` (every secret pays for g; each class then costs at least its
        counting bound), or by |S| alone without ``lookahead``; best first with ``ordering``.
        """
        lbtab = self.bounds.lb[depth - 1] if self.lookahead else self._flat_bounds()
        # The set's most key bounds each class C of every guess by 3|C| - most (see kernels.least_bound):
        # part of the lookahead lever, and only where the one-hot table is; 3|S| bounds no class.
        onehot = self.tables.onehot
        most = 3 * secrets.shape[0]
        view = self._no_view
        if self.lookahead and onehot.shape[0] > 0:
            most = int(kernels.least_bound(self.table, onehot, secrets, self.nh, self.win, lbtab, 0, 0, self._w0,
                                           self._w1, True, *self._no_view, secrets))
            # least_bound left each code's key over the set in _w1: the classes' bounds take the codes in
            # that order (the same bounds, from fewer codes).
            view = node_view(onehot, secrets, self._w1.view(np.uint8)[: self.game.size])
        guesses, bounds, rest = kernels.ordered_guesses(
            self.table, self.candidate_guesses(secrets, history), secrets, self.nh, self.win, lbtab,
            self.ordering, beta, most)
        return GuessScan(secrets, depth, guesses, bounds, int(rest), most, view)

    def next_open(self, scan: GuessScan, start: int, beta: int, scan_all: bool = False) -> OpenGuess | None:
        """The first guess of ``scan`` from index ``start`` still below ``beta`` once its big classes are
        raised to cheap bounds (kernels.next_open_guess: the memoised value or bound, then, with
        ``two_phase``, the class's least lookahead bound), or None when none is left. Guesses refuted on
        the way lower ``scan.least``. ``scan_all``: the coordinator's accounting (see the kernel)."""
        secrets, depth = scan.secrets, scan.depth
        memo = self.memo
        while True:
            status, idx, total, members, starts, big, base, least = kernels.next_open_guess(
                self.table, self.tables.onehot, scan.guesses, scan.bounds, start, scan.least, secrets, beta, scan.most,
                depth, self.cap is not None, self.nh, self.win, self.bounds.lb, self.fast_limit, self.excess_limit,
                self.lookahead, self.ordering, self.two_phase, scan_all, memo.slots, memo.ent, memo.pool, memo.state,
                memo.zob, self._w0, self._w1, self._counts, *scan.view)
            scan.least = min(scan.least, int(least))
            if status == 2:  # the memo may run out of room: grow it and go on from the same guess
                memo.make_room(self.nh, secrets.shape[0])
                start = int(idx)
                continue
            if status == 1:
                return None
            idx = int(idx)
            return OpenGuess(idx, int(scan.guesses[idx]), int(total), members, starts, big, base)

    # -- the search -----------------------------------------------------------------------------------
    def solve(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...] = (), depth: int | None = None) -> int:
        """Cost of the best tree for ``secrets`` (sorted code ints) within ``depth`` guesses.

        Contract: returns the exact cost if it is below ``beta``; otherwise some lower bound >= beta
        (INF when no tree fits in ``depth`` guesses). Exact results are memoised with their best guess,
        so ``tree()`` can rebuild the optimal tree afterwards; bounds are memoised (with ``memo``) as
        bounds. Never returns NO_BOUND.
        """
        if depth is None:
            depth = self.full_depth()
        n = secrets.shape[0]
        # Closed forms: one secret costs one guess; two cost 1 + 2 (guess either, then the other). The
        # counting bound is exactly that (with the crush price when the last of them is at the cap).
        if n <= 2 or self.bounds.lb[depth, n] >= INF:
            return int(self.bounds.lb[depth, n])
        keydepth = self._keydepth(depth)
        floor = 0
        entry = self.memo.get(secrets, keydepth) if self.memo_enabled else None
        if entry is not None:
            if entry.exact or entry.value >= beta:
                self._counts[kernels.STAT_HITS] += 1
                return entry.value
            floor = entry.value  # a bound below beta: not enough to answer, but the answer is at least this
        orbit = None
        if self._set_orbits is not None:
            orbit = (keydepth, self._set_orbits.key(secrets))
            entry = self._orbit_answer(orbit, secrets, beta)
            if entry is not None:
                self._counts[kernels.STAT_HITS] += 1
                self.memo.put(secrets, keydepth, entry)
                return entry.value
        return self._search(secrets, beta, history, depth, floor, orbit)

    def _search(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, floor: int = 0,
                orbit: tuple[int, bytes] | None = None) -> int:
        """``solve``'s search of a set of more than two secrets that the memo did not answer, with its
        contract, given ``floor``, a lower bound known already, and ``orbit``, the set's key for the memo
        by orbit (None: not recorded there)."""
        keydepth = self._keydepth(depth)
        self._counts[kernels.STAT_NODES] += 1
        scan = self.scan(secrets, beta, history, depth)
        best: Code | None = None
        start = 0
        while (step := self.next_open(scan, start, beta)) is not None:
            classes = list(step.classes())
            hist = history + (step.guess,)
            # `total` holds each big class's best value so far (values[i], exact or not), which the
            # searches replace: a lower bound of the guess's cost, exact once every class is.
            values = [base for _h, _cls, base in classes]
            exact = [False] * len(classes)
            total = step.total
            if self.shares and best is not None:

                def search_class(i: int, class_beta: int) -> int:
                    value = self.solve(classes[i][1], class_beta, hist, depth - 1)
                    exact[i] = value < class_beta
                    return value

                total = share_slack(values, total, beta, search_class)
            # Then search the big classes, the largest first: they decide most often that the guess
            # cannot beat beta.
            for i, (_h, cls, _base) in enumerate(classes):
                if total >= beta:
                    break
                if exact[i]:
                    continue
                # The class may cost at most beta - (total - values[i]) for the guess to stay below beta.
                value = self.solve(cls, beta - (total - values[i]), hist, depth - 1)
                total += value - values[i]
                values[i] = value
            if total < beta:
                beta = total
                best = step.guess
            else:
                scan.least = min(scan.least, total)
            start = step.index + 1
        if best is not None:
            # Exact results are kept even without the memo: tree() rebuilds the optimal tree from them.
            self._remember(secrets, keydepth, MemoEntry(beta, best), orbit)
            return beta
        # Every guess was refuted: the least of their bounds (each >= beta) bounds the set.
        bound = max(min(scan.least, INF), floor)
        if self.memo_enabled:
            self._remember(secrets, keydepth, MemoEntry(bound, None), orbit)
        return bound

    def _remember(self, secrets: np.ndarray, keydepth: int, entry: MemoEntry, orbit: tuple[int, bytes] | None) -> None:
        """Put what a search learnt of a set in the memo, and under its ``orbit`` key in the memo by orbit
        (None: not recorded there)."""
        self.memo.put(secrets, keydepth, entry)
        if orbit is not None:
            self._by_orbit.setdefault(orbit, []).append((secrets.copy(), entry))

    def _orbit_answer(self, orbit: tuple[int, bytes], secrets: np.ndarray, beta: int) -> MemoEntry | None:
        """What the memo knows of a set equivalent to ``secrets`` that answers at ``beta`` (an exact value,
        or a bound >= beta), carried over to ``secrets``; else None. An element of the group that maps one
        set onto the other maps each guess's classes onto its image's, so both sets cost the same within
        any depth (see symmetry.SetOrbits). An exact value comes without a guess (GUESS_TO_FIND): the
        image of the other set's best guess is a best guess too, but not always the first in this set's
        own order, which a search of it would choose; tree() finds that one, so the tree stays the same."""
        for known, entry in self._by_orbit.get(orbit, ()):
            if not (entry.exact or entry.value >= beta):
                continue
            if self._set_orbits.element(known, secrets) is None:
                continue
            return MemoEntry(entry.value, GUESS_TO_FIND) if entry.exact else entry
        return None

    def feasible(self, secrets: np.ndarray, depth: int, history: tuple[Code, ...] = ()) -> bool:
        """Whether some tree solves every secret of ``secrets`` within ``depth`` guesses.

        A guess can work only if each of its classes fits in depth - 1 guesses; the lookahead bound
        with the depth-capped counting table is INF exactly when some class is too big to fit.
        """
        n = secrets.shape[0]
        if self.bounds.lb[depth, n] >= INF:
            return False
        if n <= 2:
            return True  # one guess for one secret, two for two: the finite bound says depth allows it
        key = (secrets.tobytes(), depth)
        known = self._feasible.get(key)
        if known is not None:
            self._counts[kernels.STAT_HITS] += 1
            return known >= 0
        self._counts[kernels.STAT_NODES] += 1
        guesses = self.candidate_guesses(secrets, history)
        guesses, _, _ = kernels.ordered_guesses(
            self.table, guesses, secrets, self.nh, self.win, self.bounds.lb[depth - 1], True, INF, 3 * n
        )
        fits = -1
        for g in guesses:
            members, starts, big = kernels.split_classes(self.table, int(g), secrets, self.nh, self.win)
            if all(
                self.feasible(members[starts[h] : starts[h + 1]], depth - 1, history + (int(g),)) for h in big
            ):
                fits = int(g)
                break
        self._feasible[key] = fits  # the guess is kept for feasible_tree()
        return fits >= 0

    def feasible_tree(self, secrets: np.ndarray, depth: int, history: tuple[Code, ...] = ()) -> Wire:
        """A tree solving ``secrets`` within ``depth`` guesses, in wire form: at each set the guess that
        :meth:`feasible` found to fit (searched first if need be). Raises ValueError when none fits."""
        if not self.feasible(secrets, depth, history):
            raise ValueError(f"no tree solves these {secrets.shape[0]} secrets within {depth} guesses")
        if secrets.shape[0] <= 2:
            return small_tree(self.tables, secrets)
        g = self._feasible[(secrets.tobytes(), depth)]
        return wire_node(self.tables, g, secrets,
                         lambda cls: self.feasible_tree(cls, depth - 1, history + (g,)))

    # -- the tree --------------------------------------------------------------------------------------
    def tree(self, secrets: np.ndarray, depth: int | None = None, history: tuple[Code, ...] = ()) -> Wire:
        """The optimal tree of a set already solved exactly (re-solved if its memo entry is gone), in
        wire form (``tree.Wire``: code ints and game hint ints)."""
        if depth is None:
            depth = self.full_depth()
        n = secrets.shape[0]
        if n <= 2:
            return small_tree(self.tables, secrets)
        entry = self.memo.get(secrets, self._keydepth(depth))
        if entry is None or not entry.exact:
            self.solve(secrets, INF, history, depth)
            entry = self.memo.get(secrets, self._keydepth(depth))
        if entry is None or not entry.exact:
            raise ValueError(f"no tree solves these {n} secrets within {depth} guesses")
        if entry.guess == GUESS_TO_FIND:
            # The value came from an equivalent set: search this one at beta = value + 1 (a tree of at most
            # that value), which finds the first guess of that cost in its own order, the one a search
            # from any beta keeps.
            got = self._search(secrets, entry.value + 1, history, depth)
            if got != entry.value:
                raise RuntimeError(f"the memo by orbit gave {entry.value} for a set whose search finds {got}")
            entry = self.memo.get(secrets, self._keydepth(depth))
        g = entry.guess
        return wire_node(self.tables, g, secrets,
                         lambda cls: self.tree(cls, depth - 1, history + (g,)))
