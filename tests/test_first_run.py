"""The first run's compile budget: the kernels' own sort, and one compilation per kernel on the solve path."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

from treegen.cli import main
from treegen.exact import signatures, warmup
from treegen.exact.search_kernels import sort_keys
from treegen.exact.warmup import AHEAD


def test_sort_keys_sorts_like_sorted():
    rng = np.random.default_rng(13)
    sizes = [*range(0, 40), 100, 1000, 5041]
    for m in sizes:
        for spread in (5, 1 << 62):  # many repeats, then (almost surely) distinct keys
            keys = rng.integers(-spread, spread, size=m).astype(np.int64)
            expected = sorted(int(k) for k in keys)
            sort_keys(keys)
            assert [int(k) for k in keys] == expected, m


# A fresh process with an empty numba cache (a kernel loaded from the cache does not list the signatures
# its callees were compiled for, and no other test's calls may add any): solve a small game of each kind
# with each objective, then list the compiled signatures of every kernel. A kernel compiled twice on this path
# (an int32 and an int64 argument, a literal next to an int64) doubles its share of the first run.
_PROBE = r"""
import json, sys
import numba
from treegen.exact import solve_game
from treegen.exact.options import Options
from treegen.exact.signatures import KERNEL_FILES, SEARCH_SIGNATURES, search_signature
from treegen.exact.tables import wide_onehot
from treegen.rules import resolve_game
games = json.loads(sys.argv[1])
for spec, objective in games:
    # With the memo by orbit, which games this small leave off by default, so that its kernels are checked.
    solve_game(resolve_game(spec), objective, options=Options(orbits=True))
kinds = {wide_onehot(resolve_game(spec)) for spec, _ in games}
assert len(kinds) == 1, "one type of one-hot table per probe"
wide = kinds.pop()
out = {}
for kernels in KERNEL_FILES:
    for name in dir(kernels):
        d = getattr(kernels, name)
        if isinstance(d, numba.core.registry.CPUDispatcher) and d.signatures:
            out[name] = [str(s) for s in d.signatures]
ahead = {name: str(search_signature(name, wide)) for name in SEARCH_SIGNATURES}
print(json.dumps({"compiled": out, "ahead": ahead}))
"""


@pytest.mark.parametrize("games", [
    [("mm:3:3", "average"), ("bc:3:5", "average"), ("mm:3:3", "worst"), ("bc:3:5", "crush")],
    [("mm:5:3", "average")],  # five positions: 20 hints, a uint32 one-hot table
], ids=["16-bit", "32-bit"])
def test_solve_path_compiles_each_kernel_once(tmp_path, games):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(games)], capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    signatures = found["compiled"]
    assert "next_open_guess" in signatures and "ordered_guesses" in signatures
    twice = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1}
    assert twice == {}
    # Inlined into their one caller on this path, they are never compiled alone (see search_kernels' docstring).
    assert "class_bound" not in signatures and "_lookahead" not in signatures
    # compile_ahead compiles these kernels for these signatures on an empty cache: any other would be
    # compiled again by the search itself, and the first run would pay twice. (It compiles a scorer only for
    # games without repeats, which the 32-bit probe's game is not: numpy scores it.)
    unused = {"score_matrix_distinct"} if len(games) == 1 else set()
    assert {name: signatures.get(name) for name in found["ahead"] if name not in unused} == {
        name: [sig] for name, sig in found["ahead"].items() if name not in unused}


# compile_ahead on an empty cache, with two small kernels for groups: the helper process compiles the
# first, this process the second; then this process finds the first in the cache without compiling it,
# and a second call (cache full) or one with a single core does nothing. A helper that fails makes it
# return False, not raise. Run single-threaded (the helper is forked, on Linux) and with a second thread
# running (it is spawned).
_AHEAD = r"""
import json, sys, threading
from treegen import scoring_kernels
from treegen.exact import search_kernels, signatures, warmup
from treegen.rules import resolve_game
if sys.argv[1] == "threaded":
    threading.Thread(target=threading.Event().wait, daemon=True).start()
