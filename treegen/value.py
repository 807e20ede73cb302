"""The value of the game against a setter who randomises: mixed strategies by column generation.

The setter draws the secret from a distribution p; the guesser draws a tree from a distribution q. The
value is v = max_p min_T E_p[guesses of T] = min_q max_s E_q[guesses to solve s] (von Neumann: the game is
finite once trees are, and a tree never needs more guesses than there are codes).

Symmetry. Relabelling positions and symbols maps trees to trees and orbits of secrets to themselves, so
averaging an optimal p over the group gives an optimal p constant on orbits, and averaging q likewise gives
a guesser who plays a tree under a random relabelling, which costs each secret its tree's orbit average.
Hence the game reduces to the orbits (``valuefile.game_orbits``): the setter has one probability per
orbit, and a tree T is summarised by a[o](T) = (total of T over orbit o) / |o|.

Column generation. The restricted master problem over the trees found so far (the columns) is the LP

    minimise z  over q >= 0, z
    s.t.  sum_t q_t a[o](t) <= z   for each orbit o   (no orbit costs more than z on average: the guesser's bound)
          sum_t q_t = 1                                 (q is a distribution)

solved with OR-Tools' GLOP. Its duals on the orbit rows are the setter's probabilities pi. The pricing
problem is the guesser's best response to pi: the tree of least weighted total with per-secret weights
pi[o] / |o|, an exact search (``weighted.WeightedSolver``; when the weights are equal it is the ordinary
least total, ``exact.solve_game``). If that tree costs less than z against pi it joins the columns;
otherwise z is the value.

Exactness. GLOP works in floating point, so when it sees no improving column the restricted game is solved
again exactly over fractions (:func:`solve_matrix_game`, a simplex with Bland's rule), and the best
response to the exact pi is searched with integer weights. Then

    lower bound L = min over ALL trees of E_pi[guesses] (the exact search) <= v,
    upper bound U = max over orbits of the mixture's average (exact fractions) >= v,

and v is proved when L = U. If L < U the best response is a new column and the loop goes on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import __version__
from .valuefile import Mixed, ValueFile, game_orbits, orbit_labels, orbit_totals
from .rules import Game, TreegenError, refuse_list_game
from .tree import Node
from .weighted import MAX_TOTAL_WEIGHT, WeightedSolver

FLOAT_SCALE = 1 << 40  # weights of the floating-point pricing searches: pi[o] / |o| * FLOAT_SCALE, rounded
TOLERANCE = 1e-9  # GLOP's answers are trusted to this much only as a guide; proofs use fractions


class ValueSearchError(TreegenError):
    """The value computation cannot go on (too many columns, weights too fine for the exact search)."""


# -- the exact matrix game -------------------------------------------------------------------------


def solve_matrix_game(a: Sequence[Sequence[Fraction]]) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """Value, row player's (maximiser's) and column player's (minimiser's) optimal strategies of the
    matrix game ``a[row][col]`` (all entries positive), in exact arithmetic.

    With y_c = q_c / v the minimiser's problem is the LP: maximise sum y s.t. sum_c a[r][c] y_c <= 1 for
    every row r, y >= 0, whose optimum is 1 / v (the origin is feasible: a slack basis starts the
    simplex). Its dual, minimise sum x s.t. sum_r a[r][c] x_r >= 1, gives the maximiser's p = x * v; x is
    read from the final tableau's slack columns. Bland's rule (lowest index enters and leaves) cannot
    cycle, so the simplex ends.
    """
    m, n = len(a), len(a[0])
    if any(x <= 0 for row in a for x in row):
        raise ValueError("solve_matrix_game needs positive entries")
    # Tableau rows: [a | I | 1]; basis[i] is the variable of row i (slacks n..n+m-1 at first).
    tab = [[Fraction(x) for x in a[i]] + [Fraction(int(i == j)) for j in range(m)] + [Fraction(1)] for i in range(m)]
    basis = [n + i for i in range(m)]
    cost = [Fraction(1)] * n + [Fraction(0)] * m  # objective coefficients (maximise)
    while True:
        # reduced cost of variable j: c_j - sum_i c_basis[i] * tab[i][j]
        red = [cost[j] - sum(cost[basis[i]] * tab[i][j] for i in range(m)) for j in range(n + m)]
        enter = next((j for j in range(n + m) if red[j] > 0), None)
        if enter is None:
            break
        rows = [i for i in range(m) if tab[i][enter] > 0]
        # a bounded LP (the entries are positive, so sum y <= 1 / min entry): some row limits the step
        best = min(tab[i][-1] / tab[i][enter] for i in rows)
        leave = min((i for i in rows if tab[i][-1] / tab[i][enter] == best), key=lambda i: basis[i])
        piv = tab[leave][enter]
        tab[leave] = [x / piv for x in tab[leave]]
        for i in range(m):
            if i != leave and tab[i][enter] != 0:
                f = tab[i][enter]
                tab[i] = [x - f * y for x, y in zip(tab[i], tab[leave])]
        basis[leave] = enter
    y = [Fraction(0)] * n
    for i, j in enumerate(basis):
        if j < n:
            y[j] = tab[i][-1]
    total = sum(y)
    v = 1 / total
    x = [-red[n + r] for r in range(m)]  # dual of row r: minus the reduced cost of its slack
    p = [xi * v for xi in x]
    q = [yi * v for yi in y]
    # The optimality conditions, checked exactly (a failure is a bug here, not a property of the game).
    assert sum(p) == 1 and sum(q) == 1 and min(p) >= 0 and min(q) >= 0
    assert all(sum(p[r] * a[r][c] for r in range(m)) >= v for c in range(n))
    assert all(sum(q[c] * a[r][c] for c in range(n)) <= v for r in range(m))
    return v, p, q


def glop_restricted(a: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """The restricted master LP (see the module docstring) with GLOP: (z, setter's pi, guesser's q)."""
    from ortools.linear_solver import pywraplp

    m, n = len(a), len(a[0])
    solver = pywraplp.Solver.CreateSolver("GLOP")
    q = [solver.NumVar(0.0, solver.infinity(), f"q{t}") for t in range(n)]
    z = solver.NumVar(-solver.infinity(), solver.infinity(), "z")
    # Orbit o's row: the mixture's average over orbit o stays at most z.
    rows = [solver.Add(sum(a[o][t] * q[t] for t in range(n)) - z <= 0) for o in range(m)]
    solver.Add(sum(q) == 1)  # q is a distribution over the columns
    solver.Minimize(z)
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:
        raise RuntimeError(f"GLOP did not solve the restricted LP (status {status})")
    # For a minimisation, the dual of a <= row is <= 0; its magnitude is the setter's weight on the orbit.
    pi = [max(0.0, -r.dual_value()) for r in rows]
    s = sum(pi) or 1.0
    return z.solution_value(), [x / s for x in pi], [v.solution_value() for v in q]


# -- best responses ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """A pure strategy of the guesser: a tree and its total over each orbit."""

    root: Node
    totals: tuple[int, ...]


def _orbit_labels(game: Game) -> tuple[np.ndarray, list[int]]:
    """Orbit index of every code as an array (to index weights), and the orbit sizes."""
    labels, sizes = orbit_labels(game)
    return np.array(labels, dtype=np.int64), sizes


def best_response(game: Game, weights: np.ndarray, workers: int = 1,
                  beta: int | None = None) -> tuple[int, Node | None, int]:
    """(weighted total, tree, search nodes) of the best response to integer per-code ``weights``.

    Contract (the search's): with ``beta``, the total is exact, with its tree, when it is below ``beta``;
    otherwise it is a lower bound >= ``beta`` and the tree is None (no tree costs less than ``beta``).
    Without ``beta`` it is exact. Equal weights are the ordinary least total, searched by the main solver
    (faster, and parallel; always exact).
    """
    if (weights == weights[0]).all():
        from .exact import solve_game

        tree = solve_game(game, "average", workers=workers)
        return int(weights[0]) * tree.stats.total, tree.root, int(tree.provenance["nodes"])
    solver = WeightedSolver(game, weights)
    secrets = np.arange(game.size, dtype=np.int32)
    cost = solver.solve(secrets) if beta is None else solver.solve(secrets, beta)
    if beta is not None and cost >= beta:
        return cost, None, solver.nodes
    return cost, Node.from_wire(game, solver.tree(secrets)), solver.nodes


def exact_weights(pi: Sequence[Fraction], labels: np.ndarray, sizes: Sequence[int]) -> tuple[np.ndarray, int] | None:
    """Integer weights proportional to pi[o] / |o| per code, and their scale D (weight = D * pi[o] / |o|);
    None when D is too large for the search's int64 costs."""
    per = [p / s for p, s in zip(pi, sizes)]
    scale = math.lcm(*(x.denominator for x in per))
    if scale > MAX_TOTAL_WEIGHT:
        return None
    w = np.array([int(x * scale) for x in per], dtype=np.int64)[labels]
    return w, scale


# -- the loop ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameValue:
    game: Game
    value: Fraction
    orbits: tuple[tuple[int, int], ...]
    setter: tuple[Fraction, ...]
    guesser: tuple[tuple[Fraction, Column], ...]
    lower: Fraction  # the exact best response's value against ``setter``
    uniform: Fraction  # the ordinary optimum: the value of the uniform setter
    iterations: int
    columns: int
    nodes: int  # search nodes of every best response

    @property
    def proved(self) -> bool:
        return self.lower == self.value

    def to_file(self) -> ValueFile:
        return ValueFile(
            self.game, self.value, self.orbits, self.setter,
            tuple(Mixed(w, c.totals, c.root) for w, c in self.guesser),
            {"method": "column generation: GLOP restricted LP, exact re-solve over fractions, "
                       "exact weighted best response",
             "lower_bound": f"{self.lower.numerator}/{self.lower.denominator}",
             "proved": self.proved, "uniform": f"{self.uniform.numerator}/{self.uniform.denominator}", "iterations": self.iterations, "columns": self.columns,
             "nodes": self.nodes, "treegen": __version__},
        )


def game_value(game: Game, workers: int = 1, max_columns: int = 200,
               progress: Callable[[int, float, float, str], None] | None = None) -> GameValue:
    """The value of ``game`` with both optimal strategies (see the module docstring).

    ``progress(iteration, lower, upper, note)`` reports the bounds as floats after each pricing step.
    Stops with :class:`ValueSearchError` after ``max_columns`` columns.
    """
    refuse_list_game(game, "the value of the game")
    labels, sizes = _orbit_labels(game)
    orbits = tuple(game_orbits(game))
    m = len(sizes)
    columns: list[Column] = []
    nodes = 0
    uniform: list = []  # the ordinary optimum, searched once: (cost per unit weight, tree)

    def respond(weights: np.ndarray, beta: int | None = None) -> tuple[int, Node | None, int]:
        if (weights == weights[0]).all() and uniform:
            return int(weights[0]) * uniform[0], uniform[1], 0
        return best_response(game, weights, workers, beta)

    def add(root: Node) -> None:
        columns.append(Column(root, tuple(orbit_totals(game, root))))

    def averages() -> list[list[Fraction]]:
        return [[Fraction(c.totals[o], sizes[o]) for c in columns] for o in range(m)]

    # Start from the best response to the uniform setter: the ordinary optimal-average tree.
    cost, root, n = best_response(game, np.ones(game.size, dtype=np.int64), workers)
    uniform[:] = [cost, root]
    nodes += n
    add(root)
    iteration = 0
    shown = cost / game.size  # the best lower bound seen, for progress (float pricing: a guide only)
    while True:
        iteration += 1
        a = averages()
        z, pi_float, _ = glop_restricted([[float(x) for x in row] for row in a])
        weights = np.rint(np.array(pi_float)[labels] / np.array(sizes, dtype=float)[labels] * FLOAT_SCALE)
        weights = weights.astype(np.int64)
        # Only a tree below z against pi matters here, so the search gets beta = z (rounded down a
        # little): below it the answer is exact, with its tree; else it is refuted by bounds, which is cheap.
        total_weight = int(weights.sum())
        beta = math.floor((z - TOLERANCE * max(1.0, z)) * total_weight)
        cost, root, n = respond(weights, beta)
        nodes += n
        improving = root is not None and cost < beta
        if improving:
            shown = max(shown, cost / total_weight)  # E[guesses] of a tree against pi as rounded: a guide
        if progress is not None:
            progress(iteration, shown, z, f"{len(columns)} trees")
        totals = tuple(orbit_totals(game, root)) if improving else None
        if improving and all(c.totals != totals for c in columns):
            columns.append(Column(root, totals))  # an improving tree: pi no longer holds the guesser to z
        else:
            # GLOP sees no improving tree: solve the restricted game exactly and price the exact pi.
            v, p, q = solve_matrix_game(a)
            if abs(float(v) - z) > 1e-6 * max(1.0, z):
                raise RuntimeError(f"GLOP's restricted value {z} and the exact one {float(v)} disagree")
            exact = exact_weights(p, labels, sizes)
            if exact is None:
                raise ValueSearchError("the setter's exact probabilities have denominators too large for the exact "
                                       "search's integer weights")
            w, scale = exact
            # The restricted columns already hold the best response to p to at most v (p is optimal for the
            # restricted game), so the question is only whether some tree costs less than v * scale. With
            # beta = ceil(v * scale): an exact cost below beta is below v * scale (an improving tree); a
            # bound >= beta proves that no tree costs less than v * scale, so the least is exactly v.
            need = math.ceil(v * scale)
            cost, root, n = respond(w, need)
            nodes += n
            if root is None or cost >= need:
                if progress is not None:
                    progress(iteration, float(v), float(v), f"{len(columns)} trees, exact check: proved")
                guesser = tuple((q[t], columns[t]) for t in range(len(columns)) if q[t] > 0)
                return GameValue(game, v, orbits, tuple(p), guesser, v, Fraction(uniform[0], game.size), iteration,
                                 len(columns), nodes)
            shown = max(shown, cost / scale)  # the exact best response to p: a true lower bound
            if progress is not None:
                progress(iteration, shown, float(v), f"{len(columns)} trees, exact check")
            add(root)
        if len(columns) > max_columns:
            raise ValueSearchError(f"no convergence within {max_columns} trees")


def recheck(vf: ValueFile, workers: int = 1) -> Fraction:
    """The exact best response's value against the file's setter: the value file's lower bound is true
    when this equals its value."""
    labels, sizes = _orbit_labels(vf.game)
    exact = exact_weights(list(vf.setter), labels, sizes)
    if exact is None:
        raise ValueSearchError("the setter's probabilities have denominators too large for the exact search")
    w, scale = exact
    cost, _, _ = best_response(vf.game, w, workers)
    return Fraction(cost, scale)
