"""What every command of the ``treegen`` command line shares: the parser class, the exit statuses, the
argument types, the options several commands take, and the choices the library defines.

Imports only the standard library and :mod:`treegen.rules` (light); each command module imports the
library's heavy modules inside its handler.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Self

from ..exact.executors import EXECUTORS  # noqa: F401 - the command modules read the choices here
from ..exact.objectives import OBJECTIVES  # noqa: F401
from ..status import EXIT_MEANINGS, Exit  # noqa: F401 - the command modules read them here
from ..rules import DEFAULT_GAME, LIST_PREFIXES, PRESETS, TreegenError, resolve_game, shorten


# -- exit statuses: one enum; the help text every command ends with is made from it ----------------


def _exit_statuses() -> str:
    lines = ["exit status:"]
    for status, meaning in EXIT_MEANINGS.items():
        if status is Exit.SIGTERM:  # shares the line of the other signal
            lines[-1] += f"; {status.value}: {meaning}"
        else:
            lines.append(f"  {status.value:<4} {meaning}")
    return "\n".join(lines) + "\n"


EXIT_STATUSES = _exit_statuses()


class Terminated(BaseException):
    """SIGTERM arrived (see :func:`treegen.cli.run`). A BaseException, like KeyboardInterrupt, so that no
    ``except Exception`` on the way up takes it for an error; unlike KeyboardInterrupt, so that a command
    that handles Ctrl-C in its own way (play's prompt) does not take it for one."""


class Stop:
    """Ctrl-C and SIGTERM, inside ``with Stop() as stop:``, both raise KeyboardInterrupt, so that a long
    command (a search in worker processes) stops its workers and leaves the same way after either; the
    handlers before the block come back after it.

    Each signal is recorded as well as raised: a KeyboardInterrupt raised while LLVM calls back into Python
    (numba compiling) is printed and dropped by ctypes, and the command would go on to write its file, so it
    calls :meth:`check` after each step; :attr:`terminated` tells the two signals apart for the exit status."""

    def __init__(self) -> None:
        self.signals: list[int] = []
        self._previous: dict = {}

    def __enter__(self) -> Self:
        import signal

        self._previous = {signum: signal.signal(signum, self._stop) for signum in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc) -> None:
        import signal

        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)

    def _stop(self, signum, frame) -> None:
        self.signals.append(signum)
        raise KeyboardInterrupt

    def check(self) -> None:
        """Raise KeyboardInterrupt if a signal came, even one whose exception was dropped."""
        if self.signals:
            raise KeyboardInterrupt

    @property
    def terminated(self) -> bool:
        import signal

        return signal.SIGTERM in self.signals


