"""Play a game: solve a given secret with a tree, guess the user's secret, or host a game (also as the evil host).

Standard library only (plus the tree module): the first guess appears instantly. The evil host
(``treegen.adversary``) and the heuristic advice for large candidate sets (``treegen.feedback``) import
numpy lazily, inside the features that need them.

This is the one console loop of treegen: :func:`play_guesser` asks for hints whatever picks the guesses,
a :class:`Guesser` (a tree, :class:`TreeGuesser`, or a strategy played without a tree,
``liveplay.LiveGuesser``), so both follow the rules below with the same commands, messages and exit
statuses; :func:`hint_text` is the one way a hint is shown, and :func:`print_solution` the one way a
solved secret is.

Two kinds of session, chosen by whether stdin is a terminal:

- interactive (a terminal): a mistake gets a one-line message on stderr and the question is asked again;
  ``quit``, ``help`` and ``undo`` are understood; Ctrl-D quits (exit 0).
- scripted (stdin is a pipe or a file): lines are read one by one and echoed after their prompt, so the
  transcript on stdout reads naturally. The first line that is malformed (a hint or code that cannot be
  read) or inconsistent (no secret gives the hints so far), or input that ends before the secret is found,
  stops the session with one line on stderr saying which, and exit status 2 (bad input). ``quit`` ends
  the session on purpose (exit 0).

A tree that has no move for a consistent history (an incomplete tree) ends a scripted session with exit
status 1; in an interactive one it is reported, and the hint asked again.

Two settings of :class:`Console` keep what ``treegen play --strategy`` has always printed (its tests
assert it): ``line_numbers=False`` leaves the ``line N:`` out of a scripted session's message, and
``mistakes_to_stdout=True`` prints an interactive session's mistakes on stdout instead of stderr.

A line of input is at most ``MAX_LINE`` (4096) bytes: a longer one is read to its end in pieces, never
held whole, and refused as a mistake; messages quote at most ``SHOWN`` (40) characters of what was typed.
"""

from __future__ import annotations

import os
import sys
from typing import Protocol

from .rules import (
    CodeError,
    Game,
    HintError,
    TreegenError,
    accepted_hint_forms,
    format_code,
    format_hint,
    format_hint_native,
    parse_code,
    parse_hint,
    score_symbols,
    shorten,
)
from .status import Exit
from .tree import NotInTree, Tree, TreeError, next_guess


QUIT = ("quit", "q", "exit")
HELP = ("help", "h")

# Candidate sets up to this size get the heuristic advice in pure Python (n^2 scorings: at most
# 90000, about 0.4 s of CPU for bulls-cows); bigger ones score every code of the game with the numpy
# kernels instead.
PURE_ADVICE_MAX = 300


class BadInput(TreegenError):
    """A scripted session's input is malformed, inconsistent, or ended before the secret was found."""


def moves_for(tree: Tree, secret: str) -> list[tuple[str, str]]:
    """The (guess, hint) pairs the tree plays against ``secret``, ending with the all-bulls hint.

    Raises ``CodeError`` for an illegal secret and :class:`TreeError` if the tree does not solve it.
    """
    return [(guess, format_hint(tree.game, hint)) for guess, hint in _solve(tree, secret)]


def _solve(tree: Tree, secret: str) -> list[tuple[str, int]]:
    """:func:`moves_for` with each hint an int."""
    game = tree.game
    code = parse_code(game, secret)
    if code >= game.secret_count:
        raise CodeError(f"{shorten(str(secret))!r} may be guessed in {game.name} but is never the secret: it is one of "
                        "the list's other guesses")
    target = game.codes[code]
    node = tree.root
    moves: list[tuple[str, int]] = []
    while True:
        guess = game.codes[_tree_code(game, node.guess)]
        hint = score_symbols(game, guess, target)
        moves.append((node.guess, hint))
        if guess == target:
            return moves
        child = node.child(format_hint(game, hint))
        if child is None:
            said = " ".join(f"{g} {format_hint(game, h)}" for g, h in moves)
            raise TreeError(
                f"the tree does not solve {format_code(game, game.code_index[target])}: "
                f"it has no move after {said}; check the file with treegen verify"
            )
        node = child


def _tree_code(game: Game, text: str) -> int:
    try:
        return parse_code(game, text)
    except CodeError:
        raise TreeError(f"the tree's guess {text!r} is not a legal code; check the file with treegen verify") from None


