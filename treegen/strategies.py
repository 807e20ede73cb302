"""Greedy one-step heuristics (minimax, entropy, most parts, ...) that build a whole strategy tree in a second."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import numpy as np

from .rules import ArgumentTypeError, Game, TreegenError, format_code, format_hint, game_argument, parse_code

# Scores that are sums of logarithms are equal or not by mathematics, not by rounding: such scores
# within this relative distance of the best tie. This keeps n ln n and entropy (the same ranking) giving
# the same tree, and trees independent of how a machine's log rounds its last bit.
FLOAT_TIE = 1e-9

Tie = Literal["possible", "paper"]
"""How equal scores are broken: the lowest possible code (``possible``) or as seed 001's program does."""
TIES: tuple[Tie, ...] = ("possible", "paper")


class StrategyError(TreegenError):
    """An unknown strategy, or options that do not fit the strategy or the game."""


@dataclass(frozen=True)
class Strategy:
    """A way to pick the next guess from the secrets still possible.

    ``kind`` is ``"scored"`` (score every guess from the partition it makes), ``"first"`` (lowest
    possible code), ``"random"`` (a random possible code) or ``"sweep"`` (digit sweep, repeat games).
    A scored strategy minimises ``max n_h`` (``maximum``) or ``sum f(n_h)`` over the hints h, where
    n_h is how many possible secrets give hint h; the all-bulls hint counts as a class of one for a
    possible guess unless ``count_win`` is false.
    """

    name: str
    summary: str
    kind: str
    maximum: bool = False
    f: Callable[[np.ndarray, int], np.ndarray] | None = field(default=None, repr=False)
    count_win: bool = True
    exact: bool = True  # integer-valued scores, compared exactly
    per_node: bool = False  # f depends on the number of secrets at the node, not only on n
    repeats_only: bool = False


def _size_sq(n: np.ndarray, total: int) -> np.ndarray:
    return n * n


def _n_ln_n(n: np.ndarray, total: int) -> np.ndarray:
    return n * np.log(np.maximum(n, 1))


def _n_ln_n1(n: np.ndarray, total: int) -> np.ndarray:
    return n * np.log(n + 1)


def _parts(n: np.ndarray, total: int) -> np.ndarray:
    return -(n > 0).astype(np.float64)


def _p_log_p(n: np.ndarray, total: int) -> np.ndarray:
    p = n / total
    return p * np.log2(np.where(n > 0, p, 1.0))


STRATEGIES: Mapping[str, Strategy] = MappingProxyType(
    {
        s.name: s
        for s in (
            Strategy("first-consistent", "the lowest possible code (seeds 000, 001)", "first"),
            Strategy("random-consistent", "a random possible code (--seed)", "random"),
            Strategy("minimax", "smallest worst class (Knuth)", "scored", maximum=True),
            Strategy("expected-size", "smallest sum of n^2, the expected class size", "scored", f=_size_sq),
            Strategy("expected-steps", "smallest sum of n ln n", "scored", f=_n_ln_n, exact=False),
            # minus the entropy: the same ranking as n ln n, computed as the definition says
            Strategy("entropy", "largest entropy of the hint", "scored", f=_p_log_p, exact=False, per_node=True),
            Strategy("most-parts", "most non-empty classes (Kooi)", "scored", f=_parts),
            # seed 001's program sums over the hints with fewer bulls than positions only
            Strategy(
                "n-ln-n-plus-1", "smallest sum of n ln(n+1) over the non-winning hints (seed 001's best)",
                "scored", f=_n_ln_n1, count_win=False, exact=False,
            ),
            Strategy(
                "digit-sweep", "0000, 1111, ... until the symbols are known, then the lowest possible (seed 003)",
                "sweep", repeats_only=True,
            ),
        )
    }
)


def get_strategy(name: str) -> Strategy:
    """The strategy called ``name`` (``heuristic:`` prefix allowed)."""
    key = name.strip().lower().removeprefix("heuristic:")
    if key not in STRATEGIES:
        raise StrategyError(f"unknown strategy {name!r}: use one of {', '.join(STRATEGIES)}")
    return STRATEGIES[key]


def applicable(game: Game) -> list[str]:
    """The strategies that apply to ``game`` (digit-sweep needs repeats), in table order."""
    return [s.name for s in STRATEGIES.values()
            if (game.repeats or not s.repeats_only) and not (game.listed and s.kind == "sweep")]


@dataclass(frozen=True)
class Built:
    """A built tree and how it was made.

    ``scored`` has one row ``(depth, nodes, guesses, most)`` per depth where guesses were scored: at
    ``nodes`` nodes, ``guesses`` scored in all and ``most`` at one node (the root is depth 1); where a
    possible secret tells all the others apart, only the possible secrets are scored.
    ``seconds`` is the wall time of the build (the feedback table and any check included).
    """

    tree: object  # tree.Tree
    scored: tuple[tuple[int, int, int, int], ...]
    seconds: float