def interrupt_within(exc: BaseException) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt or was caused by one. numba boxes a kernel's results with
    Python code, so Ctrl-C (or the SIGTERM handler's KeyboardInterrupt) can be raised there, and CPython
    then raises SystemError("... returned a result with an exception set") with the interrupt at the end
    of its chain of causes."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__
    return False


# -- choices the library defines -------------------------------------------------------------------
# The search's lists are imported (exact.objectives and exact.executors are standard library only). The
# others stay one copy each here, checked equal to the library's by tests/test_cli.py, because the modules
# that hold them import numpy or cost 10-40 ms, and the parser is built before every command (hint, play,
# verify and show must start instantly).
TIES = ("possible", "paper")  # treegen.strategies.TIES (numpy)
STRATEGIES = ("first-consistent", "random-consistent", "minimax", "expected-size", "expected-steps", "entropy",
              "most-parts", "n-ln-n-plus-1", "digit-sweep")  # the keys of treegen.strategies.STRATEGIES (numpy)
STATIC_OBJECTIVES = ("size", "average")  # treegen.static.OBJECTIVES (orjson and 750 lines: ~7 ms)
STATIC_METHODS = ("dfs", "cp-sat")  # treegen.static.METHODS
IMPORT_FORMATS = ("paths", "irving", "arfst23", "arfst23-yml")  # treegen.formats.IMPORT_FORMATS (~35 ms)
EXPORT_FORMATS = ("paths", "irving", "arfst23", "arfst23-yml", "dot", "csv")  # treegen.formats.EXPORT_FORMATS


def or_list(names) -> str:
    """``a, b or c``: a list of choices in a help text."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# -- the parser ------------------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, then exits 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(Exit.USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def format_help(self) -> str:
        # A description that needs a module import is built only when help is asked for (``serve``'s text
        # lives in treegen.serve, whose http.server import would slow every command's start).
        more = getattr(self, "describe_more", None)
        if more is not None:
            self.description = f"{self.description}\n\n{more()}"
            self.describe_more = None
        return super().format_help()


def add_command(sub, name: str, func, help: str, examples: str) -> argparse.ArgumentParser:
    """Add command ``name`` (run by ``func(args)``) to the subparsers ``sub``: its help is also its
    description, and its epilog its examples and the exit statuses."""
    p = sub.add_parser(
        name, help=help, description=help, epilog="examples:\n" + examples + "\n" + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=func, parser=p)  # parser: main reports stray arguments against this command
    return p


# -- argument types: every number a user types goes through rules.parse_int (ASCII digits, a range) ------
SEED_MAX = 2**64 - 1  # numpy's and Python's generators take any seed; 64 bits is what a user can mean


def whole(lo: int | None = None, hi: int | None = None):
    """An argparse type: a whole number in ASCII digits within ``lo..hi`` (``int`` would take ``１``, ``1_0``
    and 5000 digits, and fail far later, or with a traceback)."""
    from ..rules import NumberError, parse_int

    def whole(text: str) -> int:
        try:
            return parse_int(text, "the value", lo, hi)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return whole


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (``float`` takes ``nan`` and ``inf``)."""
    raw = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9}", raw) or float(raw) <= 0:
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise argparse.ArgumentTypeError(f"the value must be a positive number of seconds such as 600 or 0.5, not {shown!r}")
    return float(raw)


def nonempty(text: str) -> str:
    """An argparse type for every text option: an empty value is refused, as ``-o ''`` always was (an empty
    ``--guesses`` would start a long search; an empty ``--trees`` would serve the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the value is empty; give one")
    return text


def refuse_empty_text(sub) -> None:
    """Give every text option of every command in ``sub`` the type :func:`nonempty` (-o and --checkpoint
    keep their own check and words, in files.output_file and files.output_folder)."""
    for each in sub.choices.values():
        for action in each._actions:
            if isinstance(action, argparse._StoreAction) and action.option_strings and action.type is None \
                    and action.dest not in ("output", "checkpoint"):
                action.type = nonempty


# -- options several commands take -----------------------------------------------------------------


def add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game",
        "-g",
        default=DEFAULT_GAME,
        metavar="G",
        help=f"a preset ({', '.join(PRESETS)}; `treegen games` lists them all), a spec bc:P:N / mm:P:N, or a "
        f"list of words read from a file: {', '.join(p + 'FILE' for p in LIST_PREFIXES)} (default: {DEFAULT_GAME})",
    )
    add_guesses(p)


def add_guesses(p: argparse.ArgumentParser) -> None:
    """``--guess-list``, beside every ``--game``: a list game's words that may be guessed but are never the secret."""
    p.add_argument("--guess-list", default=None, metavar="FILE",
                   help="with a list game: more words that may be guessed but are never the secret, one per line "
                   "(a word of both files is a secret), or 'all' for every code of the alphabet")


def no_game(args) -> None:
    """None, the game of a command whose ``--game`` is optional and not given; an error if ``--guess-list`` is."""
    if getattr(args, "guess_list", None) is not None:
        raise TreegenError("--guess-list goes with --game, the list game whose guesses it adds (--game words:FILE ...)")


