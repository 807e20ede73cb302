"""A depth-first search over guesses for the static game: the second, independent method beside CP-SAT.

Contract: :func:`search_case` decides whether some static set of ``k`` guesses contains the case's fixed
codes and otherwise only codes of its ``allowed`` list (a symmetry case of ``treegen.static``), and
returns one (the least in a fixed order) or None. It shares nothing with the CP-SAT model but the
feedback table, the symmetry cases and their subcases by the first free guess; ``treegen static --method
dfs`` uses it, and the tests and ``scripts/static_results.py --cross-check`` compare the two methods case
by case.

The search, for m = k - (number of fixed codes) free guesses chosen in increasing code order:
- state: the partition of the secrets into classes (equal hints on the codes chosen so far);
- domain filter (why it is sound): a code c chosen now leaves, with the codes so far, classes that the other
  m - 1 guesses must separate; a guess gives at most h distinct hints on any class (h = the number of
  possible hints), so m - 1 guesses separate at most h^(m-1) secrets of a class. Codes whose largest class
  exceeds h^(m-1) are dropped: :func:`domain`. The domain of a deeper level is a subset of this one's (more
  codes chosen only refine classes), so deeper levels filter the survivors only;
- symmetry (``treegen.static`` fixes the first two guesses by orbits): the first free guess is, moreover,
  the representative of the least orbit, under the permutations that fix the case's codes, among the free
  guesses; the rest come from that orbit and later ones. Same argument as one level up: such a permutation
  maps a set of the case onto a set of the case;
- the last two guesses (the hot loop, :func:`last_two`): for each candidate u, the classes that the codes
  so far and u leave must each be split into singletons by the one guess v left, so v must separate every
  pair of secrets in a class: start from the domain codes after u and, pair by pair, keep only the codes
  that give the two secrets different hints. An empty list refutes u; a code left over completes a set.
  Compiled with numba and run in parallel over u (``workers`` threads).

Determinism: the set returned is the first in the order (symmetry subcase, then u, then v by position in
the domain, which is in increasing code order), whatever the number of threads: every u is tried and the
least index that succeeds wins.

A kernel calls only kernels in its own file: numba's disk cache keys a compiled function on its own file,
so a callee edited in another file would leave this file's cached callers stale.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, prange

from ..jitcache import ensure_cache
from .cases import subcases

ensure_cache(__file__)  # before the first kernel: a read-only install must still compile (jitcache)


@njit(cache=True)
def refine(table, labels, code, slots):
    """Classes of (the codes behind ``labels``) + ``code``: new labels 0..L-1 in order of first secret,
    and the largest class size. ``table[code, s]`` is the hint of ``code`` for secret ``s``."""
    n = labels.shape[0]
    seen = np.full((labels.max() + 1) * slots, -1, np.int32)
    out = np.empty(n, np.int32)
    sizes = np.zeros(n, np.int32)
    count = 0
    biggest = 0
    for s in range(n):
        key = labels[s] * slots + table[code, s]
        lab = seen[key]
        if lab < 0:
            lab = count
            seen[key] = lab
            count += 1
        out[s] = lab
        sizes[lab] += 1
        if sizes[lab] > biggest:
            biggest = sizes[lab]
    return out, biggest


@njit(cache=True, inline="always")
def _largest_class(table, labels, code, slots, counts, limit):
    """Largest class of labels + code, stopping as soon as it exceeds ``limit`` (``counts`` is scratch of
    size max(labels)+1 times slots, all zero on entry and on exit)."""
    n = labels.shape[0]
    biggest = 0
    stop = n
    for s in range(n):
        key = labels[s] * slots + table[code, s]
        counts[key] += 1
        if counts[key] > biggest:
            biggest = counts[key]
            if biggest > limit:
                stop = s + 1
                break
    for s in range(stop):
        counts[labels[s] * slots + table[code, s]] = 0
    return biggest


@njit(cache=True, parallel=True)
def domain(table, labels, codes, slots, limit):
    """The codes of ``codes`` whose largest class with ``labels`` has at most ``limit`` secrets (a boolean
    mask over ``codes``)."""
    keep = np.zeros(codes.shape[0], np.bool_)
    width = (labels.max() + 1) * slots
    for i in prange(codes.shape[0]):
        counts = np.zeros(width, np.int32)
        keep[i] = _largest_class(table, labels, codes[i], slots, counts, limit) <= limit
    return keep


@njit(cache=True)
def _complete(table, tableT, labels, code, slots, cands, start, order, firsts):
    """With ``code`` added to ``labels``: the first code of ``cands[start:]`` that splits every class into
    singletons, or -1. ``order`` and ``firsts`` are scratch of the number of secrets (plus one)."""
    n = labels.shape[0]
    lab, biggest = refine(table, labels, code, slots)
    if biggest <= 1:
        return cands[start] if start < cands.shape[0] else -1
    # Counting sort of the secrets by class: members of class c are order[firsts[c]:firsts[c+1]].
    nclass = lab.max() + 1
    for c in range(nclass + 1):
        firsts[c] = 0
    for s in range(n):
        firsts[lab[s] + 1] += 1
    for c in range(nclass):
        firsts[c + 1] += firsts[c]
    fill = firsts[:nclass].copy()
    for s in range(n):
        order[fill[lab[s]]] = s
        fill[lab[s]] += 1
    live = cands[start:].copy()
    alive = live.shape[0]
    for c in range(nclass):
        lo = firsts[c]
        hi = firsts[c + 1]
        for i in range(lo, hi):
            a = order[i]
            for j in range(i + 1, hi):
                b = order[j]
                ra = tableT[a]
                rb = tableT[b]
                kept = 0
                for t in range(alive):
                    v = live[t]
                    if ra[v] != rb[v]:
                        live[kept] = v
                        kept += 1
                alive = kept
                if alive == 0:
                    return -1
    return live[0]


@njit(cache=True, parallel=True)
def last_two(table, tableT, labels, cands, slots):
    """For each index i of ``cands``: the first code v of ``cands[i+1:]`` such that labels + cands[i] + v
    separates every secret, or -1. Returns (that array, the number of (u, v) pairs looked at as u's)."""
    m = cands.shape[0]
    out = np.full(m, -1, np.int64)
    n = labels.shape[0]
    for i in prange(m - 1):
        order = np.empty(n, np.int32)
        firsts = np.empty(n + 1, np.int32)
        out[i] = _complete(table, tableT, labels, cands[i], slots, cands, i + 1, order, firsts)
    return out


# -- orchestration (plain Python) ----------------------------------------------------------------


class Stats:
    """Counters of one search: ``nodes`` partitions refined (codes tried), ``subcases`` symmetry subcases."""

    def __init__(self) -> None:
        self.nodes = 0
        self.subcases = 0


def _labels(table, fixed, n):
    labels = np.zeros(n, np.int32)
    for g in fixed:
        labels = np.unique(labels.astype(np.int64) * 256 + table[int(g)], return_inverse=True)[1]
        labels = labels.astype(np.int32).reshape(-1)
    return labels


STOPPED = "stopped"


def _pick(table, tableT, labels, codes, m, h, slots, stats, stop=None):
    """Choose m codes from ``codes`` (increasing) that with ``labels`` separate every secret: a list of
    codes, None, or STOPPED when ``stop()`` said so (asked before each code of the levels above the last
    two)."""
    if m == 0:
        return [] if labels.max() + 1 == labels.shape[0] else None
    keep = domain(table, labels, codes, slots, h ** (m - 1))
    stats.nodes += codes.shape[0]
    cands = codes[keep]
    if cands.shape[0] < m:
        return None
    if m == 1:
        return [int(cands[0])]
    if m == 2:
        found = last_two(table, tableT, labels, cands, slots)
        stats.nodes += cands.shape[0]
        hits = np.flatnonzero(found >= 0)
        if hits.size == 0:
            return None
        i = int(hits[0])
        return [int(cands[i]), int(found[i])]
    for i in range(cands.shape[0] - m + 1):
        if stop is not None and stop():
            return STOPPED
        lab, _ = refine(table, labels, cands[i], slots)
        got = _pick(table, tableT, lab, cands[i + 1 :], m - 1, h, slots, stats, stop)
        if got is STOPPED:
            return STOPPED
        if got is not None:
            return [int(cands[i]), *got]
    return None


def search_case(game, table, k, fixed, allowed, *, h, orbits=None, stats=None, workers=None, stop=None):
    """Decide the case "``fixed`` (code ints) and k - len(fixed) codes of ``allowed`` (ascending ints)".

    ``orbits`` (optional): for every code, its orbit's smallest code under the permutations that fix
    ``fixed`` (``symmetry.class_of(game, fixed)``); then the first free guess is taken as the least orbit's
    representative (module docstring). ``stop()`` (optional) is asked between subcases; when it returns
    True the search gives up and returns STOPPED ("stopped"). Returns the set (sorted list) or None.
    """
    import numba

    if workers is not None:
        numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))
    stats = stats if stats is not None else Stats()
    n = table.shape[1]
    slots = int(game.hint_slots)
    tableT = np.ascontiguousarray(table.T)
    labels = _labels(table, fixed, n)
    allowed = np.asarray(allowed, dtype=np.int64)
    m = k - len(fixed)
    if m < 0 or m > allowed.size:
        return None
    if m == 0:
        return sorted(int(c) for c in fixed) if labels.max() + 1 == n else None
    if orbits is None or m == 1:
        got = _pick(table, tableT, labels, allowed, m, h, slots, stats, stop)
        if got is STOPPED:
            return STOPPED
        return None if got is None else sorted([*map(int, fixed), *got])
    # Symmetry subcases: the first free guess is the representative of the least orbit among the free
    # guesses (cases.subcases).
    reps, rest_of = subcases(allowed, orbits)
    keep = domain(table, labels, reps, slots, h ** (m - 1))
    stats.nodes += reps.size
    for j in range(reps.size):
        if stop is not None and stop():
            return STOPPED
        if not keep[j]:
            continue  # the representative itself fails the domain filter: the subcase is empty
        stats.subcases += 1
        t, rest = int(reps[j]), rest_of(j)
        lab, _ = refine(table, labels, t, slots)
        got = _pick(table, tableT, lab, rest, m - 1, h, slots, stats, stop)
        if got is STOPPED:
            return STOPPED
        if got is not None:
            return sorted([*map(int, fixed), t, *got])
    return None


def _search_case(game, table, k, case, h, workers, deadline, symmetry, record):
    """One case by the depth-first search above: the set, False, or None (time)."""
    from ..symmetry import class_of

    orbits = class_of(game, case.fixed) if symmetry and case.fixed else None
    stats = Stats()

    def stop() -> bool:
        return deadline is not None and time.perf_counter() >= deadline

    got = search_case(game, table, k, case.fixed, case.allowed, h=h, orbits=orbits,
                                    stats=stats, workers=workers, stop=stop)
    record.nodes, record.subcases = stats.nodes, stats.subcases
    if got is STOPPED:
        return None
    return False if got is None else got
