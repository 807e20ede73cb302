"""The kernels of a node's symmetry group (``treegen.symmetry``), compiled by numba: the symbols' roles,
the history's automorphisms, and the least code of each class of equivalent guesses.

A kernel calls only kernels in its own file. numba's disk cache keys a compiled function on its own
file (its timestamp and size), not on the files of the functions it calls: a kernel that called a kernel of
another file would keep running a stale compiled copy of that callee after an edit there. So each kernel
file is closed under calls (with the constants its kernels read, which numba also freezes at compile
time), and any edit to a file recompiles every kernel in it. Python code may call kernels of any file.
These kernels call none of ``treegen.exact.search_kernels`` or ``treegen.scoring_kernels`` (the three
groups of kernels never call each other). ``cache=True`` keeps compiled code on disk so only the first run
pays for it; the kernels' style (no ``ndarray.sort``, no ``np.zeros``, one type per argument) is the one
``treegen.exact.search_kernels`` explains.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jitcache import ensure_cache

ensure_cache(__file__)  # before the first kernel: a read-only install must still compile (jitcache)


@njit(cache=True)
def symbol_roles(digits, nsym, history, secrets, all_secrets):
    """Each symbol's role (int8): 0 used in the history and not absent, 1 free, 2 absent from every secret."""
    present = np.empty(nsym, dtype=np.bool_)
    present[:] = all_secrets
    if not all_secrets:
        npos = digits.shape[1]
        for s in secrets:
            for p in range(npos):
                present[digits[s, p]] = True
    used = np.empty(nsym, dtype=np.bool_)
    used[:] = False
    for i in range(history.shape[0]):
        for p in range(history.shape[1]):
            used[history[i, p]] = True
    role = np.empty(nsym, dtype=np.int8)
    for x in range(nsym):
        role[x] = 2 if not present[x] else (0 if used[x] else 1)
    return role


@njit(cache=True)
def history_automorphisms(history, role, perms):
    """The position permutations, besides the identity, that fix every history guess up to absent symbols,
    with the symbol map each forces: ``sigma[h[p]] == h[perm[p]]`` wherever ``h[p]`` is not absent, and
    absent positions go to absent positions. ``perms[0]`` must be the identity; sigma is -1 off used symbols.
    """
    nperm, npos = perms.shape
    nsym = role.shape[0]
    out_perm = np.empty((nperm, npos), dtype=np.int8)
    out_sigma = np.empty((nperm, nsym), dtype=np.int16)
    k = 0
    sigma = np.empty(nsym, dtype=np.int16)
    for j in range(1, nperm):
        perm = perms[j]
        sigma[:] = -1
        ok = True
        for i in range(history.shape[0]):
            for p in range(npos):
                a = history[i, p]
                b = history[i, perm[p]]
                if role[a] == 2 or role[b] == 2:
                    if role[a] != role[b]:
                        ok = False
                        break
                elif sigma[a] < 0:
                    sigma[a] = b
                elif sigma[a] != b:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            # element by element: an array assignment would compile numba's shape-mismatch message
            # (string formatting), which took longer to compile than the rest of this function
            for p in range(npos):
                out_perm[k, p] = perm[p]
            for x in range(nsym):
                out_sigma[k, x] = sigma[x]
            k += 1
    return out_perm[:k], out_sigma[:k]


@njit(cache=True)
def _roles_by_rank(role):
    """rank[x]: x's place among the symbols of its role in increasing order; byrank[r, k]: the k-th one."""
    nsym = role.shape[0]
    byrank = np.empty((3, nsym), dtype=np.int16)
    byrank[:] = -1
    rank = np.empty(nsym, dtype=np.int16)  # every symbol's rank is written below
    fill = np.empty(3, dtype=np.int16)
    fill[:] = 0
    for x in range(nsym):
        r = role[x]
        rank[x] = fill[r]
        byrank[r, fill[r]] = x
        fill[r] += 1
    return rank, byrank


@njit(cache=True)
def _names_in_order(digits, c, role, rank):
    """Whether the free and the absent symbols of code ``c`` are the smallest of their role, first
    occurrences in increasing order: ``c`` is then the smallest code of its orbit under renaming them."""
    next1 = 0
    next2 = 0
    seen = 0
    for p in range(digits.shape[1]):
        s = np.int64(digits[c, p])
        r = role[s]
        if r != 0:
            bit = 1 << s
            if seen & bit == 0:
                if r == 1:
                    if rank[s] != next1:
                        return False
                    next1 += 1
                else:
                    if rank[s] != next2:
                        return False
                    next2 += 1
                seen |= bit
    return True