def hint_text(game: Game, hint: int) -> str:
    """A hint as the console shows it: the canonical ``xAyB``, then the game's own notation if it has one
    (``1A2B  (BWW)``, ``1A2B  (ball=3 strike=1)``). The one display form of a hint, for every mode of
    ``treegen play`` with a tree or without one, and ``treegen hint``."""
    native = format_hint_native(game, hint)
    canonical = format_hint(game, hint)
    return f"{canonical}  ({native})" if native else canonical


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _still(n: int) -> str:
    return f"{_plural(n, 'secret')} still possible"


# -- input ---------------------------------------------------------------------------------------------

MAX_LINE = 4096  # the most bytes (characters from a text stream) of one line of input that are read
SHOWN = 40  # the most characters of the user's input that a message quotes
_DRAIN = 65536  # the piece in which the rest of a line over MAX_LINE is read and dropped


def clip(text: str, width: int = SHOWN) -> str:
    """``text`` for a message: at most ``width`` characters, a cut marked with ``...`` (as ``rules``
    quotes codes and hints in its errors)."""
    return text if len(text) <= width else text[: width - 3] + "..."


class LineTooLong(TreegenError):
    """A line of input over :data:`MAX_LINE`: read to its end and dropped; ``head`` is its start."""

    def __init__(self, head: str, unit: str = "bytes") -> None:
        self.head = head
        super().__init__(f"the line is too long (over {MAX_LINE} {unit}): {clip(head)!r}")


def read_line(stream, encoding: str = "utf-8") -> str | None:
    """The next line of ``stream`` without its line end; None at the end of input.

    ``stream`` has ``readline(limit)`` returning bytes (decoded with ``encoding``, bytes that are not
    text becoming U+FFFD, so no input raises a decoding error) or str (an ``io.StringIO``). At most
    :data:`MAX_LINE` bytes are kept: the rest of a longer line is read in pieces and dropped, and
    :class:`LineTooLong` is raised after it. Time is linear in the input, memory bounded.
    """
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    binary = isinstance(line, bytes)
    end = b"\n" if binary else "\n"
    if len(line) > MAX_LINE and not line.endswith(end):
        while True:
            more = stream.readline(_DRAIN)
            if not more or more.endswith(end):
                break
        head = line[: 4 * SHOWN]
        raise LineTooLong(head.decode(encoding, "replace") if binary else head, "bytes" if binary else "characters")
    text = line.decode(encoding, "replace") if binary else line
    return text.rstrip("\r\n")


class _PipeLines:
    """The lines of a stdin that is not a terminal, read so that no signal can be lost.

    ``input()`` writes its prompt, then blocks in read(2). A SIGINT that arrives between the two (the
    prompt is out, so whoever drives the session may react to it at once) only sets CPython's flag for
    its handler, which runs when Python code next runs; read(2) started after the signal, so nothing
    interrupts it, and the process waits for input forever instead of exiting 130. Here the wait is a
    select(2) on stdin and on a wakeup pipe that CPython's C-level handler writes to: a signal that came
    before select(2) makes it return at once, one that comes during it interrupts it, and either way the
    handler then runs (KeyboardInterrupt for SIGINT). read(2) is called only when stdin is readable.

    :meth:`readline` gives bytes, as a binary file's does; :func:`read_line` makes lines of them.
    """

    def __init__(self, fd: int, encoding: str) -> None:
        self.fd = fd
        self.encoding = encoding
        self.buf = bytearray()
        self.eof = False
        self.wake: tuple[int, int] | None = None
        self.old_wake = -1

    def __enter__(self) -> "_PipeLines":
        import signal

        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        try:
            self.old_wake = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: signals are not delivered here anyway
            os.close(r)
            os.close(w)
        else:
            self.wake = (r, w)
        return self

    def __exit__(self, *exc) -> None:
        if self.wake is not None:
            import signal

            signal.set_wakeup_fd(self.old_wake)
            for fd in self.wake:
                os.close(fd)
            self.wake = None

    def readline(self, limit: int) -> bytes:
        """The next line with its line end, but at most ``limit`` bytes of it; b"" at the end of input.

        Each byte is scanned once (the search goes on where it stopped) and the buffer never holds more
        than ``limit`` bytes and one read's, so a line of any length costs time linear in its length.
        """
        scanned = 0
        while True:
            nl = self.buf.find(b"\n", scanned, limit)
            if nl >= 0:
                end = nl + 1
                break
            scanned = min(len(self.buf), limit)
            if scanned == limit or self.eof:
                end = scanned
                break
            self._fill()
        line = bytes(self.buf[:end])
        del self.buf[:end]  # from the front of a bytearray: no copy of the rest
        return line

    def _fill(self) -> None:
        """Wait until stdin is readable, then add one read(2) to the buffer (or note the end of input)."""
        import select

        while True:
            if self.wake is not None:
                ready, _, _ = select.select([self.fd, self.wake[0]], [], [])
                if self.wake[0] in ready:
                    try:
                        os.read(self.wake[0], 4096)
                    except BlockingIOError:
                        pass
                if self.fd not in ready:
                    continue  # a signal whose handler did not raise: wait again
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:  # a non-blocking stdin with nothing yet: wait for it
                select.select([self.fd], [], [])
                continue
            except OSError:
                chunk = b""  # a closed or unreadable stdin ends the input
            if chunk:
                self.buf += chunk
            else:
                self.eof = True
            return


