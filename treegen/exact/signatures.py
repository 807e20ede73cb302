"""The signatures the search calls its kernels with (``SEARCH_SIGNATURES``), and compiling a kernel for them
ahead of its first call (:func:`compile_for_search`, :func:`cached`), by name, whichever kernel file
defines it (``KERNEL_FILES``). Light on purpose: the warm-up's helper process imports it (and the kernel
files) alone when it is spawned.

The kernels live in three files (``exact.search_kernels``, ``treegen.symmetry_kernels``,
``treegen.scoring_kernels``), each closed under calls and each going stale as a whole when it is edited
(numba's cache keys a kernel on its own file). This module only names them and calls numba's compile on
them: it is Python, not a kernel.
"""

from __future__ import annotations

from types import MappingProxyType

from numba import types

from .. import scoring_kernels, symmetry_kernels
from . import search_kernels

# -- compiling ahead ------------------------------------------------------------------------------------
# On an empty cache (the first run after install) compiling the search's kernels takes several times as
# long as the search of a small game, and one process compiles them one after another. Worker processes
# can compile disjoint groups side by side instead: each writes numba's disk cache, which every process
# then loads. For that the signatures must be the ones the search calls with (a different one is simply
# compiled again on first use); tests/test_first_run.py checks them against a real solve.

_U8_2R = types.Array(types.uint8, 2, "C", readonly=True)
_U8_2 = types.Array(types.uint8, 2, "C")
_U16_2R = types.Array(types.uint16, 2, "C", readonly=True)
_U32_2R = types.Array(types.uint32, 2, "C", readonly=True)
_I8_1, _I8_2 = types.Array(types.int8, 1, "C"), types.Array(types.int8, 2, "C")
_U8_1 = types.Array(types.uint8, 1, "C")
_I8_2R = types.Array(types.int8, 2, "C", readonly=True)
_I16_2 = types.Array(types.int16, 2, "C")
_I32_1 = types.Array(types.int32, 1, "C")
_I64_1, _I64_1R = types.Array(types.int64, 1, "C"), types.Array(types.int64, 1, "C", readonly=True)
_I64_2, _I64_2R = types.Array(types.int64, 2, "C"), types.Array(types.int64, 2, "C", readonly=True)
_U64_1 = types.Array(types.uint64, 1, "C")
_I, _B = types.int64, types.boolean
_U16_2 = types.Array(types.uint16, 2, "C")
_U32_2 = types.Array(types.uint32, 2, "C")
# A node's codes by key for least_bound (src, nkeys, order, runs, built, node; see there): next_open_guess
# takes all but node, which is its own set.
_NODE = (_U16_2, _U8_1, _I32_1, _I64_2, _I64_1, _I32_1)

