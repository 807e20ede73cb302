"""The first run's compile budget: the kernels' own sort, and one compilation per kernel on the solve path."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from treegen.kernels import sort_keys


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
from treegen import kernels
from treegen.coordinator import solve_game
from treegen.rules import resolve_game
for spec, objective in [("mm:3:3", "average"), ("bc:3:5", "average"), ("mm:3:3", "worst"), ("bc:3:5", "crush")]:
    solve_game(resolve_game(spec), objective)
out = {}
for name in dir(kernels):
    d = getattr(kernels, name)
    if isinstance(d, numba.core.registry.CPUDispatcher) and d.signatures:
        out[name] = [str(s) for s in d.signatures]
print(json.dumps(out))
"""


def test_solve_path_compiles_each_kernel_once(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    signatures = json.loads(done.stdout)
    assert "next_open_guess" in signatures and "ordered_guesses" in signatures
    twice = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1}
    assert twice == {}
