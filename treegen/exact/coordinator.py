"""The coordinator: a whole game's search as parallel subproblems on an executor, with checkpoints.

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

What a run starts with (its cap, objective and executor) and what it ends with (the checked tree) are
``solve``'s.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

import numpy as np

from ..rules import Code, Game, TreegenError
from .checkpoint import CheckpointStopped, CheckpointStore
from .contracts import INF, Cost, GuessOutcomes, OpenGuesses, Outcome, SearchBug
from .executors import Executor
from .memo import SetOrbits
from .options import Options
from .search_kernels import split_classes
from .solver import Solver, fixed_shares, share_slack
from .tables import is_int, search_tables, small_tree, wire_cost
from .tasks import run_guesses, run_open, run_task
from .warmup import CallbackInterrupts

# With eager (and no split), sets of at least max(EAGER_SPLIT_MIN, size / 16) secrets are coordinated at any level.
EAGER_SPLIT_MIN = 600
# With split, a task of guesses (tasks.run_guesses) stops after the guess that brings its work to this many
# nodes (see Coordinator._batch). Split is the schedule for many workers, so these two are set for 64 of them:
# with 5,000 and 75,000 instead of 20,000 and 150,000 (scripts/critical_path.py, side by side), numbers-baseball
# with split 200 went from work 349.2 s and span 9.0 s to 359.8 s and 5.3 s (38.6x to 67.7x), bc:5:8 with split
# 230 from 102.1 s and 3.0 s to 142.9 s and 1.7 s (34.3x to 83.4x: smaller tasks share less of a memo), so
# Brent's bound for 64 workers fell from 14.5 s to 10.9 s and from 4.6 s to 3.9 s (docs/bc-5-10-plan.md). The
# smaller budget did most of it; the smaller ranges alone left bc:5:8 as it was.
GUESS_BATCH_NODES = 5_000
# With split, a later wave's scan is cut into ranges of guesses searched side by side, each holding about this
# many guess-secret pairs of the guesses whose scan bound is below the wave's beta (see Coordinator._split_wave).
OPEN_RANGE_PAIRS = 75_000


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
        self.finished: list[list] = []  # [secrets, depth, Cost, orbit key once computed]
        self.published: dict[tuple[int, bytes], list[tuple[np.ndarray, Cost]]] = {}

    def around(self):
        """This scope and every enclosing one, innermost first."""
        scope = self
        while scope is not None:
            yield scope
            scope = scope.parent


class TaskProgress:
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
    """One search of one game: the coordinators of the tree's top (and with ``split`` or eager, of every big
    set), an executor for the rest, and the checkpoint store (None: no checkpoints)."""

    def __init__(self, game: Game, cap: int | None, options: Options, hard: bool, extra: int, executor: Executor,
                 store: CheckpointStore | None, progress: TaskProgress, warn: Callable[[str], None],
                 eager: bool = False, interrupts: CallbackInterrupts | None = None, split: int | None = None) -> None:
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
        # With split, every set of at least that many secrets at any level is coordinated, whether or not
        # eager (which otherwise uses split_eager): the chains stay chains, so a failing guess still stops at
        # its first failing class, but no single task is a long link of the critical path. On bc:5:8 (one
        # worker) split 300 took the path from 57.5 s to 17.6 s of CPU for 1.49 times the work (211.5 s over
        # 95,430 tasks against 142.1 s over 484); 150 (from level 2 down) gave 16.6 s: the path is then
        # the chains' steps, not tasks (see docs/bc-5-10-plan.md).
        self.split_any = split if split is not None else (max(EAGER_SPLIT_MIN, game.size // 16) if eager else None)
        # The split schedule proper (split without eager): later waves scanned and small guesses searched in
        # tasks (see _split_wave), chains' share passes side by side (see _chain).
        self.split_tasks = split is not None and not eager
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

    def _checker(self, secrets: np.ndarray, beta: int, depth: int,
                 guess: Code | None = None) -> Callable[[dict], str | None]:
        """What a stored outcome must satisfy: the right shape, exact exactly when below beta, and an
        exact value that is the total of the tree stored with it (whose root is ``guess``, if given: a
        guess's outcome in a task of guesses)."""

        def check(d) -> str | None:
            if not (isinstance(d, dict) and is_int(d.get("value")) and isinstance(d.get("exact"), bool)
                    and is_int(d.get("nodes"))):
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
                if guess is not None and d["tree"][0] != guess:
                    return f"its tree starts with {d['tree'][0]}, not with its guess {guess}"
            elif d.get("tree") is not None:
                return "a bound with a tree"
            return None

        return check

    def task(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, scope: Scope) -> Future:
        """A subproblem as a task (tasks.run_task), its outcome noted in ``scope`` (see _finished)."""
        key = self._task_key(secrets, beta, history, depth) if self.store else None
        return self._submit(run_task, (secrets, beta, history, depth), Outcome, key,
                            lambda: self._checker(secrets, beta, depth), (scope, secrets, depth))

    def open_task(self, secrets: np.ndarray, scan_beta: int, beta: int, history: tuple[Code, ...], depth: int,
                  start: int, end: int | None = None) -> Future:
        """A later wave's scan as a task (tasks.run_open): the open guesses of ``secrets``'s scan under
        ``scan_beta`` from index ``start`` (to ``end``; None: to the last), under ``beta``."""
        key = None
        if self.store is not None:
            key = dict(self._task_key(secrets, beta, history, depth), scan_beta=scan_beta, start=start)
            if end is not None:
                key["end"] = end

        def check(d) -> str | None:
            try:
                found = OpenGuesses.from_obj(d)
                well_formed = (all(is_int(x) for g in found.guesses for x in (*g[:3], *g[3], *g[4]))
                               and all(len(g[3]) == len(g[4]) for g in found.guesses)
                               and is_int(found.least) and is_int(found.nodes))
            except (KeyError, TypeError, ValueError):
                well_formed = False
            return None if well_formed else "malformed open guesses"

        return self._submit(run_open, (secrets, scan_beta, beta, history, depth, start, end), OpenGuesses, key,
                            lambda: check, None)

    def guesses_task(self, secrets: np.ndarray, guesses: list, beta: int, history: tuple[Code, ...],
                     depth: int) -> Future:
        """Guesses of ``secrets`` as one task (tasks.run_guesses, with the budget GUESS_BATCH_NODES): each
        guess's outcome is the set's with its first guess fixed, so none is noted for the memo by orbit;
        the checkpoint key holds the guesses."""
        key = None
        if self.store is not None:
            key = dict(self._task_key(secrets, beta, history, depth), guesses=[list(g[:2]) for g in guesses],
                       budget=GUESS_BATCH_NODES)

        def check(d) -> str | None:
            items = d.get("outcomes") if isinstance(d, dict) else None
            if not isinstance(items, list) or not 1 <= len(items) <= len(guesses):
                return "malformed outcomes of guesses"
            for item, (guess, *_rest) in zip(items, guesses):
                problem = self._checker(secrets, beta, depth, guess)(item)
                if problem is not None:
                    return problem
            return None

        return self._submit(run_guesses, (secrets, guesses, beta, history, depth, GUESS_BATCH_NODES), GuessOutcomes,
                            key, lambda: check, None)

    def _submit(self, fn, args: tuple, kind: type, key: dict | None, checker: Callable, note: tuple | None) -> Future:
        """``fn(game, cap, options, hard, extra, *args)``, whose result is a ``kind`` (Outcome, OpenGuesses or
        GuessOutcomes), on the executor, or its checkpoint entry under ``key`` if one is stored that
        ``checker()`` accepts; ``note``: what _done notes the outcome under (None: nothing)."""
        if self.closed:
            return _cancelled()
        if self.interrupts is not None:
            self.interrupts.check()
        self.progress.add()
        if self.store is not None:
            stored = self.store.load(key, checker())
            if stored is not None:
                fut: Future = Future()
                fut.set_result(kind.from_obj(stored))
                self._done(fut, None, None, note)
                return fut
        inner = self.executor.submit(fn, self.game, self.cap, self.options, self.hard, self.extra, *args)
        # Whoever waits sees the outcome only once its nodes are counted and its checkpoint is on disk.
        outer: Future = Future()
        inner.add_done_callback(lambda f: self._settle(f, key, outer, note))
        return outer

    def _settle(self, fut: Future, key: dict | None, outer: Future, note: tuple | None) -> None:
        try:
            self._done(fut, key, outer, note)
        except BaseException as exc:  # never leave a waiter hanging
            if not outer.done():
                outer.set_exception(exc)

    def _done(self, fut: Future, key: dict | None, outer: Future | None, note: tuple | None) -> None:
        """A task's outcome arrived: count it, checkpoint it and note it for the memo by orbit (``note``: the scope
        it was started in, its secrets and depth; None for split's scans and tasks of guesses, whose outcomes are
        not their sets') before whoever waits on ``outer`` sees it, so that a scope that publishes once its
        subproblems are over publishes it (see Scope)."""
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
        if note is not None:
            self._finished(*note, outcome)
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
        near the root (with ``split`` or ``eager``, for big sets at any level). ``scope``: the job that starts it (None:
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
        if level == 0 or (level == 1 and n >= self.split_min) or (self.split_any is not None and n >= self.split_any):
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
        solver = Solver(self.game, self.cap, self.options, self.hard, self.extra)
        scan = solver.scan(secrets, beta, history, depth)
        scan_beta = beta
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
            if not first and self.split_tasks:
                # With split, the later wave's scan and most of its guesses run on the workers (see _split_wave).
                jobs, scan_work, scan_span = self._split_wave(scan, secrets, scan_beta, wave_beta, history, depth,
                                                              level, here, start)
                own += scan_span  # the scan's ranges ran side by side: the longest is on the path, all are work
                work += scan_work - scan_span
                step = None
            else:
                # scan_all raises every class of a guess it refutes too, for the default schedule's node figures
                # (see the kernel). Under split a set that fails spends its whole scan here, on the path, and off
                # it costs less: numbers-baseball, split 300, work 315.4 s -> 291.2 s, span 11.1 s -> 9.8 s, the
                # same tree and node figure (docs/bc-5-10-plan.md).
                scan_all = not self.split_tasks
                while True:
                    clock = time.thread_time()
                    step = solver.next_open(scan, start, wave_beta, scan_all=scan_all)
                    own += time.thread_time() - clock
                    if step is None:
                        break
                    classes = list(step.classes())
                    total = step.total
                    g = step.guess
                    # Each class may cost at most wave_beta - (total - base) for g to stay below wave_beta.
                    if first:
                        # The best-first guess: likely the best, so every class is needed exactly. All at once.
                        job = _Done(self._side_by_side(classes, total, wave_beta, history + (g,), depth - 1,
                                                       level + 1, here, need_tree))
                    elif self.eager:
                        # Eager: the others' classes all at once too. A failing guess then pays for classes that a
                        # chain would have skipped, but the wave waits only for its longest class, not for sums.
                        job = self._spawn(self._side_by_side, classes, total, wave_beta, history + (g,), depth - 1,
                                          level + 1, here, False)
                    else:
                        # The others mostly fail: search their classes one by one, the largest first (each
                        # with its share of the slack first), so a failure stops at the first class that shows
                        # it; the guesses run side by side.
                        job = self._spawn(self._chain, classes, total, wave_beta, history + (g,), depth - 1,
                                          level + 1, here)
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
            note = [secrets.copy(), depth, Cost(outcome.value, outcome.exact), None]
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

    def _split_wave(self, scan, secrets: np.ndarray, scan_beta: int, beta: int, history: tuple[Code, ...], depth: int,
                    level: int, scope: Scope, start: int) -> tuple[list, float, float]:
        """A coordinated set's later wave with split: its jobs (guess, members, starts, job), in the scan's order,
        and the seconds of its scan (in all, and of its longest range). ``scan``: the set's scan (under
        ``scan_beta``), whose ``least`` this lowers; ``start``: the index after the first wave's guess.

        With split most coordinated sets are small and most of their guesses fail at once, so the coordinator's own
        scans and the many short chains, not the big tasks, made the schedule (bc:5:8, split 300: the scans were
        71.0 s of 217.6 s of CPU, on the driver's threads under one interpreter lock, and 94,946 of its 95,430
        subproblems were steps of chains, each handed out and taken back at some 2.8 ms of CPU). So the scan is a
        task (tasks.run_open, the same guesses in the same order, those still open under the wave's beta). (Started
        beside the first wave, under the set's own beta, it lengthened bc:5:8's path from 19.3 s to 22.0 s: under a
        beta far above the wave's, the root's INF among them, it raises every class of every guess.) A guess with a
        class of at least ``split`` secrets keeps its chain, whose classes are coordinated; the others are searched
        in tasks of guesses (see _batch), each as its chain would be, one memo across a task's guesses.

        The scan is cut into ranges of guesses, searched side by side, each from a fresh memo: one scan task of a
        set of some 460 secrets took about 2 s, and three of them, one after another, were 6.2 s of bc:5:8's 8.2 s
        path (split 300). A range holds about OPEN_RANGE_PAIRS guess-secret pairs of the guesses whose scan bound
        is below the wave's beta (the scan is sorted by bound, so they come first; those after cost little), the
        last range takes the rest: the cuts are counts, not timing. A guess open in one schedule and refuted in
        the other (the memos differ) costs at least beta either way, so the best guess and its tree are the
        same; the ranges' least bounds >= beta give the set's, as one scan's would."""
        guesses = scan.guesses.shape[0]
        below = int(np.searchsorted(scan.bounds[start:], beta, side="left")) if start < guesses else 0
        per = max(32, OPEN_RANGE_PAIRS // secrets.shape[0])
        edges = [*range(start, start + below, per), guesses][1:] if below > per else [guesses]
        ranges = [self.open_task(secrets, scan_beta, beta, history, depth, lo, None if hi == guesses else hi)
                  for lo, hi in zip([start, *edges[:-1]], edges)]
        scans = [r.result() for r in ranges]
        scan.least = min(scan.least, *(o.least for o in scans))
        opened_guesses = [g for o in scans for g in o.guesses]
        t = self.tables
        jobs: list[list] = []
        batched = []  # (where in jobs, the guess as run_guesses takes it)
        for _index, g, total, big, base in opened_guesses:
            members, starts, _ = split_classes(t.table, g, secrets, t.nh, t.win)
            classes = [(h, members[starts[h] : starts[h + 1]], b) for h, b in zip(big, base)]
            job = None
            if any(cls.shape[0] >= self.split_any for _h, cls, _b in classes):
                job = self._spawn(self._chain, classes, total, beta, history + (g,), depth - 1, level + 1, scope)
            else:
                batched.append((len(jobs), (g, total, big, base)))
            jobs.append([g, members, starts, job])
        if batched:
            found = self._batch(secrets, [guess for _j, guess in batched], beta, history, depth)
            for (j, _guess), (outcome, span) in zip(batched, found):
                _g, members, starts, _job = jobs[j]
                value, subtrees, work, _span = self._guess_outcome(outcome, members, starts, depth)
                jobs[j][3] = _Done((value, subtrees, work, span))
        return [tuple(job) for job in jobs], sum(o.work for o in scans), max(o.work for o in scans)

    def _batch(self, secrets: np.ndarray, guesses: list, beta: int, history: tuple[Code, ...],
               depth: int) -> list[tuple[Outcome, float]]:
        """Guesses of one set (as tasks.run_guesses takes them) searched in tasks of guesses: one takes them in turn
        until its budget of nodes (GUESS_BATCH_NODES) is spent, and what it leaves is cut in parts of as many
        guesses as it took, each part searched so in turn, side by side. Most guesses fail in a few milliseconds, so
        one task takes many; a long one ends its task, and the guesses after it spread over the workers. Budgets
        count nodes, so what each task takes never depends on timing. Returns each guess's outcome (the set's with
        its first guess fixed) with its span: the tasks it waited for, its own included."""
        got = self.guesses_task(secrets, guesses, beta, history, depth).result().outcomes
        span = sum(o.work for o in got)
        found = [(o, span) for o in got]
        rest = guesses[len(got) :]
        if rest:
            # What is left goes in parts of as many guesses as this task took, side by side: if guesses cost
            # alike, each part takes about one budget, so most guesses wait for two tasks at most. (Halves,
            # each halved again in turn, made each guess wait for one task per halving: on bc:5:8, split
            # 300, a path of 23.9 s.)
            size = len(got)
            parts = [self._spawn(self._batch, secrets, rest[i : i + size], beta, history, depth)
                     for i in range(0, len(rest), size)]
            for part in parts:
                found += [(o, span + s) for o, s in part.result()]
        return found

    def _guess_outcome(self, outcome: Outcome, members: np.ndarray, starts: np.ndarray,
                       depth: int) -> tuple[int, dict | None, float, float]:
        """A guess's outcome from a task of guesses as a chain's (see _chain): with the exact cost, each
        class's outcome from the task's tree (members[starts[h]:starts[h + 1]]: the class of dense hint h)."""
        if not outcome.exact:
            return outcome.value, None, outcome.work, outcome.span
        t = self.tables
        dense = {int(t.hints[h]): h for h in range(t.nh)}
        subtrees = {}
        for hint, child in outcome.tree[1]:
            h = dense[hint]
            cls = members[starts[h] : starts[h + 1]]
            subtrees[h] = Outcome(wire_cost(t, cls, child, depth - 1, self.extra), True, 0, child)
        return outcome.value, subtrees, outcome.work, outcome.span

    def _chain(self, classes, total: int, beta: int, history, depth: int, level: int,
               scope: Scope) -> tuple[int, dict | None, float, float]:
        """A guess's classes searched in turn: (total, the classes' outcomes) if the guess costs less than beta,
        else (a lower bound >= beta, None) from the first class that shows it (with their work, and their span: the
        sum of theirs, one after the other; a coordinated class's span is less than its work). With ``shares``, each
        class is first searched under its share of the slack (solver.share_slack; with split, side by side:
        solver.fixed_shares). The chain is a scope of its own (in ``scope``), which publishes after each step: a
        coordinated class searched again after its share failed finds there the outcomes of its first search's
        subproblems (in the solver, the memo keeps them; a class that is one task starts afresh). Its classes' trees
        are not needed unless the guess ends best, which a coordinator above sees to (see _fill_holes)."""
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

        if self.options.shares and self.split_tasks:
            # With split, the share pass's classes run side by side, their shares fixed up front (fixed_shares),
            # as most of them are coordinated sets whose own paths are long: on bc:5:8 (split 300) the path's
            # chain was its 464-secret class under its share (4.4 s, failed), then its 353 under its share
            # (2.6 s); side by side the path fell from 19.2 s to 16.2 s, and the work from 175.6 s to 159.6 s (more
            # classes fail their smaller shares, which costs less than coming in under them; numbers-baseball,
            # split 450: 46.0 s to 29.7 s, 602.2 s to 531.6 s). Published once all have ended, so the steps
            # after see them whatever the timing.
            futures = [(i, self.subproblem(classes[i][1], class_beta, history, depth, level, here, False))
                       for i, class_beta in enumerate(fixed_shares(values, total, beta))]
            share_span = 0.0
            for i, fut in futures:
                outcome = fut.result()
                work += outcome.work
                share_span = max(share_span, outcome.span)
                total += outcome.value - values[i]
                values[i] = outcome.value
                if outcome.exact:
                    subtrees[classes[i][0]] = outcome
            self._publish(here)  # nothing this chain started runs now
            span += share_span
            if total >= beta:
                return total, None, work, span
        elif self.options.shares:

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
