"""Strategies played without a tree file: the next guess computed from the secrets still possible.

For games whose tree (or feedback table) is too big to build, such as Bulls and Cows with 10 positions
(3,628,800 secrets), a strategy is played move by move: ``treegen play --strategy S`` guesses the user's
secret and ``treegen eval --sample N`` estimates its average and worst case on N random secrets. Hints
are computed on the fly (``treegen.livescore``), so memory grows with the codes, never with codes².

Every choice depends only on the history of guesses and hints (random choices are seeded from it), so
a strategy is a fixed tree even when it is never written down: a sampled evaluation samples that tree,
and over every secret of a small game it gives the exact figures of ``strategies.build_tree``'s tree.

The ``hybrid`` strategy follows seed 001, section 3.2: while many secrets remain, essentially different
guesses are few and a simple strategy loses little, so it guesses the first possible code while more
than ``threshold`` secrets remain; from then on it scores guesses with a heuristic (``inner``), over
the possible secrets plus a random sample of ``guess_sample`` other codes (every code when the game has
no more than that), because scoring every one of millions of codes is what makes large games slow.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .play import guess_session, print_solution
from .rules import MAX_CODES, Game, TreegenError, parse_symbols
from .strategies import FLOAT_TIE, StrategyError, get_strategy

# numba (treegen.livescore) is imported on first use, so that the first guess, which needs no scoring,
# appears before the compiled kernels are loaded.

DEFAULT_THRESHOLD = 2000  # hybrid: score guesses once at most this many secrets remain
DEFAULT_GUESS_SAMPLE = 1000  # hybrid: codes scored besides the possible secrets
DEFAULT_INNER = "entropy"
# With both defaults, a scored move computes at most (2000 + 1000) * 2000 = 6 million hints: about
# 0.1 s for 10 positions. The threshold also bounds every move before it: filtering is linear.

LIVE_STRATEGIES = ("first-consistent", "random-consistent", "hybrid")


class LiveError(TreegenError):
    """A game or strategy that cannot be played without a tree, or options that do not fit."""


def code_rank(game: Game, symbols) -> int:
    """The code int of a tuple of symbol indices, by arithmetic (no code list): codes are the symbol
    tuples in lexicographic order, so the rank is a mixed-radix number whose digit at position k is
    the symbol's place among the symbols still allowed there."""
    n = game.symbols
    idx, used = 0, []
    for k, s in enumerate(int(x) for x in symbols):
        if game.repeats:
            idx = idx * n + s
        else:
            idx = idx * (n - k) + s - sum(1 for u in used if u < s)
            used.append(s)
    return idx


def code_symbols(game: Game, code: int) -> tuple[int, ...]:
    """The symbol indices of code ``code``: the inverse of :func:`code_rank`."""
    n, p = game.symbols, game.positions
    places = []
    for k in range(p - 1, -1, -1):
        base = n if game.repeats else n - k
        code, r = divmod(code, base)
        places.append(r)
    places.reverse()
    if game.repeats:
        return tuple(places)
    left = list(range(n))
    return tuple(left.pop(r) for r in places)


def live_bytes(game: Game) -> int:
    """Memory the on-the-fly route needs for ``game``: every code's symbols (positions bytes), its
    symbol mask (8) or counts (symbols), and the candidate list with its filter (4 + 4 + 1 bytes)."""
    per_code = game.positions + (game.symbols if game.repeats else 8) + 9
    return game.size * per_code


def check_live(game: Game, memory: int) -> None:
    """Refuse, with the estimate, a game whose code arrays would not fit in ``memory`` bytes."""
    from .feedback import format_bytes

    need = live_bytes(game)
    if need > memory or game.size >= 2**31:
        per = need // game.size
        raise LiveError(
            f"{game.name} has {game.size} codes: playing it without a table needs {format_bytes(need)} "
            f"({per} bytes a code), over the memory budget of {format_bytes(memory)}; accepted are games "
            f"of at most {min(memory // per, 2**31 - 1)} codes (raise the budget with --memory)"
        )


