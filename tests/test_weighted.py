"""The weighted search against the ordinary one (equal weights) and a naive recursion (any weights)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from treegen.rules import resolve_game
from treegen.exact.contracts import INF
from treegen.exact.solver import Solver
from treegen.symmetry import class_of
from treegen.weighted import WeightedSolver, WeightError, level_table


def naive_weighted(game, weights, split) -> int:
    """Least weighted total by trying every guess at every set, no bounds (tiny games only)."""
    codes = game.codes

    @cache
    def cost(secrets: frozenset) -> int:
        if len(secrets) == 1:
            return weights[next(iter(secrets))]
        here = sum(weights[s] for s in secrets)
        best = None
        for g in range(game.size):
            classes = split(codes, g, secrets)
            if classes is None:
                continue  # learns nothing: never part of a least tree
            c = here + sum(cost(frozenset(v)) for v in classes)
            best = c if best is None or c < best else best
        return best

    return cost(frozenset(range(game.size)))


def orbit_weights(game, rng) -> np.ndarray:
    """Random weights, constant on the orbits of the game's symmetry group."""
    rep = class_of(game)
    per = {int(r): int(rng.integers(0, 50)) for r in np.unique(rep)}
    return np.array([per[int(r)] for r in rep], dtype=np.int64)


def test_level_table_fills_level_by_level():
    assert list(level_table(3, 14)) == [0, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4]


@pytest.mark.parametrize("name", ["mm:2:3", "mm:3:3", "bc:3:4", "mm:3:4", "bc:3:5", "mm:4:4"])
def test_equal_weights_give_the_ordinary_least_total(name):
    game = resolve_game(name)
    secrets = np.arange(game.size, dtype=np.int32)
    expected = Solver(game).solve(secrets, INF)
    for w in (1, 7):
        solver = WeightedSolver(game, np.full(game.size, w, dtype=np.int64))
        assert solver.solve(secrets) == w * expected


@pytest.mark.parametrize("name", ["mm:2:2", "mm:2:3", "mm:3:2", "bc:3:4", "mm:3:3"])
def test_orbit_weights_match_the_naive_recursion(name, naive_split):
    game = resolve_game(name)
    rng = np.random.default_rng(len(name))
    secrets = np.arange(game.size, dtype=np.int32)
    for _ in range(3):
        w = orbit_weights(game, rng)
        expected = naive_weighted(game, [int(x) for x in w], naive_split)
        for symmetry in (True, False):
            for two_phase in (True, False):
                solver = WeightedSolver(game, w, symmetry=symmetry, two_phase=two_phase)
                assert solver.solve(secrets) == expected


def test_any_weights_without_symmetry_match_the_naive_recursion(naive_split):
    game = resolve_game("mm:2:3")
    rng = np.random.default_rng(5)
    secrets = np.arange(game.size, dtype=np.int32)
    for _ in range(5):
        w = rng.integers(0, 30, size=game.size).astype(np.int64)
        solver = WeightedSolver(game, w, symmetry=False)
        assert solver.solve(secrets) == naive_weighted(game, [int(x) for x in w], naive_split)


def test_the_tree_costs_what_the_search_says(naive):
    game = resolve_game("mm:3:4")
    w = orbit_weights(game, np.random.default_rng(3))
    solver = WeightedSolver(game, w)
    secrets = np.arange(game.size, dtype=np.int32)
    value = solver.solve(secrets)
    total = 0
    stack = [(solver.tree(secrets), list(range(game.size)), 1)]
    while stack:
        (guess, children), left, depth = stack.pop()
        kids = dict(children)
        groups: dict = {}
        for s in left:
            if s == guess:
                total += int(w[s]) * depth
            else:
                groups.setdefault(naive(game.codes[guess], game.codes[s]), []).append(s)
        assert len(groups) == len(kids)
        for s_list in groups.values():
            hint = next(h for h in kids if any(game.hint(*naive(game.codes[guess], game.codes[s])) == h for s in s_list))
            stack.append((kids[hint], s_list, depth + 1))
    assert total == value


def test_weights_that_break_the_symmetry_are_refused():
    game = resolve_game("mm:2:3")
    w = np.ones(game.size, dtype=np.int64)
    w[1] = 2  # one code of an orbit heavier than the others
    with pytest.raises(WeightError, match="constant on the game's orbits"):
        WeightedSolver(game, w)
    with pytest.raises(WeightError, match="non-negative"):
        WeightedSolver(game, -np.ones(game.size, dtype=np.int64))
    with pytest.raises(WeightError, match="one weight per code"):
        WeightedSolver(game, np.ones(3, dtype=np.int64))
