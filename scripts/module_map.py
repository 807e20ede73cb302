"""Print treegen's module map from the code's own imports: each module, its floor, and what it imports.

A module's floor is one more than the highest floor among the treegen modules it imports (a module that
imports none is on floor 1), so every arrow runs down. Imports inside functions count: they are still
arrows, only later ones. The map in docs/architecture.md is this script's output
(``python scripts/module_map.py --markdown``); tests/test_architecture.py checks that it is current and
that no import runs in a circle.

    python scripts/module_map.py              # floors, top down
    python scripts/module_map.py --markdown   # the table docs/architecture.md holds
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "treegen"


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name relative to it (``cli.solve``, ``rules``); a package's
    ``__init__`` is named by the package (``cli``), the top one ``__init__``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The treegen modules that module ``name`` imports (relative or absolute ``treegen.`` imports)."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    if name == "__init__":
        package = []
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                stem = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "treegen":
                stem = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:  # "from .cli import games": a module; "from .rules import Game": a name
                sub = ".".join(stem + [alias.name])
                out.add(sub if sub in known else ".".join(stem) or "__init__")
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".", 1)[1] for a in node.names if a.name.startswith("treegen."))
    out.discard(name)
    return {m for m in out if m in known}


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's floor; raises ValueError naming a circle if there is one."""
    floor: dict[str, int] = {}
    visiting: list[str] = []

    def visit(m: str) -> int:
        if m in floor:
            return floor[m]
        if m in visiting:
            raise ValueError("import circle: " + " -> ".join(visiting[visiting.index(m):] + [m]))
        visiting.append(m)
        floor[m] = 1 + max((visit(d) for d in graph[m]), default=0)
        visiting.pop()
        return floor[m]

    for m in sorted(graph):
        visit(m)
    return floor


def module_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    known = modules(package)
    # A submodule's import of its own package's __init__ ("from . import x" resolves to x) is not an arrow.
    return {name: imports(name, path, known) for name, path in known.items()}


def markdown(graph: dict[str, set[str]]) -> str:
    floor = floors(graph)
    lines = ["| floor | module | imports |", "|---|---|---|"]
    for m in sorted(graph, key=lambda m: (-floor[m], m)):
        lines.append(f"| {floor[m]} | `{m}` | {', '.join(f'`{d}`' for d in sorted(graph[m])) or '—'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table docs/architecture.md holds")
    args = parser.parse_args()
    graph = module_graph()
    try:
        floor = floors(graph)
    except ValueError as exc:
        print(f"module_map: {exc}", file=sys.stderr)
        return 1
    if args.markdown:
        sys.stdout.write(markdown(graph))
        return 0
    for f in range(max(floor.values()), 0, -1):
        print(f"floor {f:2}  " + "  ".join(sorted(m for m in graph if floor[m] == f)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
