"""The exact search's kernels, compiled by numba: partitions, lookahead bounds, the memo, the inner loop
of ``Solver.next_open`` (``next_open_guess``), the memo by orbit's set keys and the weighted bounds of
``treegen.weighted``.

A kernel calls only kernels in its own file. numba's disk cache keys a compiled function on its own
file (its timestamp and size), not on the files of the functions it calls: a kernel that called a kernel of
another file would keep running a stale compiled copy of that callee after an edit there. So each kernel
file is closed under calls (with the constants its kernels read, which numba also freezes at compile
time), and any edit to a file recompiles every kernel in it. Python code may call kernels of any file.
The kernels that make up a node's symmetry group are in ``treegen.symmetry_kernels`` and the heuristics'
scoring in ``treegen.scoring_kernels``: no kernel of one of these three files calls a kernel of another.

Functions take arrays and return arrays or scalars, with explicit dtypes, and are pure except those
marked **mutates** in their docstrings, which write into arrays they are given (the memo's hash table,
scratch words, counters): ``least_bound``, ``memo_put``, ``memo_rehash``, ``class_bound`` and
``next_open_guess``. Orchestration lives in the domain modules. ``cache=True`` keeps compiled code on
disk so only the first run pays for it.

First-run compile time (the cost of an empty cache; see scripts/first_run.py). On two cores or more,
``treegen solve`` compiles in two processes side by side (``treegen.exact.warmup``: ``SEARCH_SIGNATURES``
and ``compile_ahead``). numba compiles every kernel a call reaches as its own library, then
links and optimises its callees into it again, so what a kernel pulls in is paid several times over.
Hence: ``inline="always"`` (numba's own inlining: the callee's code is typed into its caller's, and never
compiled alone) only for a big callee with one caller on the search's path that Python does not call
there, ``class_bound`` and ``_lookahead`` (0.8 s less CPU on mastermind's first run); not for small
helpers with several callers, where it retypes the callee at each call site and cost more than LLVM's
inlining, which takes small helpers anyway; no ``ndarray.sort`` (seven jitted helpers;
``sort_keys`` is one); no ``np.zeros`` or ``np.full`` (each dtype compiles numpy's overload, with a copy
of ``np.empty``, in every process: ``np.empty`` then ``a[:] = 0``, which is lowered in place); no
whole-array assignment into a row (it compiles a shape-mismatch message with string formatting); no
``ndarray.view`` (it compiles a jitted compatibility check per dtype: ``_words_as`` instead); and one
type per argument at every call site (``np.int64(-1)``, not a literal ``-1`` next to an int64 elsewhere;
int64 guesses), since each new combination of types is a new compilation.

Sentinels (one of each, used everywhere): ``INF`` is the cost of a set that no tree solves within the
depth left; it is large enough that sums of a few costs never overflow int64. ``NO_BOUND`` (> INF) is the
identity of ``min`` over bounds: "no guess was refuted, so no bound was found". It never leaves the
search: callers clamp with ``min(bound, INF)``. The memo's best guess of -1 (a value that is only a lower
bound) lives only here and in ``treegen.exact.memo.Memo``, which converts it to and from
``Cost.exact`` at the boundary.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np import arrayobj

from ..jitcache import ensure_cache

ensure_cache(__file__)  # before the first kernel: a read-only install must still compile (jitcache)

INF = np.int64(1) << 40
NO_BOUND = np.int64(1) << 62

# -- partitions ------------------------------------------------------------------------------------


@njit(cache=True)
def split_by_hint(table, guess, secrets, nslots):
    """Secrets grouped by their hint to ``guess``: (order, starts) with the class of hint h being
    ``order[starts[h]:starts[h + 1]]``; secrets keep their relative order inside a class."""
    row = table[guess]
    starts = np.empty(nslots + 1, dtype=np.int64)
    starts[:] = 0
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


# -- lookahead bounds for the exact search ---------------------------------------------------------


@njit(cache=True)
def _packed_counts(table, guesses, secrets, contiguous, words):
    """Per-guess class counters packed as 8-bit fields of 64-bit words (dense hints 0..8*words-1).

    The secrets loop is outermost and the guesses loop innermost, reading the symmetric table by
    rows, and the update is branch-free so the compiler vectorises it. Needs |secrets| <= 255.
    """
    ng = guesses.shape[0]
    w0 = np.empty(ng, dtype=np.uint64)
    w0[:] = 0
    w1 = np.empty(ng, dtype=np.uint64)
    w1[:] = 0
    w2 = np.empty(ng, dtype=np.uint64)
    w2[:] = 0
    seven = np.uint64(7)
    three = np.uint64(3)
    one = np.uint64(1)
    zero = np.uint64(0)
    for s in secrets:
        row = table[s]
        if words == 2 and contiguous:
            for k in range(ng):
                h = np.uint64(row[k])
                bit = one << ((h & seven) << three)
                high = zero - (h >> three)  # all ones for hints 8..15
                w0[k] += bit & ~high
                w1[k] += bit & high
        elif words == 2:
            for k in range(ng):
                h = np.uint64(row[guesses[k]])
                bit = one << ((h & seven) << three)
                high = zero - (h >> three)
                w0[k] += bit & ~high
                w1[k] += bit & high
        else:
            for k in range(ng):
                h = np.uint64(row[k] if contiguous else row[guesses[k]])
                bit = one << ((h & seven) << three)
                w = h >> three
                w0[k] += bit & (zero - np.uint64(w == 0))
                w1[k] += bit & (zero - np.uint64(w == 1))
                w2[k] += bit & (zero - np.uint64(w == 2))
    return w0, w1, w2


@njit(cache=True)
def _wide_counts(table, guesses, secrets, contiguous, words):
    """Per-guess class counters as 16-bit lanes of 64-bit words, for sets of more than 255 secrets (up to
    65535), where _packed_counts' bytes would overflow: the secrets are counted by _packed_counts 255 at a
    time, and each chunk's bytes are then added into the lanes. Row 2j holds the even bytes of word j
    (dense hints 8j, 8j + 2, 8j + 4, 8j + 6), row 2j + 1 the odd ones (read them with _lane)."""
    ng = guesses.shape[0]
    n = secrets.shape[0]
    wide = np.empty((6, ng), dtype=np.uint64)
    wide[:] = 0
    eight = np.uint64(8)
    even = np.uint64(0x00FF00FF00FF00FF)
    for first in range(0, n, 255):
        w0, w1, w2 = _packed_counts(table, guesses, secrets[first : min(first + 255, n)], contiguous, words)
        for k in range(ng):
            wide[0, k] += w0[k] & even
            wide[1, k] += (w0[k] >> eight) & even
            wide[2, k] += w1[k] & even
            wide[3, k] += (w1[k] >> eight) & even
            wide[4, k] += w2[k] & even
            wide[5, k] += (w2[k] >> eight) & even
    return wide


@njit(cache=True, inline="always")
def _lane(wide, h, k):
    """Guess k's class size for hint h in _wide_counts' lanes: lane (h & 7) >> 1 of row 2 (h >> 3) + (h & 1)."""
    return np.int64((wide[2 * (h >> 3) + (h & 1), k] >> np.uint64(16 * ((h & 7) >> 1))) & np.uint64(0xFFFF))


@njit(cache=True)
def _lane_bounds(wide, n, nh, win, lbtab, most, out):
    """Each guess k's lookahead bound from its class sizes in _wide_counts' lanes: ``out[k]`` = n + the sum
    over its non-winning classes C of the larger of lbtab[|C|] and 3|C| - ``most``; returns the least
    (``most`` < 0: first the set's most key, a guess's non-empty non-winning classes plus twice 1 if it is
    one of the secrets, is found from the same lanes and used)."""
    ng = out.shape[0]
    if most < 0:
        for k in range(ng):
            key = np.int64(0)
            for h in range(nh):
                if _lane(wide, h, k):
                    key += 2 if h == win else 1
            most = max(most, key)
    best = np.int64(1) << 62
    for k in range(ng):
        total = np.int64(n)
        for h in range(nh):
            if h != win:
                c = _lane(wide, h, k)
                total += max(lbtab[c], 3 * c - most)
        out[k] = total
        best = min(best, total)
    return best


@njit(cache=True)
def _nonzero_bytes(x):
    """How many of the eight bytes of x are not zero."""
    y = x | (x >> np.uint64(4))
    y |= y >> np.uint64(2)
    y |= y >> np.uint64(1)
    y &= np.uint64(0x0101010101010101)
    return np.int64((y * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _excess(x, t):
    """The sum over the eight byte counters c of x of max(0, c - t), for 0 <= t <= 255: each byte is
    widened to a 16-bit lane and offset by 0x8000 - t, so that bit 15 says c >= t and the low bits
    then hold c - t; the lanes' sum (at most 8 * 255) is gathered by one multiplication."""
    lanes = np.uint64(0x0001000100010001)
    bias = np.uint64(0x8000 - t) * lanes
    low = np.uint64(0x7FFF) * lanes
    even = (x & np.uint64(0x00FF00FF00FF00FF)) + bias
    odd = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) + bias
    keep_even = ((even >> np.uint64(15)) & lanes) * np.uint64(0xFFFF)
    keep_odd = ((odd >> np.uint64(15)) & lanes) * np.uint64(0xFFFF)
    v = (even & low & keep_even) + (odd & low & keep_odd)
    return np.int64((v * lanes) >> np.uint64(48))


