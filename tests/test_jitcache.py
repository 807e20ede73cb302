"""A read-only install with an unwritable home still compiles its kernels (into a temporary folder, said
in one line), instead of every numba command failing with "cannot cache function"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import treegen


@pytest.fixture
def read_only_install(tmp_path):
    """A copy of the package on a read-only bind mount, used as the home and cache folder too (root only)."""
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    copy = tmp_path / "copy"
    shutil.copytree(os.path.dirname(treegen.__file__), copy / "treegen",
                    ignore=shutil.ignore_patterns("__pycache__"))
    mount = tmp_path / "ro"
    mount.mkdir()
    subprocess.run(["mount", "--bind", str(copy), str(mount)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(mount)], check=True)
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_kernels_compile_when_no_cache_folder_can_be_written(read_only_install, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(read_only_install), HOME=str(read_only_install),
               XDG_CACHE_HOME=str(read_only_install / "cache"), NUMBA_CACHE_DIR=str(read_only_install / "numba"),
               TMPDIR=str(tmp_path))
    # Defining the kernels is where numba gives up ("cannot cache function"); scoring one game runs them.
    script = ("import treegen, treegen.exact.search_kernels, treegen.scoring_kernels as k, treegen.symmetry_kernels, "
              "treegen.livescore, treegen.static.dfs; "
              "from treegen.rules import resolve_game; print(treegen.__file__); "
              "print(k.score_matrix_distinct.__name__)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)  # not the checkout's folder, whose treegen/ would come first
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(str(read_only_install))
    note = done.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("treegen: note: numba can write its cache neither"), done.stderr
    assert "NUMBA_CACHE_DIR" in note[0]
    assert not [p for p in os.listdir(tmp_path) if p.startswith("treegen-numba-")]  # removed at exit
