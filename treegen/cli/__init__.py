"""The ``treegen`` command line: games, hints, candidates, trees, heuristics and exact search.

This layer parses arguments, handles signals and prints; the library returns values. Each command's
options sit beside its handler in one module per command group (``games``, ``trees``, ``play``,
``heuristics``, ``solve``, ``certify``, ``serve``, ``static``, ``value``); what they share is in ``common``. This module
assembles the parser and runs a command (:func:`main`, and :func:`run` for the console script).

Heavy modules (numpy, numba) are imported inside the commands that need them, so that ``play``, ``verify``
and ``show`` start instantly. Exit statuses are the same for every command (``common.Exit``): every error
a user can cause is a one-line message and exit 2, and no traceback reaches a user.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys

from .. import __version__
from ..rules import TreegenError
from . import certify, coach, games, heuristics, play, serve, solve, static, trees, value
from .common import EXIT_STATUSES, Exit, Parser, Terminated, interrupt_within, refuse_empty_text

__all__ = ["main", "run", "build_parser", "Exit", "Terminated"]

EPILOG = """\
examples:
  treegen solve && treegen verify bulls-cows-optimal-average.json
  treegen games
  treegen hint 5346 5234                      # -> 1A2B
  treegen hint --game numbers-baseball 5382 3092
  treegen candidates 0123=1A2B 4567=0A1B
  treegen candidates --game mastermind 1122=BW 3456=W
  treegen build --strategy entropy            # a heuristic tree: bulls-cows-entropy.json
  treegen eval                                # every heuristic strategy compared in one table
"""

# The commands in the order ``treegen --help`` lists them; each adds its subparser and options.
COMMANDS = (
    games.add_games, games.add_hint, games.add_candidates,
    trees.add_verify, play.add_play, coach.add_analyze, trees.add_show, coach.add_compare, trees.add_import, trees.add_export,
    heuristics.add_build, heuristics.add_eval,
    solve.add_solve, certify.add_certify, serve.add_serve, static.add_static, value.add_value,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="treegen",
        description="Optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants.",
        epilog=EPILOG + "\n" + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"treegen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for add in COMMANDS:
        add(sub)
    refuse_empty_text(sub)
    return parser


def _flush_stdout() -> int | None:
    """Flush standard output inside main's handlers rather than at exit, where a failure would print
    Python's own message: None when all is well, else the exit status after a one-line message."""
    if sys.stdout is None:  # started with standard output closed: print() wrote nothing, nothing to flush
        return None
    try:
        sys.stdout.flush()
        return None
    except BrokenPipeError:
        status = None  # output piped into `head` and closed early: not an error of ours
    except TreegenError as exc:  # files.checked_stdout's "cannot write the output: ..."
        print(f"treegen: error: {exc}", file=sys.stderr)
        status = Exit.USAGE
    except OSError as exc:
        print(f"treegen: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        status = Exit.USAGE
    try:  # leave nothing for the interpreter's own flush at exit to fail on
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return status


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # argparse would name `treegen --help`; the command's own help is the one that helps
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status = int(args.func(args) or 0)
    except Terminated:
        print("treegen: terminated", file=sys.stderr)
        status = Exit.SIGTERM
    except TreegenError as exc:
        print(f"treegen: error: {exc}", file=sys.stderr)
        status = Exit.USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        status = Exit.SIGINT
    except BrokenPipeError:
        status = Exit.OK
    except RecursionError:
        print("treegen: error: the input is nested too deeply to process", file=sys.stderr)
        status = Exit.USAGE
    except Exception as exc:  # a bug: one line for the user, the traceback only on request
        lost = _lost_signal()
        if interrupt_within(exc):  # Ctrl-C while a kernel returned (see common.interrupt_within)
            print("", file=sys.stderr)
            status = Exit.SIGINT
        elif lost is not None:  # an interrupt that a ctypes callback dropped broke what followed
            print("treegen: terminated" if lost == signal.SIGTERM else "", file=sys.stderr)
            status = Exit.SIGTERM if lost == signal.SIGTERM else Exit.SIGINT
        elif os.environ.get("TREEGEN_DEBUG"):
            raise
        else:
            print(f"treegen: internal error: {type(exc).__name__}: {exc} (please report it; "
                  "TREEGEN_DEBUG=1 shows the traceback)", file=sys.stderr)
            status = Exit.INTERNAL
    flushed = _flush_stdout()
    return int(status if flushed is None else flushed)


def _redeliver(previous):
    """An unraisable hook that gives an interrupt back to the command instead of losing it.

    While numba compiles (the first run of a command), LLVM calls back into Python through ctypes; a
    Ctrl-C or SIGTERM that lands in such a callback raises there, where ctypes can only print the exception
    and drop it, and the command went on (a static search for 13 minutes). The signal is sent again a
    moment later, from a timer thread, until it lands outside a callback and ends the command as usual.
    (``exact.warmup.CallbackInterrupts`` keeps such an interrupt itself while a solve compiles.)"""
    import threading

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)):
            signum = signal.SIGTERM if isinstance(unraisable.exc_value, Terminated) else signal.SIGINT
            timer = threading.Timer(0.05, os.kill, (os.getpid(), signum))
            hook.pending.append((signum, timer))
            timer.start()
            return
        previous(unraisable)

    hook.pending = []  # (signal, its timer): what _lost_signal reads
    return hook


def _lost_signal() -> int | None:
    """The signal whose interrupt a ctypes callback dropped (see :func:`_redeliver`), its redelivery
    called off; None if there was none. The compile it broke may fail on its own before the signal comes
    back ("no compiled object yet"): that failure is the interrupt's, not a bug."""
    pending = getattr(sys.unraisablehook, "pending", None)
    if not pending:
        return None
    for _, timer in pending:
        timer.cancel()
    return pending[-1][0]


def run() -> None:
    """The ``treegen`` command: :func:`main`, then exit with its status. The garbage collector is frozen
    first: the interpreter's last collection would walk every object that numba's compiles and cache
    loads left behind, about 0.2 s of a one-second solve, to free memory the system frees at exit anyway."""

    def terminate(signum, frame):
        raise Terminated

    sys.unraisablehook = _redeliver(sys.unraisablehook)
    try:
        # Every command ends on SIGTERM with one line and exit 143; solve and serve install their own
        # handler, which also says what was (not) written.
        signal.signal(signal.SIGTERM, terminate)
        from ..files import standard_streams

        standard_streams()
        status = main()
    except Terminated:  # before main's own handlers: while treegen starts up
        print("treegen: terminated", file=sys.stderr)
        status = Exit.SIGTERM
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        status = Exit.SIGINT
    gc.freeze()
    sys.exit(status)