@dataclass(frozen=True)
class Player:
    """A strategy that picks the next guess from the possible secrets and the history.

    ``strategy`` is ``hybrid``, ``first-consistent``, ``random-consistent`` or a scored strategy of
    ``strategies.STRATEGIES`` (these score every code, one per class of equivalent guesses, exactly as
    ``build_tree`` does with ``tie="possible"``, so only games with a code list: at most 200000 codes).
    """

    game: Game
    strategy: str
    seed: int = 0
    threshold: int = DEFAULT_THRESHOLD
    guess_sample: int = DEFAULT_GUESS_SAMPLE
    inner: str = DEFAULT_INNER

    @classmethod
    def make(
        cls, game: Game, strategy: str, *, seed: int | None = None, threshold: int | None = None,
        guess_sample: int | None = None, memory: int | None = None,
    ) -> Player:
        """Check the options, and that the code arrays (built on first use) fit in ``memory`` bytes
        (default a quarter of the machine's memory)."""
        from .feedback import default_memory

        if game.listed or game.rule != "bulls-cows":
            # Live play numbers every arrangement of the symbols and scores bulls and cows on the fly.
            raise LiveError(f"{game.name} is played from a tree: treegen build --game {game.name} --strategy "
                            f"{strategy} -o T.json, then treegen play --tree T.json (a strategy played live takes "
                            "the games of every arrangement scored by bulls and cows)")
        key = strategy.strip().lower()
        if key != "hybrid":
            key = get_strategy(key).name
            if key == "digit-sweep":
                raise LiveError("digit-sweep is built as a tree only: use treegen build --strategy digit-sweep")
            if key not in LIVE_STRATEGIES and game.size > MAX_CODES:
                raise LiveError(
                    f"{key} scores every one of the {game.size} codes at each move; for games over {MAX_CODES} "
                    f"codes use one of {', '.join(LIVE_STRATEGIES)}"
                )
        if (threshold is not None or guess_sample is not None) and key != "hybrid":
            raise LiveError("--threshold and --guess-sample apply only to the hybrid strategy")
        threshold = DEFAULT_THRESHOLD if threshold is None else threshold
        guess_sample = DEFAULT_GUESS_SAMPLE if guess_sample is None else guess_sample
        if threshold < 2 or guess_sample < 0:
            raise LiveError(
                f"--threshold must be at least 2 and --guess-sample at least 0, not {threshold} and {guess_sample}"
            )
        if seed is not None and key not in ("hybrid", "random-consistent"):
            raise LiveError(f"--seed applies to random-consistent and hybrid, not {key}")
        check_live(game, default_memory() if memory is None else memory)
        return cls(game, key, 0 if seed is None else seed, threshold, guess_sample)

    @cached_property
    def live(self):
        """The code arrays (``livescore.LiveCodes``), built on first use."""
        from .livescore import LiveCodes

        return LiveCodes.of(self.game)

    def format(self, code: int) -> str:
        return "".join(self.game.alphabet[s] for s in code_symbols(self.game, code))

    def parse(self, text: str) -> int:
        """The code written as ``text``; ``CodeError`` as ``rules.parse_code`` says for a bad one."""
        return code_rank(self.game, parse_symbols(self.game, text))

    def start(self) -> np.ndarray:
        """Every code, as the secrets possible before the first guess (int32, ascending)."""
        return np.arange(self.game.size, dtype=np.int32)

    def _rng(self, history) -> random.Random:
        # Seeded from the history (a str seed is hashed by SHA-512, the same on every run and machine).
        return random.Random(f"{self.seed}:" + ",".join(f"{g}={h}" for g, h in history))

    def next_guess(self, secrets: np.ndarray, history: list[tuple[int, int]]) -> int:
        """The guess to play when ``secrets`` (ascending) remain after ``history`` ((guess, hint) pairs)."""
        if self.strategy == "first-consistent" or secrets.size <= 2:
            return int(secrets[0])
        if self.strategy == "random-consistent":
            return int(secrets[self._rng(history).randrange(secrets.size)])
        if self.strategy == "hybrid":
            if secrets.size > self.threshold:
                return int(secrets[0])
            size = self.game.size
            if size <= self.guess_sample + secrets.size:
                pool = np.arange(size, dtype=np.int32)
            else:
                sample = self._rng(history).sample(range(size), self.guess_sample)
                pool = np.union1d(secrets, np.array(sample, dtype=np.int32)).astype(np.int32)
            return self._scored(get_strategy(self.inner), pool, secrets)
        from .symmetry import canonical_guesses

        pool = canonical_guesses(self.game, [g for g, _ in history], secrets)
        return self._scored(get_strategy(self.strategy), pool, secrets)

    def _scored(self, strat, pool: np.ndarray, secrets: np.ndarray) -> int:
        """The best of ``pool`` for ``strat``, ties as ``build_tree`` breaks them (``tie="possible"``)."""
        from . import scoring_kernels as kernels

        game = self.game
        slots = np.array(
            [game.hint(b, c) for b in range(game.positions + 1) for c in range(game.positions + 1 - b)
             if strat.count_win or b < game.positions],
            dtype=np.int64,
        )
        if strat.maximum:
            f = np.zeros(1)
        else:
            # f[n] for n up to the node's size: the same values build_tree reads from its longer array
            f = np.ascontiguousarray(strat.f(np.arange(secrets.size + 1, dtype=np.float64), secrets.size))
        scores = self.live.scores(pool, secrets, slots, strat.maximum, f)
        tol = 0.0 if strat.exact else FLOAT_TIE
        eligible = np.ones(pool.size, dtype=np.bool_)
        return int(pool[kernels.pick_guess(scores, pool, secrets, eligible, False, tol)])

    def after(self, secrets: np.ndarray, guess: int, hint: int) -> np.ndarray:
        """The secrets among ``secrets`` that give ``hint`` to ``guess``."""
        return self.live.consistent(secrets, guess, hint)

    def solve(self, secret: int) -> list[tuple[int, int]]:
        """The (guess, hint) pairs played against ``secret``, ending with the all-bulls hint."""
        secrets, history = self.start(), []
        while True:
            guess = self.next_guess(secrets, history)
            hint = int(self.live.hints(guess, np.array([secret]))[0])
            history.append((guess, hint))
            if hint == self.game.win_hint:
                return history
            secrets = self.after(secrets, guess, hint)