def uses_table(game: Game, strategy: str, memory: int | None = None) -> bool:
    """Whether ``build_tree`` reads hints from the feedback table by default, rather than on the fly.

    Only a scored strategy of a game whose codes do not fit the packed masks of the fast on-the-fly
    kernel (positions * symbols > 64, e.g. bc:3:36), and only if its table fits in ``memory`` bytes
    (default a quarter of the machine's memory). Strategies that score nothing split each node once,
    and the packed kernel scores about as fast as table lookups (bulls-cows entropy 0.16 s against
    0.18 s from a table already built) without building the table first: mm:6:6 entropy takes 15 s
    of CPU and 178 MB on the fly, 40 s and 2.3 GB with the table.
    """
    from .feedback import table_fits
    from .livescore import packable

    if game.rule != "bulls-cows":
        return table_fits(game, memory)  # the on-the-fly kernels score bulls and cows only
    return get_strategy(strategy).kind == "scored" and not packable(game) and table_fits(game, memory)


def build_tree(
    game: Game | str,
    strategy: str,
    *,
    first: str | None = None,
    consistent_only: bool = False,
    seed: int | None = None,
    tie: Tie = "possible",
    symmetry: bool = True,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
    memory: int | None = None,
    table: bool | None = None,
) -> Built:
    """Build the tree of ``strategy`` over every secret of ``game``; deterministic.

    ``game`` is a Game or a name for ``rules.resolve_game`` (see :func:`game_argument`). The opening is
    ``first`` (a code string). Without it, a scored strategy opens with the code it scores best over
    every code, as at any other node (one per class of equivalent first guesses, so a handful of
    codes); the others open with the lowest code (0000... for digit-sweep). Later, a lone
    possible secret is guessed, of two the lower; otherwise the strategy picks. Scored strategies
    consider every code of the game (only the possible ones with ``consistent_only``), one per class of
    equivalent guesses (``symmetry``; it changes no result, only the time).

    Hints are computed on the fly by ``treegen.livescore`` (memory grows with the secrets, not
    codes²), or read from the feedback table: see :func:`uses_table` (``table`` True or False forces
    one way; True raises ``feedback.TableTooLarge`` over ``memory``). Both give the same tree, byte
    for byte.

    Equal scores (see FLOAT_TIE) go, with ``tie="possible"``, to the lowest possible code, else to the
    lowest code. ``tie="paper"`` does what seed 001's program does: it scans only the codes whose
    symbols unused so far appear in increasing order, and keeps a later code when it scores equal and
    is possible, so ties go to the last such possible code, else to the lowest code.

    ``progress(k)`` is called as k more secrets get their last guess. With ``check`` the tree is
    replayed by ``verify.make_tree`` (pure Python, slower than the build); without, its stats are the
    ones counted while building. Raises :class:`StrategyError` for options that do not fit and
    ``rules.CodeError`` for a bad ``first``, ``rules.GameError`` for an unknown game name and
    :class:`ArgumentTypeError` for a game or strategy of the wrong type.
    """
    from . import scoring_kernels
    from .exact import search_kernels
    from .feedback import CODE_DTYPE, by_secret, code_digits, feedback_table
    from .livescore import LiveCodes
    from .symmetry import canonical_guesses, fresh_symbol_guesses
    from .tree import Node, Stats, Tree
    from .verify import make_tree

    start = time.perf_counter()
    game = game_argument(game, "build_tree")
    if not isinstance(strategy, str):
        raise ArgumentTypeError(f"build_tree: strategy must be a name such as 'entropy', not {type(strategy).__name__}")
    strat = get_strategy(strategy)
    if tie not in TIES:
        raise StrategyError(f"unknown tie rule {tie!r}: use one of {', '.join(TIES)}")
    if strat.kind == "sweep" and game.listed:
        raise StrategyError(f"{strat.name} sweeps every arrangement of the symbols; {game.name} is a list of words")
    if strat.repeats_only and not game.repeats:
        raise StrategyError(f"{strat.name} needs a game with repeated symbols; {game.name} has none")
    if seed is not None and strat.kind != "random":
        raise StrategyError(f"--seed applies only to random-consistent, not {strat.name}")
    if consistent_only and strat.kind != "scored":
        raise StrategyError(f"--consistent-only applies only to scored strategies, not {strat.name}")
    opening = None  # chosen by score (scored strategies), else the lowest code
    if strat.kind != "scored":
        opening = 0  # the lowest code; for digit-sweep, symbol 0 in every position
    if first is not None:
        opening = parse_code(game, first)
        if strat.kind == "sweep" and opening != 0:
            raise StrategyError(f"digit-sweep always opens with {format_code(game, 0)}")

    if uses_table(game, strat.name, memory) if table is None else table:
        table = feedback_table(game, memory)

        def split(guess: int, secrets: np.ndarray):
            return search_kernels.split_by_hint(table, guess, secrets, nslots)

        secret_rows = by_secret(game, table)  # guess_scores reads table[s] as the hints of the guesses on s

        def guess_scores(guesses, secrets, slots, maximum, f):
            return scoring_kernels.guess_scores(secret_rows, guesses, secrets, nslots, slots, maximum, f)

    else:
        live = LiveCodes.of(game, code_digits(game))

        def split(guess: int, secrets: np.ndarray):
            return live.split(guess, secrets)

        def guess_scores(guesses, secrets, slots, maximum, f):
            return live.scores(guesses, secrets, slots, maximum, f)

    npos, nslots, win = game.positions, game.hint_slots, game.win_hint
    every = np.arange(game.size, dtype=CODE_DTYPE)
    # Every hint with bulls + cows <= positions (or, per position, every pattern of marks), in hint order
    # (impossible ones just stay empty).
    if game.rule == "per-position":
        every_slot = [h for h in sorted(game.possible_hints) if strat.count_win or h != win]
    else:
        every_slot = [game.hint(b, c) for b in range(npos + 1) for c in range(npos + 1 - b) if strat.count_win or b < npos]
    slots = np.array(every_slot, dtype=np.int64)
    f_all = None
    if strat.f is not None and not strat.per_node:
        f_all = np.ascontiguousarray(strat.f(np.arange(game.size + 1, dtype=np.float64), game.size))
    no_f = np.zeros(1)
    tol = 0.0 if strat.exact else FLOAT_TIE
    paper = tie == "paper"
    rng = random.Random(0 if seed is None else seed)
    codes = [format_code(game, c) for c in range(game.size)]
    hints = [format_hint(game, h) for h in range(nslots)]
    sweeps = [sum(k * game.symbols**p for p in range(npos)) for k in range(game.symbols)] if game.repeats else []
    scored: dict[int, list[int]] = {}
    histogram = [0] * (game.size + 2)
    report = progress or (lambda k: None)

    # A possible secret that tells all the others apart (every class a singleton) has the least score
    # any guess can have, for every scored strategy: max n = 1; sum n^2 = n; sum n ln n = 0; the
    # entropy is log2 n; the classes are n; and sum over the non-winning hints of n ln(n + 1) is at
    # least (n - n_win) ln 2 >= (n - 1) ln 2, reached only by such a secret. Every other split scores
    # worse by far more than FLOAT_TIE (entropy: by 2/n bits). Ties go to the lowest possible code, so
    # the pick is the lowest such secret, found by scoring the secrets alone (n^2 hints instead of
    # n * guesses); it exists only when n is at most the number of hints. Not under tie="paper",
    # which prefers the last of the tied codes its scan meets.
    every_hint = np.array(sorted(game.possible_hints), dtype=np.int64)

    def perfect_secret(secrets: np.ndarray) -> int:
        if paper or secrets.size > every_hint.size:
            return -1
        worst = guess_scores(secrets, secrets, every_hint, True, no_f)
        hits = np.flatnonzero(worst == 1.0)
        return int(secrets[hits[0]]) if hits.size else -1

    def choose_scored(secrets: np.ndarray, history: list[int], depth: int) -> int:
        perfect = perfect_secret(secrets)
        if perfect >= 0:
            row = scored.setdefault(depth, [0, 0, 0])
            row[0] += 1
            row[1] += secrets.size
            row[2] = max(row[2], secrets.size)
            return perfect
        eligible = None
        if paper:
            fresh = fresh_symbol_guesses(game, history)
            guesses = fresh if symmetry else every
            eligible = np.isin(guesses, fresh)
        elif symmetry:
            guesses = canonical_guesses(game, history, secrets)
        else:
            guesses = every
        if consistent_only:
            keep = np.isin(guesses, secrets)
            guesses = guesses[keep]
            eligible = None if eligible is None else eligible[keep]
        if eligible is None:
            eligible = np.ones(guesses.size, dtype=np.bool_)
        if strat.maximum:
            f = no_f
        elif f_all is not None:
            f = f_all
        else:
            f = np.ascontiguousarray(strat.f(np.arange(secrets.size + 1, dtype=np.float64), secrets.size))
        scores = guess_scores(guesses, secrets, slots, strat.maximum, f)
        row = scored.setdefault(depth, [0, 0, 0])
        row[0] += 1
        row[1] += guesses.size
        row[2] = max(row[2], guesses.size)
        return int(guesses[scoring_kernels.pick_guess(scores, guesses, secrets, eligible, paper, tol)])

    def choose(secrets: np.ndarray, history: list[int], depth: int) -> int:
        if depth == 1 and opening is not None:
            return opening
        if secrets.size <= 2 or strat.kind == "first":
            return int(secrets[0])
        if strat.kind == "random":
            return int(secrets[rng.randrange(secrets.size)])
        if strat.kind == "sweep":
            # Sweeps go 0000, 1111, ... in order; the secrets left agree on how many of those symbols
            # they hold. Once all are found, or only the last symbol is unswept, the sweep is over.
            k = len(history)
            if history == sweeps[:k] and k <= game.symbols - 2:
                if sum(1 for x in game.codes[int(secrets[0])] if x < k) < npos:
                    return sweeps[k]
            return int(secrets[0])
        return choose_scored(secrets, history, depth)

    def grow(secrets: np.ndarray, history: list[int], depth: int) -> Node:
        if secrets.size == 1:
            histogram[depth] += 1
            report(1)
            return Node(codes[int(secrets[0])])
        guess = choose(secrets, history, depth)
        order, starts = split(guess, secrets)
        children = []  # in hint order, which is the file's (bulls, then cows)
        after = history + [guess]
        for h in range(nslots):
            a, b = starts[h], starts[h + 1]
            if a == b:
                continue
            if h == win:
                histogram[depth] += 1
                report(1)
                continue
            if b - a == secrets.size:
                raise StrategyError(f"{strat.name} guessed {codes[guess]}, which does not split the secrets left")
            children.append((hints[h], grow(order[a:b], after, depth + 1)))
        return Node(codes[guess], tuple(children))

    root = grow(np.arange(game.secret_count, dtype=CODE_DTYPE), [], 1)  # every code guesses; these are the secrets
    provenance: dict = {"first": root.guess}
    if strat.kind == "scored":
        provenance.update(consistent_only=consistent_only, tie=tie)
    if strat.kind == "random":
        provenance["seed"] = 0 if seed is None else seed
    name = f"heuristic:{strat.name}"
    if check:
        tree = make_tree(game, name, root, provenance=provenance)
    else:
        tree = Tree(game, name, root, Stats.from_histogram(histogram), provenance)
    rows = tuple((d, *scored[d]) for d in sorted(scored))
    return Built(tree, rows, time.perf_counter() - start)