@njit(cache=True)
def _guess_bound(table, guess, secrets, nh, win, lbtab, counts, most):
    """One guess's lookahead bound from a plain count of its classes: |secrets| + the sum over its
    non-winning classes C of the larger of lbtab[|C|] and 3|C| - ``most`` (see least_bound; 3|secrets|
    for lbtab alone); ``counts`` is scratch (nh).

    In games of at most 24 hints the table is symmetric (see exact.tables.dense_hints), and the hints are
    read from the secrets' rows (``table[s, guess]``): a caller bounding many guesses on one small set then
    reads the same few rows, which stay in cache, where each guess's own row (15 KB in bc:5:9, whose table
    is 228 MB) would be a new miss per secret (bc:5:9's class 0A1B of 480 secrets: 6.9 CPU s against
    18.2). Bigger games read the guess's row."""
    counts[:] = 0
    if nh <= 24:
        for s in secrets:
            counts[table[s, guess]] += 1
    else:
        row = table[guess]
        for s in secrets:
            counts[row[s]] += 1
    total = np.int64(secrets.shape[0])
    for h in range(nh):
        if h != win:
            total += max(lbtab[counts[h]], 3 * counts[h] - most)
    return total


@njit(cache=True)
def fast_bound_limit(lbtab):
    """The largest t (at most 255) with lbtab[c] = 2c - 1 for every 1 <= c <= t."""
    t = 0
    while t + 1 < lbtab.shape[0] and t < 255 and lbtab[t + 1] == 2 * (t + 1) - 1:
        t += 1
    return t


@njit(cache=True)
def excess_bound_limit(lbtab, t):
    """The largest t2 (at most 255) with lbtab[c] = 2c - 1 + max(0, c - t) for every 1 <= c <= t2."""
    t2 = 0
    while t2 + 1 < lbtab.shape[0] and t2 < 255 and lbtab[t2 + 1] == 2 * (t2 + 1) - 1 + max(0, t2 + 1 - t):
        t2 += 1
    return t2


@njit(cache=True)
def lookahead_bounds(table, guesses, secrets, nh, win, lbtab):
    """For each guess, |secrets| + sum over non-winning classes of lbtab[class size] (int64)."""
    return _lookahead(table, guesses, secrets, nh, win, lbtab, np.int64(3 * secrets.shape[0]))[0]


@njit(cache=True, inline="always")
def _lookahead(table, guesses, secrets, nh, win, lbtab, most):
    """``lookahead_bounds`` with the class counters it used: (bounds, w0, w1, w2, wide), the words of
    _packed_counts for sets of up to 255 secrets, else empty, and the lanes of _wide_counts for bigger sets
    of up to 65535, else empty (games of more than 24 hints count plainly, per guess, and keep neither).
    Each class C counts at least
    3|C| - ``most`` too, where ``most`` is the set's most key (see least_bound; 3n takes nothing from it).
    Inlined into ordered_guesses, the search's caller (and into lookahead_bounds, which the search does
    not call), so that it is not compiled and optimised a second time on its own.

    ``table`` holds dense hint ids (0..nh-1), ``win`` is the all-bulls id.

    Fast path: while lbtab[c] = 2c - 1 + max(0, c - t) for 1 <= c <= n (the counting bound's second
    level has room for t secrets of a class, its third for the rest), the sum over classes is
    2 * (secrets outside the winning class) - (non-empty non-winning classes) + (sum of max(0, c - t)),
    which packed counters give with a few word operations and no branch. The larger of that and
    3c - most is 2c - 1 + max(0, c - T) with T = min(t, most - 1) (for c <= t2, since most <= t there
    when T < t: the third level's 3c - 1 - t is then no more than 3c - most), so the same words give it.
    """
    n = secrets.shape[0]
    ng = guesses.shape[0]
    out = np.empty(ng, dtype=np.int64)
    contiguous = ng == table.shape[0]
    if n <= 255 and nh <= 24:
        t = fast_bound_limit(lbtab)
        t2 = excess_bound_limit(lbtab, t)
        tk = min(t, max(most - 1, np.int64(0)))  # T above
        words = 2 if nh <= 16 else 3
        w0, w1, w2 = _packed_counts(table, guesses, secrets, contiguous, words)
        wshift = np.uint64((win & 7) * 8)
        wmask = ~(np.uint64(255) << wshift)
        mask = np.uint64(255)
        if n <= t2:
            for k in range(ng):
                a = w0[k]
                b = w1[k]
                c = w2[k]
                # take the winning class out of its word
                if win < 8:
                    cwin = np.int64((a >> wshift) & mask)
                    a &= wmask
                elif win < 16:
                    cwin = np.int64((b >> wshift) & mask)
                    b &= wmask
                else:
                    cwin = np.int64((c >> wshift) & mask)
                    c &= wmask
                out[k] = (3 * n - 2 * cwin - _nonzero_bytes(a) - _nonzero_bytes(b) - _nonzero_bytes(c)
                          + _excess(a, tk) + _excess(b, tk) + _excess(c, tk))
            return out, w0, w1, w2, np.empty((0, 0), dtype=np.uint64)
        for k in range(ng):
            total = np.int64(n)
            for h in range(nh):
                if h == win:
                    continue
                w = w0[k] if h < 8 else (w1[k] if h < 16 else w2[k])
                c = np.int64((w >> np.uint64((h & 7) * 8)) & mask)
                total += max(lbtab[c], 3 * c - most)
            out[k] = total
        return out, w0, w1, w2, np.empty((0, 0), dtype=np.uint64)
    empty = np.empty(0, dtype=np.uint64)
    if nh <= 24 and n <= 65535:
        # Too many secrets for byte counters: 16-bit lanes, counted as fast (_wide_counts).
        wide = _wide_counts(table, guesses, secrets, contiguous, np.int64(2 if nh <= 16 else 3))
        _lane_bounds(wide, n, nh, win, lbtab, most, out)
        return out, empty, empty, empty, wide
    counts = np.empty(nh, dtype=np.int64)
    for k in range(ng):
        out[k] = _guess_bound(table, np.int64(guesses[k]), secrets, nh, win, lbtab, counts, most)
    return out, empty, empty, empty, np.empty((0, 0), dtype=np.uint64)


# -- sets up to symmetry (exact.memo.SetOrbits) -----------------------------------------------------------
# The group is every position permutation with every symbol permutation. A set's counts are how often
# each symbol stands at each position; each row (a symbol's counts) is one number, its counts as base
# n + 1 digits (exact while they fit in 63 bits; past that int64 wraps, which can only make two
# different rows look alike, never two alike rows different).


@njit(cache=True)
def _set_counts(digits, secrets, symbols):
    counts = np.empty((symbols, digits.shape[1]), dtype=np.int64)
    for s in range(symbols):
        for j in range(digits.shape[1]):
            counts[s, j] = 0
    for i in range(secrets.shape[0]):
        for j in range(digits.shape[1]):
            counts[digits[secrets[i], j], j] += 1
    return counts


@njit(cache=True)
def _perm_rows(counts, perm, base, rows):
    """Write into ``rows`` each symbol's counts at the positions ``perm`` lists, as one base ``base`` number."""
    for s in range(counts.shape[0]):
        v = np.int64(0)
        for j in range(perm.shape[0]):
            v = v * base + counts[s, perm[j]]
        rows[s] = v


@njit(cache=True)
def set_orbit_key(digits, secrets, symbols, perms, out):
    """Write into ``out`` (int64[symbols]) a key that every set the group maps ``secrets`` onto shares:
    the least, over the position permutations, of the sorted rows of the counts with their columns
    permuted (rows as numbers; see above)."""
    counts = _set_counts(digits, secrets, symbols)
    base = secrets.shape[0] + 1
    rows = np.empty(symbols, dtype=np.int64)
    for k in range(perms.shape[0]):
        _perm_rows(counts, perms[k], base, rows)
        sort_keys(rows)
        # keep the least in lexicographic order
        less = k == 0
        if not less:
            for s in range(symbols):
                if rows[s] != out[s]:
                    less = rows[s] < out[s]
                    break
        if less:
            for s in range(symbols):
                out[s] = rows[s]


