"""Where a search's subproblem tasks run: in this process, on local worker processes, or on a Ray cluster
(``EXECUTORS`` lists the kinds; :func:`make_executor` makes one), and how many workers a search uses
(:func:`plan_workers`). Cheap to import (standard library only; multiprocessing is imported by the
executors that use it), so that the command reads ``EXECUTORS`` here; the Ray executor imports the tasks
it runs (``tasks.run_task``, ``run_open``, ``run_guesses``) when it starts. The tree is the same for any
executor and any number of workers (see coordinator). The helpers that start a worker process safely
(:func:`fork_is_safe`, :func:`worker_init`, :func:`flush_before_fork`, ``STOPS``) serve the warm-up
compile's helper process too (warmup).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # concurrent.futures costs milliseconds; the command line reads EXECUTORS at every start
    from concurrent.futures import Future

from ..rules import Game, TreegenError

# Games this small are searched in one process whatever the workers: the whole search takes about as
# long as starting a worker. The output is the same either way.
INLINE_MAX_CODES = 2000
# ... but a list game has no symmetry to shrink its search: 800 words take minutes (docs/results.md, word
# games), so lists of more than this many words are split between the workers.
INLINE_MAX_WORDS = 600

EXECUTORS = ("processes", "ray")


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
        from concurrent.futures import Future

        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as exc:  # handed to whoever waits on the future
            fut.set_exception(exc)
        return fut

    def close(self) -> None:
        pass


STOPS = {signal.SIGINT, signal.SIGTERM}


def _watch_parent(parent: int) -> None:
    """Exit this worker soon after its parent dies, even by SIGKILL (it is then re-parented)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the main process, which stops it itself, and dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker (warmup.compile_ahead's) inherits the CLI's SIGTERM handler, which would raise
    # KeyboardInterrupt inside the task: the parent's terminate() should simply end it. It also inherits
    # the signals warmup.compile_ahead held back across the fork, let through now that these handlers are set.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="treegen-parent-watch").start()


def flush_before_fork() -> None:
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
    """Tasks on ``workers`` local worker processes: forked, all at once, when :func:`fork_is_safe`, else
    spawned (they start clean and load the numba cache).

    Forked when it is safe because a spawned worker first imports the caller's main script again: a script
    that calls solve_game without an ``if __name__ == "__main__":`` guard then starts its search again in
    every worker, which multiprocessing refuses ("An attempt has been made to start a new process before
    the current process has finished its bootstrapping phase"), and ``python -`` has no file to import at
    all; either way each worker dies and the search ends in BrokenProcessPool. A forked worker imports
    nothing. The workers are forked here, before any coordinator thread starts (a fork copies the locks
    other threads hold), with this thread's stop signals held back across the fork as in warmup.compile_ahead.
    With another thread running (the command's progress bar; a caller's threads) they are spawned, and
    such a script needs the guard.
    """

    def __init__(self, workers: int) -> None:
        import multiprocessing  # (here and below: importing this module stays cheap for EXECUTORS)
        from concurrent.futures import ProcessPoolExecutor

        self.processes = workers
        method = "fork" if fork_is_safe() else "spawn"
        self.pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(method), initializer=worker_init,
            initargs=(os.getpid(),),
        )
        if method == "fork":
            # A fork pool forks all its workers at its first submit, in the thread that submits: this one, now.
            flush_before_fork()
            held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            try:
                self.pool.submit(_started)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def submit(self, fn, *args) -> Future:
        return self.pool.submit(fn, *args)

    def close(self) -> None:
        import multiprocessing

        # shutdown() drops the pool's reference to its own thread even when it does not wait for it (and a
        # second shutdown(wait=True) then waits for nothing), so it is taken first.
        manager = self.pool._executor_manager_thread
        self.pool.shutdown(wait=False, cancel_futures=True)
        # Running tasks do not stop for shutdown(): end the workers, which are this process's only
        # multiprocessing children, so that waiting coordinators wake up at once.
        for proc in multiprocessing.active_children():
            proc.terminate()
        # Then wait for the pool's thread to see them gone: at the interpreter's exit, Python 3.11 wakes a
        # pool thread that is still running through a pipe that thread may be closing, and prints an
        # "Exception ignored ... Bad file descriptor" traceback when it loses that race.
        if manager is not None:
            manager.join()


def _answers(address: str) -> None:
    """ConnectionError for a ``host:port`` where nothing accepts a connection within 5 s: Ray itself
    retries such an address without end (a closed port of this machine: still retrying, a line a try,
    after 10 minutes). Other forms (``auto``, ``ray://...``) are left to Ray, which fails fast on them."""
    host, _, port = address.rpartition(":")
    if not host or "://" in host or not port.isdigit():
        return
    import socket

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
        # (imported here: the module stays light for the lists above, numpy-free)
        from .tasks import run_guesses, run_open, run_task

        self.remotes = {fn: ray.remote(num_cpus=1, max_retries=0)(fn) for fn in (run_task, run_open, run_guesses)}
        self.refs: list = []

    def submit(self, fn, *args) -> Future:
        assert fn in self.remotes, "the Ray executor runs search tasks only (tasks.run_task, run_open, run_guesses)"
        ref = self.remotes[fn].remote(*args)
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


def fork_is_safe() -> bool:
    """Whether a ProcessExecutor may fork its workers, and warmup.compile_ahead its helper, rather than spawn
    them. A forked helper starts compiling at
    once, with numba imported and set up; a spawned one first spends most of a second starting Python and
    importing it again, on the first run's critical path. But a fork copies any lock another thread holds
    at that moment (a progress bar's monitor thread, say): fork only when no other Python thread runs, and
    only on Linux, where fork has long been the default. Native thread pools are not counted here: numpy's
    OpenBLAS starts one at import and stops it around a fork itself (Python 3.12 and later see it and issue
    a DeprecationWarning, hidden by default), and nothing after the fork calls into BLAS."""
    return sys.platform == "linux" and threading.active_count() == 1


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


def plan_workers(game: Game, workers: int) -> tuple[int, str | None]:
    """The worker processes a search of ``game`` will use when asked for ``workers``, and a note for
    the user when that differs (more than the cores, or a game too small to split)."""
    cores = os.cpu_count() or 1
    if game.size <= (INLINE_MAX_WORDS if game.listed else INLINE_MAX_CODES) and workers > 1:
        return 1, f"{game.name} is small ({game.size} codes): searching it in one process"
    if workers > cores:
        return cores, f"--workers {workers} is more than the {cores} cores here: using {cores}"
    return workers, None
