"""Where numba keeps the compiled kernels: a writable folder, decided before the first kernel is defined.

numba caches compiled code beside the sources (``treegen/__pycache__``), else in the user's cache folder,
else in ``$NUMBA_CACHE_DIR``; when none of them can be written (a read-only install and an unwritable
home, or an unwritable ``NUMBA_CACHE_DIR``), defining a kernel with ``cache=True`` fails with "cannot cache
function". :func:`ensure_cache` asks numba's own locators, in numba's own order, whether one of them can
write; if none can, it points numba at a fresh temporary folder for this process and its workers (which
inherit the environment), says so in one line on standard error, and removes the folder at exit. The
kernels then compile as usual; only the reuse across runs is lost.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile


def _probe() -> None:
    """A function for numba's locators to place (they ask for one; any function of this file does)."""


def ensure_cache(source: str) -> str | None:
    """Make sure numba can cache the kernels defined in the file ``source``.

    Returns None when one of numba's own places is writable, else the temporary folder now in use.
    Must run before the first ``@njit(cache=True)`` of ``source`` is defined.
    """
    from numba import config
    from numba.core.caching import CacheImpl

    for locator in CacheImpl._locator_classes:  # numba's order: NUMBA_CACHE_DIR, in-tree, user-wide, ...
        try:
            if locator.from_function(_probe, source) is not None:
                return None
        except OSError:
            continue
    folder = tempfile.mkdtemp(prefix="treegen-numba-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # workers (forked or spawned) find it too
    config.CACHE_DIR = folder
    print(f"treegen: note: numba can write its cache neither beside treegen's sources, nor in the user's "
          f"cache folder, nor in NUMBA_CACHE_DIR; compiling into {folder} for this run only (set "
          f"NUMBA_CACHE_DIR to a writable folder to keep the compiled code)", file=sys.stderr)
    return folder
