"""The static game: the fewest guesses, all written down before any hint, whose hints name the secret.

Definitions
-----------
A **static set** for a game G is a list of k codes g_1..g_k whose hint vectors
(hint(g_1, s), ..., hint(g_k, s)) differ for every two secrets s. The **static number** static(G) is the
least such k. Played as a strategy, the k guesses are made in order whatever the hints (a guess that gets
the all-bulls hint ends the game); after the k hints exactly one secret is left and is guessed next.

Cost of a static set, and why ``--objective average`` has nothing to choose. In these games every code is
a possible secret, so the k guesses are k distinct secrets. The secret g_j is solved by guess j; every other
secret needs the k guesses and one more. For N secrets the total is therefore

    1 + 2 + ... + k  +  (N - k)(k + 1)  =  k(k + 1)/2 + (N - k)(k + 1),

the same for EVERY static set of size k, and the worst case is k + 1 (k when N = k). Among least-size sets
the "least total" objective is constant; :func:`static_total` gives it and the command reports it rather
than pretend to optimise it. (It would matter only in a variant where the player may stop reading hints
early, which is no longer static.)

Method (:func:`find_static`)
----------------------------
The search goes size by size from the counting bound up; at each size every symmetry case (below) is
decided by one of two independent methods, which must agree case by case (tests, and
``scripts/static_results.py --cross-check``):
- ``dfs`` (default): the compiled depth-first search of ``treegen.static_search`` (one more level of
  symmetry cases, a counting filter on each level's codes, and a pair filter for the last guess). It
  settles mastermind: no static set of 5 (all 153 cases that counting leaves open), so static = 6.
- ``cp-sat``: OR-Tools CP-SAT with lazy separation clauses, as follows.

CP-SAT model: a boolean x_c per code ("c is in the set"), sum x_c = k, and for a pair of secrets {a, b} the clause
OR{x_c : hint(c, a) != hint(c, b)} ("some chosen guess tells a from b"). There are N(N-1)/2 pairs (839k for
mastermind, 12.7M for bulls-cows), so they are added lazily: solve with the pairs known so far, group the
secrets by their hint vectors under the set found (numpy), add one clause per secret of each group of two
or more (the pair it makes with the group's first secret), and solve again. A set that separates every
pair is a static set; an infeasible subset of the clauses is a proof that no set of that size exists,
because every clause is a constraint of the full problem.

Symmetry breaking: the game's symmetry group (position permutations x symbol permutations,
``treegen.symmetry``) maps static sets to static sets and splits the codes into orbits, numbered in the
order of their smallest codes r_1 < r_2 < ... Every set has a least orbit i among its codes; a group element
maps one of its codes in orbit i onto r_i. So it is enough to solve, for each i, the case "r_i is in the
set and no code of an orbit before i is": one CP-SAT model per case with the variables of orbits >= i only
and with the clauses that r_i already satisfies dropped. Clauses found in one case are kept for the next.

Counting bounds (:func:`counting_bounds`), applied before any CP-SAT call, per case (with the codes the
case allows):
- plain: k guesses give at most h^k hint vectors (h = the number of hints that can occur), so h^k >= N;
- level 1: every class C of r_i (secrets giving r_i the same hint) must be separated by the other k - 1
  guesses; a guess c gives at most d(C) = max_c |{hint(c, s) : s in C}| distinct hints on C, so
  d(C)^(k-1) >= |C|;
- level 2: moreover some other guess c of the set splits C into classes C' (hints of c), each of which the
  remaining k - 2 guesses must separate: h^(k-2) >= max |C'|. The set is unknown, so take the c (among the
  codes the case allows) that makes this easiest.
A case whose bound exceeds k is closed without searching (either method); the least bound over the cases is a lower bound
for the game.

Determinism: the depth-first search returns the first set in a fixed order whatever the number of threads
(``treegen.static_search``); CP-SAT runs with a fixed seed and ``interleave_search`` (its deterministic
parallel mode), so its set depends only on the game, the size, the seed and the number of workers. The
cases are decided in order and the first one with a set gives it; the guesses are written in increasing
code order.

The checking code (``verify.check_static_tree``) needs only the standard library, so that
``treegen verify`` starts instantly; numpy and ortools are imported inside the functions that solve.
"""

from __future__ import annotations


import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .rules import Game, TreegenError, format_code, format_hint, score_symbols
from .tree import Node, Tree
from .verify import STATIC_STRATEGY as STRATEGY
from .verify import make_tree, static_total, static_worst
OBJECTIVES = ("size", "average")


