"""The static game's pieces that every method shares: a set's cost and check, the symmetry cases, the
counting bounds and the greedy upper bound (see the package docstring for the definitions and proofs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Game, TreegenError


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
    from ..feedback import feedback_table

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

    from ..symmetry import class_of

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


def subcases(allowed, orbits):
    """A case split by its first free guess, for sets with two or more free guesses: (reps, rest), where
    reps[j] (int array, in order) is subcase j's free guess t and rest(j) the codes allowed beside it.

    ``allowed``: the case's free codes (ascending ints); ``orbits``: for every code, its orbit's smallest
    code under the permutations that fix the case's codes (``symmetry.class_of(game, fixed)``; ``allowed``
    is a union of such orbits). Orbits are numbered by their smallest allowed code; in subcase j the free
    guess t is orbit j's representative, and the other free guesses come from orbit j and later ones (t
    excluded). Sound as one level up: such a permutation maps a set of the case onto a set of the case, and
    it can map the set's free guess of least orbit j onto t. ``rest`` is computed on demand: most subcases
    are closed by a filter on t alone (computing every list up front cost mastermind's size 4 0.46 s)."""
    import numpy as np

    sub = np.asarray(orbits, dtype=np.int64)[allowed]
    firsts = np.sort(np.unique(sub, return_index=True)[1])  # positions in `allowed` of each orbit's first code
    reps = allowed[firsts]

    def rest(j: int):
        later = allowed[np.isin(sub, sub[firsts[j:]])]
        return later[later != reps[j]]

    return reps, rest


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
    from ..feedback import feedback_table

    table = feedback_table(game)
    h = hint_count(game)
    cases = symmetry_cases(game, table, levels)
    return Bounds(h, _need(game.size, h), len(cases), min(c.bound for c in cases))


# -- greedy upper bound --------------------------------------------------------------------------


def greedy_set(game: Game) -> list[int]:
    """A static set built greedily: add the code that leaves the most classes (ties: the lowest code)
    until every secret is alone. An upper bound for static(G), computed in a few seconds."""
    import numpy as np

    from ..feedback import feedback_table

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
