"""Deciding one symmetry case with OR-Tools CP-SAT: the lazy loop of separation clauses (the method
beside the depth-first search of :mod:`.dfs`; both give the same answer, case by case). A case with three
or more free guesses is decided subcase by subcase (:func:`solve_by_subcases`)."""

from __future__ import annotations

import threading
import time

from ..rules import format_code
from .cases import (
    Case,
    CaseRecord,
    hint_count,
    hint_labels,
    subcases,
    unseparated_pairs,
)


def _pad(code: int, size: int, n: int) -> tuple[int, ...]:
    """``code`` and the size - 1 lowest other codes: a static set of any size once ``code`` is one."""
    rest = [c for c in range(n) if c != code][: size - 1]
    return tuple(sorted([code, *rest]))


def _stoppable_solve(solver, model) -> int:
    """``solver.solve(model)``, in a helper thread so that Ctrl-C and SIGTERM stop it at once: Python runs
    signal handlers on the main thread between bytecodes only, never inside CP-SAT's C++ call, which can
    last minutes on one case (an mm:4:7 case ran 8.7 minutes and ignored SIGTERM until killed). The main
    thread waits in short slices; when a handler raises there, it asks CP-SAT to stop, waits for the
    helper to return, and raises on."""
    box: dict = {}

    def run() -> None:
        try:
            box["status"] = solver.solve(model)
        except BaseException as exc:  # handed to the main thread below
            box["error"] = exc

    helper = threading.Thread(target=run, name="cp-sat", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(0.1)
    except BaseException:
        solver.stop_search()
        helper.join()
        raise
    if "error" in box:
        raise box["error"]
    return box["status"]


def _solve_case(game, table, k, case, pairs, workers, seed, deadline, result, say, use_filter=True,
                record=None, memory_mb=None):
    """The lazy loop for one size and one symmetry case. Returns the set (list of ints), False when the
    case is infeasible, or None when the time limit stopped it. Appends the new clauses to ``pairs``;
    counts this case's clauses and solves in ``record``; ``memory_mb`` caps each CP-SAT call."""
    record = record if record is not None else CaseRecord(k, (), case.bound, "")
    import numpy as np
    from ortools.sat.python import cp_model

    fixed = list(case.fixed)
    free = case.allowed
    slots_needed = k - len(fixed)
    if slots_needed < 0 or slots_needed > free.size:
        return False
    m = slots_needed
    if use_filter and m >= 1 and fixed:
        # Counting filter on the domain: a code c of the set leaves, with the fixed codes, classes that
        # the other m - 1 guesses (each with at most h hints) must separate, so c is only useful if its
        # largest class with the fixed codes has at most h^(m-1) secrets.
        h = hint_count(game)
        base = hint_labels(table, fixed)
        keys = base[None, :] * game.hint_slots + table[free].astype(np.int64)
        biggest = np.array([np.unique(row, return_counts=True)[1].max() for row in keys])
        free = free[biggest <= h ** (m - 1)]
        if free.size < m:
            say(f"k={k}, case {' '.join(format_code(game, c) for c in fixed)}: closed by the domain filter")
            record.status = "filter"
            return False
    model = cp_model.CpModel()
    # y_j: the index (into the allowed codes) of the j-th free guess, in increasing order (a set has one
    # such listing, so this is no loss); the case's fixed codes are not variables.
    y = [model.new_int_var(0, free.size - 1, f"y{j}") for j in range(m)]
    for j in range(m - 1):
        model.add(y[j] < y[j + 1])
    fixed_labels = hint_labels(table, fixed) if fixed else None

    def add_pair(a: int, b: int) -> bool:
        """Add "some chosen guess tells a from b"; False when no allowed code can (case infeasible).

        For each free guess j a boolean t_j = D[y_j], where D[c] = 1 iff code c gives a and b different
        hints (an element constraint: once y_j is fixed t_j is known, and t_j false removes from y_j every
        code that separates the pair); then t_1 or ... or t_m."""
        if fixed_labels is not None and fixed_labels[a] != fixed_labels[b]:
            return True  # a fixed code already tells them apart
        d = (table[a, free] != table[b, free]).astype(np.int64)
        if not d.any() or m == 0:
            return False
        values = d.tolist()
        ts = []
        for j in range(m):
            t = model.new_bool_var("")
            model.add_element(y[j], values, t)
            ts.append(t)
        model.add_bool_or(ts)
        record.clauses += 1  # a clause of this case's model (pairs the fixed codes separate are not)
        return True

    for a, b in pairs:
        if not add_pair(a, b):
            return False
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.interleave_search = workers > 1
    if memory_mb is not None:
        # CP-SAT stops with status UNKNOWN when it reaches this; reported as "out of memory" below.
        solver.parameters.max_memory_in_mb = memory_mb
    where = f"k={k}, case {' '.join(format_code(game, c) for c in fixed) or 'all'}"
    while True:
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            solver.parameters.max_time_in_seconds = left
        try:
            status = _stoppable_solve(solver, model)
        except MemoryError:
            result.stopped = "CP-SAT ran out of memory"
            return None
        result.iterations += 1
        record.solves += 1
        if status == cp_model.INFEASIBLE:
            say(f"{where}: infeasible ({result.iterations} solves, {result.constraints} clauses so far)")
            return False
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if deadline is None or time.perf_counter() < deadline:
                result.stopped = f"CP-SAT stopped with status {solver.status_name(status)} before the time limit"
                if memory_mb is not None:
                    result.stopped += f" (memory cap {memory_mb} MB)"
            return None
        chosen = fixed + [int(free[solver.value(v)]) for v in y]
        missing = unseparated_pairs(table, chosen)
        if not missing:
            return chosen
        for a, b in missing:
            pairs.append((a, b))
            result.constraints += 1
            if not add_pair(a, b):
                say(f"{where}: infeasible (a pair no allowed code separates)")
                return False
        say(f"{where}: {len(missing)} pairs unseparated ({result.iterations} solves, {result.constraints} clauses)")


def solve_by_subcases(game, table, k, case, orbits, pairs, workers, seed, deadline, result, say, use_filter=True,
                      record=None, memory_mb=None):
    """:func:`_solve_case` for a case split by its first free guess (``cases.subcases``; ``orbits`` as there):
    the first set found, subcase by subcase in order, False when every subcase is infeasible, None when
    stopped. With a free guess fixed, the domain filter keeps only codes whose largest class is at most
    h^(m-2), and CP-SAT has one guess fewer to place: mm:4:7's case 0000 0001 at size 5, which CP-SAT did not
    decide whole in 8.7 minutes, is 51 subcases, all closed by the filter in 4 to 11 s. ``record`` sums the
    subcases' clauses and solves, counts them, and is "filter" only if the filter closed every one."""
    record = record if record is not None else CaseRecord(k, (), case.bound, "")
    statuses = set()
    reps, rest_of = subcases(case.allowed, orbits)
    for j in range(reps.size):
        part = CaseRecord(k, (), case.bound, "")
        got = _solve_case(game, table, k, Case((*case.fixed, int(reps[j])), rest_of(j), case.bound), pairs, workers,
                          seed, deadline, result, say, use_filter, part, memory_mb)
        record.subcases += 1
        record.clauses += part.clauses
        record.solves += part.solves
        statuses.add(part.status or ("infeasible" if got is False else ""))
        if got is None or got is not False:
            return got  # stopped, or a set
    record.status = "filter" if statuses == {"filter"} else "infeasible"
    where = f"k={k}, case {' '.join(format_code(game, c) for c in case.fixed)}"
    say(f"{where}: {record.subcases} subcases, {record.status}")
    return False
