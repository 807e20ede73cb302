"""The exact search: optimal strategy trees proved by depth-first branch and bound with symmetry reduction.

Its public API, loaded on first use (PEP 562), so that ``from treegen.exact import OBJECTIVES`` (or
``EXECUTORS``) imports no numpy, and importing one module of the package (a kernel file, say) does not
import the rest::

    from treegen.exact import solve_game, Options
    tree = solve_game("mastermind", "worst", options=Options(shares=False))

The modules, each importing only those listed before it (and treegen's own top-level modules):

    search_kernels  the search's numba kernels (a kernel calls only kernels of its own file)
    contracts       sentinels (INF, NO_BOUND, UNCAPPED), Cost and Outcome (exact value or only a bound), errors
    options         Options, the one record of the search's levers
    objectives      OBJECTIVES, the crush price, strategy names (standard library only)
    tables          a game's tables, their sizing (check_memory), small trees, a tree's cost
    memo            the memo (Memo, MemoEntry) and sets up to symmetry (SetOrbits)
    solver          Solver: the search of one process; share_slack; settle_cap
    tasks           run_task, the subproblem an executor runs
    executors       where tasks run (EXECUTORS, make_executor, plan_workers); standard library at import
    checkpoint      the checkpoint folder (standard library and orjson)
    signatures      the kernels' signatures for compiling ahead
    warmup          compile_ahead, CallbackInterrupts
    coordinator     Coordinator: a whole search as parallel subproblems
    certify         the certifying search (one process): a tree's certificate, read off its memo
    parts           a least-total certificate in parts: the root's classes searched apart (workers, a folder)
    solve           solve_game; solve_certified, the tree with its certificate
"""

from __future__ import annotations

# Names that load on first use: name -> the module of this package that defines it.
_LAZY = {
    "solve_game": "solve",
    "solve_certified": "solve",
    "Options": "options",
    "uses_orbits": "options",
    "OBJECTIVES": "objectives",
    "Objective": "objectives",
    "strategy_name": "objectives",
    "EXECUTORS": "executors",
    "make_executor": "executors",
    "plan_workers": "executors",
    "Infeasible": "contracts",
    "SearchBug": "contracts",
    "Cost": "contracts",
    "Outcome": "contracts",
    "INF": "contracts",
    "UNCAPPED": "contracts",
    "check_memory": "tables",
    "search_tables": "tables",
    "Solver": "solver",
    "compile_ahead": "warmup",
    "CheckpointError": "checkpoint",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
