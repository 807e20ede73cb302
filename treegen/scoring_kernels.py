"""Scoring kernels, compiled by numba: a game's hints (``feedback.score_many``, for games without repeats)
and the heuristics' scores of guesses and choice among them (``treegen.strategies``, live play).

A kernel calls only kernels in its own file. numba's disk cache keys a compiled function on its own
file (its timestamp and size), not on the files of the functions it calls: a kernel that called a kernel of
another file would keep running a stale compiled copy of that callee after an edit there. So each kernel
file is closed under calls (with the constants its kernels read, which numba also freezes at compile
time), and any edit to a file recompiles every kernel in it. Python code may call kernels of any file.
These kernels call none of ``treegen.exact.search_kernels`` or ``treegen.symmetry_kernels`` (the three
groups of kernels never call each other). ``cache=True`` keeps compiled code on disk so only the first run
pays for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jitcache import ensure_cache

ensure_cache(__file__)  # before the first kernel: a read-only install must still compile (jitcache)


@njit(cache=True)
def score_matrix_distinct(gdigits, gmasks, sdigits, smasks):
    """Hints (uint8) of every guess (rows) against every secret (columns) of a game without repeats, where
    the symbols in common are the popcount of two masks (feedback.score_many; games with repeats are scored
    with numpy there)."""
    ng = gdigits.shape[0]
    ns = sdigits.shape[0]
    npos = gdigits.shape[1]
    out = np.empty((ng, ns), dtype=np.uint8)
    for i in range(ng):
        gd = gdigits[i]
        gm = gmasks[i]
        for j in range(ns):
            sd = sdigits[j]
            bulls = 0
            for p in range(npos):
                if gd[p] == sd[p]:
                    bulls += 1
            m = gm & smasks[j]
            common = 0
            while m:
                m &= m - np.int64(1)
                common += 1
            out[i, j] = bulls * (npos + 1) + common - bulls
    return out


@njit(cache=True)
def guess_scores(table, guesses, secrets, nslots, slots, maximum, f):
    """Score (float64, smaller is better) of each guess from the sizes n_h of the classes it splits
    ``secrets`` into: ``max n_h`` if ``maximum``, else ``sum of f[n_h]`` over the hints ``slots``.

    The sum runs over ``slots`` in their order whatever the guess, so guesses that split the secrets
    alike get bit-identical scores (f[0] must be 0). Secrets loop outermost, reading table rows:
    ``table[s, g]`` is the hint of guess g on secret s (the feedback table itself where it is symmetric).
    """
    ng = guesses.shape[0]
    counts = np.empty((ng, nslots), dtype=np.int32)
    counts[:] = 0
    for s in secrets:
        row = table[s]
        for k in range(ng):
            counts[k, row[guesses[k]]] += 1
    out = np.empty(ng, dtype=np.float64)
    for k in range(ng):
        if maximum:
            m = 0
            for h in slots:
                if counts[k, h] > m:
                    m = counts[k, h]
            out[k] = m
        else:
            v = 0.0
            for h in slots:
                v += f[counts[k, h]]
            out[k] = v
    return out


@njit(cache=True)
def pick_guess(scores, guesses, secrets, eligible, last_possible, tol):
    """Index in ``guesses`` of the best (smallest) score; scores within ``tol`` (relative) of it tie.
    Ties go to an ``eligible`` guess that is among ``secrets`` (both ascending): the first such, or with
    ``last_possible`` the last; else to the first tied guess."""
    best = np.inf
    for k in range(scores.shape[0]):
        if scores[k] < best:
            best = scores[k]
    limit = best + tol * max(1.0, abs(best))
    pick = -1
    first = -1
    j = 0
    ns = secrets.shape[0]
    for k in range(scores.shape[0]):
        g = guesses[k]
        while j < ns and secrets[j] < g:
            j += 1
        if scores[k] <= limit:
            if first < 0:
                first = k
            if j < ns and secrets[j] == g and eligible[k]:
                pick = k
                if not last_possible:
                    break
    return pick if pick >= 0 else first