def game_of(name: str, large: bool = False, guesses: str | None = None):
    """The game a ``--game`` argument names: ``words:FILE``, a list of words read from a file (``files``), scored
    by bulls and cows; ``jotto:FILE``, by Jotto's letters in common; ``per-position:FILE``, by a mark for each
    position (``rules.LIST_PREFIXES``), with ``guesses`` (``--guess-list``: a file, or ``all``) allowed as guesses
    too; else a preset or spec (``rules.resolve_game``)."""
    text = str(name).strip()
    for prefix, rule in LIST_PREFIXES.items():
        if text.lower().startswith(prefix):
            from ..files import read_word_list

            return read_word_list(text[len(prefix):], rule, guesses)
    if guesses is not None:
        raise TreegenError(f"--guess-list takes a list game (--game {', '.join(p + 'FILE' for p in LIST_PREFIXES)}); "
                           f"{shorten(str(name))} is every arrangement of its symbols, each a guess already")
    return resolve_game(name, large=large)


def add_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--memory", default=None, metavar="SIZE",
                   help="memory budget such as 4G or 512M (default: a quarter of the machine's memory); a "
                   "feedback table larger than this is not built: hints are computed on the fly")


def add_hybrid_options(p: argparse.ArgumentParser) -> None:
    """The hybrid strategy's two numbers (``play --strategy hybrid``, ``eval --sample``)."""
    p.add_argument("--threshold", type=whole(0, 10**9), default=None, metavar="T",
                   help="hybrid: guess the first possible code while more than T remain (default 2000)")
    p.add_argument("--guess-sample", type=whole(0, 10**9), default=None, metavar="K",
                   help="hybrid: score the possible codes plus K random others (default 1000)")


# -- what handlers share -----------------------------------------------------------------------------


def default_output(game, what: str) -> str:
    """The default file name of what a command writes (``files.default_name``)."""
    from ..files import default_name

    return default_name(game, what)


def progress_bar(total: int, desc: str):
    """A tqdm bar on stderr that shows up only if the work takes over a second."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="secret", delay=1.0, leave=False, file=sys.stderr)


def workers_asked(args) -> int:
    """``--workers`` or, by default, the number of cores; refused below 1."""
    asked = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if asked < 1:
        raise TreegenError(f"--workers must be at least 1, not {asked}")
    return asked


def refuse_uncheckable(game, what: str, advice: str = "") -> None:
    """Refuse, before any search, a certificate the checker could not check: a game of more hints than its
    masks hold (``certificate.HINTS_MAX``; only the per-position rule gives that many). ``what`` names
    the option or command in the message, ``advice`` ends it."""
    if game.rule != "per-position":
        return
    import numpy as np

    from ..certificate import HINTS_MAX
    from ..feedback import feedback_table

    given = int(np.count_nonzero(np.bincount(feedback_table(game).ravel(), minlength=256)))
    if given > HINTS_MAX:
        raise TreegenError(f"{what}: {game.name} gives {given} different hints, and certificates are checked for "
                           f"games of at most {HINTS_MAX}{advice}")


def failure_status(failure: BaseException, nothing: str, again: str, terminated: bool) -> int:
    """Say in one line why a long command (a search in worker processes) stopped, and return its exit status:
    a SearchBug is an internal error, a KeyboardInterrupt (Ctrl-C, or SIGTERM when ``terminated``) says how
    to resume (``again``, or ""), a dead worker process is an internal error. ``nothing`` says what was not
    written ("no tree written")."""
    if isinstance(failure, KeyboardInterrupt):
        print(f"treegen: {'terminated' if terminated else 'interrupted'}; {nothing}{again}", file=sys.stderr)
        return Exit.SIGTERM if terminated else Exit.SIGINT
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(failure, BrokenProcessPool):
        print(f"treegen: internal error: a worker process died (out of memory?); {nothing}", file=sys.stderr)
    else:
        print(f"treegen: internal error: {failure}; {nothing} (please report it)", file=sys.stderr)
    return Exit.INTERNAL
