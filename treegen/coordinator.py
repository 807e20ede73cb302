"""Running a whole search: objectives, parallel subproblems on an executor, checkpoints, the final check.

The tree's top is searched by coordinators in the main process, and every other subproblem (a class
with its beta) is a task for an executor: inline (this process), local worker processes, or a cluster.
The schedule never depends on the executor, the number of workers or timing: a coordinator takes its
guesses in waves (the best-first guess, then every other guess still below the best total), and each
task's beta is fixed when its wave starts. Each task runs with a fresh memo, so its answer and its node
count are functions of its inputs alone. The chosen guess is always the first, in best-first order, of
least cost, so the tree is the same for any executor.

A coordinator's node is the solver's node (``Solver.scan``, then ``Solver.next_open`` per guess), with
the classes of each open guess searched as subproblems instead of recursively.

With the memo by orbit (the ``orbits`` lever), what the subproblems of a coordinator's wave, or of a
chain's step, found answers the subproblems of its later waves, or steps, whose sets are equivalent to
theirs (see ``Scope`` and ``Coordinator._transferred``): on numbers-baseball, the tasks under the first
guess 0012 whose sets are equivalent to sets solved exactly under 0123 had cost 11.9 M of 0012's 25.1 M
nodes, and a coordinated class searched again in a chain after its share of the slack failed had solved
every one of its subproblems again (a class that is one task still starts afresh: it notes its own outcome
only). A scope publishes only when nothing it started runs, so what answers a subproblem
never depends on timing either.

Before a tree is returned it is replayed over every secret (``verify.make_tree``) and its total and
worst case are compared with what the search proved; a mismatch is a ``SearchBug``, never a file.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import operator
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Literal, Protocol

import numpy as np

from . import __version__, kernels
from .checkpoint import CheckpointStopped, CheckpointStore
from .feedback import TableTooLarge, default_memory, format_bytes, table_bytes
from .rules import ArgumentTypeError, Code, Game, NumberError, TreegenError, game_argument
from .search import (INF, UNCAPPED, Options, SearchTables, Solver, onehot_bytes, search_tables, share_slack,
                     small_tree, wide_onehot)
from .symmetry import SetOrbits
from .tree import Node, Tree, Wire
from .verify import make_tree

Objective = Literal["average", "worst", "crush"]
OBJECTIVES: tuple[Objective, ...] = ("average", "worst", "crush")

# Games this small are searched in one process whatever the workers: the whole search takes about as
# long as starting a worker. The output is the same either way.
INLINE_MAX_CODES = 2000

# With eager, sets of at least max(EAGER_SPLIT_MIN, size / 16) secrets are coordinated at any level.
EAGER_SPLIT_MIN = 600


class Infeasible(TreegenError):
    """No strategy solves every secret within the cap: a proven fact, not a usage error, though a
    TreegenError (one line for a human) like the others; the command exits 1 for it, not 2."""


class SearchBug(Exception):
    """The tree the search built does not achieve what the search proved: a bug, never a result."""


# -- what a subproblem returns ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What a subproblem's search found: the exact ``value`` with its optimal ``tree`` (wire form) when
    ``exact``, else a lower bound >= the beta it was given (``tree`` None). ``nodes``: the work done. An
    exact value carried over from an equivalent set comes without its tree, as does a coordinated set's
    that holds such a class (see Coordinator._transferred): only a coordinator whose tree is needed finds
    those (see Coordinator._fill_holes).

    ``work`` and ``span`` are measurements, never part of a result: the CPU seconds (of the thread that
    computed each piece, so that a busy machine does not inflate them) the subproblem took in all, and
    along its longest chain of dependent computing (its critical path, what no number of workers can
    shorten). A task's span is its work; a reused checkpoint's both are 0.
    """

    value: int
    exact: bool
    nodes: int
    tree: Wire | None = None
    work: float = field(default=0.0, compare=False)
    span: float = field(default=0.0, compare=False)

    def to_obj(self) -> dict:
        return {"value": self.value, "exact": self.exact, "nodes": self.nodes, "tree": self.tree}

    @classmethod
    def from_obj(cls, d: dict) -> Outcome:
        return cls(d["value"], d["exact"], d["nodes"], d["tree"])


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def wire_cost(t: SearchTables, secrets: np.ndarray, wire, depth: int, extra: int = 0) -> int | None:
    """The cost of ``wire`` over ``secrets`` within ``depth`` guesses (its total, plus ``extra`` for each
    secret solved with the last of them), or None when it is not a complete, well-formed tree for them
    (a check independent of how the tree was found)."""
    if not (isinstance(wire, list) and len(wire) == 2 and _is_int(wire[0]) and isinstance(wire[1], list)):
        return None
    g, children = wire
    n = secrets.shape[0]
    if depth < 1 or not 0 <= g < t.table.shape[0] or n == 0:
        return None
    members, starts = kernels.split_by_hint(t.table, g, secrets, t.nh)
    classes = {int(t.hints[h]): members[starts[h] : starts[h + 1]]
               for h in range(t.nh) if h != t.win and starts[h + 1] > starts[h]}
    if len(children) != len(classes):
        return None
    total = n + (extra if depth == 1 and starts[t.win + 1] > starts[t.win] else 0)
    for child in children:
        if not (isinstance(child, list) and len(child) == 2 and _is_int(child[0]) and child[0] in classes):
            return None
        cost = wire_cost(t, classes.pop(child[0]), child[1], depth - 1, extra)
        if cost is None:
            return None
        total += cost
    return total


# -- executors --------------------------------------------------------------------------------------------


class Executor(Protocol):
    """Where subproblem tasks run. ``submit`` returns a future of ``fn(*args)``; ``close`` stops every
    task at once (queued ones are cancelled, running ones ended); ``processes`` is how many processes
    do the work (for messages)."""

    processes: int

    def submit(self, fn, *args) -> Future: ...

    def close(self) -> None: ...


class InlineExecutor:
    """Each task runs at once in this process (one worker: no processes needed)."""

    processes = 1

    def submit(self, fn, *args) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:  # handed to whoever waits on the future
            fut.set_exception(exc)
        return fut

    def close(self) -> None:
        pass


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _watch_parent(parent: int) -> None:
    """Exit this worker soon after its parent dies, even by SIGKILL (it is then re-parented)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the main process, which stops it itself, and dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker (compile_ahead's) inherits the CLI's SIGTERM handler, which would raise
    # KeyboardInterrupt inside the task: the parent's terminate() should simply end it. It also inherits
    # the signals compile_ahead held back across the fork, let through now that these handlers are set.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="treegen-parent-watch").start()


def _flush_before_fork() -> None:
    """Flush standard output and error, so that a forked child, which flushes them when it ends, does not
    write what this process had buffered a second time."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed or failing: whoever writes there next hears of it
            pass


