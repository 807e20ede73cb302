"""Finding the least static set: the sizes tried, the symmetry cases decided in order by a method (the
depth-first search of :mod:`.dfs` or CP-SAT's model of :mod:`.cpsat`), and what each case gave."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules import Game, format_code
from .cases import Bounds, Case, CaseRecord, StaticError, _need, greedy_set, hint_count, symmetry_cases
from .cpsat import _pad, _solve_case, solve_by_subcases
from .dfs import _search_case


# -- the search ----------------------------------------------------------------------------------


@dataclass
class StaticResult:
    """What :func:`find_static` established.

    ``guesses`` is the best static set found (code ints, ascending) or None; ``lower_bound`` is proved:
    no static set has fewer guesses. ``proved`` means the search finished: without a requested size,
    ``lower_bound == len(guesses)``; with one, the size was either found or refuted (``guesses`` None and
    ``lower_bound`` > size). ``timed_out`` means the search stopped first: the time limit, or CP-SAT
    out of memory or giving up (``stopped`` says which). ``cases`` records every symmetry case looked at.
    """

    game: Game
    size: int | None
    guesses: tuple[int, ...] | None
    lower_bound: int
    proved: bool
    timed_out: bool
    bounds: Bounds
    iterations: int = 0
    constraints: int = 0
    cases_solved: int = 0
    cases_bounded: int = 0
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)
    stopped: str = "time limit"  # why a search with timed_out set stopped
    method: str = "dfs"
    cases: list[CaseRecord] = field(default_factory=list)
    nodes: int = 0
    subcases: int = 0


# progress(lower, upper, note, cases_done, cases_total): upper None while no set is known; the case counts
# are those of the size being decided.
Progress = Callable[[int, int | None, str, int, int], None]
METHODS = ("dfs", "cp-sat")


def find_static(
    game: Game,
    size: int | None = None,
    *,
    method: str = "dfs",
    workers: int = 2,
    seed: int = 0,
    time_limit: float | None = None,
    memory_mb: int | None = None,
    symmetry: bool = True,
    use_bounds: bool = True,
    progress: Progress | None = None,
) -> StaticResult:
    """Find a least static set of ``game`` and prove that none is smaller (``size`` None), or decide
    whether a static set of exactly ``size`` guesses exists.

    ``method`` decides each symmetry case: "dfs" (the compiled depth-first search of
    ``treegen.static.dfs``, with a third level of symmetry cases) or "cp-sat" (the lazy clause loop;
    ``memory_mb`` caps each CP-SAT call's memory). Both see the same cases and the same counting bounds.
    ``progress(lower, upper, note, done, total)`` is called as the search moves.
    ``symmetry`` and ``use_bounds`` switch the levers off for measurements; the answer is the same.
    """
    import numpy as np

    from ..rules import refuse_list_game

    refuse_list_game(game, "the static game")

    from ..feedback import feedback_table

    if method not in METHODS:
        raise StaticError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    if size is not None and not 1 <= size <= game.size:
        raise StaticError(f"--size must be between 1 and {game.size} (the number of codes), not {size}")
    if workers < 1:
        raise StaticError(f"--workers must be at least 1, not {workers}")
    if time_limit is not None and time_limit <= 0:
        raise StaticError(f"--time-limit must be a positive number of seconds, not {time_limit}")
    if memory_mb is not None and memory_mb < 64:
        raise StaticError(f"--memory must be at least 64 (MB), not {memory_mb}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    table = feedback_table(game)
    h = hint_count(game)
    n = game.size

    # k = 1 directly: a single code is a static set iff its hints differ on every secret.
    singles = [c for c in range(n) if np.unique(table[c]).size == n]
    if symmetry:
        cases = symmetry_cases(game, table, 2)
    else:
        cases = [Case((), np.arange(n), 1)]
    plain = _need(n, h)
    lower = 1
    if use_bounds:
        lower = max(plain, min(c.bound for c in cases)) if not singles else 1
    bounds = Bounds(h, plain, len(cases), min(c.bound for c in cases))
    result = StaticResult(game, size, None, lower, False, False, bounds, method=method)
    state = {"done": 0}

    def say(note: str) -> None:
        result.log.append(note)
        if progress is not None:
            up = None if result.guesses is None else len(result.guesses)
            progress(result.lower_bound, up, note, state["done"], len(cases))

    say(f"counting bounds: at least {lower} ({len(cases)} symmetry cases)")
    if singles:
        result.guesses, result.lower_bound, result.proved = (singles[0],), 1, True
        if size is not None and size != 1:
            result.guesses = _pad(singles[0], size, n)
        result.seconds = time.perf_counter() - start
        return result
    if size is None:
        greedy = sorted(greedy_set(game))
        result.guesses = tuple(greedy)
        say(f"greedy set of {len(greedy)}")
        sizes = range(max(lower, 2), len(greedy))
    else:
        if size < lower:
            result.proved = True
            result.seconds = time.perf_counter() - start
            say(f"no static set of {size}: the counting bounds need {lower}")
            return result
        sizes = range(size, size + 1)

    pairs: list[tuple[int, int]] = []  # every pair clause found so far (valid for any size and case)
    for k in sizes:
        found = None
        state["done"] = 0
        for number, case in enumerate(cases, 1):
            named = tuple(format_code(game, c) for c in case.fixed)
            if use_bounds and case.bound > k:
                result.cases_bounded += 1
                result.cases.append(CaseRecord(k, named, case.bound, "counting"))
                state["done"] = number
                continue
            record = _decide(game, table, k, case, method, h, workers, seed, deadline, result, say, pairs,
                             symmetry, use_bounds, memory_mb)
            outcome = record.outcome
            result.cases.append(record)
            result.nodes += record.nodes
            result.subcases += record.subcases
            state["done"] = number
            if outcome is None:  # time limit
                result.timed_out = True
                result.seconds = time.perf_counter() - start
                say(f"{result.stopped} at k={k}, case {number} of {len(cases)}")
                return result
            result.cases_solved += 1
            if outcome is not False:
                found = outcome
                break
            say(f"k={k}: case {number}/{len(cases)} ({' '.join(named) or 'all'}) {record.status}"
                f" in {record.seconds:.1f} s")
        if found is not None:
            result.guesses = tuple(sorted(found))
            result.proved = True
            if size is None:
                result.lower_bound = k
            say(f"found a static set of {k}")
            break
        # No set of size k: every case is infeasible or closed by counting.
        result.lower_bound = max(result.lower_bound, k + 1)
        say(f"no static set of {k}")
        if size is not None:
            result.guesses = None
            result.proved = True
    else:
        if size is None:
            result.proved = True  # the greedy set meets the lower bound
    result.seconds = time.perf_counter() - start
    return result


def _decide(game, table, k, case, method, h, workers, seed, deadline, result, say, pairs, symmetry, use_bounds,
            memory_mb):
    """Decide one case with ``method``: a CaseRecord whose ``outcome`` attribute is the set (list of
    ints), False (no set in this case) or None (stopped)."""
    record = CaseRecord(k, tuple(format_code(game, c) for c in case.fixed), case.bound, "")
    began = time.perf_counter()
    if deadline is not None and began >= deadline:
        outcome = None
    elif method == "dfs":
        outcome = _search_case(game, table, k, case, h, workers, deadline, symmetry, record)
    elif symmetry and case.fixed and k - len(case.fixed) >= 3:
        from ..symmetry import class_of

        orbits = class_of(game, case.fixed)
        outcome = solve_by_subcases(game, table, k, case, orbits, pairs, workers, seed, deadline, result, say,
                                    use_bounds, record, memory_mb)
    else:
        outcome = _solve_case(game, table, k, case, pairs, workers, seed, deadline, result, say,
                              use_bounds, record, memory_mb)
    record.seconds = time.perf_counter() - began
    if outcome is None:
        record.status = "stopped"
    elif outcome is False:
        record.status = record.status or "infeasible"
    else:
        record.status = "found"
        record.found = tuple(format_code(game, c) for c in sorted(outcome))
    record.outcome = outcome
    return record


def decide_cases(game: Game, k: int, method: str = "dfs", *, workers: int = 2, seed: int = 0,
                 time_limit: float | None = None, memory_mb: int | None = None,
                 progress: Progress | None = None, max_codes: int | None = None) -> list[CaseRecord]:
    """Decide EVERY symmetry case of ``game`` at size ``k`` (not stopping at the first set found): one
    record per case, in case order; cases closed by counting are recorded as such, and with ``max_codes``
    the cases that allow more codes are recorded as "skipped". For cross-checking the two methods case by
    case (``scripts/static_results.py --cross-check``)."""
    from ..feedback import feedback_table

    if method not in METHODS:
        raise StaticError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    table = feedback_table(game)
    h = hint_count(game)
    cases = symmetry_cases(game, table, 2)
    result = StaticResult(game, k, None, 1, False, False, Bounds(h, 0, len(cases), 0), method=method)
    records = []
    pairs: list[tuple[int, int]] = []
    for number, case in enumerate(cases, 1):
        if case.bound > k:
            record = CaseRecord(k, tuple(format_code(game, c) for c in case.fixed), case.bound, "counting")
        elif max_codes is not None and case.allowed.size > max_codes:
            record = CaseRecord(k, tuple(format_code(game, c) for c in case.fixed), case.bound, "skipped")
        else:
            record = _decide(game, table, k, case, method, h, workers, seed, deadline, result,
                             lambda note: None, pairs, True, True, memory_mb)
        records.append(record)
        if progress is not None:
            progress(0, None, f"{method} k={k}: {record.status}", number, len(cases))
    return records