class Console:
    """One session's questions and answers: prompts and transcript on stdout, mistakes on stderr.

    ``stdin`` is ``sys.stdin`` unless given (any stream with ``readline``, e.g. an ``io.StringIO``).
    ``scripted`` is true when it is not a terminal; then every line is echoed after its prompt, and
    :meth:`mistake` ends the session (raises :class:`BadInput`) instead of asking again.

    ``line_numbers`` (default true) starts a scripted session's mistake with ``line N:``;
    ``mistakes_to_stdout`` (default false) prints an interactive session's mistakes on stdout rather
    than stderr. ``treegen play --strategy`` sets both the other way, as it always printed them.
    """

    def __init__(self, stdin=None, *, line_numbers: bool = True, mistakes_to_stdout: bool = False) -> None:
        stream = sys.stdin if stdin is None else stdin
        self.scripted = stream is None or not stream.isatty()
        self.line = 0
        self.line_numbers = line_numbers
        self.mistakes_to_stdout = mistakes_to_stdout
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self._pipe: _PipeLines | None = None
        self._lines = None  # a stream read with read_line (bytes where it has them)
        if stream is None:  # no stdin at all: the input has ended
            self._pipe = _PipeLines(-1, self.encoding)
        elif not self.scripted and stream is sys.stdin:
            pass  # the terminal: input(), with its line editing
        elif self.scripted and _fileno(stream) >= 0:
            self._pipe = _PipeLines(_fileno(stream), self.encoding)
        else:  # a stream without a file descriptor (io.StringIO), or a terminal other than stdin
            self._lines = getattr(stream, "buffer", stream)

    def __enter__(self) -> "Console":
        if self._pipe is not None and self._pipe.fd >= 0:
            self._pipe.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._pipe is not None:
            self._pipe.__exit__(*exc)

    def ask(self, prompt: str) -> str:
        """One line of input, stripped. Raises EOFError at the end of input.

        A line over :data:`MAX_LINE`, or one a terminal gives in another encoding than its own, is a
        mistake: scripted, it ends the session; interactive, the question is asked again.
        """
        while True:
            try:
                text = self._read(prompt)
            except LineTooLong as exc:
                problem = str(exc)
            except UnicodeDecodeError:  # input() at a terminal: stdin's errors are strict
                problem = f"the line is not {self.encoding} text"
            else:
                self.line += 1
                return text.strip()
            self.line += 1
            self.mistake(problem)

    def _read(self, prompt: str) -> str:
        if self._pipe is None and self._lines is None:
            text = input(prompt)
            if len(text) > MAX_LINE:  # a terminal in canonical mode stops at 4095; a raw one does not
                raise LineTooLong(text[: 4 * SHOWN], "characters")
            return text
        print(prompt, end="", flush=True)
        try:
            if self._pipe is not None:
                got = read_line(self._pipe, self._pipe.encoding) if self._pipe.fd >= 0 else None
            else:
                got = read_line(self._lines, self.encoding)
        except LineTooLong as exc:
            if self.scripted:
                print(clip(exc.head), flush=True)  # the transcript shows the line's start only
            raise
        if got is None:
            print(flush=True)
            raise EOFError
        if self.scripted:
            print(got, flush=True)
        return got

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def mistake(self, text: str) -> None:
        """A wrong answer: scripted, it ends the session (exit 2); interactive, a message and ask again."""
        if self.scripted:
            raise BadInput(f"line {self.line}: {text}" if self.line_numbers else text)
        print(text, file=sys.stdout if self.mistakes_to_stdout else sys.stderr, flush=True)

    def ended(self, text: str) -> None:
        """The input ended before the game did: scripted, exit 2; interactive (Ctrl-D), a goodbye."""
        if self.scripted:
            raise BadInput(f"input ended before the secret was found ({text})")
        self.say(f"bye ({text})")


