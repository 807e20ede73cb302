"""Hot loops over code and hint arrays, compiled by numba: scoring, partition counts and lookahead bounds.

Every function here is pure: arrays in, arrays or scalars out, with explicit dtypes. Orchestration lives
in the domain modules. ``cache=True`` keeps compiled code on disk so only the first run pays for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

# -- scoring ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _score_pair(gd, gc, sd, sc, npos, nsym):
    """Hint of guess (digits gd, symbol counts gc) against secret (sd, sc)."""
    bulls = 0
    for p in range(npos):
        if gd[p] == sd[p]:
            bulls += 1
    common = 0
    for x in range(nsym):
        a = gc[x]
        b = sc[x]
        common += a if a < b else b
    return bulls * (npos + 1) + common - bulls


@njit(cache=True, parallel=True)
def score_matrix(gdigits, gcounts, sdigits, scounts):
    """Hints (uint8) of every guess (rows) against every secret (columns)."""
    ng = gdigits.shape[0]
    ns = sdigits.shape[0]
    npos = gdigits.shape[1]
    nsym = gcounts.shape[1]
    out = np.empty((ng, ns), dtype=np.uint8)
    for i in prange(ng):
        gd = gdigits[i]
        gc = gcounts[i]
        for j in range(ns):
            out[i, j] = _score_pair(gd, gc, sdigits[j], scounts[j], npos, nsym)
    return out


@njit(cache=True, parallel=True)
def score_matrix_distinct(gdigits, gmasks, sdigits, smasks):
    """As ``score_matrix`` for games without repeats: common symbols are the popcount of two masks."""
    ng = gdigits.shape[0]
    ns = sdigits.shape[0]
    npos = gdigits.shape[1]
    out = np.empty((ng, ns), dtype=np.uint8)
    for i in prange(ng):
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


# -- partitions ------------------------------------------------------------------------------------


@njit(cache=True)
def class_counts(table, guesses, secrets, nslots):
    """counts[k, h] = how many of ``secrets`` give hint h to guess ``guesses[k]``.

    The table is symmetric, so row ``s`` holds every guess's hint against secret ``s``; reading it
    row by row with the secrets outermost keeps memory access sequential.
    """
    ng = guesses.shape[0]
    counts = np.zeros((ng, nslots), dtype=np.int32)
    for s in secrets:
        row = table[s]
        for k in range(ng):
            counts[k, row[guesses[k]]] += 1
    return counts


@njit(cache=True)
def split_by_hint(table, guess, secrets, nslots):
    """Secrets grouped by their hint to ``guess``: (order, starts) with the class of hint h being
    ``order[starts[h]:starts[h + 1]]``; secrets keep their relative order inside a class."""
    row = table[guess]
    starts = np.zeros(nslots + 1, dtype=np.int64)
    for s in secrets:
        starts[row[s] + 1] += 1
    for h in range(nslots):
        starts[h + 1] += starts[h]
    fill = starts[:-1].copy()
    order = np.empty(secrets.shape[0], dtype=secrets.dtype)
    for s in secrets:
        h = row[s]
        order[fill[h]] = s
        fill[h] += 1
    return order, starts