@njit(cache=True)
def set_orbit_element(digits, values, order, place, source, target, symbols, perms, limit, mark, perm_out, sigma_out):
    """Whether some position permutation perm and symbol permutation sigma map the set ``source`` onto
    ``target`` (codes c to the code with digits sigma[digits[c][perm]], found by their base-``symbols``
    value among the sorted ``values``, ``order`` giving the codes in that order); if so they are left in
    ``perm_out`` and ``sigma_out``. Tries at most ``limit`` symbol maps per position permutation (then
    says no: a missed element only costs the search a memo hit). ``mark`` (int8[codes]) is scratch, all
    zero before and after.

    A symbol can only go to a symbol whose counts, at the permuted positions, are the same; symbols in
    neither set go to each other in order. The others are assigned by backtracking, and each full map is
    checked: every code of ``source`` must land in ``target`` (then, both of n distinct codes and the map
    one-to-one, the image is ``target``)."""
    n = source.shape[0]
    if target.shape[0] != n:
        return False
    positions = digits.shape[1]
    have = _set_counts(digits, source, symbols)
    goal = _set_counts(digits, target, symbols)
    base = n + 1
    goal_rows = np.empty(symbols, dtype=np.int64)
    _perm_rows(goal, perms[0], base, goal_rows)  # perms[0] is the identity (symmetry._permutations)
    want = np.empty(symbols, dtype=np.int64)
    for s in range(symbols):
        want[s] = goal_rows[s]
    sort_keys(want)
    rows = np.empty(symbols, dtype=np.int64)
    sorted_rows = np.empty(symbols, dtype=np.int64)
    used = np.empty(symbols, dtype=np.bool_)
    live = np.empty(symbols, dtype=np.int64)  # source symbols to assign, in order
    choice = np.empty(symbols, dtype=np.int64)
    for i in range(n):
        mark[target[i]] = 1
    found = False
    for k in range(perms.shape[0]):
        _perm_rows(have, perms[k], base, rows)
        for s in range(symbols):
            sorted_rows[s] = rows[s]
        sort_keys(sorted_rows)
        same = True
        for s in range(symbols):
            if sorted_rows[s] != want[s]:
                same = False
                break
        if not same:
            continue
        # absent symbols (a zero row) pair in order; the rest are live
        m = 0
        t = 0
        for s in range(symbols):
            used[s] = False
        for s in range(symbols):
            if rows[s] == 0:
                while goal_rows[t] != 0:
                    t += 1
                sigma_out[s] = t
                used[t] = True
                t += 1
            else:
                live[m] = s
                m += 1
        tries = 0
        level = 0
        choice[0] = -1
        while level >= 0 and not found and tries < limit:
            s = live[level]
            if choice[level] >= 0:
                used[choice[level]] = False
            t = choice[level] + 1
            while t < symbols and (used[t] or goal_rows[t] != rows[s]):
                t += 1
            if t == symbols:
                level -= 1
                continue
            choice[level] = t
            used[t] = True
            sigma_out[s] = t
            if level + 1 < m:
                level += 1
                choice[level] = -1
                continue
            tries += 1
            lands = True
            for i in range(n):
                v = np.int64(0)
                for j in range(positions):
                    v += sigma_out[digits[source[i], perms[k, j]]] * place[j]
                lo, hi = 0, values.shape[0]  # the code whose value is v (every image is a code)
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if values[mid] <= v:
                        lo = mid
                    else:
                        hi = mid
                if mark[order[lo]] == 0:
                    lands = False
                    break
            found = lands
        if found:
            for j in range(positions):
                perm_out[j] = perms[k, j]
            break
    for i in range(n):
        mark[target[i]] = 0
    return found


@njit(cache=True)
def sort_keys(keys):
    """Sort the int64 ``keys`` ascending, in place (**mutates** ``keys``): insertion sort up to 16 keys,
    else heapsort.

    Written out instead of ``keys.sort()``: numba builds its quicksort from seven jitted helpers, each
    compiled and optimised on its own, and on the first run after install they took longer to compile
    than ordered_guesses itself. Its callers' keys are distinct (ordered_guesses, split_classes) or only
    their sorted values count (set_orbit_key, set_orbit_element), so any sort gives the same result.
    """
    m = keys.shape[0]
    if m <= 16:
        for i in range(1, m):
            x = keys[i]
            j = i - 1
            while j >= 0 and keys[j] > x:
                keys[j + 1] = keys[j]
                j -= 1
            keys[j + 1] = x
        return
    # One loop for both phases: first sift down each inner node from the last (building a max-heap),
    # then move the maximum to the end of the shrinking heap and sift the new root down.
    start = m // 2
    end = m
    while end > 1:
        if start > 0:
            start -= 1
            root = start
        else:
            end -= 1
            x = keys[end]
            keys[end] = keys[0]
            keys[0] = x
            root = 0
        x = keys[root]
        while True:
            child = 2 * root + 1
            if child >= end:
                break
            if child + 1 < end and keys[child + 1] > keys[child]:
                child += 1
            if keys[child] <= x:
                break
            keys[root] = keys[child]
            root = child
        keys[root] = x


@njit(cache=True)
def ordered_guesses(table, guesses, secrets, nh, win, lbtab, ordering, beta, most, keys):
    """The guesses whose lookahead bound is below ``beta``, best first, with their bounds, and the
    least bound among the others (``beta``-or-more; NO_BOUND when there is none). Each class C counts
    the larger of lbtab[|C|] and 3|C| - ``most``, the set's most key (see least_bound; 3n: lbtab alone).

    Order: lowest bound, then a guess that is itself a possible secret (it may win at once), then the
    lowest code; with ``ordering`` False only the last two keys count (ablation). Sorting only the
    guesses below beta matters: most nodes keep a handful of thousands.

    ``keys``: every code's key over ``secrets`` (one byte per code, as least_bound's ``keys_only`` and
    shifted_most_key leave them; lbtab the counting bound, each class of c secrets at least 2c - 1), or
    empty. A guess's bound is at least its fast value 3n - key (every class C counts at least 2|C| - 1;
    see least_bound), so with keys only the guesses of fast value below beta have their classes counted,
    and of the others only those of fast value below the least bound found so far among the others: the
    rest cannot be below beta, nor lower that least bound. The result is the same as without keys. On
    bc:5:10's heaviest sampled set 3.4% of the guesses scanned had a fast value below beta.
    """
    ng = guesses.shape[0]
    n3 = 3 * np.int64(secrets.shape[0])
    every = guesses
    if keys.shape[0] > 0:
        below = np.empty(ng, dtype=every.dtype)
        m = 0
        for k in range(ng):
            if n3 - np.int64(keys[every[k]]) < beta:
                below[m] = every[k]
                m += 1
        if m < ng:
            guesses = below[:m]
    bounds, w0, w1, w2, wide = _lookahead(table, guesses, secrets, nh, win, lbtab, most)
    packed = w0.shape[0] > 0
    rest = NO_BOUND
    m = 0
    for k in range(guesses.shape[0]):
        if bounds[k] < beta:
            m += 1
        elif bounds[k] < rest:
            rest = bounds[k]
    counts = np.empty(nh, dtype=np.int64)
    if guesses.shape[0] < ng:
        # The guesses left out, each bounded by its fast value: counted only where that is below `rest`.
        for k in range(ng):
            f = n3 - np.int64(keys[every[k]])
            if beta <= f < rest:
                rest = min(rest, _guess_bound(table, np.int64(every[k]), secrets, nh, win, lbtab, counts, most))
    ng = guesses.shape[0]
    mark = np.empty(table.shape[0], dtype=np.bool_)
    mark[:] = False
    for s in secrets:
        mark[s] = True
    ranks = np.empty(m, dtype=np.int64)
    j = 0
    for k in range(ng):
        if bounds[k] < beta:
            g = np.int64(guesses[k])
            rank = np.int64(0)
            if ordering:
                # Among equal bounds, prefer the most even split (least sum of squared class sizes).
                sq = np.int64(0)
                if packed:
                    for h in range(nh):
                        w = w0[k] if h < 8 else (w1[k] if h < 16 else w2[k])
                        c = np.int64((w >> np.uint64((h & 7) * 8)) & np.uint64(255))
                        sq += c * c
                elif wide.shape[0] > 0:
                    for h in range(nh):
                        c = _lane(wide, h, k)
                        sq += c * c
                else:
                    counts[:] = 0
                    row = table[g]
                    for s in secrets:
                        counts[row[s]] += 1
                    for h in range(nh):
                        sq += counts[h] * counts[h]
                rank = (bounds[k] << 36) | (min(sq, np.int64(1 << 17) - 1) << 18)
            ranks[j] = rank | (np.int64(0) if mark[g] else (np.int64(1) << 35)) | g
            j += 1
    sort_keys(ranks)
    low = (np.int64(1) << 18) - 1
    out_g = np.empty(m, dtype=guesses.dtype)
    out_b = np.empty(m, dtype=np.int64)
    for j in range(m):
        g = ranks[j] & low
        out_g[j] = g
        out_b[j] = (ranks[j] >> 36) if ordering else np.int64(0)
    if not ordering:
        # recover the bounds, which the key did not carry
        for j in range(m):
            for k in range(ng):
                if guesses[k] == out_g[j]:
                    out_b[j] = bounds[k]
                    break
    return out_g, out_b, rest


@njit(cache=True)
def split_classes(table, guess, secrets, nh, win):
    """Secrets grouped by hint to ``guess``, for the search: (members, starts, big), where the class of
    dense hint h is ``members[starts[h]:starts[h + 1]]`` and ``big`` lists the non-winning hints whose
    classes have three or more secrets, largest class first (ties: lower hint first)."""
    members, starts = split_by_hint(table, guess, secrets, nh)
    sizes = np.empty(nh, dtype=np.int64)
    nbig = 0
    for h in range(nh):
        sizes[h] = starts[h + 1] - starts[h] if h != win else 0
        if sizes[h] >= 3:
            nbig += 1
    # One sort key per class, -size * 256 + h: dense hints are below 256 (uint8), so h is the key mod 256.
    keys = np.empty(nbig, dtype=np.int64)
    j = 0
    for h in range(nh):
        if sizes[h] >= 3:
            keys[j] = -sizes[h] * 256 + h
            j += 1
    sort_keys(keys)
    big = np.empty(nbig, dtype=np.int64)
    for j in range(nbig):
        big[j] = keys[j] % 256 if keys[j] % 256 >= 0 else keys[j] % 256 + 256
    return members, starts, big