SEARCH_SIGNATURES = MappingProxyType({
    "score_matrix_distinct": (_U8_2, _I64_1, _U8_2, _I64_1),
    "fast_bound_limit": (_I64_1R,),
    "excess_bound_limit": (_I64_1R, _I),
    "node_group": (_U8_2R, _I, _I64_1, _I32_1, _B, _I8_2R),
    "canonical_codes": (_U8_2R, _I8_1, _I8_2, _I16_2),
    "ordered_guesses": (_U8_2R, _I32_1, _I32_1, _I, _I, _I64_1R, _B, _I, _I, _U8_1),
    "split_classes": (_U8_2R, _I, _I32_1, _I, _I),
    # (table, guesses, secrets, contiguous, words) and (lanes, n, nh, win, lbtab, most, out): the 16-bit lanes
    # of sets of more than 255 secrets, callees of both ordered_guesses and next_open_guess (class_bound)
    "_wide_counts": (_U8_2R, _I32_1, _I32_1, _B, _I),
    "_lane_bounds": (types.Array(types.uint64, 2, "C"), _I, _I, _I, _I64_1R, _I, _I64_1),
    # (digits, secrets, symbols, perms, out) and (digits, values, order, place, source, target, symbols, perms,
    # limit, mark, perm_out, sigma_out): memo.SetOrbits, for the memo by orbit
    "set_orbit_key": (_U8_2R, _I32_1, _I, _I8_2R, _I64_1),
    "set_orbit_element": (_U8_2R, _I64_1, _I64_1, _I64_1, _I32_1, _I32_1, _I, _I8_2R, _I, _I8_1, _I64_1, _I64_1),
    # (the memo's slots, entries, pool and state, zob, secrets, key depth and for memo_put value and best):
    # callees of next_open_guess (through class_bound), which the search also calls for its memo (memo.Memo)
    "memo_find": (_I64_1, _I64_2, _I32_1, _I64_1R, _I32_1, _I),
    "memo_put": (_I64_1, _I64_2, _I32_1, _I64_1, _I64_1R, _I32_1, _I, _I, _I),
    # (table, onehot, secrets, nh, win, lbtab, t, t2, the two scratch word arrays, keys_only): a callee of
    # next_open_guess (through class_bound), and called for a node's most key (solver.Solver.scan)
    "least_bound": (_U8_2R, _U16_2R, _I32_1, _I, _I, _I64_1R, _I, _I, _U64_1, _U64_1, _B) + _NODE,
    # (table, onehot, guesses, bounds, start, least, secrets, beta, most, depth, capped, nh, win, lb, tlim, t2lim, four
    # options, the memo's slots, entries, pool and state, zob, the two scratch word arrays, counters)
    "next_open_guess": (_U8_2R, _U16_2R, _I32_1, _I64_1, _I, _I, _I32_1, _I, _I, _I, _B, _I, _I, _I64_2R, _I64_1R,
                        _I64_1R, _B, _B, _B, _B, _I64_1, _I64_2, _I32_1, _I64_1, _I64_1R, _U64_1, _U64_1, _I64_1)
                       + _NODE[:-1],
})


def search_signature(name: str, wide: bool = False) -> tuple:
    """The named kernel's ``SEARCH_SIGNATURES`` entry, with a uint32 one-hot table where ``wide`` (games of
    17 to 32 hints; see tables.onehot_table): each table type is a compilation of its own."""
    sig = SEARCH_SIGNATURES[name]
    wider = {_U16_2R: _U32_2R, _U16_2: _U32_2}
    return tuple(wider.get(a, a) if wide else a for a in sig)


def compile_for_search(names: tuple[str, ...], wide: bool = False) -> None:
    """Compile the named kernels for their ``SEARCH_SIGNATURES`` (see search_signature for ``wide``) into
    numba's disk cache (or load them from it, if there): a worker runs this for one group while others
    compile the rest."""
    for name in names:
        KERNELS[name].compile(search_signature(name, wide))


def cached(name: str, wide: bool = False) -> bool:
    """Whether the named kernel needs no compiling for its ``SEARCH_SIGNATURES`` (see search_signature for
    ``wide``): compiled in this process already, found in numba's disk cache (then loaded and kept, as its
    first call would), or not compiled at all (``NUMBA_DISABLE_JIT``). The kernels of one file go stale
    together (see KERNEL_FILES)."""
    kernel = KERNELS[name]
    sig = search_signature(name, wide)
    if not hasattr(kernel, "overloads"):  # NUMBA_DISABLE_JIT: a plain Python function
        return True
    if sig in kernel.overloads:
        return True
    # numba has no public "load it if cached, else fail": these lines are its Dispatcher.compile's cache
    # branch (0.68), so the kernel found is kept and not loaded a second time by its first call.
    found = kernel._cache.load_overload(sig, kernel.targetctx)
    if found is None:
        return False
    kernel.targetctx.insert_user_function(found.entry_point, found.fndesc, [found.library])
    kernel.add_overload(found)
    return True

KERNEL_FILES = (search_kernels, symmetry_kernels, scoring_kernels)
"""The kernel files, each closed under calls (a kernel calls only kernels of its own file)."""

KERNELS = MappingProxyType({name: getattr(module, name) for module in KERNEL_FILES for name in SEARCH_SIGNATURES
                            if hasattr(module, name)})
"""Each kernel of ``SEARCH_SIGNATURES`` by name, from whichever file defines it."""

FILE_OF = MappingProxyType({name: module.__name__ for module in KERNEL_FILES for name in SEARCH_SIGNATURES
                             if hasattr(module, name)})
"""The name of the kernel file (module) of each kernel of ``SEARCH_SIGNATURES``."""