methods = []  # the start method of each helper compile_ahead makes
get_context = warmup.multiprocessing.get_context
warmup.multiprocessing.get_context = lambda method: methods.append(method) or get_context(method)
game = resolve_game("bc:3:5")  # no repeats: this process compiles its scorer too
groups = (("fast_bound_limit",), ("excess_bound_limit",))
notes = []
first = warmup.compile_ahead(game, 2, notes.append, groups)
cached = signatures.cached("fast_bound_limit")
print(json.dumps({
    "first": first, "notes": notes, "cached": cached,
    "this_process_compiled": sorted(d.py_func.__name__ for d in (search_kernels.fast_bound_limit,
        search_kernels.excess_bound_limit, scoring_kernels.score_matrix_distinct) if d.stats.cache_misses),
    "again": warmup.compile_ahead(game, 2, notes.append, groups),
    "one_core": warmup.compile_ahead(resolve_game("mm:3:3"), 1, notes.append, groups),
    # the helper fails after compiling its first kernel: no exception, False, and the search would
    # compile what it needs itself (mm:3:3 has repeats: numpy scores it, and this process's group is cached
    # already, so it compiles nothing before the helper's failure shows)
    "helper_fails": warmup.compile_ahead(resolve_game("mm:3:3"), 2, None, (("split_classes", "no_such_kernel"),
                                                                               ("excess_bound_limit",))),
    "helper_compiled_before_failing": signatures.cached("split_classes"),
    "methods": methods,
}))
"""


@pytest.mark.parametrize("threads", ["single", "threaded"])
def test_compile_ahead_splits_the_compile_between_two_processes(tmp_path, threads):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _AHEAD, threads], capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 0, done.stderr
    method = "fork" if threads == "single" and sys.platform == "linux" else "spawn"
    assert json.loads(done.stdout) == {
        "first": True, "notes": ["compiling the search's kernels (first run only)"], "cached": True,
        "this_process_compiled": ["excess_bound_limit", "score_matrix_distinct"], "again": False, "one_core": False,
        "helper_fails": False, "helper_compiled_before_failing": True,
        "methods": [method, method],  # the first call and the failing one; the others start no helper
    }


# A first run of a small game leaves out the memo by orbit's kernels; the first run of a bigger game then
# compiles those alone, one in each process, and after that nothing.
_ORBITS_LATER = r"""
import json
from treegen.exact import search_kernels, signatures, warmup
from treegen.rules import resolve_game
groups = (("fast_bound_limit", "set_orbit_key"), ("excess_bound_limit", "set_orbit_element"))
notes = []
small = warmup.compile_ahead(resolve_game("mm:3:3"), 2, notes.append, groups, orbits=False)
left_out = [signatures.cached(name) for name in ("set_orbit_key", "set_orbit_element")]
big = warmup.compile_ahead(resolve_game("mm:3:3"), 2, notes.append, groups, orbits=True)
print(json.dumps({
    "small": small, "left_out": left_out, "big": big, "notes": notes,
    "this_process_compiled": sorted(d.py_func.__name__ for d in (search_kernels.fast_bound_limit, search_kernels.excess_bound_limit,
        search_kernels.set_orbit_key, search_kernels.set_orbit_element) if d.stats.cache_misses),
    "again": warmup.compile_ahead(resolve_game("mm:3:3"), 2, notes.append, groups, orbits=True),
}))
"""


def test_compile_ahead_compiles_the_orbit_kernels_left_out_before(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _ORBITS_LATER], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "small": True, "left_out": [False, False], "big": True,
        "notes": ["compiling the search's kernels (first run only)",
                  "compiling the memo by orbit's kernels (first run of a game of over 2000 codes only)"],
        # the helper compiled fast_bound_limit, then set_orbit_key
        "this_process_compiled": ["excess_bound_limit", "set_orbit_element"], "again": False,
    }


def test_ahead_groups_split_the_listed_kernels():
    """compile_ahead's two groups are disjoint and, with the scorer of games without repeats (the main
    process compiles it for such a game), cover every kernel whose signature is listed: a name missing from
    both would be compiled by the search alone, and a misspelt one would make compile_ahead give up."""
    helper, main = AHEAD
    assert not set(helper) & set(main)
    assert sorted([*helper, *main, "score_matrix_distinct"]) == sorted(signatures.SEARCH_SIGNATURES)


@pytest.mark.parametrize("quiet, signum, status, word", [
    (False, signal.SIGINT, 130, "interrupted"), (True, signal.SIGTERM, 143, "terminated")])
def test_solve_stops_after_an_interrupt_lost_in_the_compile(tmp_path, monkeypatch, capsys, quiet, signum, status,
                                                           word):
    """A KeyboardInterrupt raised while LLVM calls back into Python is printed and dropped by ctypes; the
    solve must stop all the same, write nothing and restore the signal handlers it set. compile_ahead is
    called before anything starts a thread (the progress bar's), so that it may fork its helper, and is
    told to say the compile unless -q."""
    seen = {}

    def swallowing(game, cores, say=None, orbits=True):
        seen.update(threads=threading.active_count(), says=say is not None)
        try:
            signal.raise_signal(signum)  # the CLI's handler raises KeyboardInterrupt here...
        except KeyboardInterrupt:
            pass  # ...and the ctypes callback drops it
        return True

    monkeypatch.setattr(warmup, "compile_ahead", swallowing)
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    threads = threading.active_count()
    out = tmp_path / "t.json"
    assert main(["solve", "--game", "mm:2:3", "-o", str(out), *(["-q"] if quiet else [])]) == status
    assert f"treegen: {word}; no tree written" in capsys.readouterr().err
    assert not out.exists()
    assert seen == {"threads": threads, "says": not quiet}
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