def _started() -> None:
    """A task that does nothing: the first submit of a forked pool, which forks its workers (see ProcessExecutor)."""


class ProcessExecutor:
    """Tasks on ``workers`` local worker processes: forked, all at once, when :func:`_fork_is_safe`, else
    spawned (they start clean and load the numba cache).

    Forked when it is safe because a spawned worker first imports the caller's main script again: a script
    that calls solve_game without an ``if __name__ == "__main__":`` guard then starts its search again in
    every worker, which multiprocessing refuses ("An attempt has been made to start a new process before
    the current process has finished its bootstrapping phase"), and ``python -`` has no file to import at
    all; either way each worker dies and the search ends in BrokenProcessPool. A forked worker imports
    nothing. The workers are forked here, before any coordinator thread starts (a fork copies the locks
    other threads hold), with this thread's stop signals held back across the fork as in compile_ahead.
    With another thread running (the command's progress bar; a caller's threads) they are spawned, and
    such a script needs the guard.
    """

    def __init__(self, workers: int) -> None:
        self.processes = workers
        method = "fork" if _fork_is_safe() else "spawn"
        self.pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(method), initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        if method == "fork":
            # A fork pool forks all its workers at its first submit, in the thread that submits: this one, now.
            _flush_before_fork()
            held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
            try:
                self.pool.submit(_started)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def submit(self, fn, *args) -> Future:
        return self.pool.submit(fn, *args)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        # Running tasks do not stop for shutdown(): end the workers, which are this process's only
        # multiprocessing children, so that waiting coordinators wake up at once.
        for proc in multiprocessing.active_children():
            proc.terminate()
        # Then wait for the pool's own thread to see them gone (on Python 3.11 an exit that races it
        # can print "Bad file descriptor" tracebacks).
        self.pool.shutdown(wait=True)