if config.DISABLE_JIT:
    def _seen_key(mask, winbit):
        """popcount(mask) + popcount(mask & winbit) (see the intrinsic below), for NUMBA_DISABLE_JIT, where
        an intrinsic cannot run."""
        return np.uint8(int(mask).bit_count() + int(mask & winbit).bit_count())
else:
    @intrinsic
    def _seen_key(typingctx, mask, winbit):
        """popcount(mask) + popcount(mask & winbit) as a uint8, for a uint16 or uint32 mask of the hints a
        guess makes and winbit = 1 << the winning hint: that is the guess's non-winning classes plus twice 1
        if it is a secret (see least_bound). LLVM's ctpop, which the loop vectoriser turns into a few byte
        shuffles per 16 lanes on AVX2; numba's own integer arithmetic widens every lane to 64 bits, and a
        bit-twiddled popcount in it took 3.6 times as long on 10000 codes (7.6 us against 2.1)."""
        if not (isinstance(mask, types.Integer) and not mask.signed and mask == winbit):
            return None

        def codegen(context, builder, signature, args):
            x, w = args
            ctpop = builder.module.declare_intrinsic("llvm.ctpop", [x.type])
            key = builder.add(builder.call(ctpop, [x]), builder.call(ctpop, [builder.and_(x, w)]))
            return builder.trunc(key, ir.IntType(8)) if x.type.width > 8 else key

        return types.uint8(mask, winbit), codegen


if config.DISABLE_JIT:
    def _words_as(words, dtype):
        """``words.view(dtype)`` (see the intrinsic below), for NUMBA_DISABLE_JIT."""
        return words.view(dtype)