class StaticError(TreegenError):
    """A static-game request that cannot be served (bad size, time limit, ...)."""


# -- the cost of a static set --------------------------------------------------------------------


def hint_count(game: Game) -> int:
    """How many hints can occur in ``game`` (14 for 4 positions: 3A1B never occurs)."""
    return len(game.possible_hints)


# -- checking a set (numpy) ----------------------------------------------------------------------


def hint_labels(table, guesses):
    """For every secret, a small int naming its hint vector under ``guesses`` (equal iff same vector)."""
    import numpy as np

    labels = np.zeros(table.shape[1], dtype=np.int64)
    for g in guesses:
        labels = labels * 256 + table[int(g)]
        # Renumber after each guess so the labels never overflow, whatever k.
        labels = np.unique(labels, return_inverse=True)[1].astype(np.int64).reshape(-1)
    return labels


def unseparated_pairs(table, guesses) -> list[tuple[int, int]]:
    """Pairs of secrets that ``guesses`` do not tell apart: for each group of secrets with the same hint
    vector, the pairs (first secret of the group, each other secret). Empty iff the set is static."""
    import numpy as np

    labels = hint_labels(table, guesses)
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    pairs = []
    start = 0
    n = len(order)
    # Walk the runs of equal labels; a run of length m gives m - 1 pairs.
    bounds = np.flatnonzero(np.diff(sorted_labels)) + 1
    for end in list(bounds) + [n]:
        if end - start >= 2:
            first = int(order[start])
            pairs.extend((first, int(s)) for s in order[start + 1 : end])
        start = end
    return pairs


def is_static_set(game: Game, guesses) -> bool:
    """Whether the codes ``guesses`` (ints) tell every two secrets of ``game`` apart."""
    from .feedback import feedback_table

    return not unseparated_pairs(feedback_table(game), guesses)


# -- symmetry cases and counting bounds -----------------------------------------------------------


def _need(size: int, values: int) -> int:
    """Least m with values^m >= size: guesses needed to separate ``size`` secrets when each guess gives at
    most ``values`` distinct hints on them (0 for at most one secret; "never" (10**6) when values < 2)."""
    if size <= 1:
        return 0
    if values < 2:
        return NEVER
    m, reach = 0, 1
    while reach < size:
        reach *= values
        m += 1
    return m


NEVER = 10**6  # a bound meaning "no set of any size falls in this case"


@dataclass(frozen=True)
class Case:
    """A symmetry case: sets that contain the codes ``fixed`` and otherwise only codes of ``allowed``
    (sorted ints, ``fixed`` excluded). ``bound`` is the counting lower bound on such sets' size."""

    fixed: tuple[int, ...]
    allowed: object  # numpy int array
    bound: int


def _max_class_sizes(table, codes, members, slots: int):
    """For each code of ``codes``, the size of the largest class it makes on the secrets ``members``."""
    import numpy as np

    sub = table[np.ix_(codes, members)].astype(np.int64)
    rows = np.arange(len(codes), dtype=np.int64)[:, None] * slots
    counts = np.bincount((rows + sub).ravel(), minlength=len(codes) * slots).reshape(len(codes), slots)
    return counts.max(axis=1)


def _distinct_hints(table, codes, members):
    """For each code of ``codes``, how many distinct hints it gives on the secrets ``members``."""
    import numpy as np

    sub = np.sort(table[np.ix_(codes, members)], axis=1)
    return 1 + (np.diff(sub.astype(np.int16), axis=1) != 0).sum(axis=1)


def case_bound(game: Game, table, fixed, allowed, h: int) -> int:
    """Counting lower bound on the size of a static set that contains ``fixed`` (f codes) and otherwise
    only codes of ``allowed``. For every class C of secrets that the fixed codes do not tell apart:
    - the other guesses each give at most d(C) = max over allowed c of |{hint(c, s) : s in C}| distinct
      hints on C, so f + need(|C|, d(C)) guesses are needed (need(n, d) = least m with d^m >= n);
    - one of them, c, splits C into classes that the rest (each with at most h hints) must separate, so
      f + 1 + min over allowed c of need(largest class of c on C, h) guesses are needed.
    Returns the largest of these over the classes (f when the fixed codes already separate everything)."""
    import numpy as np

    slots = game.hint_slots
    labels = hint_labels(table, fixed)
    f = len(fixed)
    best = f
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    for members in np.split(order, cuts):
        if members.size < 2:
            continue
        if allowed.size == 0:
            return NEVER
        d = int(_distinct_hints(table, allowed, members).max())
        best = max(best, f + _need(members.size, d))
        biggest = int(_max_class_sizes(table, allowed, members, slots).min())
        best = max(best, f + 1 + _need(biggest, h))
    return min(best, NEVER)


