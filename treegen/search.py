"""Exact search: depth-first branch and bound for strategy trees of minimum total or minimum worst case.

Costs count guesses: a tree's total is the sum, over its secrets, of the guesses that solve each one (the
final all-bulls guess included). For a set S and a guess g that splits S into classes S_h,

    cost(S, g) = |S| + sum over non-winning hints h of cost(S_h)

because every secret of S pays for g, and the secret equal to g (if any) is solved by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import kernels
from .feedback import feedback_table
from .rules import Game

INF = int(kernels.INF)  # an infeasible cost; large enough that sums of a few never overflow int64
UNCAPPED = 64  # "depth left" for searches without a cap on guesses (no tree is this deep)


@dataclass(frozen=True)
class Bounds:
    """Lower-bound tables for one game.

    ``b`` is the most non-winning classes a guess can make (possible hints minus the all-bulls hint).
    ``lb[d, k]`` is the counting bound on the total of k secrets within at most d guesses: a tree's
    node at level j solves at most one secret, and there are at most b**(j-1) nodes at level j, so
    the cheapest conceivable tree fills levels 1, 2, ... greedily; if k exceeds 1 + b + ... + b**(d-1),
    no tree exists and the bound is INF.
    """

    b: int
    lb: np.ndarray  # (UNCAPPED + 1, n + 1) int64

    @classmethod
    def for_game(cls, b: int, n: int) -> "Bounds":
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
                    total += level
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


@cache
def search_tables(game: Game) -> SearchTables:
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
    )


@cache
def _zobrist(codes: int) -> np.ndarray:
    """A random 62-bit number per code for the memo's set hashes (fixed seed: runs are reproducible)."""
    z = np.random.default_rng(20261122).integers(0, 1 << 62, size=codes, dtype=np.int64)
    z.flags.writeable = False
    return z


class Memo:
    """The search's memo of sets: value and best guess (-1: the value is only a lower bound) per set of
    secrets and key depth, in the arrays of the kernels' hash table (see kernels.memo_find)."""

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

    def get(self, secrets: np.ndarray, keydepth: int) -> tuple[int, int] | None:
        """(value, best guess) of a set, or None."""
        e, _ = kernels.memo_find(self.slots, self.ent, self.pool, self.zob, secrets, keydepth)
        if e < 0:
            return None
        return int(self.ent[e, kernels.MEMO_VALUE]), int(self.ent[e, kernels.MEMO_BEST])

    def put(self, secrets: np.ndarray, keydepth: int, value: int, best: int) -> None:
        self.make_room(1, secrets.shape[0])
        kernels.memo_put(self.slots, self.ent, self.pool, self.state, self.zob, secrets, keydepth, value, best)


@dataclass
class Stats:
    nodes: int = 0  # sets whose guesses were scanned (memo hits and closed forms excluded)
    memo_hits: int = 0
    bound_scans: int = 0  # sets bounded by one lookahead scan before any search (counted by the kernels)


