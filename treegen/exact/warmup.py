"""The warm-up compile: on an empty numba cache (the first run after install), the search's kernels compiled
in two processes side by side (:func:`compile_ahead`), for the signatures the search calls them with
(``SEARCH_SIGNATURES``); and :class:`CallbackInterrupts`, which keeps a Ctrl-C that lands inside LLVM's
callbacks while a kernel compiles.

The kernels' signatures and their compiling by name are in ``signatures``; each kernel file goes stale as
a whole when it is edited (see signatures.KERNEL_FILES).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from ..rules import Game
from .executors import STOPS, flush_before_fork, fork_is_safe, worker_init
from .signatures import FILE_OF, cached, compile_for_search
from .tables import wide_onehot


class CallbackInterrupts:
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

    def __enter__(self) -> CallbackInterrupts:
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


# What each process compiles on an empty cache (see compile_ahead), by name in signatures.SEARCH_SIGNATURES,
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
ORBIT_KERNELS = ("set_orbit_key", "set_orbit_element")  # compiled only for a search that uses the memo by orbit
AHEAD = (("_lane_bounds", "least_bound", "next_open_guess", "set_orbit_key"),
         ("_wide_counts", "memo_find", "memo_put", "split_classes", "fast_bound_limit", "excess_bound_limit",
          "node_group", "canonical_codes", "ordered_guesses", "set_orbit_element"))


def _fresh(groups: tuple[tuple[str, ...], ...], wide: bool) -> bool:
    """Whether the cache holds every kernel file that ``groups`` name kernels of, judged by the first kernel
    named of each file (a file goes stale as a whole, see KERNEL_FILES), leaving out ``ORBIT_KERNELS``,
    which a first run of a small game does not compile. Stops at the first file that is not held (on an
    empty cache, the first kernel named)."""
    seen = set()
    for name in (name for group in groups for name in group if name not in ORBIT_KERNELS):
        if FILE_OF[name] not in seen:
            seen.add(FILE_OF[name])
            if not cached(name, wide):
                return False
    return True


def compile_ahead(game: Game, cores: int, say: Callable[[str], None] | None = None,
                  groups: tuple[tuple[str, ...], tuple[str, ...]] = AHEAD, orbits: bool = True) -> bool:
    """On an empty numba cache (the first run after install), compile the search's kernels in two
    processes side by side: a helper process (forked if :func:`executors.fork_is_safe`, else spawned) compiles
    ``groups[0]`` while this process compiles ``groups[1]`` (and the scorer of a game without repeats: the
    others are scored by numpy), and each writes the disk cache that every process then loads.

    ``orbits``: whether the search uses the memo by orbit (see options.uses_orbits); if not, its kernels
    (``ORBIT_KERNELS``) are left out. Does nothing when ``cores`` (the user's budget, which a small game's
    inline search leaves unused) is below 2 or the cache already holds every kernel it would compile; when
    it holds every kernel file that ``groups`` draw on (judged by :func:`_fresh`) but not the memo by
    orbit's kernels, which a first run of a small game left out, it compiles those alone, as in
    ``groups``, so that the workers of a bigger game's first run do not each compile them. ``say(note)``
    is told when it compiles. Whether it compiled both groups; on any failure (the helper cannot start or
    dies, a signature no longer types) it ends the helper and returns False, and the search compiles what
    it needs itself, as without this step. On Ctrl-C it ends the helper and raises KeyboardInterrupt, with
    nothing printed, even when the interrupt lands in LLVM's callbacks (see :class:`CallbackInterrupts`).
    """
    wide = wide_onehot(game)  # the type of the game's one-hot table is part of the kernels' signatures
    if cores < 2:
        return False
    # From the first cache lookup on, which already compiles numba's own runtime functions.
    with CallbackInterrupts() as interrupts:
        return _compile_ahead(game, say, groups, orbits, wide, interrupts)


def _compile_ahead(game: Game, say: Callable[[str], None] | None, groups: tuple[tuple[str, ...], tuple[str, ...]],
                   orbits: bool, wide: bool, interrupts: CallbackInterrupts) -> bool:
    """compile_ahead's work, within its :class:`CallbackInterrupts`."""
    if not orbits:
        groups = tuple(tuple(name for name in group if name not in ORBIT_KERNELS) for group in groups)
    note = "compiling the search's kernels (first run only)"
    if _fresh(groups, wide):
        groups = tuple(tuple(name for name in group if name in ORBIT_KERNELS and not cached(name, wide))
                       for group in groups)
        if not any(groups):
            return False
        note = "compiling the memo by orbit's kernels (first run of a game of over 2000 codes only)"
    interrupts.check()  # (before a helper is started for nothing)
    if say is not None:
        say(note)
    # Games with repeats are scored with numpy (feedback.score_many); the others by a kernel of their own.
    scorer = () if game.repeats else ("score_matrix_distinct",)
    method = "fork" if fork_is_safe() else "spawn"
    if method == "fork":
        flush_before_fork()
    helper = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method), initializer=worker_init,
                                 initargs=(os.getpid(),))
    try:
        # A forked helper would run the CLI's handlers on Ctrl-C until _worker_init replaces them: hold
        # both signals back across the fork (the helper lets them through once its own are in place).
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS) if method == "fork" else None
        try:
            job = helper.submit(compile_for_search, groups[0], wide)
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        # One kernel at a time, so that an interrupt that LLVM's callbacks swallowed (see CallbackInterrupts)
        # stops this process once the kernel it landed in is compiled.
        for name in (*scorer, *groups[1]):
            compile_for_search((name,), wide)
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
