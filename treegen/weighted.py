"""Exact search with weighted secrets: the least weighted total of a strategy tree.

A secret s weighs w[s] (a non-negative int) and a tree T costs sum over s of w[s] * guesses_T(s). With all
weights equal this is the ordinary least total (``treegen.exact``); with unequal ones it is the guesser's
best response to a setter who draws secrets with probabilities proportional to w (``treegen.value``).

For a set S and a guess g that splits S into classes S_h,

    cost(S, g) = W(S) + sum over non-winning hints h of cost(S_h),   W(S) = sum of w over S,

because every secret of S pays for g. Lower bounds are the kernels' weighted counting bound per class
(heaviest secrets at the shallowest levels; see ``search_kernels.weighted_bounds``) and, one step deeper, the
least such lookahead over every guess.

Symmetry: a guess is replaced by its class under the symmetries that fix the history and the secrets
(``treegen.symmetry``). Those are elements of the game's whole group, so the reduction is valid exactly
when the weights are constant on the group's orbits (the weights of ``treegen.value`` are); otherwise turn
``symmetry`` off. ``WeightedSolver`` checks this at construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .rules import Code, Game, TreegenError
from .exact import search_kernels
from .exact.tables import search_tables, small_tree, wire_node
from .tree import Wire

NO_BOUND = int(search_kernels.NO_BOUND)

# A cost is at most (total weight) * (deepest level used). Trees worth considering are about ten deep
# in these games, so total weight <= 2**52 keeps costs, and sums of a few bounds, below 2**62 (NO_BOUND)
# for any tree up to 2**10 deep, and far from int64 overflow.
MAX_TOTAL_WEIGHT = 1 << 52


class WeightError(TreegenError):
    """Weights that the weighted search cannot use (negative, too large, or not constant on orbits)."""


def level_table(b: int, n: int) -> np.ndarray:
    """``level_of[k]`` (k = 1..n): the level of a tree's k-th slot when slots fill level by level and
    level j has at most b**(j-1) of them (``level_of[0]`` is unused)."""
    level_of = np.zeros(n + 1, dtype=np.int64)
    k, level, room = 1, 1, 1
    while k <= n:
        for _ in range(room):
            if k > n:
                break
            level_of[k] = level
            k += 1
        level += 1
        room = min(room * b, n + 1)
    level_of.flags.writeable = False
    return level_of


@dataclass
class WeightedSolver:
    """Branch and bound for the least weighted total, uncapped. Not thread-safe; one per weighting.

    ``weights``: an int per code of the game (only the secrets searched matter). ``symmetry``: one guess
    per class of equivalent guesses (needs weights constant on the group's orbits). ``two_phase``: raise
    each big class to its least lookahead bound before searching any class in depth.
    """

    game: Game
    weights: np.ndarray
    symmetry: bool = True
    two_phase: bool = True
    nodes: int = 0
    _memo: dict = field(default_factory=dict, repr=False)  # set bytes -> (value, best guess or -1)

    def __post_init__(self) -> None:
        w = np.ascontiguousarray(self.weights, dtype=np.int64)
        if w.shape != (self.game.size,):
            raise WeightError(f"need one weight per code ({self.game.size}), got shape {w.shape}")
        if (w < 0).any():
            raise WeightError("weights must be non-negative")
        if int(w.sum()) > MAX_TOTAL_WEIGHT:
            raise WeightError(f"the weights sum to {int(w.sum())}, more than the search handles (2**52)")
        if self.symmetry:
            from .symmetry import class_of

            rep = class_of(self.game)
            if (w != w[rep]).any():
                raise WeightError("the symmetry reduction needs weights constant on the game's orbits")
        w.flags.writeable = False
        self.weights = w
        t = self.tables = search_tables(self.game)
        self.table, self.hints, self.nh, self.win = t.table, t.hints, t.nh, t.win
        self.level_of = level_table(t.bounds.b, self.game.size)
        self._all = np.arange(self.game.size, dtype=np.int32)

    # -- bounds ------------------------------------------------------------------------------------------
    def _order(self, secrets: np.ndarray) -> np.ndarray:
        """Positions into ``secrets``, heaviest first (a stable sort keeps lower codes first on ties)."""
        return np.argsort(-self.weights[secrets], kind="stable")

    def counting_bound(self, secrets: np.ndarray) -> int:
        """The weighted counting bound of a set (exact for one or two secrets)."""
        w = np.sort(self.weights[secrets])[::-1]
        return int((w * self.level_of[1 : secrets.shape[0] + 1]).sum())

    def least_bound(self, secrets: np.ndarray) -> int:
        """The least one-step lookahead bound over every guess (a lower bound on the set's cost)."""
        return int(search_kernels.weighted_least_bound(self.table, secrets, self._order(secrets), self.weights, self.nh,
                                                self.win, self.level_of))

    def _guesses(self, secrets: np.ndarray, history: tuple[Code, ...]) -> np.ndarray:
        if not self.symmetry:
            return self._all
        from .symmetry import canonical_guesses

        return canonical_guesses(self.game, history, secrets)

    def _split(self, g: int, secrets: np.ndarray):
        members, starts, _ = search_kernels.split_classes(self.table, g, secrets, self.nh, self.win)
        return [members[starts[h] : starts[h + 1]] for h in range(self.nh)
                if h != self.win and starts[h + 1] - starts[h] > 0]

    # -- the search --------------------------------------------------------------------------------------
    def solve(self, secrets: np.ndarray, beta: int = NO_BOUND, history: tuple[Code, ...] = ()) -> int:
        """The least weighted total of a tree for ``secrets`` (sorted code ints).

        Contract: exact when below ``beta``, else a lower bound >= ``beta``. Exact results are memoised
        with their best guess, so :meth:`tree` rebuilds the tree; bounds are memoised as bounds.
        """
        n = secrets.shape[0]
        if n <= 2:
            return self.counting_bound(secrets)  # exact: the heavier first, then the other
        key = secrets.tobytes()
        floor = 0
        known = self._memo.get(key)
        if known is not None:
            value, guess = known
            if guess >= 0 or value >= beta:
                return value
            floor = value
        self.nodes += 1
        guesses = self._guesses(secrets, history)
        order = self._order(secrets)
        bounds = search_kernels.weighted_bounds(self.table, guesses, secrets, order, self.weights, self.nh, self.win,
                                         self.level_of)
        # Best first: the lowest bound, then a guess that may win at once, then the lowest code.
        inside = np.isin(guesses, secrets)
        rank = np.lexsort((guesses, ~inside, bounds))
        least = NO_BOUND  # the least bound >= beta among refuted guesses
        best = -1
        for k in rank:
            bound = int(bounds[k])
            if bound >= beta:
                least = min(least, bound)
                break  # sorted: every later guess is refuted by its bound too
            g = int(guesses[k])
            classes = [c for c in self._split(g, secrets) if c.shape[0] >= 3]
            classes.sort(key=lambda c: -int(self.weights[c].sum()))  # heaviest class first
            base = {id(c): self.counting_bound(c) for c in classes}
            total = bound
            if self.two_phase:
                # Raise each big class to its least lookahead bound (memoised bound if better): cheap,
                # and often enough to refute g before any class is searched in depth.
                for c in classes:
                    raised = max(self.least_bound(c), self._known_bound(c))
                    total += raised - base[id(c)]
                    base[id(c)] = raised
                    if total >= beta:
                        break
            if total < beta:
                for c in classes:
                    # The class may cost at most beta - (total - base) for g to stay below beta.
                    value = self.solve(c, beta - (total - base[id(c)]), history + (g,))
                    total += value - base[id(c)]
                    if total >= beta:
                        break
            if total < beta:
                beta, best = total, g
            else:
                least = min(least, total)
        if best >= 0:
            self._memo[key] = (beta, best)
            return beta
        bound = max(least, floor)
        self._memo[key] = (bound, -1)
        return bound

    def _known_bound(self, secrets: np.ndarray) -> int:
        known = self._memo.get(secrets.tobytes())
        return known[0] if known is not None else 0

    def tree(self, secrets: np.ndarray, history: tuple[Code, ...] = ()) -> Wire:
        """The optimal tree of a set (solved first if the memo has no exact entry), in wire form."""
        if secrets.shape[0] <= 2:
            if secrets.shape[0] == 2 and self.weights[secrets[1]] > self.weights[secrets[0]]:
                secrets = secrets[::-1].copy()
            return small_tree(self.tables, secrets)
        known = self._memo.get(secrets.tobytes())
        if known is None or known[1] < 0:
            self.solve(secrets, NO_BOUND, history)
            known = self._memo[secrets.tobytes()]
        g = known[1]
        return wire_node(self.tables, g, secrets, lambda cls: self.tree(cls, history + (g,)))