class _CallbackInterrupts:
    """While numba compiles, Ctrl-C (or the command's SIGTERM, which it turns into KeyboardInterrupt) can
    land while LLVM calls back into Python (numba's object cache hooks, through ctypes). ctypes cannot pass
    an exception on from there: it prints "Exception ignored on calling ctypes callback function" with a
    traceback and drops the interrupt. Within this context such an interrupt of this thread is kept
    instead of printed (through ``sys.unraisablehook``; other unraisable exceptions go to the hook there
    was), and raised as KeyboardInterrupt by :meth:`check` or when the context ends without another
    exception. Contexts may nest or run in several threads at once."""

    _lock = threading.Lock()
    _users = 0
    _previous = None
    _kept: dict[int, int] = {}  # thread ident: interrupts kept in that thread, ever

    @classmethod
    def _hook(cls, unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            ident = threading.get_ident()
            with cls._lock:
                cls._kept[ident] = cls._kept.get(ident, 0) + 1
            return
        (cls._previous or sys.__unraisablehook__)(unraisable)

    def __enter__(self) -> _CallbackInterrupts:
        cls = type(self)
        self.ident = threading.get_ident()
        with cls._lock:
            if cls._users == 0:
                cls._previous = sys.unraisablehook
                sys.unraisablehook = cls._hook
            cls._users += 1
            self.seen = cls._kept.get(self.ident, 0)
        return self

    def check(self) -> None:
        """Raise KeyboardInterrupt if an interrupt of this context's thread was kept since the last check."""
        kept = type(self)._kept.get(self.ident, 0)
        if kept != self.seen:
            self.seen = kept
            raise KeyboardInterrupt

    def __exit__(self, exc_type, exc, tb) -> None:
        cls = type(self)
        with cls._lock:
            cls._users -= 1
            if cls._users == 0:
                if sys.unraisablehook == cls._hook:  # (unless someone replaced it meanwhile)
                    sys.unraisablehook = cls._previous
                cls._previous = None
        if exc_type is None:
            self.check()


def _answers(address: str) -> None:
    """ConnectionError for a ``host:port`` where nothing accepts a connection within 5 s: Ray itself
    retries such an address without end (a closed port of this machine: still retrying, a line a try,
    after 10 minutes). Other forms (``auto``, ``ray://...``) are left to Ray, which fails fast on them."""
    host, _, port = address.rpartition(":")
    if not host or "://" in host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise ConnectionError(f"nothing answers there ({exc.strerror or exc}); start its head with "
                              "ray start --head, or give --address auto") from None


class RayExecutor:
    """Tasks on a Ray cluster: ``address`` None starts a local one of ``workers`` CPUs on loopback,
    ``"auto"`` joins the cluster this machine belongs to (``ray start``), any other value is a Ray address.

    Results come back to this process (the driver), which alone writes checkpoints, so a killed driver
    resumes from its folder like any other run. Every node must have the same treegen installed.
    """

    def __init__(self, workers: int, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise TreegenError(
                "--executor ray needs Ray, which is not installed: pip install -e '.[ray]' (or pip install ray)"
            ) from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            options = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
            try:
                if address is None:
                    # Ray runs its workers at niceness 15 by default; here they do the search itself, so a
                    # busy machine would starve them behind any other job.
                    os.environ.setdefault("RAY_worker_niceness", "0")
                    ray.init(num_cpus=workers, _node_ip_address="127.0.0.1", **options)
                else:
                    _answers(address)
                    ray.init(address=address, **options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = "a local Ray" if address is None else f"the Ray cluster at {address}"
                raise TreegenError(f"cannot start or join {where}: {exc}".splitlines()[0]) from None
        self.processes = max(1, int(ray.cluster_resources().get("CPU", workers)))
        self.remote = ray.remote(num_cpus=1, max_retries=0)(_run_task)
        self.refs: list = []

    def submit(self, fn, *args) -> Future:
        assert fn is _run_task, "the Ray executor runs search tasks only"
        ref = self.remote.remote(*args)
        self.refs.append(ref)
        return ref.future()

    def close(self) -> None:
        for ref in self.refs:
            try:
                self.ray.cancel(ref, force=True)
            except Exception:  # already finished, or the cluster is gone: nothing left to stop
                pass
        self.refs = []
        if self.started:
            self.ray.shutdown()


# -- tasks ----------------------------------------------------------------------------------------------------


@cache
def _worker_solver(game: Game, cap: int | None, options: Options, hard: bool, extra: int) -> Solver:
    return Solver.with_options(game, cap, options, hard, extra)


def _run_task(game: Game, cap: int | None, options: Options, hard: bool, extra: int, secrets: np.ndarray, beta: int,
              history: tuple[Code, ...], depth: int) -> Outcome:
    """One subproblem, on an executor: solve it from a fresh memo and return its value and tree."""
    start = time.thread_time()
    solver = _worker_solver(game, cap, options, hard, extra)
    solver.reset()
    value = solver.solve(secrets, beta, history, depth)
    exact = value < beta
    tree = solver.tree(secrets, depth, history) if exact else None
    counts = solver.counts
    solver.reset()
    seconds = time.thread_time() - start
    return Outcome(value, exact, counts.nodes + counts.bound_scans, tree, seconds, seconds)


def _cancelled() -> Future:
    """A future already cancelled: what a closed coordinator gives instead of starting work."""
    fut: Future = Future()
    fut.cancel()
    return fut


class _Done:
    """A finished result that answers ``result()`` like a future."""

    def __init__(self, value) -> None:
        self.value = value

    def result(self):
        return self.value


class Scope:
    """What one coordinating job (a coordinator, or a chain) and the jobs it started have learnt, for the
    memo by orbit across subproblems: ``finished``, the outcomes noted as their subproblems finish (in this
    scope and every enclosing one), and ``published``, those it has published, by orbit key, to answer
    the subproblems it starts from then on, and theirs (see Coordinator._transferred).

    A scope publishes only when none of the subproblems it started is running: a chain between its steps,
    a coordinator between its waves. So what a subproblem can find in the scopes around it is fixed while
    it runs, and is what the search's earlier steps found, never what a job beside it found first: the
    answers, and the node counts, do not depend on timing, workers or executor."""

    def __init__(self, parent: Scope | None) -> None:
        self.parent = parent
        self.finished: list[list] = []  # [secrets, depth, Outcome, orbit key once computed]
        self.published: dict[tuple[int, bytes], list[tuple[np.ndarray, Outcome]]] = {}

    def around(self):
        """This scope and every enclosing one, innermost first."""
        scope = self
        while scope is not None:
            yield scope
            scope = scope.parent


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


# -- the coordinator ------------------------------------------------------------------------------------------


class Coordinator:
    """One search of one game: the coordinators of the tree's top (and with eager, of every big set), an
    executor for the rest, and the checkpoint store (None: no checkpoints)."""

    def __init__(self, game: Game, cap: int | None, options: Options, hard: bool, extra: int, executor: Executor,
                 store: CheckpointStore | None, progress: Progress, warn: Callable[[str], None],
                 eager: bool = False, interrupts: _CallbackInterrupts | None = None) -> None:
        self.game = game
        self.cap = cap
        self.options = options
        self.hard = hard
        self.extra = extra
        self.executor = executor
        self.store = store
        self.progress = progress
        self.warn = warn
        self.tables = search_tables(game, extra)
        # Coordinators and chains run on threads of their own (see _spawn); inline, on the caller's thread.
        self.threaded = executor.processes > 1
        self.closed = False
        self.nodes = 0
        self.nodes_lock = threading.Lock()
        # Classes this big, just below the root, are coordinated too, so their work spreads over workers.
        self.split_min = max(600, game.size // 8)
        self.eager = eager
        # With eager (for many workers), every set this big at any level is coordinated: on numbers-baseball
        # the biggest task was otherwise the 886 secrets after 0123 and 1456, 155 s alone; coordinated, its
        # critical path is 30 s, for 2.1 times the work (331 s of CPU over 10,053 tasks). A lower threshold
        # costs more: with 300, bulls-cows' eager search did 3.3 times the work for a path of 1.3 s, not 2.9.
        self.split_eager = max(EAGER_SPLIT_MIN, game.size // 16)
        # The memo by orbit across subproblems (with the orbits lever): the scope around the root, which
        # every outcome reaches (see Scope and _transferred).
        self.set_orbits = SetOrbits(game) if options.orbits else None
        self.scope = Scope(None)
        self.finished_lock = threading.Lock()
        self.orbits_lock = threading.Lock()
        # Checked as each task starts: inline, a Ctrl-C that a compile swallowed stops the search there.
        self.interrupts = interrupts

    def close(self) -> None:
        """Stop everything at once (after an interrupt or an error too)."""
        # Coordinator threads wait on tasks and on the jobs below them, which end in tasks: closing the
        # executor cancels or ends those, and from now on no task or coordinator starts (a coordinator in
        # the middle of a scan would otherwise go on submitting; on Ray a submit would start a new Ray).
        self.closed = True
        self.executor.close()

    def count(self, nodes: int) -> None:
        with self.nodes_lock:
            self.nodes += nodes

    # -- tasks and their checkpoints ------------------------------------------------------------------------
    @staticmethod
    def _task_key(secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int) -> dict:
        return {"secrets": hashlib.sha256(secrets.tobytes()).hexdigest(), "n": int(secrets.shape[0]),
                "beta": beta, "history": list(history), "depth": depth}

    def _checker(self, secrets: np.ndarray, beta: int, depth: int) -> Callable[[dict], str | None]:
        """What a stored outcome must satisfy: the right shape, exact exactly when below beta, and an
        exact value that is the total of the tree stored with it."""

        def check(d) -> str | None:
            if not (isinstance(d, dict) and _is_int(d.get("value")) and isinstance(d.get("exact"), bool)
                    and _is_int(d.get("nodes"))):
                return "malformed outcome (value, exact and nodes must be an int, a bool and an int)"
            value = d["value"]
            if not 0 <= value <= INF or d["nodes"] < 0:
                return f"value {value} or nodes {d['nodes']} out of range"
            if d["exact"] != (value < beta):
                return f"it says exact={d['exact']} for value {value} under beta {beta}"
            if d["exact"]:
                cost = wire_cost(self.tables, secrets, d.get("tree"), depth, self.extra)
                if cost is None:
                    return "its tree does not solve the subproblem's secrets"
                if cost != value:
                    return f"it claims value {value} but its tree costs {cost}"
            elif d.get("tree") is not None:
                return "a bound with a tree"
            return None

        return check

    def task(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, scope: Scope) -> Future:
        if self.closed:
            return _cancelled()
        if self.interrupts is not None:
            self.interrupts.check()
        self.progress.add()
        key = self._task_key(secrets, beta, history, depth) if self.store else None
        if self.store is not None:
            stored = self.store.load(key, self._checker(secrets, beta, depth))
            if stored is not None:
                fut: Future = Future()
                fut.set_result(Outcome.from_obj(stored))
                self._done(fut, None, None, (scope, secrets, depth))
                return fut
        inner = self.executor.submit(_run_task, self.game, self.cap, self.options, self.hard, self.extra, secrets,
                                     beta, history, depth)
        # Whoever waits sees the outcome only once its nodes are counted and its checkpoint is on disk.
        outer: Future = Future()
        inner.add_done_callback(lambda f: self._settle(f, key, outer, (scope, secrets, depth)))
        return outer

    def _settle(self, fut: Future, key: dict | None, outer: Future, task: tuple) -> None:
        try:
            self._done(fut, key, outer, task)
        except BaseException as exc:  # never leave a waiter hanging
            if not outer.done():
                outer.set_exception(exc)

    def _done(self, fut: Future, key: dict | None, outer: Future | None, task: tuple) -> None:
        """A task's outcome arrived: count it, checkpoint it and note it for the memo by orbit (``task``:
        the scope it was started in, its secrets and depth) before whoever waits on ``outer`` sees it, so
        that a scope that publishes once its subproblems are over publishes it (see Scope)."""
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
        self._finished(*task, outcome)
        if key is not None and self.store is not None:
            try:
                self.store.save(key, outcome.to_obj())
            except CheckpointStopped as exc:
                # The folder takes no more (a full disk): one line, not one per task (1348 on a full disk).
                self.warn(f"checkpointing stopped: {exc}; the search goes on without saving checkpoints")
            except TreegenError as exc:
                # A checkpoint only saves time: losing one entry must not lose the search.
                self.warn(f"{exc}; going on without that checkpoint entry")
        self.progress.finish()
        if outer is not None:
            outer.set_result(outcome)

    # -- coordinators ---------------------------------------------------------------------------------------------
    def subproblem(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, level: int,
                   scope: Scope | None = None, need_tree: bool = True, lookup: bool = True):
        """The outcome of ``secrets`` with ``beta`` (a future): a task, or a coordinator for big sets
        near the root (with ``eager``, for big sets at any level). ``scope``: the job that starts it (None:
        the scope around the root); ``need_tree``: whether a coordinator must find the trees of its best guess's classes
        whose values were carried over (see _fill_holes); ``lookup``: whether an equivalent set's outcome
        may answer this set itself (see _transferred)."""
        scope = scope or self.scope
        n = secrets.shape[0]
        if n <= 2:
            lb = int(self.tables.bounds.lb[depth, n])
            if lb >= INF:
                return _Done(Outcome(INF, False, 0))
            exact = lb < beta
            return _Done(Outcome(lb, exact, 0, small_tree(self.tables, secrets) if exact else None))
        if self.set_orbits is not None and lookup:
            found = self._transferred(scope, secrets, beta, depth)
            if found is not None:
                return _Done(found)
        if level == 0 or (level == 1 and n >= self.split_min) or (self.eager and n >= self.split_eager):
            return self._spawn(self.coordinate, secrets, beta, history, depth, level, scope, need_tree)
        return self.task(secrets, beta, history, depth, scope)

    def coordinate(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, level: int,
                   scope: Scope | None = None, need_tree: bool = True) -> Outcome:
        """``Solver.solve`` at one node, with the classes of its guesses searched as parallel subproblems.

        Same contract: the exact cost if below ``beta``, else a lower bound >= beta. With the exact cost,
        its tree if ``need_tree`` (the root, and the classes of a best-first guess of a set that needs its
        tree: the sets most likely to end in the tree), or if no class of the best guess had its value
        carried over from an equivalent set; else None (see _fill_holes).
        """
        scope = scope or self.scope
        here = Scope(scope)  # what this set's waves learn, published between them
        clock = time.thread_time()
        solver = Solver.with_options(self.game, self.cap, self.options, self.hard, self.extra)
        scan = solver.scan(secrets, beta, history, depth)
        best: tuple[Code, np.ndarray, np.ndarray, dict] | None = None  # guess, its classes, their outcomes
        start = 0
        # Measurements only: the coordinator's own seconds (its scans, timed apart from the subproblems
        # it starts, which may run inline) count in its work and, wave by wave, in its span: its own scan
        # of the wave, then the wave's longest job (an upper estimate, as jobs start while it scans).
        own = time.thread_time() - clock
        work = span = 0.0
        first = True
        while start < scan.guesses.shape[0]:
            # Two waves: the first open guess alone, then all the rest, each with the beta of the wave's
            # start (so that the schedule does not depend on timing): the first's total if it came in below
            # beta, else beta itself. In the second case this set most likely fails (it was given a share
            # of a slack, or belongs to a guess that is being refuted), and the rest are refuted side by
            # side, each stopping at the first class that shows it. (Each as a wave of its own, every class
            # searched side by side like the first's, numbers-baseball's 1710 secrets under 0012, searched
            # under their share of the slack at the end of the run with nothing beside them, took 149 s of
            # CPU over a path of 79 s; as chains, 36 s over 7 s.)
            wave_beta = beta
            jobs = []
            while True:
                clock = time.thread_time()
                step = solver.next_open(scan, start, wave_beta, scan_all=True)
                own += time.thread_time() - clock
                if step is None:
                    break
                classes = list(step.classes())
                total = step.total
                g = step.guess
                # Each class may cost at most wave_beta - (total - base) for g to stay below wave_beta.
                if first:
                    # The best-first guess: likely the best, so every class is needed exactly. All at once.
                    job = _Done(self._side_by_side(classes, total, wave_beta, history + (g,), depth - 1, level + 1,
                                                   here, need_tree))
                elif self.eager:
                    # Eager: the others' classes all at once too. A failing guess then pays for classes that a
                    # chain would have skipped, but the wave waits only for its longest class, not for sums.
                    job = self._spawn(self._side_by_side, classes, total, wave_beta, history + (g,), depth - 1, level + 1,
                                      here, False)
                else:
                    # The others mostly fail: search their classes one by one, the largest first (each
                    # with its share of the slack first), so a failure stops at the first class that shows
                    # it; the guesses run side by side.
                    job = self._spawn(self._chain, classes, total, wave_beta, history + (g,), depth - 1, level + 1, here)
                jobs.append((g, step.members, step.starts, job))
                start = step.index + 1
                if first:
                    break
            first = False
            if step is None:
                start = scan.guesses.shape[0]
            counts = solver.take_counts()
            self.count(counts.bound_scans + counts.nodes)
            wave_span = 0.0
            for g, members, starts, job in jobs:
                total, subtrees, job_work, job_span = job.result()
                work += job_work
                wave_span = max(wave_span, job_span)
                if subtrees is not None and total < beta:
                    beta = total
                    best = (g, members, starts, subtrees)
                    if level == 0:
                        self.progress.say(self._best_note(beta))
                else:
                    scan.least = min(scan.least, total)
            work += own
            span += own + wave_span
            own = 0.0
            # Between this set's waves nothing it started runs, so what finished in this wave answers
            # equivalent sets in the later ones whatever the timing (see Scope).
            self._publish(here)
        if best is None:
            outcome = Outcome(min(scan.least, INF), False, 0, None, work, span)
        else:
            g, members, starts, subtrees = best
            if need_tree:
                fill_work, fill_span = self._fill_holes(g, members, starts, subtrees, history, depth, level, here)
                work += fill_work
                span += fill_span
            if any(o.tree is None for o in subtrees.values()):
                # A class's value came from an equivalent set, without its tree (see _transferred): a
                # coordinator that needs this set's tree finds it (see _fill_holes).
                outcome = Outcome(beta, True, 0, None, work, span)
            else:
                outcome = Outcome(beta, True, 0, [g, self._children(g, members, starts, subtrees)], work, span)
        self._finished(scope, secrets, depth, outcome)
        return outcome

    # -- the memo by orbit across subproblems ------------------------------------------------------------------
    def _finished(self, scope: Scope, secrets: np.ndarray, depth: int, outcome: Outcome) -> None:
        """Note a subproblem's outcome, in ``scope`` (the job that started it) and every enclosing scope,
        for them to publish (with the memo by orbit on)."""
        if self.set_orbits is not None:
            # The value and whether exact: all that _transferred reads (no tree kept for the run).
            note = [secrets.copy(), depth, Outcome(outcome.value, outcome.exact, 0), None]
            with self.finished_lock:
                for around in scope.around():
                    if around.parent is None:
                        break  # the scope around the root never publishes: nothing to hold there
                    around.finished.append(note)

    def _publish(self, scope: Scope) -> None:
        """Make the outcomes ``scope`` noted so far answer equivalent sets in the subproblems it starts from
        now on (see :meth:`_transferred`); the caller's part is to call this only when none it started runs."""
        if self.set_orbits is None:
            return
        with self.finished_lock:
            finished, scope.finished = scope.finished, []
        with self.orbits_lock:
            for note in finished:
                secrets, depth, outcome, key = note
                if key is None:  # computed once, for the first scope to publish it
                    key = note[3] = (depth if self.cap is not None else 0, self.set_orbits.key(secrets))
                scope.published.setdefault(key, []).append((secrets, outcome))

    def _transferred(self, scope: Scope, secrets: np.ndarray, beta: int, depth: int) -> Outcome | None:
        """The outcome of ``secrets`` under ``beta`` from outcomes of equivalent sets published by ``scope``
        or an enclosing scope, or None.

        Equivalent sets cost the same within any depth (an element of the game's group maps one onto the
        other and each guess's classes onto its image's: Solver._orbit_answer). So an exact value v
        answers any beta: exact below it (without a tree: a coordinator that needs it finds it, see
        :meth:`_fill_holes`), else a bound >= beta; a bound answers a beta at most itself. The answer
        is the exact value if any equivalent set has one, else the highest bound: it depends on what
        was published, not on the order, and what a subproblem can see is published before it starts
        and not again until it ends (see Scope), so nothing here depends on timing. The node count of
        a transferred outcome is 0.
        """
        scopes = [around.published for around in scope.around() if around.published]
        if not scopes:  # (nothing to look up: no orbit key to compute)
            return None
        exact = None
        bound = -1
        # One lock for SetOrbits' scratch array, which every coordinator thread would share (the compiled
        # kernels hold the GIL, but not with NUMBA_DISABLE_JIT).
        with self.orbits_lock:
            key = (depth if self.cap is not None else 0, self.set_orbits.key(secrets))
            for published in scopes:
                for other, outcome in published.get(key, ()):
                    if not (outcome.exact or outcome.value > bound) or self.set_orbits.element(other, secrets) is None:
                        continue
                    if outcome.exact:
                        exact = outcome.value
                        break
                    bound = outcome.value
                if exact is not None:
                    break
        if exact is not None:
            return Outcome(exact, exact < beta, 0)
        if bound >= beta:
            return Outcome(bound, False, 0)
        return None

    def _fill_holes(self, g: Code, members: np.ndarray, starts: np.ndarray, subtrees: dict,
                    history: tuple[Code, ...], depth: int, level: int, scope: Scope) -> tuple[float, float]:
        """Find the trees of a best guess's classes whose values were transferred: each is searched again,
        side by side, under its value + 1, without looking itself up (its own subproblems may be
        transferred: a coordinator finds their trees in turn), which finds the tree a search of it under
        any beta above its value finds (Solver.tree). A value that is not found again is a SearchBug.
        Returns the work and span of those searches."""
        holes = [h for h, outcome in subtrees.items() if outcome.tree is None]
        futures = [(h, self.subproblem(members[starts[h] : starts[h + 1]], subtrees[h].value + 1, history + (g,),
                                       depth - 1, level + 1, scope, True, False)) for h in holes]
        work = span = 0.0
        for h, fut in futures:
            value, outcome = subtrees[h].value, fut.result()
            if not outcome.exact or outcome.value != value or outcome.tree is None:
                raise SearchBug(f"a class transferred at value {value} searched again gave {outcome.value}")
            subtrees[h] = outcome
            work += outcome.work
            span = max(span, outcome.span)
        return work, span

    def _best_note(self, cost: int) -> str:
        if not self.extra:
            return f"best total {cost}"
        at_cap, total = divmod(cost, self.extra)
        return f"best: {at_cap} at {self.cap} guesses, total {total}"

    @staticmethod
    def _gather(total: int, futures) -> tuple[int, dict | None, float, float]:
        """A guess's total from its classes' outcomes, with the outcomes by hint if all are exact (and the
        classes' work, and their span: they ran side by side)."""
        subtrees: dict | None = {}
        work = span = 0.0
        for h, base, fut in futures:
            outcome = fut.result()
            total += outcome.value - base
            work += outcome.work
            span = max(span, outcome.span)
            if not outcome.exact:
                subtrees = None
            elif subtrees is not None:
                subtrees[h] = outcome
        return total, subtrees, work, span

    def _side_by_side(self, classes, total: int, beta: int, history, depth: int, level: int, scope: Scope,
                      need_tree: bool) -> tuple[int, dict | None, float, float]:
        """A guess's classes searched at once, each with the beta that keeps the guess below ``beta``
        (see :meth:`_gather`), in ``scope``."""
        futures = [(h, base, self.subproblem(cls, beta - (total - base), history, depth, level, scope, need_tree))
                   for h, cls, base in classes]
        return self._gather(total, futures)

    def _chain(self, classes, total: int, beta: int, history, depth: int, level: int,
               scope: Scope) -> tuple[int, dict | None, float, float]:
        """A guess's classes searched in turn: (total, the classes' outcomes) if the guess costs less than
        beta, else (a lower bound >= beta, None) from the first class that shows it (with their work, and
        their span: the sum of theirs, one after the other; a coordinated class's span is less than its work). With ``shares``, each class is first searched under its share
        of the slack (search.share_slack). The chain is a scope of its own (in ``scope``), which publishes
        after each step: a coordinated class searched again after its share failed finds there the outcomes
        of its first search's subproblems (in the solver, the memo keeps them; a class that is one task
        starts afresh). Its classes' trees are not
        needed unless the guess ends best, which a coordinator above sees to (see _fill_holes)."""
        subtrees = {}
        work = span = 0.0
        values = [base for _h, _cls, base in classes]
        here = Scope(scope)

        def search(i: int, class_beta: int) -> Outcome:
            nonlocal work, span
            outcome = self.subproblem(classes[i][1], class_beta, history, depth, level, here, False).result()
            self._publish(here)  # nothing this chain started runs now
            work += outcome.work
            span += outcome.span
            return outcome

        if self.options.shares:

            def search_class(i: int, class_beta: int) -> int:
                h = classes[i][0]
                outcome = search(i, class_beta)
                if outcome.exact:
                    subtrees[h] = outcome
                return outcome.value

            total = share_slack(values, total, beta, search_class)
            if total >= beta:
                return total, None, work, span
        for i, (h, _cls, _base) in enumerate(classes):
            if h in subtrees:
                continue
            outcome = search(i, beta - (total - values[i]))
            total += outcome.value - values[i]
            values[i] = outcome.value
            if not outcome.exact:
                return total, None, work, span
            subtrees[h] = outcome
        return total, subtrees, work, span

    def _spawn(self, fn, *args):
        """Run a coordinating function on a thread of its own (inline without worker processes).

        A thread each, not a pool: coordinators and chains wait on tasks and on coordinators below them,
        so with a bounded pool, waiting threads could hold every place while the coordinators they wait
        for sit in its queue (an eager wave starts a job per open guess, and its coordinated classes
        start more). Threads are cheap next to the tasks they wait for."""
        if not self.threaded:
            return _Done(fn(*args))
        if self.closed:
            return _cancelled()
        fut: Future = Future()

        def run() -> None:
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to whoever waits on the future
                fut.set_exception(exc)

        threading.Thread(target=run, name="treegen-coordinator", daemon=True).start()
        return fut

    def _children(self, g: Code, members: np.ndarray, starts: np.ndarray, subtrees: dict) -> list:
        t = self.tables
        out = []
        for h in range(t.nh):
            size = int(starts[h + 1] - starts[h])
            if h == t.win or size == 0:
                continue
            child = subtrees[h].tree if h in subtrees else small_tree(t, members[starts[h] : starts[h + 1]])
            out.append([int(t.hints[h]), child])
        return out


# -- the whole game ---------------------------------------------------------------------------------------------


def check_memory(game: Game) -> None:
    """Refuse up front a game whose hint tables would not fit (never an OOM kill or a MemoryError).

    The search holds two tables of a byte per pair of codes (the hints and their dense renumbering), so
    they must fit in twice ``feedback.default_memory`` (half the machine's memory): the same bound as
    one table within feedback's default budget, which the heuristics use; so must the one-hot table
    (search.onehot_table: two or four bytes a pair, for games small enough to have one). Each worker
    process holds its own copy of all three.
    """
    need = 2 * table_bytes(game) + onehot_bytes(game.size, len(game.possible_hints))
    budget = 2 * default_memory()
    if need > budget:
        raise TableTooLarge(
            f"{game.name} has {game.size} codes: the search's hint tables need {format_bytes(need)}, more "
            f"than half this machine's memory ({format_bytes(budget)}); exact search accepts games of up to "
            f"{int((budget / 2) ** 0.5)} codes here"
        )


def plan_workers(game: Game, workers: int) -> tuple[int, str | None]:
    """The worker processes a search of ``game`` will use when asked for ``workers``, and a note for
    the user when that differs (more than the cores, or a game too small to split)."""
    cores = os.cpu_count() or 1
    if game.size <= INLINE_MAX_CODES and workers > 1:
        return 1, f"{game.name} is small ({game.size} codes): searching it in one process"
    if workers > cores:
        return cores, f"--workers {workers} is more than the {cores} cores here: using {cores}"
    return workers, None


# What each process compiles on an empty cache (see compile_ahead), by name in kernels.SEARCH_SIGNATURES,
# measured on mastermind (scripts/first_run.py), where the two end within a tenth of a second of each other
# (6.8 s): the helper's least_bound and next_open_guess (class_bound inlined) with their callees take about
# half of the search's compile time, the other kernels the other half, with the scorer of a game without
# repeats (games with repeats are scored by numpy). A kernel that both need is the main process's when it
# comes first there and late in the helper, which then loads it from the cache instead of compiling it
# again: memo_find and memo_put (callees of next_open_guess through class_bound, typed after the helper's
# 3-4 s on least_bound) and split_classes (reached some seconds later still). The two callees that count
# big sets in 16-bit lanes, which ordered_guesses and class_bound both call, are one for each, first:
# _wide_counts (about 0.7 s) in the main process, in the cache by the time the helper types
# next_open_guess, and _lane_bounds (0.3 s) in the helper, long before ordered_guesses (on 2026-11-25 the
# two processes ended at 5.0-5.3 s and 5.2-5.5 s, against 4.8 s and 4.9 s before these kernels; with both
# in the main process it ended at 5.6 s). The memo by orbit's two kernels, for games of more than 2000
# codes, are one for each (bulls-cows: the main process ends at 7.9 s, the helper at 7.1 s; the other split
# ends it at 7.9 s too).
ORBIT_KERNELS = ("orbit_key", "orbit_element")  # compiled only for a search that uses the memo by orbit
AHEAD = (("_lane_bounds", "least_bound", "next_open_guess", "orbit_key"),
         ("_wide_counts", "memo_find", "memo_put", "split_classes", "fast_bound_limit", "excess_bound_limit",
          "node_group", "canonical_codes", "ordered_guesses", "orbit_element"))


def _fork_is_safe() -> bool:
    """Whether compile_ahead may fork its helper rather than spawn it. A forked helper starts compiling at
    once, with numba imported and set up; a spawned one first spends most of a second starting Python and
    importing it again, on the first run's critical path. But a fork copies any lock another thread holds
    at that moment (a progress bar's monitor thread, say): fork only when no other Python thread runs, and
    only on Linux, where fork has long been the default. Native thread pools are not counted here: numpy's
    OpenBLAS starts one at import and stops it around a fork itself (Python 3.12 and later see it and issue
    a DeprecationWarning, hidden by default), and nothing after the fork calls into BLAS."""
    return sys.platform == "linux" and threading.active_count() == 1


def compile_ahead(game: Game, cores: int, say: Callable[[str], None] | None = None,
                  groups: tuple[tuple[str, ...], tuple[str, ...]] = AHEAD, orbits: bool = True) -> bool:
    """On an empty numba cache (the first run after install), compile the search's kernels in two
    processes side by side: a helper process (forked if :func:`_fork_is_safe`, else spawned) compiles
    ``groups[0]`` while this process compiles ``groups[1]`` (and the scorer of a game without repeats: the
    others are scored by numpy), and each writes the disk cache that every process then loads.

    ``orbits``: whether the search uses the memo by orbit (see search.uses_orbits); if not, its kernels
    (``ORBIT_KERNELS``) are left out. Does nothing when ``cores`` (the user's budget, which a small game's
    inline search leaves unused) is below 2 or the cache already holds every kernel it would compile; when
    it holds ``groups[0][0]`` (every kernel is in one file, so they go stale together) but not the memo by
    orbit's kernels, which a first run of a small game left out, it compiles those alone, as in
    ``groups``, so that the workers of a bigger game's first run do not each compile them. ``say(note)``
    is told when it compiles. Whether it compiled both groups; on any failure (the helper cannot start or
    dies, a signature no longer types) it ends the helper and returns False, and the search compiles what
    it needs itself, as without this step. On Ctrl-C it ends the helper and raises KeyboardInterrupt, with
    nothing printed, even when the interrupt lands in LLVM's callbacks (see :class:`_CallbackInterrupts`).
    """
    wide = wide_onehot(game)  # the type of the game's one-hot table is part of the kernels' signatures
    if cores < 2:
        return False
    # From the first cache lookup on, which already compiles numba's own runtime functions.
    with _CallbackInterrupts() as interrupts:
        return _compile_ahead(game, say, groups, orbits, wide, interrupts)


def _compile_ahead(game: Game, say: Callable[[str], None] | None, groups: tuple[tuple[str, ...], tuple[str, ...]],
                   orbits: bool, wide: bool, interrupts: _CallbackInterrupts) -> bool:
    """compile_ahead's work, within its :class:`_CallbackInterrupts`."""
    if not orbits:
        groups = tuple(tuple(name for name in group if name not in ORBIT_KERNELS) for group in groups)
    note = "compiling the search's kernels (first run only)"
    if kernels.cached(groups[0][0], wide):
        groups = tuple(tuple(name for name in group if name in ORBIT_KERNELS and not kernels.cached(name, wide))
                       for group in groups)
        if not any(groups):
            return False
        note = "compiling the memo by orbit's kernels (first run of a game of over 2000 codes only)"
    interrupts.check()  # (before a helper is started for nothing)
    if say is not None:
        say(note)
    # Games with repeats are scored with numpy (feedback.score_many); the others by a kernel of their own.
    scorer = () if game.repeats else ("score_matrix_distinct",)
    method = "fork" if _fork_is_safe() else "spawn"
    if method == "fork":
        _flush_before_fork()
    helper = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method), initializer=_worker_init,
                                 initargs=(os.getpid(),))
    try:
        # A forked helper would run the CLI's handlers on Ctrl-C until _worker_init replaces them: hold
        # both signals back across the fork (the helper lets them through once its own are in place).
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS) if method == "fork" else None
        try:
            job = helper.submit(kernels.compile_for_search, groups[0], wide)
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        # One kernel at a time, so that an interrupt that LLVM's callbacks swallowed (see _CallbackInterrupts)
        # stops this process once the kernel it landed in is compiled.
        for name in (*scorer, *groups[1]):
            kernels.compile_for_search((name,), wide)
            interrupts.check()
        job.result()
    except BaseException as exc:
        # Do not wait for the helper's compile (on Ctrl-C, or after a failure here): end it. numba writes
        # its cache files atomically, so an ended helper leaves no torn entry.
        for proc in list((getattr(helper, "_processes", None) or {}).values()):
            proc.terminate()
        if not isinstance(exc, Exception):
            raise
        return False
    finally:
        helper.shutdown(wait=True, cancel_futures=True)
    return True


EXECUTORS = ("processes", "ray")


def make_executor(kind: str, workers: int, address: str | None = None) -> Executor:
    """The executor named ``kind``: ``processes`` (local worker processes; inline for one worker) or
    ``ray`` (a local Ray of ``workers`` CPUs, or the cluster at ``address``, ``auto`` for this machine's)."""
    if kind == "ray":
        return RayExecutor(workers, address)
    if kind != "processes":
        raise TreegenError(f"unknown executor {kind!r}; use one of {', '.join(EXECUTORS)}")
    if address is not None:
        raise TreegenError("--address applies only with --executor ray")
    return ProcessExecutor(workers) if workers > 1 else InlineExecutor()


def _count_argument(name: str, value) -> int:
    """``value`` as an int of at least 1 (any integer type but bool: a numpy int too), else a one-line
    error (as the command's --workers and --max-guesses)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ArgumentTypeError(f"solve_game: {name} must be an int, not {type(value).__name__}")
    value = operator.index(value)
    if value < 1:
        raise NumberError(f"{name} must be at least 1, not {value}")
    return value


def solve_game(
    game: Game | str,
    objective: Objective = "average",
    max_guesses: int | None = None,
    workers: int = 1,
    checkpoint: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    options: Options = Options(),
    warn: Callable[[str], None] | None = None,
    timings: Callable[[], dict] | None = None,
    consistent_only: bool = False,
    executor: str = "processes",
    address: str | None = None,
    profile: dict | None = None,
    eager: bool = False,
) -> Tree:
    """The optimal tree of ``game`` (a Game, or a name for ``rules.resolve_game``) for ``objective``,
    checked, with its proof figures in provenance.

    - ``average``: least total guesses over all secrets, within ``max_guesses`` if given.
    - ``worst``: least maximum number of guesses (proving one fewer impossible), then least total within
      it; a ``max_guesses`` below that maximum is Infeasible.
    - ``crush``: least maximum N as for ``worst``, then the fewest secrets that need all N guesses, then
      the least total. One search does both: each secret solved with the N-th guess costs ``N * size + 1``
      more, which exceeds any total within N guesses, so a cost orders trees by that count first.

    ``workers`` processes (see :func:`plan_workers`) on ``executor`` (``processes`` or ``ray``, with its
    ``address``: see :func:`make_executor`; the tree is the same for any executor and workers), an optional
    ``checkpoint`` folder, ``progress(done, total, note)`` and ``warn(message)`` callbacks, and
    ``timings()``, whose dict is added to the provenance at the end (None: the file records no timings,
    so rebuilding gives the same bytes). ``consistent_only``: hard mode, every guess a possible secret.
    Raises Infeasible (a TreegenError) when no tree fits in ``max_guesses``, SearchBug when the tree built
    does not achieve what the search proved; an unknown game or objective, ``workers`` or ``max_guesses``
    below 1 are TreegenErrors, a game or number of the wrong type an ``ArgumentTypeError`` (a TypeError
    too), all before any work. ``workers`` above 1 start worker processes: see :class:`ProcessExecutor`
    for when a script needs an ``if __name__ == "__main__":`` guard. ``profile``, if given, receives the
    measured ``work`` and ``span`` seconds of the search after the cap is settled (see :class:`Outcome`)
    and the number of ``tasks``.
    ``eager``: coordinators search every class of every guess side by side, not the classes of a guess
    other than the first one after another: a failing guess may pay for classes a chain would skip, but
    no wave waits for a sum of classes, so the critical path is shorter (for many workers). The tree is
    the same (a guess below its wave's beta has every class below that class's beta, so exact, either
    way); the node count in the provenance is not, so ``eager`` is recorded there. With ``eager`` every
    set of at least ``max(600, size / 16)`` secrets is coordinated too, not only the root and its biggest
    classes, so that no single task is a long link of the critical path.
    """
    game = game_argument(game, "solve_game")
    if objective not in OBJECTIVES:
        raise TreegenError(f"unknown objective {objective!r}; use one of {', '.join(OBJECTIVES)}")
    workers = _count_argument("workers", workers)
    max_guesses = None if max_guesses is None else _count_argument("max_guesses", max_guesses)
    # A Ctrl-C that LLVM's callbacks swallow while a kernel compiles is raised, not printed and lost.
    with _CallbackInterrupts() as interrupts:
        return _solve(game, objective, max_guesses, workers, checkpoint, progress, options, warn, timings,
                      consistent_only, executor, address, profile, eager, interrupts)


def _solve(game: Game, objective: Objective, max_guesses: int | None, workers: int, checkpoint: str | None,
           progress, options: Options, warn, timings, consistent_only: bool, executor: str, address: str | None,
           profile: dict | None, eager: bool, interrupts: _CallbackInterrupts) -> Tree:
    """solve_game once its arguments are checked."""
    check_memory(game)
    options = options.resolved(game)  # orbits decided by the game's size and the memo (so in a checkpoint's key)
    warn = warn or (lambda message: None)
    store = None
    if checkpoint is not None:
        key = {"game": f"{game.name} ({game.spec})", "objective": objective, "cap": max_guesses,
               "options": asdict(options), "consistent_only": consistent_only, "treegen": __version__}
        store = CheckpointStore(checkpoint, key, warn)
    secrets = np.arange(game.size, dtype=np.int32)
    report = Progress(progress)
    nodes = 0
    worst = None
    cap = max_guesses
    least_worst = objective in ("worst", "crush")
    if least_worst or max_guesses is not None:
        # Feasibility is cheap next to the average search: settle the cap first.
        probe = Solver(game, None, options.symmetry, consistent_only=consistent_only)
        depth = 1
        while probe.bounds.lb[depth, game.size] >= INF:
            depth += 1  # the counting bound alone rules these out
        if least_worst:
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
        nodes += probe.counts.nodes
    if cap is not None and cap >= UNCAPPED:
        cap = None  # no tree of a supported game is this deep: the cap cannot bind
    if executor == "ray":
        used = workers  # the cluster's CPUs decide; a small game is still worth a cluster's word
    else:
        used, _ = plan_workers(game, workers)
    # The crush price of a secret at the cap: more than any total within the cap (at most cap * size).
    extra = cap * game.size + 1 if objective == "crush" else 0
    run = Coordinator(game, cap, options, consistent_only, extra, make_executor(executor, used, address), store, report,
                      warn, eager, interrupts)
    try:
        depth = cap if cap is not None else UNCAPPED
        outcome = run.subproblem(secrets, INF, (), depth, 0).result()
    finally:
        run.close()
    if profile is not None:
        profile.update(work=outcome.work, span=outcome.span, tasks=report.total)
    if not outcome.exact:
        raise Infeasible(f"no strategy solves every secret of {game.name} within {cap} guesses")
    return _proved_tree(game, objective, max_guesses, cap, worst, consistent_only, extra, outcome, nodes + run.nodes,
                        timings, eager)


def strategy_name(objective: Objective, cap: int | None, consistent_only: bool = False) -> str:
    """The ``strategy`` of a proved tree: optimal-average, optimal-average-max5, optimal-worst,
    optimal-crush, with ``-hard`` for hard mode."""
    if objective in ("worst", "crush"):
        name = f"optimal-{objective}"
    else:
        name = f"optimal-average-max{cap}" if cap is not None else "optimal-average"
    return name + ("-hard" if consistent_only else "")


def _proved_tree(game: Game, objective: Objective, asked: int | None, cap: int | None, worst: int | None, hard: bool,
                 extra: int, outcome: Outcome, nodes: int, timings: Callable[[], dict] | None,
                 eager: bool = False) -> Tree:
    """The tree of a finished search with its proof figures, after checking that it achieves them
    (``asked``: the cap the user gave, which names the strategy; ``cap``: the one the search used;
    ``extra``: the crush price, so that the proved cost is total + extra * (secrets at the cap))."""
    at_cap, total = divmod(outcome.value, extra) if extra else (None, outcome.value)
    if extra and total > cap * game.size:  # the price exceeds any total, so the remainder is the total
        raise SearchBug(f"the search proved cost {outcome.value}, which is no count and total under price {extra}")
    provenance: dict = {
        "objective": objective,
        "max_guesses": cap,
        "optimal_total": total,
        "lower_bound": total,
    }
    if hard:
        provenance["consistent_only"] = True
    if worst is not None:
        provenance["worst_case"] = worst
        provenance["impossible_within"] = worst - 1
    if at_cap is not None:
        provenance["at_worst"] = at_cap
    provenance["nodes"] = nodes
    if eager:
        provenance["eager"] = True  # the node count depends on it (see solve_game)
    provenance["treegen"] = __version__
    if timings is not None:
        provenance.update(timings())
    try:
        root = Node.from_wire(game, outcome.tree)
        tree = make_tree(game, strategy_name(objective, asked, hard), root, provenance)
    except TreegenError as exc:
        raise SearchBug(f"the search built an invalid tree: {exc}") from None
    if tree.stats.total != total:
        raise SearchBug(f"the search proved total {total} but built a tree of total {tree.stats.total}")
    if at_cap is not None and tree.stats.histogram[-1] != at_cap:
        raise SearchBug(f"the search proved {at_cap} secrets at {cap} guesses but built a tree with "
                        f"{tree.stats.histogram[-1]}")
    if worst is not None and tree.stats.max_guesses != worst:
        raise SearchBug(f"the search proved worst case {worst} but built a tree that needs {tree.stats.max_guesses}")
    if cap is not None and tree.stats.max_guesses > cap:
        raise SearchBug(f"the search was capped at {cap} guesses but built a tree that needs {tree.stats.max_guesses}")
    return tree