else:
    @intrinsic
    def _words_as(typingctx, words, dtype):
        """A 1-D C-contiguous uint64 array's memory viewed as a 1-D array of the integer ``dtype`` (a
        numpy scalar type or an array's ``.dtype``), as ``words.view(dtype)``. Written out because numba's
        ``view`` compiles a jitted compatibility check of about 0.15 s of CPU per dtype on the first run,
        in least_bound, whose compile is the longest link of the first run (scripts/first_run.py); here
        the checks it makes at run time hold by the types: the words are contiguous, and a word is a whole
        number of items of any integer dtype."""
        to = dtype.dtype if isinstance(dtype, types.DType) else getattr(dtype, "instance_type", None)
        if not (isinstance(words, types.Array) and words.dtype == types.uint64 and words.ndim == 1
                and words.layout == "C" and isinstance(to, types.Integer)):
            return None
        out = types.Array(to, 1, "C", readonly=not words.mutable)

        def codegen(context, builder, signature, args):
            src = arrayobj.make_array(words)(context, builder, args[0])
            view = arrayobj.make_array(out)(context, builder)
            size = context.get_abi_sizeof(context.get_data_type(to))
            per = ir.Constant(src.nitems.type, 8 // size)
            arrayobj.populate_array(view, data=builder.bitcast(src.data, view.data.type),
                                    shape=[builder.mul(src.nitems, per)],
                                    strides=[context.get_constant(types.intp, size)],
                                    itemsize=context.get_constant(types.intp, size), meminfo=src.meminfo)
            return impl_ret_borrowed(context, builder, out, view._getvalue())

        return out(words, dtype), codegen


# Keys are below this (a guess's classes plus 2, at most 33 hints with a one-hot table): a node's runs of
# codes of one key (least_bound) are at most this many; runs[0, RUNS] counts them.
RUNS = 64

# Sets up to this size take the hint-mask route in least_bound in games with a one-hot table; bigger ones
# count class sizes. (Raising it to 255 within a node cost bc:5:8's classes of 660 to 795 secrets 30% more
# time, for 35% less on its class of 1260.)
MASK_MAX = 64
# In a game without the table, a node's classes of up to this many secrets take the mask route, within its
# view (every other set counts class sizes): there counting passes over every code, 16807 in mm:5:7 and
# 30240 in bc:5:10, where the view takes the codes by key and stops early. mm:5:7's sets of 540 to 655
# secrets two guesses down took 3.7 to 21 s of CPU against 16 to 45 s with the limit at 64, and a sampled
# set of bc:5:10 three guesses down (355 secrets) 53 s against 79 s.
SHIFTED_MASK_MAX = 255


@njit(cache=True)
def least_bound(table, onehot, secrets, nh, win, lbtab, t, t2, w0, w1, keys_only, src, nkeys, order, runs,
                built, node):
    """The least one-step lookahead bound over every code as the guess, where each class C of a guess
    counts the larger of lbtab[|C|] and 3|C| - most, most being the set's most key (the plain bound of
    lookahead_bounds counts lbtab alone), or INF when no guess's classes all fit (under a cap, lbtab INF
    for big classes: every bound of INF or more means that); with ``keys_only``, the most key alone, for a set of any size
    in a game with a one-hot table. **Mutates** the scratch words ``w0``, ``w1``: with ``keys_only`` the
    keys are left in ``w1`` viewed as bytes, one per code.

    A guess's key over a set is its non-empty non-winning classes plus twice 1 if it is one of the
    secrets; the set's most key is the most over every code. Why 3|C| - most: any guess g' on C costs
    |C| + sum over its non-winning classes D of at least 2|D| - 1, that is 3|C| - key_C(g') >= 3|C| -
    key_S(g') >= 3|C| - most, since C is a subset of the set S and a guess's classes over a subset are
    among its classes over the set. It passes the counting bound when no guess splits S finely: in a set
    whose most key is 11 (numbers-baseball's counting bound assumes 15), classes of more than 10 secrets
    cost more than the counting bound says. (The search takes a node's most key this way too: see
    next_open_guess. The keys are computed here, not in a function of their own, because a jitted
    callee cost class_bound's compile about 0.4 s on the first run.)

    Specialised for sets of at most MASK_MAX secrets in games with a one-hot table (``onehot``, see
    exact.tables.onehot_table; an empty stand-in of the masks' type for a game that has none, whose sets
    of up to SHIFTED_MASK_MAX secrets take the mask route within a node), or at most 255 secrets in games
    of at most 24 hints (callers check; see class_bound), with scratch words ``w0``, ``w1`` (one per code) passed
    in to spare allocations: this is the search's innermost loop. ``t`` is the largest size with
    lbtab[c] = 2c - 1 for 1 <= c <= t, and ``t2`` the largest with lbtab[c] = 2c - 1 + max(0, c - t)
    for 1 <= c <= t2 (see _excess).

    Small sets need no class sizes. Every class of c >= 1 secrets costs at least 2c - 1 (one guess
    for the first, two for each other), so a guess costs at least

        fast = n + sum over non-empty non-winning classes of (2c - 1) = 3n - 2 cwin - (classes)

    where classes counts its non-empty non-winning classes and cwin is 1 when it is a secret; one
    mask of the hints seen per guess gives both: the OR of the guess's one-hot entries (``onehot[s, g]``
    = 1 << the dense hint of g on s), with no shift per pair, 16 lanes to an AVX2 register for games of
    at most 16 hints (uint16), 8 for up to 32 (uint32), counted by LLVM's vectorised popcount
    (_seen_key). While n <= min(t, most - 1) this is the exact bound. Above
    t, the guesses are checked in order of rising fast value, each against its exact bound from
    its class sizes, until the least exact bound found is no more than the next fast value (the fast
    value still bounds the raised classes: max(lbtab[c], 3c - most) >= 2c - 1).

    **Within a node** (``order`` not empty): the set is a class of a guess over the node's set ``node``,
    and a code's key over a subset is at most its key over the set (its classes over the subset are
    among its classes over the set), so the node's keys ``nkeys`` bound every class's. The first class
    to need them sorts the codes into ``order`` by their key over ``node``, highest first, in runs of one
    key, run i ending at ``runs[0, i]`` with key ``runs[1, i]`` (``runs[0, RUNS]``: the runs, -1 until
    sorted). The codes are taken run by run: first until the most key is known (the next run's key
    is no more than the most seen), then whenever the next run may hold a code of the fast value being
    checked (its codes' fast values are at least 3n - its key) and none of the codes taken has that value
    as its exact bound. What was left untaken cannot change the
    result, so it is the same as over every code, for a fraction of the codes: on the classes of
    numbers-baseball's sets of 64 to 150 secrets, 10 to 14% of the code-secret pairs (two samples). The
    hint masks are read from ``src``, the node's one-hot rows with their columns in ``order`` (``src[r, j]
    = onehot[node[r], order[j]]``), row r filled as far as ``built[r]`` and further on demand, so that
    each pass reads contiguous memory.
    Empty ``order``: every code, in code order, from ``onehot``.
    """
    n = secrets.shape[0]
    ng = table.shape[0]
    within = order.shape[0] > 0 and not keys_only
    if not keys_only and (n > (MASK_MAX if onehot.shape[0] > 0 else SHIFTED_MASK_MAX)
                          or (onehot.shape[0] == 0 and not within)):
        return _least_bound_counted(table, secrets, nh, win, lbtab, t, t2, w0, w1)
    masks = _words_as(w0, onehot.dtype)[:ng]
    keys = _words_as(w1, np.uint8)[:ng]
    if within and runs[0, RUNS] < 0:
        # The node's codes by their keys over it, highest first (a counting sort: codes in code order
        # within a run), once per node, by the first class that needs them.
        at = np.empty(RUNS, dtype=np.int64)
        at[:] = 0
        for k in range(ng):
            at[nkeys[k]] += 1
        r = 0
        end = 0
        for key in range(RUNS - 1, -1, -1):
            if at[key] > 0:
                end += at[key]
                at[key] = end - at[key]
                runs[0, r] = end
                runs[1, r] = key
                r += 1
        for k in range(ng):
            order[at[nkeys[k]]] = k
            at[nkeys[k]] += 1
        runs[0, RUNS] = r
    nruns = runs[0, RUNS] if within else 1
    rows = secrets  # each secret's row: of onehot (a code), or within a node of src (its place in node)
    if within:
        rows = np.empty(n, dtype=secrets.dtype)
        i = 0
        for j in range(n):  # both sorted, and secrets is a subset of node
            while node[i] != secrets[j]:
                i += 1
            rows[j] = i
    # 1 and the winning hint's bit in the masks' own type (the key below needs both operands of one unsigned
    # type to stay in narrow lanes; numba widens a shift of a uint16 or uint32 to 64 bits), typed by a store
    # into the first mask, which the first run of codes below zeroes before any mask is read (no allocation
    # in the search's innermost kernel).
    masks[0] = 1
    one = masks[0]
    masks[0] = np.int64(1) << win
    winbit = masks[0]
    last = n - 1
    taken = 0  # codes (columns) whose keys are known: order[:taken], or codes 0..taken-1
    checked = 0  # of those, the first `checked` have been checked at the current level
    run = 0
    seen = np.uint8(0)
    most = np.int64(0)
    level = np.int64(-1)  # -1 until the most key is known, then the fast value being checked
    best = np.int64(1) << 62
    counts = np.empty(nh, dtype=np.int64)
    # Under a cap, a class of more than `fit` secrets (lbtab INF) cannot be solved in time, so a guess whose
    # bound is finite puts the n - cwin secrets it does not win into classes of at most `fit`: it makes at
    # least (n - cwin) / fit of them, and its key (those classes + 2 cwin) is at least ceil(n / fit) either
    # way. Every code of a lower key is INF, so once no code of key `kmin` or more is left unchecked (the
    # level passes 3n - kmin), the least bound is the best found or INF. Without this, a set that no guess
    # solves in time had every code checked one by one: on numbers-baseball's 210 secrets after 0123, 1456
    # and 4078 with 4 guesses left, 25,000 of the 31,000 scans were sets of at most 14 secrets that no guess
    # tells apart, with 2 guesses left (kmin = n: only the codes of the top keys are looked at now).
    fit = n
    while lbtab[fit] >= INF:
        fit -= 1
    # (With no class allowed at all, only a guess that wins alone fits: the one secret of a set of one.)
    kmin = (n + fit - 1) // fit if fit > 0 else (2 if n == 1 else 3 * n + 1)
    while True:
        # Invariant: every guess whose fast value is below `level` has been checked exactly; exact >= fast,
        # so no unchecked guess can beat `level`, and once best <= level, best is the least. Past 3n - kmin
        # only codes of keys below kmin are left, each INF (without a cap kmin is 1 and none is left: every
        # key is at least 1, as a guess makes a class or wins); under a cap every exact bound may be INF,
        # and best then never falls to the level. Any bound of INF or more means the same (no tree fits):
        # it is returned as INF, by every route.
        if level >= 0 and (level >= best or level > 3 * n - kmin):
            return min(best, INF)
        # Take the next run of codes while the most key may lie in it, or a code of fast value `level`
        # may once the codes taken have been checked at this level (the first run always: without a node
        # it is every code).
        if run < nruns and (run == 0 or (level < 0 and np.int64(seen) < runs[1, run])
                            or (level >= 0 and checked == taken and 3 * n - runs[1, run] <= level)):
            stop = runs[0, run] if within else ng
            # The run's columns as slices from 0: numba checks an index from range(taken, stop) for
            # wraparound (it could be negative), which keeps these loops from vectorising (8 times as slow).
            width = stop - taken
            part = masks[taken:stop]
            part[:] = 0
            # Four rows per pass over the codes: the masks are loaded and stored once for four rows, not
            # once per row (about 25% less time with shifted bytes). A short last group repeats a row,
            # which adds no bit.
            if within:
                # Each row is filled as far as a class of its secret needed, no further: the few classes
                # that need almost every code do not make every row pay for them.
                for j in range(n):
                    r = rows[j]
                    have = built[r]
                    if have < stop:
                        more = order[have:stop]
                        fill = src[r, have:stop]
                        if onehot.shape[0] > 0:
                            row = onehot[node[r]]
                            for k in range(more.shape[0]):
                                fill[k] = row[more[k]]
                        else:
                            # A game without a one-hot table (of at most 24 hints: callers check, so its
                            # table is symmetric and row s holds the hints of every code on s): the same
                            # bits, each hint shifted into place.
                            hrow = table[node[r]]
                            for k in range(more.shape[0]):
                                fill[k] = one << hrow[more[k]]
                        built[r] = stop
                for j in range(0, n, 4):
                    sa = src[rows[j], taken:stop]
                    sb = src[rows[min(j + 1, last)], taken:stop]
                    sc = src[rows[min(j + 2, last)], taken:stop]
                    sd = src[rows[min(j + 3, last)], taken:stop]
                    for k in range(width):
                        part[k] |= (sa[k] | sb[k]) | (sc[k] | sd[k])
            else:
                # The same pass over the read-only table: numba types it apart from the writable src, so one
                # loop cannot take either (and a helper for both would be compiled twice on the first run).
                for j in range(0, n, 4):
                    ra = onehot[secrets[j], taken:stop]
                    rb = onehot[secrets[min(j + 1, last)], taken:stop]
                    rc = onehot[secrets[min(j + 2, last)], taken:stop]
                    rd = onehot[secrets[min(j + 3, last)], taken:stop]
                    for k in range(width):
                        part[k] |= (ra[k] | rb[k]) | (rc[k] | rd[k])
            got = keys[taken:stop]
            for k in range(width):
                key = _seen_key(part[k], winbit)  # classes + 2 cwin, so that guess k's fast value is 3n - key
                got[k] = key
                seen = max(seen, key)
            taken = stop
            run += 1
            continue
        if level < 0:
            # Every code not taken has a key of at most the next run's, no more than the most seen.
            most = np.int64(seen)
            if keys_only:
                return most
            level = np.int64(3 * n) - most
            if n <= min(t, most - 1):
                # A class of c <= min(t, most - 1) secrets counts exactly 2c - 1 (lbtab's, and 3c - most is
                # no more), so every guess's bound is its fast value.
                return level
            continue  # the runs that may hold a code of this fast value come first
        target = np.int64(3 * n) - level  # the key of a guess of fast value `level`
        if checked < taken:
            # The codes taken since the last check, before any further run: a guess of fast value `level`
            # whose exact bound is `level` ends the scan (by the invariant nothing is lower), so the runs
            # after it need not be keyed at all. Most scans end at their first level, on a code of the runs
            # the most key was found in: on bc:5:10's heaviest sampled set this left a third of the codes
            # unkeyed (4.15e9 code-class pairs keyed instead of 6.21e9; 8% less CPU). The value is the same.
            for k in range(checked, taken):
                if keys[k] != target:
                    continue
                code = order[k] if within else k
                v = _guess_bound(table, np.int64(code), secrets, nh, win, lbtab, counts, most)
                if v < best:
                    best = v
                    if best <= level:
                        break
            checked = taken
            continue
        level += 1
        checked = 0  # every code taken has yet to be checked at the next level


@njit(cache=True)
def shifted_most_key(table, secrets, nh, win, w0, w1):
    """The set's most key over every code (see least_bound), for a game without a one-hot table: the same
    hint masks, each pair's hint shifted into place from the byte table (reading a byte a pair, it takes
    less time than the four-byte one-hot table: 0.06 ns a pair against 0.14 on bc:5:8's sets of 300 secrets
    and more). **Mutates** the scratch words ``w0`` (the masks, as uint32) and ``w1``, where it leaves each
    code's key, as least_bound's ``keys_only`` does. For games of at most 24 hints (callers check): it reads
    ``table[s]`` as the hints of every code on s, which holds for their symmetric tables (see
    exact.tables.dense_hints), and a hint's bit fits a uint32."""
    n = secrets.shape[0]
    ng = table.shape[0]
    masks = _words_as(w0, np.uint32)[:ng]
    masks[:] = 0
    one = np.uint32(1)
    last = n - 1
    # Four rows per pass over the codes, as in least_bound: each mask loaded and stored once for four
    # secrets. A short last group repeats a row, which adds no bit.
    for j in range(0, n, 4):
        ra = table[secrets[j]]
        rb = table[secrets[min(j + 1, last)]]
        rc = table[secrets[min(j + 2, last)]]
        rd = table[secrets[min(j + 3, last)]]
        for k in range(ng):
            masks[k] |= ((one << np.uint32(ra[k])) | (one << np.uint32(rb[k]))) | (
                (one << np.uint32(rc[k])) | (one << np.uint32(rd[k])))
    winbit = np.uint32(one << np.uint32(win))  # (numba widens a shifted uint32 to uint64)
    keys = _words_as(w1, np.uint8)[:ng]
    most = np.uint8(0)
    for k in range(ng):
        key = _seen_key(masks[k], winbit)
        keys[k] = key
        most = max(most, key)
    return np.int64(most)


@njit(cache=True)
def _least_bound_counted(table, secrets, nh, win, lbtab, t, t2, w0, w1):
    """least_bound from per-guess class sizes packed in bytes (the route for big sets): two words of
    eight byte counters per code in the scratch ``w0``, ``w1`` for up to 16 hints, and a third word,
    allocated here, for up to 24 (five-position games have 20). The set's most key comes from the
    same counters: a guess's key is its non-zero bytes, plus one more if its winning byte is non-zero."""
    n = secrets.shape[0]
    ng = table.shape[0]
    zero = np.uint64(0)
    one = np.uint64(1)
    seven = np.uint64(7)
    three = np.uint64(3)
    words3 = nh > 16
    w2 = np.empty(ng if words3 else 0, dtype=np.uint64)
    w2[:] = 0
    w0[:] = 0
    w1[:] = 0
    for s in secrets:
        row = table[s]
        if words3:
            for k in range(ng):
                h = np.uint64(row[k])
                bit = one << ((h & seven) << three)
                w = h >> three
                w0[k] += bit & (zero - np.uint64(w == 0))
                w1[k] += bit & (zero - np.uint64(w == 1))
                w2[k] += bit & (zero - np.uint64(w == 2))
        else:
            for k in range(ng):
                h = np.uint64(row[k])
                bit = one << ((h & seven) << three)
                high = zero - (h >> three)
                w0[k] += bit & ~high
                w1[k] += bit & high
    wshift = np.uint64((win & 7) * 8)
    keep = ~(np.uint64(255) << wshift)
    byte = np.uint64(255)
    most = np.int64(0)
    for k in range(ng):
        a = w0[k]
        b = w1[k]
        c = w2[k] if words3 else zero
        won = a if win < 8 else (b if win < 16 else c)
        key = _nonzero_bytes(a) + _nonzero_bytes(b) + _nonzero_bytes(c) + np.int64((won >> wshift) & byte != zero)
        most = max(most, key)
    best = np.int64(1) << 62
    if n <= t2:
        # Every class costs exactly 2c - 1 + max(0, c - tk), tk = min(t, most - 1): lbtab's 2c - 1 + max(0,
        # c - t), raised to 3c - most where that is more (from c = most on, as most <= t whenever tk < t:
        # a class passing t then counts 3c - most >= lbtab's 3c - 1 - t). Branch-free, so the loop
        # vectorises (the test of words3 does not change inside it, so the compiler hoists it).
        tk = min(np.int64(t), most - 1)
        for k in range(ng):
            a = w0[k]
            b = w1[k]
            c = w2[k] if words3 else zero
            if win < 8:
                cwin = np.int64((a >> wshift) & byte)
                a &= keep
            elif win < 16:
                cwin = np.int64((b >> wshift) & byte)
                b &= keep
            else:
                cwin = np.int64((c >> wshift) & byte)
                c &= keep
            value = 3 * n - 2 * cwin - _nonzero_bytes(a) - _nonzero_bytes(b) + _excess(a, tk) + _excess(b, tk)
            if words3:
                value += _excess(c, tk) - _nonzero_bytes(c)
            if value < best:
                best = value
        return best
    for k in range(ng):
        value = np.int64(n)
        for h in range(nh):
            if h != win:
                w = w0[k] if h < 8 else (w1[k] if h < 16 else w2[k])
                c = np.int64((w >> np.uint64((h & 7) * 8)) & byte)
                value += max(lbtab[c], 3 * c - most)
        if value < best:
            best = value
    return min(best, INF)  # any bound past INF means the same: no tree fits (see least_bound)


@njit(cache=True)
def member_splits(table, secrets, nslots):
    """(the first secret that tells all the others apart, or -1; the most classes that any secret
    splits the others into), trying only the secrets themselves as guesses: n * n work.

    A secret that tells all the others apart solves the set with 2n - 1 guesses in all, the least any
    tree can: n for the guess itself, one more for each of the n - 1 others, each alone in its class.
    """
    seen = np.empty(nslots, dtype=np.bool_)
    n = secrets.shape[0]
    most = 0
    for g in secrets:
        row = table[g]
        seen[:] = False
        classes = 0
        for s in secrets:
            if s == g:
                continue
            h = row[s]
            if not seen[h]:
                seen[h] = True
                classes += 1
        if classes == n - 1:
            return np.int64(g), classes
        if classes > most:
            most = classes
    return np.int64(-1), most


# -- the exact search's memo and its inner loop ------------------------------------------------------
#
# The memo is an open-addressing hash table over plain arrays, so that the search's inner loop can read
# and write it without leaving compiled code. An entry keys a set of secrets (compared in full, so no
# hash collision can mix two sets up) with a key depth, and holds a value with the best guess (-1 when
# the value is only a lower bound, -2 when it is exact but its guess is still to find: exact.memo.GUESS_TO_FIND;
# the kernels read only values). The caller keeps room for the entries a call may add (see
# Memo.make_room in exact/memo.py); next_guess stops and asks when it might run out.
#   slots  int64[2**k]: entry index or -1 (empty); kept at most half full
#   ent    int64[(m, 6)]: hash, key depth, offset and length of the secrets in pool, value, best guess
#   pool   int32: the secrets of every entry, back to back
#   state  int64[2]: entries used, pool used
#   zob    int64: a random 62-bit number per code; a set's hash is their sum (with its key depth)

MEMO_HASH, MEMO_DEPTH, MEMO_OFF, MEMO_LEN, MEMO_VALUE, MEMO_BEST = 0, 1, 2, 3, 4, 5
STAT_NODES, STAT_HITS, STAT_SCANS = 0, 1, 2


@njit(cache=True)
def _set_hash(zob, secrets, keydepth):
    h = np.uint64(keydepth) * np.uint64(0x9E3779B97F4A7C15)
    for s in secrets:
        h += np.uint64(zob[s])
    return np.int64(h & np.uint64(0x3FFFFFFFFFFFFFFF))


@njit(cache=True)
def memo_find(slots, ent, pool, zob, secrets, keydepth):
    """The memo entry of ``secrets`` at ``keydepth``, or -1; with the slot where it is or would go."""
    h = _set_hash(zob, secrets, keydepth)
    n = secrets.shape[0]
    mask = slots.shape[0] - 1
    i = h & mask
    while True:
        e = slots[i]
        if e < 0:
            return np.int64(-1), i
        if ent[e, MEMO_HASH] == h and ent[e, MEMO_DEPTH] == keydepth and ent[e, MEMO_LEN] == n:
            off = ent[e, MEMO_OFF]
            same = True
            for j in range(n):
                if pool[off + j] != secrets[j]:
                    same = False
                    break
            if same:
                return e, i
        i = (i + 1) & mask


@njit(cache=True)
def memo_put(slots, ent, pool, state, zob, secrets, keydepth, value, best):
    """Record (value, best) for ``secrets`` at ``keydepth``, replacing what was there. Needs room for
    one entry and len(secrets) pool places. **Mutates** the memo arrays."""
    e, i = memo_find(slots, ent, pool, zob, secrets, keydepth)
    if e < 0:
        e = state[0]
        state[0] += 1
        off = state[1]
        n = secrets.shape[0]
        state[1] += n
        for j in range(n):
            pool[off + j] = secrets[j]
        ent[e, MEMO_HASH] = _set_hash(zob, secrets, keydepth)
        ent[e, MEMO_DEPTH] = keydepth
        ent[e, MEMO_OFF] = off
        ent[e, MEMO_LEN] = n
        slots[i] = e
    ent[e, MEMO_VALUE] = value
    ent[e, MEMO_BEST] = best


@njit(cache=True)
def memo_rehash(slots, ent, count):
    """Fill empty ``slots`` (all -1) with the first ``count`` entries. **Mutates** ``slots``."""
    mask = slots.shape[0] - 1
    for e in range(count):
        i = ent[e, MEMO_HASH] & mask
        while slots[i] >= 0:
            i = (i + 1) & mask
        slots[i] = e


@njit(cache=True)
def _room(slots, ent, pool, state, entries, places):
    return (state[0] + entries <= ent.shape[0] and 2 * (state[0] + entries) <= slots.shape[0]
            and state[1] + places <= pool.shape[0])


@njit(cache=True, inline="always")
def class_bound(table, onehot, secrets, depth, keydepth, nh, win, lb, tlim, t2lim,
                slots, ent, pool, state, zob, w0, w1, stats, src, nkeys, order, runs, built, node):
    """A lower bound on the cost of ``secrets`` within ``depth`` guesses, without searching: the
    memoised value or bound if there is one, else the least one-step lookahead bound over every code
    as the guess, classes counting at least 3|C| - the set's most key (see least_bound; each guess
    costs at least its lookahead bound, so the best one does too), which is memoised. Needs memo room
    for one entry and len(secrets) pool places. ``src``, ``nkeys``, ``order``, ``runs``, ``built``, ``node``:
    the node whose class ``secrets`` is, for least_bound (an empty ``order``: none). **Mutates** the memo
    arrays, the scratch words, ``stats`` and the node's ``src``, ``order``, ``runs`` and ``built``.

    Inlined into next_open_guess, its one caller in the search (see the module's docstring): compiled
    alone, it and the least_bound linked into it were optimised once for it and again for that caller."""
    n = secrets.shape[0]
    if n <= 2 or lb[depth, n] >= INF:
        return lb[depth, n]
    e, _ = memo_find(slots, ent, pool, zob, secrets, keydepth)
    if e >= 0:
        return ent[e, MEMO_VALUE]
    if lb[depth, n] == 2 * n - 1:
        # A secret that tells all the others apart is an optimal guess (see member_splits), and the
        # first such in code order is the one the full search would choose.
        g, most = member_splits(table, secrets, nh)
        if g >= 0:
            memo_put(slots, ent, pool, state, zob, secrets, keydepth, 2 * n - 1, g)
            return 2 * n - 1
        if n <= tlim[depth - 1] and most == n - 2:
            # The least lookahead bound without the scan: while every class costs 2c - 1 (n is within
            # the fast limit), a guess costs 3n - 2[it is a secret] - (its non-empty non-winning
            # classes). A secret splitting the others into n - 2 classes costs 2n; no secret does
            # better (none splits them all), and any other guess makes at most n classes, so costs
            # at least 2n too.
            memo_put(slots, ent, pool, state, zob, secrets, keydepth, 2 * n, np.int64(-1))
            return 2 * n
    stats[STAT_SCANS] += 1
    lbtab = lb[depth - 1]
    if (n <= MASK_MAX and onehot.shape[0] > 0) or (n <= 255 and nh <= 24):
        # np.bool_: a bare False would be typed Literal[bool] and compile least_bound a second time
        value = least_bound(table, onehot, secrets, nh, win, lbtab, tlim[depth - 1], t2lim[depth - 1], w0, w1,
                            np.bool_(False), src, nkeys, order, runs, built, node)
    elif n <= 65535 and nh <= 24:
        # Too many secrets for byte counters: 16-bit lanes, counted 255 secrets at a time as fast, then the
        # set's most key and each code's bound from its class sizes. On numbers-baseball a plain count took
        # 9.7 ns a code-secret pair at 256 secrets against 0.4 by bytes, and a subproblem of 976 secrets,
        # whose time went into its classes' least bounds, 18.8 s of CPU against 1.6 s with lanes.
        # (Here, not in least_bound: its compile is the first run's longest link, while the main process
        # has compiled these two for ordered_guesses by the time this is typed; see exact.warmup.AHEAD.)
        codes = np.empty(table.shape[0], dtype=secrets.dtype)  # every code, in order: no guess is read
        wide = _wide_counts(table, codes, secrets, np.bool_(True), np.int64(2 if nh <= 16 else 3))
        value = min(_lane_bounds(wide, n, nh, win, lbtab, np.int64(-1), np.empty(table.shape[0], dtype=np.int64)), INF)
    else:
        # Sets of more than 64 secrets in games of more than 24 hints, or any set of such a game without a
        # one-hot table: plain counts.
        # First the set's most key (a guess's non-empty non-winning classes, plus twice 1 if it is a
        # secret), then each guess's bound with it (see least_bound).
        counts = np.empty(nh, dtype=np.int64)
        most = np.int64(0)
        for g in range(table.shape[0]):
            row = table[g]
            counts[:] = 0
            for s in secrets:
                counts[row[s]] += 1
            key = np.int64(0)
            for h in range(nh):
                if counts[h] > 0:
                    key += 2 if h == win else 1
            most = max(most, key)
        value = INF  # any bound past INF means the same: no tree fits (see least_bound)
        for g in range(table.shape[0]):
            value = min(value, _guess_bound(table, np.int64(g), secrets, nh, win, lbtab, counts, most))
    memo_put(slots, ent, pool, state, zob, secrets, keydepth, value, np.int64(-1))
    return value


@njit(cache=True)
def next_open_guess(table, onehot, guesses, bounds, start, least, secrets, beta, most, depth, capped, nh, win, lb,
                    tlim, t2lim, lookahead, ordering, two_phase, scan_all, slots, ent, pool, state, zob, w0, w1,
                    stats, src, nkeys, order, runs, built):
    """The search's loop over the guesses of one set, up to the next guess that needs a search.
    **Mutates** the memo arrays, the scratch words and ``stats``.

    ``guesses`` come best-first with their lookahead ``bounds`` (ordered_guesses). From ``start``,
    each guess g is bounded more tightly without searching: its big classes (three or more secrets;
    smaller ones cost exactly their counting bound) are raised from their counting bound to their
    memoised value or bound, and then to their own least lookahead bound (class_bound), until the
    total reaches ``beta``. Returns (status, idx, total, members, starts, big, base, least):

    - status 0: guesses[idx] is still below beta. ``total`` = n + the bounds of its classes, where
      big class j (``members[starts[big[j]]:starts[big[j] + 1]]``, largest first) counts ``base[j]``:
      the caller searches those classes.
    - status 1: no guess from ``start`` on gets below beta.
    - status 2: the memo may run out of room; grow it and call again from ``idx``.

    ``least`` is the least of the given ``least`` (the least bound >= beta found before, or NO_BOUND) and
    the bounds of the guesses refuted in this call.
    ``capped``: the depth is part of memo keys (it matters only under a cap on guesses). ``scan_all``:
    raise every big class, even past beta (the parallel coordinator's accounting: it counts those scans
    in the node figures that shipped files record; the values and the tree are the same either way).
    ``src``, ``nkeys``, ``order``, ``runs``, ``built``: the node's codes by their keys over ``secrets``, for
    its classes' least bounds (see least_bound; an empty ``order`` for every code in code order).
    """
    n = secrets.shape[0]
    classes_lb = lb[depth - 1]
    ckey = depth - 1 if capped else 0
    empty_big = np.empty(0, dtype=np.int64)
    none = secrets[:0].copy()
    no_starts = np.empty(nh + 1, dtype=np.int64)
    no_starts[:] = 0
    for idx in range(start, guesses.shape[0]):
        total = bounds[idx]
        if total >= beta:
            # beta fell since the guesses were filtered; sorted by bound, no later guess beats it either
            least = min(least, total)
            if ordering:
                break
            continue
        if not _room(slots, ent, pool, state, nh, n):
            return 2, idx, total, none, no_starts, empty_big, empty_big, least
        members, starts, big = split_classes(table, np.int64(guesses[idx]), secrets, nh, win)
        if not lookahead:
            # The flat bound was only for ordering and cut-offs; the bookkeeping below needs the
            # exact sum n + sum of class bounds, with classes of one or two secrets exact.
            total = np.int64(n)
            for h in range(nh):
                if h != win:
                    c = starts[h + 1] - starts[h]
                    total += max(classes_lb[c], 3 * c - most)
            if total >= beta:
                least = min(least, total)
                continue
        base = np.empty(big.shape[0], dtype=np.int64)
        for j in range(big.shape[0]):
            # As in the guess's bound (ordered_guesses): a class C costs at least its counting bound,
            # and at least 3|C| - most, since every guess g' on C costs |C| + sum over its non-winning
            # classes D of at least 2|D| - 1, that is 3|C| - key_C(g'), and key_C(g') <= key_S(g') <= most
            # as C is a subset of S (see least_bound).
            c = starts[big[j] + 1] - starts[big[j]]
            base[j] = max(classes_lb[c], 3 * c - most)
        if two_phase:
            # Bounds already in the memo cost nothing: take them all before scanning any class. (Each
            # is a lower bound on the class, so the larger of it and the class's bound so far is too.)
            known = np.empty(big.shape[0], dtype=np.bool_)
            known[:] = False
            for j in range(big.shape[0]):
                if total >= beta and total >= least and not scan_all:
                    # Refuted, and its total can only grow past the least bound already found: the
                    # classes left would change neither what is returned nor what is counted.
                    break
                h = big[j]
                e, _ = memo_find(slots, ent, pool, zob, members[starts[h]:starts[h + 1]], ckey)
                if e >= 0:
                    value = max(ent[e, MEMO_VALUE], base[j])
                    total += value - base[j]
                    base[j] = value
                    known[j] = True
            if total < beta or scan_all:
                for j in range(big.shape[0]):
                    if known[j]:
                        continue
                    h = big[j]
                    value = class_bound(table, onehot, members[starts[h]:starts[h + 1]], depth - 1, ckey, nh, win,
                                        lb, tlim, t2lim, slots, ent, pool, state, zob, w0, w1, stats,
                                        src, nkeys, order, runs, built, secrets)
                    value = max(value, base[j])
                    total += value - base[j]
                    base[j] = value
                    if total >= beta and not scan_all:
                        break
        if total >= beta:
            least = min(least, total)
            continue
        return 0, idx, total, members, starts, big, base, least
    return 1, guesses.shape[0], np.int64(0), none, no_starts, empty_big, empty_big, least


# -- the certificate's claims (exact.certify) ----------------------------------------------------------


@njit(cache=True)
def cached_key_bound(table, onehot, cls, nh, win, lb0, w0, w1, src, nkeys, order, runs, built,
                      kslots, kent, kpool, kstate, kzob):
    """A class's own key bound, 3|C| - its most key over every code (see least_bound; the certificate
    checker's rule 4), looked up in or added to the cache table ``k*`` (memo arrays, key depth 0) when it
    has room; 0 in a game of more than 24 hints without a one-hot table. **Mutates** the scratch words and
    the cache."""
    if onehot.shape[0] == 0 and nh > 24:
        return np.int64(0)
    e, _ = memo_find(kslots, kent, kpool, kzob, cls, 0)
    if e >= 0:
        return kent[e, MEMO_VALUE]
    if onehot.shape[0] == 0:
        most = shifted_most_key(table, cls, nh, win, w0, w1)
    else:
        most = least_bound(table, onehot, cls, nh, win, lb0, 0, 0, w0, w1, True, src, nkeys, order, runs, built,
                           cls)
    bound = 3 * np.int64(cls.shape[0]) - np.int64(most)
    if _room(kslots, kent, kpool, kstate, 1, cls.shape[0]):  # a full cache only costs time: the bound is the same
        memo_put(kslots, kent, kpool, kstate, kzob, cls, 0, bound, 0)
    return bound


@njit(cache=True)
def claim_picks(table, onehot, guesses, bounds, start, secrets, target, most, lbrow, lb0, nh, win, skip_whole,
                slots, ent, pool, zob, keydepth, w0, w1, src, nkeys, order, runs, built,
                kslots, kent, kpool, kstate, kzob):
    """The classes a claim raises, guess by guess: exact.certify.Prover._raise's first two steps and its
    choice, for ``guesses[start:]`` (the claim's scan: each guess's lookahead ``bounds`` below ``target``).
    Reads the memo; **mutates** the scratch words and the key-bound cache.

    For a guess g, short = target - its bound. Its big classes, largest first (split_classes), each start at
    base = max(lbrow[|C|], 3|C| - most) (the scan counted exactly that) and are raised to the memo's value
    for the class at ``keydepth`` while the raises stay below short; a class equal to the whole set is
    skipped when ``skip_whole`` (uncapped: it is the claim being proved). If still short, the classes the
    memo knew nothing of take their own key bound, in the same order, until short is covered. The picks
    are then the biggest raises first (ties in class order), each raised by min(its raise, what is still
    short): its need is base + that, or INF when its value is INF and it is taken whole. A pick is
    ``by_key`` when the class's own key bound reaches its need (the checker confirms it in place).

    Returns (stop, count, pick_guess, pick_hint, pick_need, pick_by_key, pick_from, pick_to, members):
    picks for guesses[start:stop], in order, the j-th for guess index pick_guess[j] and dense hint
    pick_hint[j]; a pick that is not by_key has its class at members[pick_from[j]:pick_to[j]]. ``stop``
    is len(guesses), or the first guess whose memo values and key bounds together fall short: the
    caller searches that one's classes again (Prover._raise)."""
    n = secrets.shape[0]
    ng = guesses.shape[0]
    cap_picks = (ng - start) * nh
    p_guess = np.empty(cap_picks, dtype=np.int64)
    p_hint = np.empty(cap_picks, dtype=np.int64)
    p_need = np.empty(cap_picks, dtype=np.int64)
    p_key = np.empty(cap_picks, dtype=np.bool_)
    p_from = np.zeros(cap_picks, dtype=np.int64)
    p_to = np.zeros(cap_picks, dtype=np.int64)
    out = np.empty((ng - start) * n, dtype=secrets.dtype)
    placed = 0
    count = 0
    g_h = np.empty(nh, dtype=np.int64)
    g_base = np.empty(nh, dtype=np.int64)
    g_val = np.empty(nh, dtype=np.int64)
    g_key = np.empty(nh, dtype=np.int64)  # -1: not computed
    rank = np.empty(nh, dtype=np.int64)
    for k in range(start, ng):
        short = target - bounds[k]
        members, starts, big = split_classes(table, guesses[k], secrets, nh, win)
        m = 0
        have = np.int64(0)
        for h in big:  # largest first: the memo's values, until they cover the shortfall
            size = starts[h + 1] - starts[h]
            if skip_whole and size == n:
                continue  # a class equal to the set: no help from it
            cls = members[starts[h] : starts[h + 1]]
            base = max(lbrow[size], 3 * size - most)
            e, _ = memo_find(slots, ent, pool, zob, cls, keydepth)
            known = ent[e, MEMO_VALUE] if e >= 0 else np.int64(0)
            g_h[m] = h
            g_base[m] = base
            g_val[m] = max(base, known)
            g_key[m] = -1
            have += g_val[m] - base
            m += 1
            if have >= short:
                break
        if have < short:
            # the key bound costs a pass over every code: only for the classes the memo knows nothing of
            for j in range(m):
                if g_val[j] == g_base[j]:
                    h = g_h[j]
                    cls = members[starts[h] : starts[h + 1]]
                    g_key[j] = cached_key_bound(table, onehot, cls, nh, win, lb0, w0, w1, src, nkeys, order, runs,
                                                 built, kslots, kent, kpool, kstate, kzob)
                    have += max(g_val[j], g_key[j]) - g_val[j]
                    g_val[j] = max(g_val[j], g_key[j])
                    if have >= short:
                        break
        if have < short:
            return k, count, p_guess, p_hint, p_need, p_key, p_from, p_to, out
        # biggest raise first, ties in class order (a stable insertion sort of at most nh items)
        for j in range(m):
            rank[j] = j
        for j in range(1, m):
            x = rank[j]
            i = j - 1
            while i >= 0 and g_val[rank[i]] - g_base[rank[i]] < g_val[x] - g_base[x]:
                rank[i + 1] = rank[i]
                i -= 1
            rank[i + 1] = x
        left = short
        for r in range(m):
            j = rank[r]
            if left <= 0 or g_val[j] <= g_base[j]:
                break
            gain = min(g_val[j] - g_base[j], left)
            need = INF if g_val[j] >= INF and gain == g_val[j] - g_base[j] else g_base[j] + gain
            left -= gain
            h = g_h[j]
            cls = members[starts[h] : starts[h + 1]]
            key = g_key[j]
            if key < 0:
                key = cached_key_bound(table, onehot, cls, nh, win, lb0, w0, w1, src, nkeys, order, runs, built,
                                        kslots, kent, kpool, kstate, kzob)
            p_guess[count] = k
            p_hint[count] = h
            p_need[count] = need
            p_key[count] = key >= need
            if key < need:
                p_from[count] = placed
                out[placed : placed + cls.shape[0]] = cls
                placed += cls.shape[0]
                p_to[count] = placed
            count += 1
    return ng, count, p_guess, p_hint, p_need, p_key, p_from, p_to, out


# -- weighted secrets (the value of the game: treegen.weighted) ------------------------------------
# A secret s weighs w[s] >= 0 (an int64 per code) and a tree costs sum of w[s] * (guesses to solve s).
# ``order`` lists positions into ``secrets`` by weight, heaviest first (ties: lower code first), and
# ``level_of[k]`` is the level of the k-th slot of a tree: 1 for the root, 2 for the next b, 3 for the
# next b**2, ... (b = non-winning hints).
#
# The weighted counting bound of a class C: a node at level j solves at most one secret and a tree has at
# most b**(j-1) nodes at level j, so the secrets of C take distinct slots; by the rearrangement inequality
# the least conceivable cost puts the heaviest secret in slot 1, the next ones in the next slots, so
#     cost(C) >= sum over k of w(k-th heaviest of C) * level_of[k].
# It is exact for |C| <= 2 (guess the heavier secret, then the other).


@njit(cache=True)
def weighted_bounds(table, guesses, secrets, order, weights, nh, win, level_of):
    """For each guess g, the one-step lookahead bound W(S) + sum over non-winning classes of the
    weighted counting bound (every secret pays for g; the secret g, if in S, is solved by it)."""
    n = secrets.shape[0]
    total = np.int64(0)
    for s in secrets:
        total += weights[s]
    counts = np.empty(nh, dtype=np.int64)
    out = np.empty(guesses.shape[0], dtype=np.int64)
    for k in range(guesses.shape[0]):
        row = table[guesses[k]]
        counts[:] = 0
        bound = total
        # Secrets are met heaviest first, so the c-th member met of a class is its c-th heaviest.
        for j in range(n):
            s = secrets[order[j]]
            h = row[s]
            if h != win:
                counts[h] += 1
                bound += weights[s] * level_of[counts[h]]
        out[k] = bound
    return out


@njit(cache=True)
def weighted_least_bound(table, secrets, order, weights, nh, win, level_of):
    """The least :func:`weighted_bounds` over every code as the guess: a lower bound on the set's cost
    (the cost is a minimum over guesses, each at least its own bound)."""
    best = NO_BOUND
    codes = np.arange(table.shape[0]).astype(np.int32)  # the dtype of canonical guesses: one compiled signature
    bounds = weighted_bounds(table, codes, secrets, order, weights, nh, win, level_of)
    for k in range(bounds.shape[0]):
        if bounds[k] < best:
            best = bounds[k]
    return best