def symmetry_cases(game: Game, table, levels: int = 2) -> list[Case]:
    """The symmetry cases (module docstring), with their counting bounds, in a fixed order.

    Level 1: orbits of single codes under the game's symmetry group, numbered by their smallest codes
    r_1 < r_2 < ...; case i: r_i in the set, no code of an orbit before i. Level 2 (valid for sets of two
    or more codes): the group elements that fix r_i (``symmetry.class_of`` with r_i as history) split the
    other codes of case i into orbits, numbered by their smallest allowed codes s_1 < s_2 < ...; every set
    of case i is mapped, by an element that fixes r_i, to one containing the representative s_j of the least
    such orbit j among its other codes. Case (i, j): r_i and s_j in the set, no code of a level-1 orbit before
    i, and none of a level-2 orbit before j.
    """
    import numpy as np

    from .symmetry import class_of

    h = hint_count(game)
    minima = np.asarray(class_of(game), dtype=np.int64)
    reps = np.unique(minima)
    cases = []
    for i, r in enumerate(reps):
        r = int(r)
        allowed = np.flatnonzero(np.isin(minima, reps[i:]))
        allowed = allowed[allowed != r]
        if levels == 1:
            cases.append(Case((r,), allowed, case_bound(game, table, (r,), allowed, h)))
            continue
        sub = np.asarray(class_of(game, (r,)), dtype=np.int64)[allowed]
        # Level-2 orbits among the allowed codes, ordered by their smallest allowed code.
        firsts = np.unique(sub, return_index=True)[1]
        order = np.sort(firsts)  # positions in `allowed` of each orbit's smallest allowed code
        for j, pos in enumerate(order):
            s = int(allowed[pos])
            later = np.isin(sub, sub[order[j:]])
            rest = allowed[later]
            rest = rest[rest != s]
            cases.append(Case((r, s), rest, case_bound(game, table, (r, s), rest, h)))
    return cases


@dataclass(frozen=True)
class Bounds:
    """Counting lower bounds on static(G): ``plain`` from h^k >= N, and the least bound over the symmetry
    cases (every static set of two or more codes falls in some case)."""

    hints: int
    plain: int
    cases: int
    cases_bound: int

    @property
    def lower(self) -> int:
        return max(self.plain, self.cases_bound)


def counting_bounds(game: Game, levels: int = 2) -> Bounds:
    """The counting lower bound on static(G) (for games where one guess cannot separate everything)."""
    from .feedback import feedback_table

    table = feedback_table(game)
    h = hint_count(game)
    cases = symmetry_cases(game, table, levels)
    return Bounds(h, _need(game.size, h), len(cases), min(c.bound for c in cases))


# -- greedy upper bound --------------------------------------------------------------------------


def greedy_set(game: Game) -> list[int]:
    """A static set built greedily: add the code that leaves the most classes (ties: the lowest code)
    until every secret is alone. An upper bound for static(G), computed in a few seconds."""
    import numpy as np

    from .feedback import feedback_table

    table = feedback_table(game)
    labels = np.zeros(game.size, dtype=np.int64)
    chosen: list[int] = []
    classes = 1
    while classes < game.size:
        best, best_count = -1, classes
        for c in range(game.size):
            count = np.unique(labels * 256 + table[c]).size
            if count > best_count:
                best, best_count = c, count
        if best < 0:  # cannot happen: the secret's own code always separates it
            raise StaticError("the greedy search made no progress")
        chosen.append(best)
        labels = np.unique(labels * 256 + table[best], return_inverse=True)[1].astype(np.int64).reshape(-1)
        classes = best_count
    return chosen


# -- the search ----------------------------------------------------------------------------------


