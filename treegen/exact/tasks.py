"""The task that executors run: one subproblem, searched by the process's own solver from a fresh memo.

A module of its own so that the executors (the Ray executor names this function) and the coordinator
(which submits it) both import it, and neither imports the other.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from ..rules import Code, Game
from .contracts import Outcome
from .options import Options
from .solver import Solver


@cache
def _worker_solver(game: Game, cap: int | None, options: Options, hard: bool, extra: int) -> Solver:
    return Solver(game, cap, options, hard, extra)


def run_task(game: Game, cap: int | None, options: Options, hard: bool, extra: int, secrets: np.ndarray, beta: int,
             history: tuple[Code, ...], depth: int) -> Outcome:
    """One subproblem, on an executor: solve it from a fresh memo and return its value and tree."""
    start = time.thread_time()
    solver = _worker_solver(game, cap, options, hard, extra)
    solver.reset()
    value = solver.solve(secrets, beta, history, depth)
    exact = value < beta
    tree = solver.tree(secrets, depth, history) if exact else None
    counts = solver.counts
    solver.reset()
    seconds = time.thread_time() - start
    return Outcome(value, exact, counts.nodes + counts.bound_scans, tree, seconds, seconds)
