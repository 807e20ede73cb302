"""treegen: optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants."""

from .rules import (
    PRESETS,
    CodeError,
    Game,
    GameError,
    HintError,
    TreegenError,
    format_code,
    format_hint,
    parse_code,
    parse_hint,
    resolve_game,
    score_codes,
    score_symbols,
)

__version__ = "0.1.0"

# Tree names load on first use (PEP 562), so that importing treegen imports only the rules.
_LAZY = {
    "Tree": "tree",
    "Node": "tree",
    "Stats": "tree",
    "TreeError": "tree",
    "load_tree": "tree",
    "save_tree": "tree",
    "next_guess": "tree",
    "make_tree": "verify",
    "compute_stats": "verify",
    "verify_tree": "verify",
    # these two import numpy and numba on first use
    "build_tree": "strategies",
    "solve_game": "coordinator",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "PRESETS",
    "CodeError",
    "Game",
    "GameError",
    "HintError",
    "TreegenError",
    "format_code",
    "format_hint",
    "parse_code",
    "parse_hint",
    "resolve_game",
    "score_codes",
    "score_symbols",
    # strategy trees (treegen.tree; checked and made by treegen.verify)
    "Tree",
    "Node",
    "Stats",
    "TreeError",
    "make_tree",
    "load_tree",
    "save_tree",
    "compute_stats",
    "next_guess",
    "verify_tree",
    # heuristic and optimal trees (treegen.strategies, treegen.coordinator)
    "build_tree",
    "solve_game",
]