@dataclass
class CaseRecord:
    """What happened to one symmetry case at one size: ``status`` is "counting" (closed by the counting
    bound), "filter" (closed by the domain filter before CP-SAT), "infeasible", "found" or "stopped";
    ``seconds`` of wall time; ``clauses`` the separation clauses in its CP-SAT model (cp-sat) and
    ``solves`` its CP-SAT calls; ``nodes`` the codes tried and ``subcases`` the third-guess symmetry
    subcases searched (dfs)."""

    size: int
    fixed: tuple[str, ...]
    bound: int
    status: str
    seconds: float = 0.0
    clauses: int = 0
    solves: int = 0
    nodes: int = 0
    subcases: int = 0
    found: tuple[str, ...] = ()  # the set, when status is "found"
    outcome: object = field(default=None, repr=False, compare=False)  # the set (ints), False, or None

    def to_obj(self) -> dict:
        return {"size": self.size, "fixed": list(self.fixed), "bound": self.bound, "status": self.status,
                "seconds": round(self.seconds, 3), "clauses": self.clauses, "solves": self.solves,
                "nodes": self.nodes, "subcases": self.subcases, "found": list(self.found)}


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
    ``treegen.static_search``, with a third level of symmetry cases) or "cp-sat" (the lazy clause loop;
    ``memory_mb`` caps each CP-SAT call's memory). Both see the same cases and the same counting bounds.
    ``progress(lower, upper, note, done, total)`` is called as the search moves.
    ``symmetry`` and ``use_bounds`` switch the levers off for measurements; the answer is the same.
    """
    import numpy as np

    from .feedback import feedback_table

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
    from .feedback import feedback_table

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


def _search_case(game, table, k, case, h, workers, deadline, symmetry, record):
    """One case by the depth-first search (``treegen.static_search``): the set, False, or None (time)."""
    from . import static_search
    from .symmetry import class_of

    orbits = class_of(game, case.fixed) if symmetry and case.fixed else None
    stats = static_search.Stats()

    def stop() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    got = static_search.search_case(game, table, k, case.fixed, case.allowed, h=h, orbits=orbits,
                                    stats=stats, workers=workers, stop=stop)
    record.nodes, record.subcases = stats.nodes, stats.subcases
    if got is static_search.STOPPED:
        return None
    return False if got is None else got


def _pad(code: int, size: int, n: int) -> tuple[int, ...]:
    """``code`` and the size - 1 lowest other codes: a static set of any size once ``code`` is one."""
    rest = [c for c in range(n) if c != code][: size - 1]
    return tuple(sorted([code, *rest]))


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
            status = solver.solve(model)
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


# -- the static tree file ------------------------------------------------------------------------


def static_root(game: Game, guesses) -> Node:
    """The ordinary tree that plays the static set ``guesses`` (code ints, in order): the node at depth j
    guesses g_j whatever the hints, the all-bulls hint ends the game, and after the k hints the one
    secret left is guessed. Raises StaticError when the set is not static."""
    guesses = [int(g) for g in guesses]
    k = len(guesses)
    codes = game.codes
    win = game.win_hint

    def build(depth: int, secrets: list[int]) -> Node:
        if depth == k:
            if len(secrets) != 1:
                shown = " ".join(format_code(game, s) for s in secrets[:3])
                raise StaticError(f"the guesses do not tell {shown} apart: not a static set of {game.name}")
            return Node.build(format_code(game, secrets[0]))
        g = guesses[depth]
        groups: dict[int, list[int]] = {}
        for s in secrets:
            groups.setdefault(score_symbols(game, codes[g], codes[s]), []).append(s)
        groups.pop(win, None)
        kids = {format_hint(game, hint): build(depth + 1, grp) for hint, grp in groups.items()}
        return Node.build(format_code(game, g), kids or None)

    return build(0, list(range(game.size)))


def static_tree(game: Game, result: StaticResult, objective: str = "size") -> Tree:
    """The tree file for the set of ``result`` (see :func:`static_root`), with the set and the proof
    figures under ``provenance["static"]``."""
    from . import __version__

    if result.guesses is None:
        raise StaticError("no static set to write")
    if objective not in OBJECTIVES:
        raise StaticError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    k = len(result.guesses)
    claims = {
        "guesses": [format_code(game, g) for g in result.guesses],
        "size": k,
        "proved_minimum": bool(result.proved and result.lower_bound >= k),
        "lower_bound": int(result.lower_bound),
        "hints": hint_count(game),
        "total": static_total(game.size, k),
        "worst_case": static_worst(game.size, k),
        "objective": objective,
        "method": result.method,
    }
    provenance = {"static": claims, "treegen": __version__}
    return make_tree(game, STRATEGY, static_root(game, result.guesses), provenance)