@dataclass
class Solver:
    """Branch and bound over one game's feedback table. Not thread-safe; one per process.

    ``cap`` limits guesses per secret (None: unlimited). ``symmetry`` reduces guesses to one per class
    of equivalent guesses. ``lookahead`` enables the one-step lower bound per guess; without it a
    guess is bounded by |S| alone until its classes are split (for ablation).
    """

    game: Game
    cap: int | None = None
    symmetry: bool = True
    lookahead: bool = True
    ordering: bool = True
    memo_enabled: bool = True
    two_phase: bool = True

    @classmethod
    def with_options(cls, game: Game, cap: int | None, options: "Options") -> "Solver":
        return cls(game, cap, options.symmetry, options.lookahead, options.ordering, options.memo, options.two_phase)

    def __post_init__(self) -> None:
        t = search_tables(self.game)
        self.table, self.hints, self.nh, self.win = t.table, t.hints, t.nh, t.win
        self.bounds, self.all_guesses = t.bounds, t.all_guesses
        self.fast_limit, self.excess_limit = t.fast_limit, t.excess_limit
        self.memo = Memo(self.game.size)
        self._feasible: dict = {}  # feasible()'s memo: (secrets bytes, depth) -> bool
        # scratch counters for kernels.least_bound, one word pair per code
        self._w0 = np.empty(self.game.size, dtype=np.uint64)
        self._w1 = np.empty(self.game.size, dtype=np.uint64)
        self._counts = np.zeros(3, dtype=np.int64)  # kernels.STAT_*: nodes, memo hits, bound scans

    @property
    def stats(self) -> Stats:
        return Stats(*(int(c) for c in self._counts))

    def reset(self) -> None:
        """Forget every memoised set and zero the counts (a fresh search with the same tables)."""
        self.memo = Memo(self.game.size)
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

    # -- the search -----------------------------------------------------------------------------------
    def candidate_guesses(self, secrets: np.ndarray, history: tuple[int, ...]) -> np.ndarray:
        if not self.symmetry:
            return self.all_guesses
        from .symmetry import canonical_guesses

        return canonical_guesses(self.game, history, secrets)

    def solve(self, secrets: np.ndarray, beta: int, history: tuple[int, ...] = (), depth: int | None = None) -> int:
        """Cost of the best tree for ``secrets`` (sorted code ints) within ``depth`` guesses.

        Returns the exact cost if it is below ``beta``; otherwise some lower bound >= beta (INF when
        no tree fits in ``depth`` guesses). Exact results are memoised with their best guess, so
        ``tree()`` can rebuild the optimal tree afterwards.
        """
        if depth is None:
            depth = self.cap if self.cap is not None else UNCAPPED
        n = secrets.shape[0]
        # Closed forms: one secret costs one guess; two cost 1 + 2 (guess either, then the other).
        if n == 1:
            return 1 if depth >= 1 else INF
        if n == 2:
            return 3 if depth >= 2 else INF
        if self.bounds.lb[depth, n] >= INF:
            return INF
        keydepth = self._keydepth(depth)
        floor = 0
        entry = self.memo.get(secrets, keydepth) if self.memo_enabled else None
        if entry is not None:
            value, best = entry
            if best >= 0 or value >= beta:
                self._counts[kernels.STAT_HITS] += 1
                return value
            floor = value
        self._counts[kernels.STAT_NODES] += 1

        guesses = self.candidate_guesses(secrets, history)
        lbtab = self.bounds.lb[depth - 1] if self.lookahead else self._flat_bounds()
        guesses, bounds, rest = kernels.ordered_guesses(
            self.table, guesses, secrets, self.nh, self.win, lbtab, self.ordering, beta
        )
        best = -1
        # The least lower bound among guesses that failed to beat beta; those filtered out by the
        # kernel have bounds >= beta, the least of which is `rest`.
        bound = min(int(rest), INF)
        start = 0
        memo = self.memo
        while True:
            # Cheap bounds first (kernels.next_guess): each guess's big classes are raised from their
            # counting bound to their memoised or least lookahead bound, which refutes most guesses
            # before any class is searched in depth.
            status, idx, total, members, starts, big, base, least = kernels.next_guess(
                self.table, guesses, bounds, start, secrets, beta, depth, self.cap is not None, self.nh, self.win,
                self.bounds.lb, self.fast_limit, self.excess_limit, self.lookahead, self.ordering, self.two_phase,
                memo.slots, memo.ent, memo.pool, memo.state, memo.zob, self._w0, self._w1, self._counts)
            bound = min(bound, int(least))
            if status == 2:
                memo.make_room(self.nh, n)
                start = idx
                continue
            if status == 1:
                break
            g = int(guesses[idx])
            total = int(total)
            # Then search the big classes, the largest first: they decide most often that g cannot
            # beat beta. `total` holds each class's best bound so far, which the search replaces.
            for j, h in enumerate(big):
                cls = members[starts[h] : starts[h + 1]]
                # The class may cost at most beta - (total - base) for g to stay below beta.
                value = self.solve(cls, beta - (total - int(base[j])), history + (g,), depth - 1)
                total += value - int(base[j])
                if total >= beta:
                    break
            if total < beta:
                beta = total
                best = g
            else:
                bound = min(bound, total)
            start = idx + 1
        if best >= 0:
            # Exact results are kept even without the memo: tree() rebuilds the optimal tree from them.
            memo.put(secrets, keydepth, beta, best)
            return beta
        bound = max(bound, floor)
        if self.memo_enabled:
            memo.put(secrets, keydepth, bound, -1)
        return bound

    def _class_bound(self, secrets: np.ndarray, depth: int, history: tuple[int, ...]) -> int:
        """A lower bound on the cost of ``secrets`` within ``depth`` guesses, without searching
        (kernels.class_bound: the memoised value or bound, else the least lookahead bound)."""
        self.memo.make_room(1, secrets.shape[0])
        memo = self.memo
        return int(kernels.class_bound(
            self.table, secrets, depth, self._keydepth(depth), self.nh, self.win, self.bounds.lb, self.fast_limit,
            self.excess_limit, memo.slots, memo.ent, memo.pool, memo.state, memo.zob, self._w0, self._w1,
            self._counts))

    def feasible(self, secrets: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> bool:
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
            return known
        self._counts[kernels.STAT_NODES] += 1
        guesses = self.candidate_guesses(secrets, history)
        guesses, _, _ = kernels.ordered_guesses(
            self.table, guesses, secrets, self.nh, self.win, self.bounds.lb[depth - 1], True, INF
        )
        result = False
        for g in guesses:
            members, starts, big = kernels.split_classes(self.table, int(g), secrets, self.nh, self.win)
            if all(
                self.feasible(members[starts[h] : starts[h + 1]], depth - 1, history + (int(g),)) for h in big
            ):
                result = True
                break
        self._feasible[key] = result
        return result

    # -- the tree --------------------------------------------------------------------------------------
    def tree(self, secrets: np.ndarray, depth: int | None = None, history: tuple[int, ...] = ()):
        """The optimal tree of a set already solved exactly, as nested ``(guess, [(hint, child), ...])``
        with code ints and game hint ints."""
        if depth is None:
            depth = self.cap if self.cap is not None else UNCAPPED
        n = secrets.shape[0]
        if n == 1:
            return (int(secrets[0]), [])
        if n == 2:
            a, b = int(secrets[0]), int(secrets[1])
            return (a, [(int(self.hints[self.table[a, b]]), (b, []))])
        entry = self.memo.get(secrets, self._keydepth(depth))
        if entry is None or entry[1] < 0:
            self.solve(secrets, INF, history, depth)
            entry = self.memo.get(secrets, self._keydepth(depth))
        g = entry[1]
        members, starts, _ = kernels.split_classes(self.table, g, secrets, self.nh, self.win)
        children = []
        for h in range(self.nh):
            if h == self.win or starts[h] == starts[h + 1]:
                continue
            cls = members[starts[h] : starts[h + 1]]
            children.append((int(self.hints[h]), self.tree(cls, depth - 1, history + (g,))))
        return (g, children)


# == Running a whole search: objectives, parallel subproblems, checkpoints ================================
#
# The tree's top is searched by coordinators in the main process, and every other subproblem (a class
# with its beta) is a task for a worker process. The schedule never depends on the number of workers
# or on timing: a coordinator takes its guesses in waves (the best-first guess, then every other guess
# still below the best total), and each task's beta is fixed when its wave starts. Each task runs with
# a fresh memo, so its answer and its node count are functions of its inputs alone. The chosen guess
# is always the first, in the best-first order, of least cost, so the tree is the same for any workers.

import hashlib
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Callable

import orjson

# Games this small are searched in one process whatever the workers: the whole search takes about as
# long as starting a worker. The output is the same either way.
INLINE_MAX_CODES = 2000


@dataclass(frozen=True)
class Outcome:
    """What a subproblem's search found: the exact value (then ``tree`` is its optimal tree, as nested
    ``[guess, [[hint, child], ...]]`` lists of ints) or a lower bound >= the beta it was given."""

    value: int
    exact: bool
    nodes: int
    tree: list | None = None

    def to_json(self) -> bytes:
        return orjson.dumps({"value": self.value, "exact": self.exact, "nodes": self.nodes, "tree": self.tree})

    @classmethod
    def from_json(cls, data: bytes) -> "Outcome":
        d = orjson.loads(data)
        return cls(int(d["value"]), bool(d["exact"]), int(d["nodes"]), d["tree"])


@dataclass(frozen=True)
class Options:
    """Search levers, each switchable for ablation measurements."""

    symmetry: bool = True
    lookahead: bool = True
    ordering: bool = True
    memo: bool = True
    two_phase: bool = True


def _as_lists(tree) -> list:
    guess, children = tree
    return [guess, [[h, _as_lists(c)] for h, c in children]]


@cache
def _worker_solver(game: Game, cap: int | None, options: Options) -> Solver:
    return Solver.with_options(game, cap, options)


def _run_task(game: Game, cap: int | None, options: Options, secrets: np.ndarray, beta: int,
              history: tuple[int, ...], depth: int) -> Outcome:
    """One subproblem, in a worker: solve it from a fresh memo and return its value and tree."""
    solver = _worker_solver(game, cap, options)
    solver.reset()
    value = solver.solve(secrets, beta, history, depth)
    exact = value < beta
    tree = _as_lists(solver.tree(secrets, depth, history)) if exact else None
    nodes = solver.stats.nodes + solver.stats.bound_scans
    solver.reset()
    return Outcome(value, exact, nodes, tree)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops them itself."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Done:
    """A finished result that answers ``result()`` like a future."""

    def __init__(self, value) -> None:
        self.value = value

    def result(self):
        return self.value


class _Inline:
    """An executor that runs each task at once in this process (one worker: no processes needed)."""

    def submit(self, fn, *args) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:  # handed to whoever waits on the future
            fut.set_exception(exc)
        return fut

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


class Progress:
    """Counts of subproblems for a progress display: ``callback(done, total, note)``."""

    def __init__(self, callback: Callable[[int, int, str], None] | None) -> None:
        self.callback = callback
        self.done = 0
        self.total = 0
        self.note = ""
        self.lock = threading.Lock()

    def add(self, k: int = 1) -> None:
        with self.lock:
            self.total += k
            self._emit()

    def finish(self, k: int = 1) -> None:
        with self.lock:
            self.done += k
            self._emit()

    def say(self, note: str) -> None:
        with self.lock:
            self.note = note
            self._emit()

    def _emit(self) -> None:
        if self.callback is not None:
            self.callback(self.done, self.total, self.note)


class _Run:
    """One search of one game: the coordinators, the task pool and the checkpoint directory."""

    def __init__(self, game: Game, cap: int | None, options: Options, workers: int,
                 checkpoint: str | None, progress: Progress) -> None:
        self.game = game
        self.cap = cap
        self.options = options
        self.progress = progress
        self.checkpoint = checkpoint
        self.tables = search_tables(game)
        if workers <= 1 or game.size <= INLINE_MAX_CODES:
            self.pool = _Inline()
            self.threads = None
        else:
            import multiprocessing

            # spawn: workers start clean (no inherited threads or locks) and load the numba cache.
            self.pool = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet_worker
            )
            # Coordinators and chains only wait on worker tasks or on each other downwards, never on
            # a sibling, so a generous pool cannot deadlock.
            self.threads = ThreadPoolExecutor(256, thread_name_prefix="treegen-coordinator")
        self.nodes = 0
        self.nodes_lock = threading.Lock()
        # Classes this big, just below the root, are coordinated too, so their work spreads over workers.
        self.split_min = max(600, game.size // 8)
        if checkpoint:
            os.makedirs(checkpoint, exist_ok=True)

    def close(self) -> None:
        """Stop everything at once (after an interrupt or an error too): queued work is cancelled and
        running workers are terminated, so that waiting coordinators wake up and finish."""
        processes = list(getattr(self.pool, "_processes", None) or {})
        procs = getattr(self.pool, "_processes", None) or {}
        manager = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for pid in processes:
            proc = procs.get(pid)
            if proc is not None and proc.is_alive():
                proc.terminate()
        if manager is not None:
            # Let the pool's manager thread see its workers gone and close its wakeup pipe now: on
            # Python 3.11, interpreter exit can race it and print "Bad file descriptor" tracebacks.
            manager.join(timeout=5)
        if self.threads is not None:
            self.threads.shutdown(wait=False, cancel_futures=True)

    def count(self, nodes: int) -> None:
        with self.nodes_lock:
            self.nodes += nodes

    # -- tasks and their checkpoints ------------------------------------------------------------------------
    def _task_path(self, secrets: np.ndarray, beta: int, history: tuple[int, ...], depth: int) -> str:
        h = hashlib.sha256()
        h.update(repr((self.game.spec, self.game.name, self.cap, self.options, beta, history, depth)).encode())
        h.update(secrets.tobytes())
        return os.path.join(self.checkpoint, h.hexdigest()[:32] + ".json")

    def task(self, secrets: np.ndarray, beta: int, history: tuple[int, ...], depth: int) -> Future:
        self.progress.add()
        path = self._task_path(secrets, beta, history, depth) if self.checkpoint else None
        if path and os.path.exists(path):
            try:
                with open(path, "rb") as f:
                    outcome = Outcome.from_json(f.read())
            except (OSError, ValueError, KeyError, TypeError):
                outcome = None  # unreadable: do the work again
            if outcome is not None:
                fut: Future = Future()
                fut.set_result(outcome)
                self._done(fut, None)
                return fut
        inner = self.pool.submit(_run_task, self.game, self.cap, self.options, secrets, beta, history, depth)
        # Whoever waits sees the outcome only once its nodes are counted and its checkpoint is on disk.
        outer: Future = Future()
        inner.add_done_callback(lambda f: self._settle(f, path, outer))
        return outer

    def _settle(self, fut: Future, path: str | None, outer: Future) -> None:
        try:
            self._done(fut, path, outer)
        except BaseException as exc:  # never leave a waiter hanging
            if not outer.done():
                outer.set_exception(exc)

    def _done(self, fut: Future, path: str | None, outer: Future | None = None) -> None:
        if fut.cancelled():
            if outer is not None:
                outer.cancel()
            return
        if fut.exception() is not None:
            if outer is not None:
                outer.set_exception(fut.exception())
            return
        outcome = fut.result()
        self.count(outcome.nodes)
        try:
            if path:
                _write_atomic(path, outcome.to_json())
        except OSError as exc:
            if outer is not None:
                outer.set_exception(exc)
            return
        self.progress.finish()
        if outer is not None:
            outer.set_result(outcome)

    # -- coordinators ---------------------------------------------------------------------------------------------
    def subproblem(self, secrets: np.ndarray, beta: int, history: tuple[int, ...], depth: int, level: int) -> Future:
        """The outcome of ``secrets`` with ``beta``: a task, or a coordinator for big sets near the root."""
        n = secrets.shape[0]
        if n <= 2:
            fut: Future = Future()
            lb = int(self.tables.bounds.lb[depth, n])
            if lb >= INF:
                fut.set_result(Outcome(INF, False, 0))
            else:
                s = [int(x) for x in secrets]
                tree = [s[0], []] if n == 1 else [s[0], [[int(self.tables.hints[self.tables.table[s[0], s[1]]]), [s[1], []]]]]
                fut.set_result(Outcome(lb, lb < beta, 0, tree if lb < beta else None))
            return fut
        if level == 0 or (level == 1 and n >= self.split_min):
            return self._spawn(self.coordinate, secrets, beta, history, depth, level)
        return self.task(secrets, beta, history, depth)

    def coordinate(self, secrets: np.ndarray, beta: int, history: tuple[int, ...], depth: int, level: int) -> Outcome:
        """The search of ``Solver.solve`` at one node, with its classes searched as parallel subproblems.

        Same contract: the exact cost (and tree) if below ``beta``, else a lower bound >= beta.
        """
        t = self.tables
        solver = Solver.with_options(self.game, self.cap, self.options)
        lbtab = t.bounds.lb[depth - 1]
        guesses = solver.candidate_guesses(secrets, history)
        guesses, bounds, rest = kernels.ordered_guesses(t.table, guesses, secrets, t.nh, t.win, lbtab, True, beta)
        best: tuple[int, list] | None = None
        bound = min(int(rest), INF)
        start = 0
        while start < guesses.shape[0]:
            # A wave: the first remaining guess alone while no total is known, then all the rest.
            stop = start + 1 if best is None else guesses.shape[0]
            wave_beta = beta
            jobs = []
            for idx in range(start, stop):
                total = int(bounds[idx])
                if total >= wave_beta:
                    bound = min(bound, total)
                    break
                g = int(guesses[idx])
                members, starts, big = kernels.split_classes(t.table, g, secrets, t.nh, t.win)
                classes = []
                for h in big:
                    cls = members[starts[h] : starts[h + 1]]
                    base = solver._class_bound(cls, depth - 1, history + (g,))
                    total += base - int(lbtab[cls.shape[0]])
                    classes.append((int(h), cls, base))
                if total >= wave_beta:
                    bound = min(bound, total)
                    continue
                # Each class may cost at most wave_beta - (total - base) for g to stay below wave_beta.
                if best is None:
                    # The best-first guess: likely the best, so every class is needed exactly. All at once.
                    futures = [
                        (h, base, self.subproblem(cls, wave_beta - (total - base), history + (g,), depth - 1, level + 1))
                        for h, cls, base in classes
                    ]
                    job = _Done(self._gather(total, futures))
                else:
                    # The others mostly fail: search their classes one by one, the largest first, so a
                    # failure stops at the first class that shows it; the guesses run side by side.
                    job = self._spawn(self._chain, classes, total, wave_beta, history + (g,), depth - 1, level + 1)
                jobs.append((g, members, starts, job))
            self.count(solver.stats.bound_scans + solver.stats.nodes)
            solver._counts[:] = 0
            for g, members, starts, job in jobs:
                total, subtrees = job.result()
                if subtrees is not None and total < beta:
                    beta = total
                    best = (g, self._children(g, members, starts, subtrees))
                    if level == 0:
                        self.progress.say(f"best total {beta}")
                else:
                    bound = min(bound, total)
            start = stop
        if best is None:
            return Outcome(min(bound, INF), False, 0)
        return Outcome(beta, True, 0, [best[0], best[1]])

    @staticmethod
    def _gather(total: int, futures) -> tuple[int, dict | None]:
        """A guess's total from its classes' outcomes, with their trees if all are exact."""
        subtrees: dict | None = {}
        for h, base, fut in futures:
            outcome = fut.result()
            total += outcome.value - base
            if not outcome.exact:
                subtrees = None
            elif subtrees is not None:
                subtrees[h] = outcome.tree
        return total, subtrees

    def _chain(self, classes, total: int, beta: int, history, depth: int, level: int) -> tuple[int, dict | None]:
        """A guess's classes searched in turn: (total, trees) if the guess costs less than beta,
        else (a lower bound >= beta, None) from the first class that shows it."""
        subtrees = {}
        for h, cls, base in classes:
            outcome = self.subproblem(cls, beta - (total - base), history, depth, level).result()
            total += outcome.value - base
            if not outcome.exact:
                return total, None
            subtrees[h] = outcome.tree
        return total, subtrees

    def _spawn(self, fn, *args):
        """Run a coordinating function on a thread of its own (inline without worker processes)."""
        if self.threads is None:
            return _Done(fn(*args))
        return self.threads.submit(fn, *args)

    def _children(self, g: int, members: np.ndarray, starts: np.ndarray, subtrees: dict) -> list:
        t = self.tables
        out = []
        for h in range(t.nh):
            size = int(starts[h + 1] - starts[h])
            if h == t.win or size == 0:
                continue
            if h in subtrees:
                child = subtrees[h]
            elif size == 1:
                child = [int(members[starts[h]]), []]
            else:
                a, b = int(members[starts[h]]), int(members[starts[h] + 1])
                child = [a, [[int(t.hints[t.table[a, b]]), [b, []]]]]
            out.append([int(t.hints[h]), child])
        return out


def _write_atomic(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class Infeasible(Exception):
    """No strategy solves every secret within the cap (a proven fact, not a usage error)."""


@dataclass(frozen=True)
class Result:
    """A proven optimum: the tree (nested lists of code and hint ints) and its proof figures."""

    objective: str  # "average" or "worst"
    cap: int | None  # the cap on guesses the total was minimised under
    total: int
    worst: int | None  # for "worst": the least possible maximum number of guesses
    nodes: int
    tree: list


def solve_game(
    game: Game,
    objective: str = "average",
    max_guesses: int | None = None,
    workers: int = 1,
    checkpoint: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    options: Options = Options(),
) -> Result:
    """The optimal tree of ``game`` for ``objective``.

    - ``average``: least total guesses over all secrets, within ``max_guesses`` if given.
    - ``worst``: least maximum number of guesses (proving one fewer impossible), then least total
      within it (and within ``max_guesses`` if that is smaller... it cannot be: it is refused below).

    Raises Infeasible when no tree fits in ``max_guesses``.
    """
    if objective not in ("average", "worst"):
        raise ValueError(f"unknown objective {objective!r}")
    secrets = np.arange(game.size, dtype=np.int32)
    report = Progress(progress)
    nodes = 0
    worst = None
    cap = max_guesses
    if objective == "worst" or max_guesses is not None:
        # Feasibility is cheap next to the average search: settle the cap first.
        probe = Solver(game, None, options.symmetry)
        depth = 1
        while probe.bounds.lb[depth, game.size] >= INF:
            depth += 1  # the counting bound alone rules these out
        if objective == "worst":
            while depth <= UNCAPPED:
                probe.cap = depth
                report.say(f"trying {depth} guesses")
                if probe.feasible(secrets, depth):
                    break
                depth += 1
            worst = depth
            if max_guesses is not None and max_guesses < worst:
                raise Infeasible(f"no strategy solves every secret of {game.name} within {max_guesses} guesses")
            cap = worst
        else:
            probe.cap = min(max_guesses, UNCAPPED)
            if max_guesses < depth or not probe.feasible(secrets, probe.cap):
                raise Infeasible(f"no strategy solves every secret of {game.name} within {max_guesses} guesses")
        nodes += probe.stats.nodes
    if cap is not None and cap >= UNCAPPED:
        cap = None  # no tree of a supported game is this deep: the cap cannot bind
    run = _Run(game, cap, options, workers, checkpoint, report)
    try:
        depth = cap if cap is not None else UNCAPPED
        outcome = run.subproblem(secrets, INF, (), depth, 0).result()
    finally:
        run.close()
    if not outcome.exact:
        raise Infeasible(f"no strategy solves every secret of {game.name} within {cap} guesses")
    return Result(objective, cap, outcome.value, worst, nodes + run.nodes, outcome.tree)
