"""The tasks that executors run, each searched by the process's own solver from a fresh memo: one subproblem
(``run_task``); and for the split schedule, a coordinator's later wave's scan (``run_open``) and its guesses
(``run_guesses``).

A module of its own so that the executors (the Ray executor names these functions) and the coordinator
(which submits them) both import it, and neither imports the other.
"""

from __future__ import annotations

import dataclasses
import time
from functools import cache

import numpy as np

from ..rules import Code, Game
from .contracts import INF, GuessOutcomes, OpenGuesses, Outcome
from .options import Options
from .search_kernels import split_classes
from .solver import Solver
from .tables import wire_node


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


def run_open(game: Game, cap: int | None, options: Options, hard: bool, extra: int, secrets: np.ndarray,
             scan_beta: int, beta: int, history: tuple[Code, ...], depth: int, start: int,
             end: int | None = None) -> OpenGuesses:
    """A coordinator's later wave's scan, on an executor: the guesses of its set's scan (under
    ``scan_beta``, as the coordinator's own: the same guesses in the same order) from index ``start`` (to
    ``end``, None: to the last) still open under ``beta`` (Solver.next_open, from a fresh memo)."""
    clock = time.thread_time()
    solver = _worker_solver(game, cap, options, hard, extra)
    solver.reset()
    scan = solver.scan(secrets, scan_beta, history, depth)
    if end is not None:
        scan = dataclasses.replace(scan, guesses=scan.guesses[:end], bounds=scan.bounds[:end])
    found = []
    while (step := solver.next_open(scan, start, beta)) is not None:
        found.append((step.index, step.guess, step.total, tuple(int(h) for h in step.big),
                      tuple(int(b) for b in step.base)))
        start = step.index + 1
    counts = solver.counts
    solver.reset()
    return OpenGuesses(tuple(found), min(scan.least, INF), counts.nodes + counts.bound_scans,
                       time.thread_time() - clock)


def run_guesses(game: Game, cap: int | None, options: Options, hard: bool, extra: int, secrets: np.ndarray,
                guesses: list, beta: int, history: tuple[Code, ...], depth: int, budget: int) -> GuessOutcomes:
    """Guesses of one set, on an executor, each as a coordinator's chain would search it (its big classes in
    turn, each under its share of the slack first with ``shares``), one after another with one memo, from a
    fresh one. ``guesses``: (guess, total, big hints, their bounds) as ``run_open`` gives them. Stops after
    the first guess that brings the work done to ``budget`` nodes or more (a count, not a time, so that
    what a task takes never depends on timing): the outcomes of the guesses taken, in order."""
    solver = _worker_solver(game, cap, options, hard, extra)
    solver.reset()
    t = solver.tables
    outcomes = []
    done = 0
    for guess, total, big, base in guesses:
        clock = time.thread_time()
        members, starts, _ = split_classes(t.table, guess, secrets, t.nh, t.win)
        classes = [(h, members[starts[h] : starts[h + 1]], b) for h, b in zip(big, base)]
        hist = history + (guess,)
        value = solver.guess_cost(classes, total, beta, hist, depth - 1, solver.options.shares)
        exact = value < beta
        tree = wire_node(t, guess, secrets, lambda cls, hist=hist: solver.tree(cls, depth - 1, hist)) if exact else None
        counts = solver.take_counts()
        nodes = counts.nodes + counts.bound_scans
        seconds = time.thread_time() - clock
        outcomes.append(Outcome(value, exact, nodes, tree, seconds, seconds))
        done += nodes
        if done >= budget:
            break
    solver.reset()
    return GuessOutcomes(tuple(outcomes))
