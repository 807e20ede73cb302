"""The coach: exact values of the positions and moves of a game played so far.

A position is the set S of secrets that the guesses and hints so far leave. Its value is T*(S), the least
total number of guesses (the next one included) that some strategy needs to solve every secret of S;
T*(S) / |S| is the expected number of guesses still needed when the secret is drawn at random from S.
Playing guess g at S costs every secret one guess and leaves the classes S_h of the hints h that g can
get, so the value of the move is

    T_g(S) = |S| + sum over h other than all-bulls of T*(S_h),

and T*(S) is the least T_g(S) over all guesses g. A move's **loss** is (T_g(S) - T*(S)) / |S| expected
guesses: 0 exactly when the move is optimal. Its **luck** compares what the move was expected to cost
with what it cost once the hint came: T_g(S) / |S| - (1 + T*(S_h) / |S_h|) for the hint h it got (1
alone when it won). Summed over a finished game these give, exactly,

    guesses used = T*(S_1) / |S_1| + total loss - total luck,

since each term T*(S_{i+1}) / |S_{i+1}| appears once with each sign (a telescoping sum).

Values come from, in order: a least-total tree (the shipped one), found by symmetry when the position is
the image of one of the tree's nodes under a permutation of positions and symbols (hints are invariant
under such a map, so the image of S is the node's set and its value is the subtree's total); the memo
of the exact solver (a cache that lives as long as the :class:`Analyzer`); the exact solver
(``exact.solver.Solver.solve``) on the set itself. A solve that runs past the move's time budget is
stopped, and the set is then given a proved lower bound only (the search's counting bound), so the
move's value and loss become bounds, labelled as such.

Library only: no printing. numpy and the exact search are imported with this module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .exact.contracts import INF
from .exact.solver import Solver
from .feedback import CODE_DTYPE, feedback_table
from .relabel import Relabelling, follow
from .rules import Code, Game, Hint, TreegenError, format_code, format_hint, hint_of_key
from .tree import Tree, walk

# Games whose feedback table the analyzer builds: every preset and the spec games up to about mm:5:6.
MAX_ANALYZED = 20_000
# The default time a move's exact solves may take together before the rest are given as bounds.
BUDGET = 5.0
# Moves a caller's cache (Analyzer.analyze's ``known``) holds before it starts again.
KNOWN_LIMIT = 100_000
RETRIES = 3


class AnalysisError(TreegenError):
    """A game or history the coach cannot analyse, or a tree it cannot take values from."""


# -- values ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """What is known of a total T over ``secrets`` secrets: ``lower`` <= T <= ``upper`` (None: no upper
    bound is known). Exact when both are equal. ``source`` says where it came from: "tree", "solver",
    "bound" (the solver ran out of time), or "sum" (a move's value, summed over its classes)."""

    secrets: int
    lower: int
    upper: int | None
    source: str

    @property
    def exact(self) -> bool:
        return self.upper == self.lower

    @property
    def expected(self) -> Fraction:
        """T / |S| (exact), or the lower bound's when only bounds are known."""
        return Fraction(self.lower, self.secrets)


def _sum(secrets: int, parts: Sequence[Value]) -> Value:
    """The value of a move at a set of ``secrets``: one guess for each secret plus its classes' values."""
    lower = secrets + sum(v.lower for v in parts)
    upper = None if any(v.upper is None for v in parts) else secrets + sum(v.upper for v in parts)
    return Value(secrets, lower, upper, "sum")


# -- a least-total tree, reached through the game's symmetry -------------------------------------------


class TreeIndex:
    """A least-total tree of one game, read once for lookups: each node's guess, its children by hint, and
    its subtree's total (the least total of the node's set, since every subtree of a least-total tree is a
    least-total tree of its set: a better one would make a better whole).

    ``locate`` finds the node whose history is the image of a given history under the game's symmetry.
    """

    def __init__(self, tree: Tree) -> None:
        prov = tree.provenance or {}
        if (prov.get("objective") != "average" or prov.get("max_guesses") is not None
                or prov.get("consistent_only") or prov.get("optimal_total") != tree.stats.total):
            raise AnalysisError(
                f"the tree for {tree.game.name} is not a proved least-total tree (no cap, not hard mode), so its "
                "figures are not the optimum; give one that `treegen solve` made, such as "
                f"trees/{tree.game.name}-optimal-average.json")
        self.game = game = tree.game
        self.guess: list[Code] = []
        self.children: list[dict[Hint, int]] = []
        self.total: list[int] = []
        index: dict[tuple[str, ...], int] = {}
        for visit in walk(game, tree.root):
            index[visit.path] = len(self.guess)
            self.guess.append(visit.code)
            self.children.append({})
            # T(node) = |S| + the children's totals (added below): one guess for each secret here
            self.total.append(sum(len(c) for c in visit.partition.values()))
        # Deepest first, so that a child's total is complete before it is added to its parent's.
        for path, k in sorted(index.items(), key=lambda kv: -len(kv[0])):
            if path:
                parent, key = index[path[:-2]], path[-1]
                self.children[parent][hint_of_key(game, key)] = k
                self.total[parent] += self.total[k]

    def locate(self, history: Sequence[tuple[Code, Hint]]) -> tuple[int, list[Relabelling]] | None:
        """The node reached by the image of ``history`` (guesses and the hints they got, none all-bulls),
        with every relabelling that maps the history's guesses onto the tree's; None when no relabelling
        follows the tree all the way."""
        game = self.game
        return follow(game, 0, history, lambda k: game.codes[self.guess[k]], lambda k, h: self.children[k].get(h))

    def plays(self, node: int, guess: Code, maps: Sequence[Relabelling]) -> bool:
        """Whether ``guess`` is, under one of ``maps``, the node's own guess (so it is as good)."""
        target = self.game.codes[self.guess[node]]
        return any(m.extend(self.game.codes[guess], target) is not None for m in maps)

    def best_guess(self, node: int, maps: Sequence[Relabelling]) -> Code:
        """The node's guess brought back to the player's labels (through the first map)."""
        game = self.game
        return game.code_index[maps[0].inverse_code(game.codes[self.guess[node]])]


# -- the analyzer ----------------------------------------------------------------------------------


class _OutOfTime(Exception):
    """The move's time budget ran out during an exact solve."""


class _TimedSolver(Solver):
    """The exact solver, stopped at ``deadline`` (time.perf_counter): every node's search starts by
    checking it. Stopping is safe: the memo holds only what finished searches proved."""

    deadline = float("inf")

    def _search(self, *args, **kwargs):
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        return super()._search(*args, **kwargs)


@dataclass(frozen=True)
class Move:
    """One move of a game: ``guess`` got ``hint``, taking the secrets from ``before`` to ``after``.

    ``value`` is T_g(S) of the move and ``best`` T*(S) of the position (module docstring), ``best_guess``
    a guess that achieves T*(S) (None when the solver ran out of time); ``then`` is T*(S_h) of the
    position the hint left (None when the move won).
    """

    number: int
    guess: Code
    hint: Hint
    before: int
    after: int
    value: Value
    best: Value
    best_guess: Code | None
    then: Value | None

    @property
    def won(self) -> bool:
        return self.then is None

    @property
    def loss(self) -> tuple[Fraction, Fraction | None]:
        """(least, most) of the loss in expected guesses; equal when exact, most None when unbounded."""
        low = Fraction(self.value.lower - (self.best.upper if self.best.upper is not None else self.value.lower),
                       self.before)
        high = None if self.value.upper is None else Fraction(self.value.upper - self.best.lower, self.before)
        return max(low, Fraction(0)), high

    @property
    def exact(self) -> bool:
        return self.value.exact and self.best.exact and (self.then is None or self.then.exact)

    @property
    def luck(self) -> Fraction | None:
        """Expected cost of the move minus what it cost once the hint came (exact values only)."""
        if not self.exact:
            return None
        cost = 1 if self.then is None else 1 + Fraction(self.then.lower, self.after)
        return Fraction(self.value.lower, self.before) - cost


@dataclass(frozen=True)
class Analysis:
    """A game analysed move by move; ``position`` is the value of the position after the last move
    (None when the last move won) and ``advice`` a best guess there (None when unknown)."""

    game: Game
    moves: tuple[Move, ...]
    start: Value
    position: Value | None
    advice: Code | None
    seconds: float

    @property
    def won(self) -> bool:
        return bool(self.moves) and self.moves[-1].won

    @property
    def optimal(self) -> int:
        """How many moves are proved optimal (loss exactly 0)."""
        return sum(1 for m in self.moves if m.loss == (0, 0))

    @property
    def loss(self) -> tuple[Fraction, Fraction | None]:
        lows, highs = zip(*(m.loss for m in self.moves)) if self.moves else ((), ())
        return sum(lows, Fraction(0)), None if None in highs else sum(highs, Fraction(0))

    @property
    def luck(self) -> Fraction | None:
        lucks = [m.luck for m in self.moves]
        return None if None in lucks else sum(lucks, Fraction(0))


class Analyzer:
    """Exact values of positions of one game: from ``tree`` (a proved least-total tree, or None), the
    solver's memo (kept between calls: the cache) and the exact solver. Not thread-safe."""

    def __init__(self, game: Game, tree: Tree | None = None) -> None:
        if game.size > MAX_ANALYZED:
            raise AnalysisError(f"{game.name} has {game.size:,} secrets; the coach analyses games of at most "
                                f"{MAX_ANALYZED:,} (bulls-cows, mastermind and the other presets)")
        if tree is not None and tree.game != game:
            raise AnalysisError(f"the tree is for {tree.game.name}, not {game.name}")
        self.game = game
        self.index = TreeIndex(tree) if tree is not None else None
        self.table = feedback_table(game)
        self.solver = _TimedSolver(game, None)
        self.depth = self.solver.full_depth()
        # Load the search's compiled kernels now, not inside the first move's budget: solve a real
        # position (the smallest class of more than two secrets that the first code leaves), since the
        # solver's symmetry reduction needs the set its history leaves.
        hints = self.table[0, : game.secret_count]
        sizes = np.bincount(hints, minlength=game.hint_slots)
        small = [h for h in range(sizes.shape[0]) if sizes[h] > 2 and h != game.win_hint]
        if small:
            h = min(small, key=lambda h: (sizes[h], h))
            self.solver.solve(np.flatnonzero(hints == h).astype(CODE_DTYPE), INF, (0,))

    # positions

    def _solve(self, secrets: np.ndarray, guesses: tuple[Code, ...], deadline: float) -> Value:
        n = int(secrets.shape[0])
        if n <= 2:
            return Value(n, 2 * n - 1, 2 * n - 1, "solver")  # 1 guess, or 1 + 2 (guess either, then the other)
        self.solver.deadline = deadline
        try:
            v = int(self.solver.solve(secrets, INF, guesses))
        except _OutOfTime:
            lb = int(self.solver.bounds.lb[self.depth, n])  # the counting bound: no tree does better
            return Value(n, lb, None, "bound")
        finally:
            self.solver.deadline = float("inf")
        return Value(n, v, v, "solver")

    def value(self, secrets: np.ndarray, history: Sequence[tuple[Code, Hint]], deadline: float,
              want_guess: bool = False) -> tuple[Value, Code | None]:
        """T*(S) of the set ``secrets`` that ``history`` leaves, and (with ``want_guess``) a guess that
        achieves it (None when unknown)."""
        n = int(secrets.shape[0])
        if self.index is not None:
            found = self.index.locate(history)
            if found is not None:
                node, maps = found
                t = self.index.total[node]
                return Value(n, t, t, "tree"), self.index.best_guess(node, maps) if want_guess else None
        if n == 1:
            return Value(1, 1, 1, "solver"), int(secrets[0])
        guesses = tuple(g for g, _ in history)
        v = self._solve(secrets, guesses, deadline)
        if not (want_guess and v.exact):
            return v, None
        if n == 2:
            return v, int(secrets[0])
        return v, int(self.solver.tree(secrets, None, guesses)[0])

    def move_value(self, secrets: np.ndarray, history: Sequence[tuple[Code, Hint]], guess: Code,
                   deadline: float) -> Value:
        """T_g(S): the value of playing ``guess`` at the set ``secrets`` that ``history`` leaves."""
        n = int(secrets.shape[0])
        if self.index is not None:
            found = self.index.locate(history)
            if found is not None and self.index.plays(found[0], guess, found[1]):
                t = self.index.total[found[0]]
                return Value(n, t, t, "tree")  # the tree's own move, relabelled
        hints = self.table[guess, secrets]
        parts = []
        for h in np.unique(hints):
            if int(h) != self.game.win_hint:
                cls = secrets[hints == h]
                parts.append(self.value(cls, [*history, (guess, int(h))], deadline)[0])
        return _sum(n, parts)

    # games

    def analyze(self, history: Sequence[tuple[Code, Hint]], budget: float = BUDGET,
                known: dict | None = None) -> Analysis:
        """Every move of ``history`` (guesses and the hints they got) valued, and the position after it.

        Each move (and the final position) may spend ``budget`` seconds in exact solves; what is not
        settled by then is given as bounds. Raises AnalysisError for a history no secret is consistent
        with, or one that goes on after the all-bulls hint. ``known`` caches moves by the history up to
        them (a dict kept by the caller, emptied when it holds KNOWN_LIMIT moves).
        """
        game, win = self.game, self.game.win_hint
        started = time.perf_counter()
        alive = np.arange(game.secret_count, dtype=CODE_DTYPE)
        moves: list[Move] = []
        start_value = None
        for k, (guess, hint) in enumerate(history):
            if not 0 <= guess < game.size:
                raise AnalysisError(f"guess {guess} is not a code of {game.name}")
            if moves and moves[-1].won:
                raise AnalysisError(f"move {k + 1} comes after the secret was found with {format_code(game, moves[-1].guess)}")
            deadline = time.perf_counter() + budget
            hints = self.table[guess, alive]
            after = alive[hints == hint]
            if after.shape[0] == 0:
                said = " ".join(f"{format_code(game, g)}={format_hint(game, h)}" for g, h in history[: k + 1])
                raise AnalysisError(f"no secret of {game.name} gives every hint of {said}; check the hints")
            key = tuple(history[: k + 1])
            move = None if known is None else known.get(key)
            if move is None:
                before_hist = list(history[:k])
                best, best_guess = self.value(alive, before_hist, deadline, want_guess=True)
                value = self.move_value(alive, before_hist, guess, deadline)
                then = None if hint == win else self.value(after, list(key), deadline)[0]
                move = Move(k + 1, guess, hint, int(alive.shape[0]), int(after.shape[0]), value, best, best_guess, then)
                if known is not None:
                    # A move given as bounds is tried again (the memo keeps what its searches finished, so
                    # each try gets further), but at most RETRIES times: then its bounds are kept, so that
                    # a game with such a move does not cost its budget at every call.
                    if len(known) >= KNOWN_LIMIT:
                        known.clear()
                    tries = known.get(("tries",) + key, 0) + 1
                    known[("tries",) + key] = tries
                    if move.exact or tries >= RETRIES:
                        known[key] = move
            if k == 0:
                start_value = move.best
            moves.append(move)
            alive = after
        if moves and moves[-1].won:
            position, advice = None, None
        else:
            position, advice = self.value(alive, list(history), time.perf_counter() + budget, want_guess=True)
            if start_value is None:
                start_value = position
        return Analysis(game, tuple(moves), start_value, position, advice, time.perf_counter() - started)

    def openings(self, budget: float | None = None) -> list[tuple[Code, int, Value]]:
        """The value of every first guess, one per class of equivalent guesses: (the class's smallest
        code, how many codes the class has, T_g of all secrets), best first (then by code). Without a
        budget every value is exact; with one, each opening may take ``budget`` seconds."""
        from .symmetry import guess_classes

        alive = np.arange(self.game.secret_count, dtype=CODE_DTYPE)
        reps, sizes = guess_classes(self.game)
        out = []
        for code, size in zip(reps.tolist(), sizes.tolist()):
            deadline = float("inf") if budget is None else time.perf_counter() + budget
            out.append((code, size, self.move_value(alive, [], code, deadline)))
        return sorted(out, key=lambda o: (o[2].lower, o[0]))



# -- as JSON and as text -----------------------------------------------------------------------------


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def value_to_obj(v: Value, guess: str | None = None) -> dict:
    """A value as JSON: expected guesses (T / |S|, the lower bound's when not exact), the total and the
    exact fraction when known, else the bounds on the total."""
    obj = {"secrets": v.secrets, "exact": v.exact, "source": v.source, "expected": round(float(v.expected), 6)}
    if v.exact:
        obj |= {"total": v.lower, "fraction": _fraction(v.expected)}
    else:
        obj |= {"lower": v.lower, "upper": v.upper}
    if guess is not None:
        obj["guess"] = guess
    return obj


def _range_to_obj(low: Fraction, high: Fraction | None) -> dict:
    if low == high:
        return {"exact": True, "expected": round(float(low), 6), "fraction": _fraction(low)}
    return {"exact": False, "at_least": round(float(low), 6), "at_most": None if high is None else round(float(high), 6)}


def _signed(x: Fraction) -> str:
    return f"{'+' if x >= 0 else '−'}{abs(float(x)):.2f}"


def summary_text(a: Analysis) -> str:
    """The whole game in a sentence: moves proved optimal, guesses lost, luck; for a won game with exact
    values, how the guesses used add up (module docstring)."""
    if not a.moves:
        return "No moves yet."
    n = len(a.moves)
    low, high = a.loss
    lost = f"{float(low):.2f}" if low == high else f"at least {float(low):.2f}"
    parts = [f"{a.optimal} of your {n} move{'s' if n != 1 else ''} {'was' if a.optimal == 1 else 'were'} optimal",
             f"you lost {lost} guesses to the optimum"]
    luck = a.luck
    if luck is not None:
        parts.append(f"luck {_signed(luck)}")
    text = "; ".join(parts) + "."
    if a.won and luck is not None and low == high:
        text += (f" {n} guess{'es' if n != 1 else ''} = {float(a.start.expected):.4f} expected at the start"
                 f" + {float(low):.4f} lost {'−' if luck >= 0 else '+'} {abs(float(luck)):.4f} luck.")
    return text


def analysis_to_obj(a: Analysis) -> dict:
    """The analysis as JSON (``treegen analyze --json`` and the server's /api/analyze)."""
    game = a.game
    moves = []
    for m in a.moves:
        low, high = m.loss
        luck = m.luck
        moves.append({
            "number": m.number, "guess": format_code(game, m.guess), "hint": format_hint(game, m.hint),
            "before": m.before, "after": m.after, "value": value_to_obj(m.value),
            "best": value_to_obj(m.best, None if m.best_guess is None else format_code(game, m.best_guess)),
            "loss": _range_to_obj(low, high), "optimal": low == high == 0,
            "luck": None if luck is None else {"expected": round(float(luck), 6), "fraction": _fraction(luck)},
        })
    low, high = a.loss
    luck = a.luck
    return {
        "game": game.name, "moves": moves, "won": a.won,
        "start": None if a.start is None else value_to_obj(a.start),
        "position": None if a.position is None else value_to_obj(
            a.position, None if a.advice is None else format_code(game, a.advice)),
        "summary": {"moves": len(a.moves), "optimal": a.optimal, "loss": _range_to_obj(low, high),
                    "luck": None if luck is None else {"expected": round(float(luck), 6), "fraction": _fraction(luck)},
                    "text": summary_text(a)},
        "seconds": round(a.seconds, 3),
    }


# -- the coach of a server -----------------------------------------------------------------------------


class Coach:
    """What ``treegen serve`` answers the page with: analyses and the evil host's replies, for any game
    of at most MAX_ANALYZED secrets. One Analyzer (its solver's memo is the cache) and one evil host per
    game, made on first use, each game's work serialised by a lock (the solvers are not thread-safe).

    ``reference(game)`` gives the path of a least-total tree of that game to take values from, or None.
    """

    def __init__(self, reference: Callable[[Game], str | None], budget: float = 1.0) -> None:
        import threading

        self.reference = reference
        self.budget = budget
        self._lock = threading.Lock()
        self._games: dict[str, tuple[threading.Lock, dict]] = {}

    def _game(self, game: Game) -> tuple:
        import threading

        with self._lock:
            if game.name not in self._games:
                self._games[game.name] = (threading.Lock(), {})
            return self._games[game.name]

    def _analyzer(self, game: Game, held: dict) -> Analyzer:
        if "analyzer" not in held:
            from .tree import load_tree

            path = self.reference(game)
            tree = None
            if path is not None:
                try:
                    tree = load_tree(path, game)
                except TreegenError:
                    tree = None
            try:
                held["analyzer"] = Analyzer(game, tree)
            except AnalysisError:
                if tree is None:
                    raise
                held["analyzer"] = Analyzer(game, None)  # the folder's tree is no proved least total: no values from it
            held["moves"] = {}
        return held["analyzer"]

    def analyze(self, game: Game, history: Sequence[tuple[Code, Hint]]) -> dict:
        """``analysis_to_obj`` of ``history``; moves analysed before (the same game up to them) come from a
        cache, so a game scored move by move costs each move once."""
        lock, held = self._game(game)
        with lock:
            analyzer = self._analyzer(game, held)
            return analysis_to_obj(analyzer.analyze(history, self.budget, known=held["moves"]))

    def evil(self, game: Game, history: Sequence[tuple[Code, Hint]], guess: Code) -> dict:
        """The evil host's reply to ``guess`` after ``history`` (its own earlier replies)."""
        from .adversary import EvilHost

        lock, held = self._game(game)
        with lock:
            if "host" not in held:
                held["host"] = EvilHost(game)
            host = held["host"]
            host.resume(history)
            reply = host.consider(guess)
        return {"hint": format_hint(game, reply.hint), "exact": reply.exact,
                "sizes": {format_hint(game, h): n for h, n in reply.sizes.items()},
                "worst": None if reply.worst is None else {format_hint(game, h): w for h, w in reply.worst.items()}}