def _fileno(stream) -> int:
    """The file descriptor of ``stream``, or -1 when it has none (an ``io.StringIO``)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return -1


def _command(text: str) -> str | None:
    """``quit``, ``help`` or ``undo`` when ``text`` is one of their spellings, else None."""
    word = text.lower()
    if word in QUIT:
        return "quit"
    if word in HELP:
        return "help"
    if word == "undo":
        return "undo"
    return None


# -- candidates and advice (pure Python) -------------------------------------------------------------------


def _filter(game: Game, alive: list[int], guess: int, hint: int) -> list[int]:
    g = game.codes[guess]
    codes = game.codes
    return [s for s in alive if score_symbols(game, g, codes[s]) == hint]


def suggest(game: Game, alive: list[int], pure_max: int = PURE_ADVICE_MAX) -> tuple[int, str]:
    """A heuristic next guess for the secrets ``alive`` (code ints, ascending) and how it was chosen.

    One or two secrets: the lowest. Up to ``pure_max``: the possible secret with the least sum of
    squared class sizes (expected-size over the candidates only), in pure Python; more: the code of the
    whole game with the least sum (numpy, imported here). Ties go to the lowest code. A greedy one-step
    score, not a proof of anything.
    """
    if len(alive) <= 2:
        return alive[0], "the lowest possible secret"
    if len(alive) <= pure_max:
        codes = game.codes
        best, best_score = alive[0], None
        for g in alive:
            sizes: dict[int, int] = {}
            gc = codes[g]
            for s in alive:
                h = score_symbols(game, gc, codes[s])
                sizes[h] = sizes.get(h, 0) + 1
            sq = sum(n * n for n in sizes.values())
            if best_score is None or sq < best_score:
                best, best_score = g, sq
        return best, "the least expected class size among the possible secrets"
    import numpy as np

    from .feedback import score_many

    hints = score_many(game, np.arange(game.size), np.asarray(alive)).astype(np.int64)
    sq = np.zeros(game.size, dtype=np.int64)
    for h in np.unique(hints):
        n = (hints == h).sum(axis=1)
        sq += n * n
    least = sq.min()
    ties = np.flatnonzero(sq == least)
    possible = np.intersect1d(ties, np.asarray(alive))
    best = int(possible[0]) if possible.size else int(ties[0])
    return best, "the least expected class size over every code"


# -- the modes -------------------------------------------------------------------------------------------


def print_solution(game: Game, moves: list[tuple[str, int]]) -> int:
    """``treegen play --secret``: print each (guess, hint) of ``moves`` and how many guesses it took."""
    for n, (guess, hint) in enumerate(moves, 1):
        print(f"guess {n}: {guess}  {hint_text(game, hint)}")
    print(f"solved in {_plural(len(moves), 'guess', 'guesses')}")
    return Exit.OK


def play_secret(tree: Tree, secret: str) -> int:
    """``treegen play --secret``: print each guess and hint until solved."""
    return print_solution(tree.game, _solve(tree, secret))


class Guesser(Protocol):
    """Where :func:`play_guesser`'s next guess comes from: a tree (:class:`TreeGuesser`) or a strategy
    played without one (``liveplay.LiveGuesser``).

    A *position* is whatever the guesser needs to know after some hints (a tree node, the secrets still
    possible); the loop only keeps them, one a hint, so that ``undo`` goes back to the one before.
    """

    game: Game
    by: str  # how the guesses are made, for the greeting: "" (a tree) or " with entropy"

    def start(self) -> object:
        """The position before the first hint."""

    def guess(self, position) -> str:
        """The guess to play at ``position``, as text."""

    def answer(self, position, hint: int) -> tuple[int, object | None]:
        """How many secrets give every hint so far and then ``hint`` to this guess (0: the hints are
        inconsistent), and the position after it: None when the guesser has no move there (a tree that
        is incomplete) or when ``hint`` is the all-bulls hint."""


class TreeGuesser:
    """The guesses of a tree; the secrets still possible are filtered in pure Python."""

    by = ""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.game = tree.game

    def start(self):
        return (self.tree.root, None)  # (the node, the secrets still possible: None for every code)

    def guess(self, position) -> str:
        return position[0].guess

    def answer(self, position, hint: int):
        node, alive = position
        game = self.game
        still = _filter(game, range(game.secret_count) if alive is None else alive, _tree_code(game, node.guess), hint)
        child = node.child(format_hint(game, hint)) if still and hint != game.win_hint else None
        return len(still), (None if child is None else (child, still))


GUESSER_HELP = """\
type the hint for {guess}: {forms}
  undo          take back the last hint
  quit, q, exit stop (Ctrl-D too)
  help, ?       this text"""


def play_guesser(source: Tree | Guesser, con: Console) -> int:
    """``treegen play`` (a tree) and ``treegen play --strategy`` (a ``liveplay.LiveGuesser``): the computer
    guesses the user's secret; the user types the hints. Raises :class:`BadInput` for a scripted
    session's bad line (see the module's docstring); :func:`guess_session` turns it into exit 2."""
    guesser: Guesser = TreeGuesser(source) if isinstance(source, Tree) else source
    game = guesser.game
    con.say(f"Think of a secret code. Game {game.describe()}.")
    con.say(f"I guess{guesser.by}; you type the hint: {accepted_hint_forms(game)}. 'help' lists the commands.")
    # One step per hint taken: (the position where it was given, the hint as xAyB).
    steps: list[tuple[object, str]] = []
    position = guesser.start()
    while True:
        n = len(steps) + 1
        shown = guesser.guess(position)
        con.say(f"guess {n}: {shown}")
        while True:
            try:
                text = con.ask("hint? ")
            except EOFError:
                con.ended(f"after {_plural(n - 1, 'hint')}")
                return Exit.OK
            if not text:
                continue
            command = "help" if text == "?" else _command(text)
            if command == "quit":
                con.say("bye")
                return Exit.OK
            if command == "help":
                con.say(GUESSER_HELP.format(guess=shown, forms=accepted_hint_forms(game)))
                continue
            if command == "undo":
                if not steps:
                    con.mistake("nothing to undo: no hint given yet")
                    continue
                position, key = steps.pop()
                con.say(f"took back {guesser.guess(position)}={key}")
                break
            try:
                hint = parse_hint(game, text)
            except HintError as exc:
                con.mistake(str(exc))
                continue
            key = format_hint(game, hint)
            given = ", ".join([f"{guesser.guess(p)}={k}" for p, k in steps] + [f"{shown}={key}"])
            left, after = guesser.answer(position, hint)
            if not left:
                con.mistake(f"no secret of {game.name} gives these hints: {given}; type the hint for {shown} again, or undo")
                continue
            if hint == game.win_hint:
                con.say(f"solved in {_plural(n, 'guess', 'guesses')}")
                return Exit.OK
            if after is None:  # only a tree has no move for a consistent history
                msg = f"the tree has no move after {given}: it is incomplete; check it with treegen verify"
                if con.scripted:
                    print(f"treegen: {msg}", file=sys.stderr, flush=True)
                    return Exit.FALSE
                con.mistake(msg + "; check the hint, undo, or quit")
                continue
            steps.append((position, key))
            con.say(_still(left))
            position = after
            break


def guess_session(source: Tree | Guesser, stdin=None, **console) -> int:
    """:func:`play_guesser` in a :class:`Console` of its own (``stdin`` and ``console``: its arguments),
    with a scripted session's bad line reported as ``treegen.cli.main`` reports it: ``treegen: error:``
    and the message on stderr, exit status 2."""
    with Console(stdin, **console) as con:
        try:
            return play_guesser(source, con)
        except BadInput as exc:
            print(f"treegen: error: {exc}", file=sys.stderr, flush=True)
            return Exit.USAGE


class FixedSecret:
    """The honest host's setter: one secret, chosen up front."""

    evil = False

    def __init__(self, game: Game, secret: int) -> None:
        self.game = game
        self.secret = secret

    def answer(self, guess: int, alive: list[int]) -> int:
        return score_symbols(self.game, self.game.codes[guess], self.game.codes[self.secret])

    def undo(self) -> None:
        pass

    def reveal(self, alive: list[int]) -> str:
        return f"the secret was {format_code(self.game, self.secret)}"