@njit(cache=True)
def _image(digits, c, perm, sigma, role, byrank, y, newname):
    """y = the element (perm, sigma) applied to code c, then free and absent symbols renamed in order."""
    for p in range(digits.shape[1]):
        s = np.int64(digits[c, p])
        y[perm[p]] = sigma[s] if role[s] == 0 else s
    next1 = 0
    next2 = 0
    seen = 0
    for p in range(y.shape[0]):
        s = np.int64(y[p])
        r = role[s]
        if r != 0:
            bit = 1 << s
            if seen & bit == 0:
                if r == 1:
                    newname[s] = byrank[1, next1]
                    next1 += 1
                else:
                    newname[s] = byrank[2, next2]
                    next2 += 1
                seen |= bit
            y[p] = newname[s]


@njit(cache=True)
def canonical_codes(digits, role, aut_perm, aut_sigma):
    """The smallest code (int32, ascending) of each class of equivalent codes; see symmetry.py."""
    n, npos = digits.shape
    rank, byrank = _roles_by_rank(role)
    naut = aut_perm.shape[0]
    out = np.empty(n, dtype=np.int32)
    m = 0
    y = np.empty(npos, dtype=np.int16)
    newname = np.empty(role.shape[0], dtype=np.int16)
    for c in range(n):
        if not _names_in_order(digits, c, role, rank):
            continue
        ok = True
        for j in range(naut):
            _image(digits, c, aut_perm[j], aut_sigma[j], role, byrank, y, newname)
            for p in range(npos):
                if y[p] != digits[c, p]:
                    ok = y[p] > digits[c, p]
                    break
            if not ok:
                break
        if ok:
            out[m] = c
            m += 1
    return out[:m]


@njit(cache=True)
def node_group(digits, nsym, history, secrets, all_secrets, perms):
    """The group of a search node (see symmetry.py) in one call: the symbols' roles given the
    ``history`` (int64 code ints) and the ``secrets`` (ignored when ``all_secrets``), and the position
    permutations that fix the history with their symbol maps (history_automorphisms)."""
    npos = digits.shape[1]
    hist = np.empty((history.shape[0], npos), dtype=digits.dtype)
    for i in range(history.shape[0]):
        for p in range(npos):
            hist[i, p] = digits[history[i], p]
    role = symbol_roles(digits, nsym, hist, secrets, all_secrets)
    aut_perm, aut_sigma = history_automorphisms(hist, role, perms)
    return role, aut_perm, aut_sigma


@njit(cache=True)
def class_minima(digits, role, aut_perm, aut_sigma, repeats):
    """For every code, the smallest code of its class (int32)."""
    n, npos = digits.shape
    nsym = role.shape[0]
    rank, byrank = _roles_by_rank(role)
    # weights of the code index: codes are the symbol tuples in lexicographic order
    weight = np.empty(npos, dtype=np.int64)
    for p in range(npos):
        w = 1
        for q in range(p + 1, npos):
            w *= nsym if repeats else nsym - q
        weight[p] = w
    naut = aut_perm.shape[0]
    out = np.empty(n, dtype=np.int32)
    best = np.empty(npos, dtype=np.int16)
    y = np.empty(npos, dtype=np.int16)
    newname = np.empty(nsym, dtype=np.int16)
    ident = np.arange(npos).astype(np.int8)
    idsig = np.arange(nsym).astype(np.int16)
    for c in range(n):
        _image(digits, c, ident, idsig, role, byrank, best, newname)
        for j in range(naut):
            _image(digits, c, aut_perm[j], aut_sigma[j], role, byrank, y, newname)
            for p in range(npos):
                if y[p] != best[p]:
                    if y[p] < best[p]:
                        best[:] = y
                    break
        idx = 0
        used = np.int64(0)
        for p in range(npos):
            s = np.int64(best[p])
            r = s
            if not repeats:
                for t in range(s):
                    if used & (np.int64(1) << t):
                        r -= 1
                used |= np.int64(1) << s
            idx += r * weight[p]
        out[c] = idx
    return out
