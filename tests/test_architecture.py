"""The house: no import circle, every module named with its job in docs/architecture.md, whose module map
is the current output of scripts/module_map.py, and every kernel file stating the cache rule."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import module_map  # noqa: E402

DOC = ROOT / "docs" / "architecture.md"


def test_no_import_circle():
    module_map.floors(module_map.module_graph())  # raises ValueError naming a circle


def test_the_documented_map_is_current():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "module_map.py"), "--markdown"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout in DOC.read_text(encoding="utf-8"), \
        "docs/architecture.md's module map is stale: paste `python scripts/module_map.py --markdown`"


def test_every_module_has_its_job_in_the_doc():
    text = DOC.read_text(encoding="utf-8")
    jobs = text[text.index("## Modules"):text.index("## Module map")]
    for name, path in module_map.modules().items():
        shown = "treegen/" + str(path.relative_to(ROOT / "treegen"))
        assert f"`{shown}`" in jobs, f"{shown} has no line in docs/architecture.md's Modules section"


def kernel_files() -> list[Path]:
    """The files that define numba kernels (a function decorated with njit)."""
    out = []
    for path in sorted((ROOT / "treegen").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in n.decorator_list)
               for n in ast.walk(tree)):
            out.append(path)
    return out


def test_every_kernel_file_makes_sure_numba_can_cache_and_states_the_rule():
    """(tests/test_kernels.py checks the rule itself: a kernel names only its own file's kernels.)"""
    files = kernel_files()
    assert len(files) >= 3
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "ensure_cache(__file__)" in text and text.index("ensure_cache(__file__)") < text.index("@njit"), path
        assert "calls only kernels in its own file" in " ".join(text.split()), f"{path.name} does not state the cache rule"