# -- sampled evaluation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """How a strategy did on ``secrets`` secrets drawn without replacement from the game's ``population``.

    ``histogram[k]`` secrets took k guesses. The mean's interval is the normal 95% interval
    mean ± 1.96 · s/√n · √((N − n)/(N − 1)) (s the sample standard deviation, N the population; the
    last factor corrects for sampling without replacement, so a sample of every secret has width 0:
    then mean and max are exact). ``max_guesses`` is the sample's maximum: only a lower bound on the
    worst case unless every secret was played.
    """

    secrets: int
    population: int
    histogram: tuple[int, ...]
    seconds: float

    @property
    def total(self) -> int:
        return sum(k * n for k, n in enumerate(self.histogram))

    @property
    def mean(self) -> float:
        return self.total / self.secrets

    @property
    def max_guesses(self) -> int:
        return len(self.histogram) - 1

    @property
    def exact(self) -> bool:
        return self.secrets == self.population

    @property
    def std(self) -> float:
        n = self.secrets
        if n < 2:
            return 0.0
        m = self.mean
        return math.sqrt(sum(c * (k - m) ** 2 for k, c in enumerate(self.histogram)) / (n - 1))

    @property
    def interval(self) -> tuple[float, float]:
        n, big = self.secrets, self.population
        fpc = math.sqrt((big - n) / (big - 1)) if big > 1 else 0.0
        half = 1.96 * self.std / math.sqrt(n) * fpc
        return self.mean - half, self.mean + half


def evaluate(
    player: Player, n: int, seed: int = 0, progress: Callable[[int], None] | None = None
) -> Sample:
    """Play ``n`` secrets drawn without replacement (numpy ``default_rng(seed)``; every secret when
    ``n`` is at least the game's size) and count the guesses each takes.

    The sampled secrets walk the strategy's tree together: each node met is computed once, and only
    the path being walked keeps its possible secrets, so memory stays that of a few code lists.
    """
    import time

    start = time.perf_counter()
    game = player.game
    if n < 1:
        raise LiveError(f"--sample must be at least 1, not {n}")
    if n >= game.size:
        targets = np.arange(game.size, dtype=np.int32)
    else:
        targets = np.sort(np.random.default_rng(seed).choice(game.size, size=n, replace=False)).astype(np.int32)
    histogram = [0] * 2
    report = progress or (lambda k: None)
    # An explicit stack (depth-first) rather than recursion: bc:10:10 paths can be long for first-consistent.
    stack = [(player.start(), [], targets)]
    while stack:
        secrets, history, mine = stack.pop()
        depth = len(history) + 1
        guess = player.next_guess(secrets, history)
        hints = player.live.hints(guess, mine)
        for h in np.unique(hints).tolist():
            group = mine[hints == h]
            if h == game.win_hint:
                while len(histogram) <= depth:
                    histogram.append(0)
                histogram[depth] += group.size
                report(int(group.size))
                continue
            after = player.after(secrets, guess, h)
            if after.size == secrets.size:  # no progress: the walk would never end
                raise StrategyError(f"{player.strategy} guessed a code that does not split the secrets left")
            stack.append((after, history + [(guess, h)], group))
    while histogram and histogram[-1] == 0:
        histogram.pop()
    return Sample(int(targets.size), game.size, tuple(histogram), time.perf_counter() - start)


def format_sample(name: str, sample: Sample) -> str:
    """The report of :func:`evaluate`: mean with its interval, the sample max, the histogram."""
    lo, hi = sample.interval
    ks = range(1, len(sample.histogram))
    counts = [sample.histogram[k] for k in ks]
    w = max([len(str(k)) for k in ks] + [len(str(c)) for c in counts] + [1])
    if sample.exact:
        head = [
            f"{name}: every one of the {sample.population} secrets played (exact)",
            f"total    {sample.total}",
            f"average  {sample.mean:.4f}",
            f"max      {sample.max_guesses}",
        ]
    else:
        head = [
            f"{name}: {sample.secrets} random secrets of {sample.population}",
            f"average  {sample.mean:.4f}  (95% interval {lo:.4f} to {hi:.4f}; normal approximation)",
            f"max      {sample.max_guesses}  (the sample's worst: a lower bound on the strategy's worst case)",
        ]
    return "\n".join(
        head
        + [
            "guesses: " + " ".join(f"{k:>{w}}" for k in ks),
            "secrets: " + " ".join(f"{c:>{w}}" for c in counts),
            f"time     {sample.seconds:.2f} s",
        ]
    )


# -- interactive play ------------------------------------------------------------------------------


class LiveGuesser:
    """A :class:`Player` as ``play.play_guesser``'s source of guesses (``play.Guesser``): a position is
    the secrets still possible, the history that left them and, once asked for, the guess played there."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.game = player.game
        self.by = f" with {player.strategy}"

    def start(self) -> _Position:
        return _Position(self.player.start(), [])

    def guess(self, position: _Position) -> str:
        if position.guess is None:  # computed when first shown; the first needs no numba (no scoring)
            position.guess = self.player.next_guess(position.secrets, position.history)
        return self.player.format(position.guess)

    def answer(self, position: _Position, hint: int) -> tuple[int, _Position | None]:
        self.guess(position)
        still = self.player.after(position.secrets, position.guess, hint)
        if still.size == 0 or hint == self.game.win_hint:
            return int(still.size), None
        return int(still.size), _Position(still, position.history + [(position.guess, hint)])


@dataclass
class _Position:
    secrets: np.ndarray
    history: list[tuple[int, int]]
    guess: int | None = None


def play_secret(player: Player, text: str) -> int:
    """``treegen play --strategy S --secret CODE``: each guess and hint until solved."""
    moves = player.solve(player.parse(text))
    return print_solution(player.game, [(player.format(guess), hint) for guess, hint in moves])


def play_guesser(player: Player, stdin=None) -> int:
    """``treegen play --strategy S``: the strategy guesses the user's secret; the user types hints.

    The console loop is ``play.play_guesser``'s (the same commands, rules and exit statuses as with a
    tree: see ``treegen.play``); ``stdin`` is ``sys.stdin`` unless given. As this command always did,
    a scripted session's message has no ``line N:`` and an interactive one's mistakes go to stdout.
    """
    return guess_session(LiveGuesser(player), stdin, line_numbers=False, mistakes_to_stdout=True)
