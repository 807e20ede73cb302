"""The package's public face: ``help(treegen)`` and ``dir(treegen)`` show the lazily loaded API, every
name in ``__all__`` resolves, and every exported error is one family (TreegenError, a ValueError)."""

from __future__ import annotations

import doctest
import subprocess
import sys

import treegen


def test_dir_lists_the_lazy_names_and_all_resolves():
    names = dir(treegen)
    for name in treegen.__all__:
        assert name in names
        assert getattr(treegen, name) is not None


def test_every_exported_error_is_a_treegen_error():
    errors = [getattr(treegen, n) for n in treegen.__all__ if n.endswith("Error") or n in ("InvalidTree", "NotInTree", "Infeasible")]
    errors = [e for e in errors if isinstance(e, type)]
    assert treegen.Infeasible in errors and treegen.InputError in errors
    for error in errors:
        assert issubclass(error, treegen.TreegenError) and issubclass(error, ValueError), error


def test_the_module_docstring_runs():
    assert doctest.testmod(treegen, raise_on_error=False).failed == 0
    assert len(treegen.__doc__.splitlines()) > 5


def test_importing_treegen_loads_no_numpy():
    done = subprocess.run([sys.executable, "-c", "import sys, treegen; dir(treegen); treegen.load_tree; "
                           "print('numpy' in sys.modules)"], capture_output=True, text=True, timeout=60)
    assert done.stdout == "False\n", done.stderr