class EvilSetter:
    """The evil host's setter: no secret, only the adversary's consistent answers (numpy, lazily)."""

    evil = True

    def __init__(self, game: Game) -> None:
        from .adversary import EvilHost

        self.game = game
        self.host = EvilHost(game)
        self.last = None

    def answer(self, guess: int, alive: list[int]) -> int:
        self.last = self.host.answer(guess)
        return self.last.hint

    def undo(self) -> None:
        self.host.undo()

    def reveal(self, alive: list[int]) -> str:
        return f"no secret was fixed; {_plural(len(alive), 'secret was', 'secrets were')} still possible"


HOST_HELP = """\
type a guess ({game}); the answer is its hint
  ?             advice: the tree's next guess (off its path, found by relabelling), or a heuristic suggestion
  undo          take back the last guess
  quit, q, exit give up and see the secret (Ctrl-D too)
  help          this text"""


def play_host(game: Game, tree: Tree | None, setter, con: Console) -> int:
    """``treegen play --host``: the computer answers the user's guesses (``setter``: a fixed secret or evil)."""
    if setter.evil:
        con.say(f"I am the evil host: I hold no secret, and every hint stays consistent. Game {game.describe()}.")
    else:
        con.say(f"I have picked a secret code. Game {game.describe()}.")
    con.say("Type your guesses; '?' asks for advice; 'help' lists the commands.")
    history: list[tuple[str, str]] = []
    alive_after: list[list[int]] = []  # the secrets consistent with each prefix of the history
    every = list(range(game.secret_count))
    while True:
        alive = alive_after[-1] if alive_after else every
        try:
            text = con.ask(f"guess {len(history) + 1}? ")
        except EOFError:
            con.ended(setter.reveal(alive))
            return Exit.OK
        if not text:
            continue
        command = _command(text)
        if command == "quit":
            con.say(setter.reveal(alive))
            return Exit.OK
        if command == "help":
            con.say(HOST_HELP.format(game=game.describe()))
            continue
        if command == "undo":
            if not history:
                con.mistake("nothing to undo: no guess made yet")
                continue
            guess, hint = history.pop()
            alive_after.pop()
            setter.undo()
            con.say(f"took back {guess} {hint}")
            continue
        if text == "?":
            _advise(game, tree, history, alive, con)
            continue
        try:
            code = parse_code(game, text)
        except CodeError as exc:
            con.mistake(str(exc))
            continue
        guess = format_code(game, code)
        hint = setter.answer(code, alive)
        key = format_hint(game, hint)
        history.append((guess, key))
        alive_after.append(_filter(game, alive, code, hint))
        con.say(f"{guess}  {hint_text(game, hint)}")
        if hint == game.win_hint:
            con.say(f"solved in {_plural(len(history), 'guess', 'guesses')}")
            if setter.evil:
                return _replay(game, history, code, con)
            return Exit.OK
        con.say(_still(len(alive_after[-1])))