# -- reports -------------------------------------------------------------------------------------


def default_output(game: Game, strategy: str) -> str:
    """The default file name of a built tree, e.g. ``bulls-cows-entropy.json`` (``files.default_name``)."""
    from .files import default_name

    return default_name(game, get_strategy(strategy).name)


def format_scored(built: Built) -> str:
    """The ``--stats`` table: guesses scored per depth, in all and at most at one node."""
    lines = [f"{'depth':>5} {'nodes':>6} {'scored':>9} {'most':>5}"]
    for depth, nodes, total, most in built.scored:
        lines.append(f"{depth:>5} {nodes:>6} {total:>9} {most:>5}")
    if not built.scored:
        lines.append("  (this strategy scores no guesses)")
    return "\n".join(lines)


def format_comparison(rows: list[tuple[str, Built]]) -> str:
    """One table comparing built trees: total, average, max, secrets per number of guesses, time."""
    stats = [b.tree.stats for _, b in rows]
    most = max(s.max_guesses for s in stats)
    cols = [max(len(str(k)), *(len(str(s.histogram[k])) for s in stats if k <= s.max_guesses)) for k in range(1, most + 1)]
    name_w = max(len("strategy"), *(len(n) for n, _ in rows))
    head = f"{'strategy':<{name_w}} {'total':>7} {'average':>7} {'max':>3}  "
    head += " ".join(f"{k:>{w}}" for k, w in zip(range(1, most + 1), cols)) + f"  {'time':>6}"
    lead = f"{'':<{name_w}} {'':>7} {'':>7} {'':>3}  "
    lines = [lead + "secrets solved with k guesses, k =", head]
    for (name, b), s in zip(rows, stats):
        hist = [s.histogram[k] if k <= s.max_guesses else 0 for k in range(1, most + 1)]
        lines.append(
            f"{name:<{name_w}} {s.total:>7} {s.average:>7.3f} {s.max_guesses:>3}  "
            + " ".join(f"{c:>{w}}" for c, w in zip(hist, cols))
            + f"  {b.seconds:>5.2f}s"
        )
    return "\n".join(lines)
