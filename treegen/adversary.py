"""The evil host: a setter who holds no secret and answers each guess so as to keep the game going longest.

Seed 001 (section 2.1, rule 3) describes the setter who may change the secret as long as every hint stays
consistent. After each guess the candidates (the secrets consistent with every hint so far) split into
classes, one per hint. The host answers with the hint whose class C keeps the player's best remaining
worst case largest:

    W(C) = the least d such that some strategy solves every secret of C within d further guesses,

found with the exact worst-case search, ``treegen.exact.solver.Solver.feasible(C, d, history)``, for d = the
counting bound's least depth, then d + 1, ... (as ``exact.solver.settle_cap`` settles the 'worst' objective).
The all-bulls class (the guess itself, when it is still possible) has W = 0: the host concedes only when
no other class is left. Ties go to the larger class, then to the lower hint, so the host is
deterministic.

Exact W is used when every class has at most ``EXACT_LIMIT`` secrets. Above that, the host answers with
the largest class (ties to the lower hint), without search. The limit comes from bulls-cows after the
opening 0123 (CPU seconds per class, kernels compiled): the classes of 180 to 720 secrets take 0.03 to
0.15 s each, but the 1440 class takes 3.5 s and the 1260 class 7.1 s (W = 6 for both: proving that 5
guesses are not enough is the slow part). With the limit at 1000, only a bulls-cows host's first answer
uses the fallback (its largest class has 1440 secrets for any opening: every opening is alike), and the
later answers are exact; mastermind's largest first class has 625 secrets (opening 1111), so its host is
exact from the first guess. A host that is exact from the second answer on still forces the proved worst
case, 7, on bulls-cows' shipped optimal-worst tree (tests/test_adversary.py plays it).

Library only: no printing. numpy and the search kernels are imported with this module.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .feedback import CODE_DTYPE, feedback_table
from .rules import Game, TreegenError
from .exact.contracts import INF
from .exact.solver import Solver

EXACT_LIMIT = 1000


@dataclass(frozen=True)
class Reply:
    """The host's answer to one guess.

    ``hint`` is the chosen hint (a game hint int). ``sizes`` maps every hint that some candidate gives
    to the size of its class, in hint order. ``worst`` maps the same hints to W (the least further
    guesses that solve their class in the worst case), or is None when the host answered with the
    largest class because some class had more than ``limit`` secrets.
    """

    guess: int
    hint: int
    sizes: dict[int, int]
    worst: dict[int, int] | None

    @property
    def exact(self) -> bool:
        return self.worst is not None


class EvilHost:
    """The evil host's state: the candidates, the guesses and hints so far, and a worst-case solver.

    ``candidates`` (code ints) restricts the start, for example to a set the player is promised; then the
    symmetry reduction of the search is off (it needs the set that a history of hints leaves), which is
    fine for the small sets this is meant for. ``limit`` is the largest class size for which W is
    computed exactly (see ``EXACT_LIMIT``).
    """

    def __init__(self, game: Game, candidates=None, limit: int = EXACT_LIMIT) -> None:
        self.game = game
        self.limit = limit
        self.table = feedback_table(game)
        if candidates is None:
            start = np.arange(game.secret_count, dtype=CODE_DTYPE)
            self.solver = Solver(game, None)
        else:
            start = np.unique(np.asarray(candidates, dtype=CODE_DTYPE))
            if start.size == 0:
                raise TreegenError("the evil host needs at least one candidate secret")
            self.solver = Solver(game, None, symmetry=False)
        self.history: list[tuple[int, int]] = []
        self._alive = [start]

    @property
    def candidates(self) -> np.ndarray:
        """The secrets consistent with every hint given so far (int32, ascending)."""
        return self._alive[-1]

    def least_worst(self, secrets: np.ndarray, history: tuple[int, ...], at_least: int = 1) -> int:
        """W: the least number of guesses that solves every secret of ``secrets`` in the worst case.

        ``secrets`` must be the candidates left by ``history`` (the guesses so far), as the search's
        symmetry reduction requires. Starts at the counting bound's least depth (no tree of fewer
        guesses holds that many secrets), then raises the depth until the search finds a tree.
        """
        n = int(secrets.shape[0])
        depth = 1
        while self.solver.bounds.lb[depth, n] >= INF:
            depth += 1
        while not self.solver.feasible(secrets, depth, history):
            depth += 1
        return depth

    def consider(self, guess: int, every: bool = False) -> Reply:
        """The reply the host would give to ``guess`` now, without giving it.

        The classes are taken largest first (then lowest hint), the order that breaks ties, so a later
        class matters only if its W is larger than the best so far, W*. The first class's W is found
        exactly; a later class is first tried within W* guesses, and only if it does not fit is its W
        found (from W* + 1 up). A tree that fits is found quickly while proving that a class does not
        fit is the slow part, so this skips most of the work. ``every`` finds every class's W anyway.
        """
        alive = self.candidates
        hints = self.table[guess, alive]
        classes = {int(h): alive[hints == h] for h in np.unique(hints)}
        sizes = {h: int(c.shape[0]) for h, c in classes.items()}
        win = self.game.win_hint
        if max(sizes.values()) > self.limit:
            hint = min(classes, key=lambda h: (-sizes[h], h))
            return Reply(guess, hint, sizes, None)
        history = tuple(g for g, _ in self.history) + (guess,)
        worst: dict[int, int] = {}
        best = None
        for h in sorted(classes, key=lambda h: (-sizes[h], h)):
            if h == win:
                worst[h] = 0  # the guess was the secret: no further guess
            elif best is None or every:
                worst[h] = self.least_worst(classes[h], history)
            elif not self.solver.feasible(classes[h], worst[best], history):
                worst[h] = self.least_worst(classes[h], history, worst[best] + 1)
            else:
                continue  # W <= W*: it cannot beat the best so far, and loses a tie to it
            if best is None or worst[h] > worst[best]:
                best = h
        return Reply(guess, best, sizes, worst)

    def answer(self, guess: int) -> Reply:
        """Answer ``guess``: the chosen hint, and the candidates shrink to its class."""
        if not 0 <= guess < self.game.size:
            raise TreegenError(f"guess {guess} is not a code of {self.game.name}")
        reply = self.consider(guess)
        alive = self.candidates
        self._alive.append(alive[self.table[guess, alive] == reply.hint])
        self.history.append((guess, reply.hint))
        return reply

    def resume(self, history) -> None:
        """Start again from ``history`` (guesses and the hints given them), as if each hint had been this
        host's answer: the page keeps the game and asks for one reply at a time."""
        alive = self._alive[0]
        self._alive, self.history = [alive], []
        for guess, hint in history:
            alive = alive[self.table[guess, alive] == hint]
            if alive.size == 0:
                raise TreegenError("no secret is consistent with every hint of that history")
            self._alive.append(alive)
            self.history.append((guess, hint))

    def undo(self) -> None:
        """Take back the last answer (nothing happens before the first)."""
        if self.history:
            self.history.pop()
            self._alive.pop()

    @property
    def solved(self) -> bool:
        """Whether the last answer was the all-bulls hint."""
        return bool(self.history) and self.history[-1][1] == self.game.win_hint