def _advise(game: Game, tree: Tree | None, history: list[tuple[str, str]], alive: list[int], con: Console) -> None:
    if tree is not None:
        try:
            con.say(f"the tree suggests {next_guess(tree, history)}")
            return
        except NotInTree as exc:
            why = f"the tree has no advice for this history: {exc}"
            # Off the tree's path, the position may still be the tree's own under a relabelling.
            from .relabel import bring_back, find
            from .rules import parse_hint

            found = find(game, tree.root, [(parse_code(game, g), parse_hint(game, h)) for g, h in history])
            if found is not None:
                node, maps = found
                con.say(f"this position is the tree's own under a relabelling of positions and symbols; the tree "
                        f"suggests {format_code(game, bring_back(game, maps, node.guess))} (its {node.guess}, relabelled)")
                return
        except TreeError as exc:
            why = f"the tree has no advice: {exc}"
    else:
        why = "no tree given"
    code, how = suggest(game, alive)
    con.say(f"{why}; heuristic suggestion (not the tree's): {format_code(game, code)} ({how})")


def _replay(game: Game, history: list[tuple[str, str]], final: int, con: Console) -> int:
    """After the evil host lost: every answer scored again against the final secret."""
    secret = format_code(game, final)
    con.say(f"every answer was honest for the secret {secret}:")
    target = game.codes[final]
    for n, (guess, given) in enumerate(history, 1):
        real = format_hint(game, score_symbols(game, game.codes[parse_code(game, guess)], target))
        if real != given:  # cannot happen: the host only gives hints some remaining secret gives
            print(f"treegen: internal error: guess {n} {guess} got {given}, but {secret} gives {real}", file=sys.stderr)
            return Exit.INTERNAL
        con.say(f"  guess {n}: {guess}  {given}  = hint({guess}, {secret})")
    return Exit.OK
