"""treegen: optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants.

A game is a frozen :class:`Game`; codes and hints are small ints, read and written through the paired
``parse_*`` / ``format_*`` functions::

    >>> import treegen
    >>> game = treegen.resolve_game("bulls-cows")
    >>> treegen.format_hint(game, treegen.score_codes(game, treegen.parse_code(game, "5346"),
    ...                                               treegen.parse_code(game, "5234")))
    '1A2B'

Trees are read, checked and written with :func:`load_tree`, :func:`verify_tree` and :func:`save_tree`;
:func:`build_tree` makes a heuristic tree and :func:`solve_game` proves an optimal one (these two import
numpy and numba on first use). Every error treegen reports to a person is a :class:`TreegenError` (a
``ValueError``) with a one-line message; the subclasses below say what kind. Names load on first use, so
``import treegen`` imports only the rules.
"""

from .rules import (
    PRESETS,
    CodeError,
    Game,
    GameError,
    HintError,
    ArgumentTypeError,
    NumberError,
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

# Names that load on first use (PEP 562): name -> the module that defines it.
_LAZY = {
    "Tree": "tree",
    "Node": "tree",
    "Stats": "tree",
    "TreeError": "tree",
    "InvalidTree": "tree",
    "NotInTree": "tree",
    "load_tree": "tree",
    "save_tree": "tree",
    "next_guess": "tree",
    "make_tree": "verify",
    "compute_stats": "verify",
    "verify_tree": "verify",
    "InputError": "files",
    "OutputError": "files",
    "FormatError": "formats",
    "ServeError": "serve",
    "CheckpointError": "exact.checkpoint",
    # these import numpy and numba on first use
    "build_tree": "strategies",
    "StrategyError": "strategies",
    "solve_game": "exact",
    "Infeasible": "exact",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "PRESETS",
    "Game",
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
    "make_tree",
    "load_tree",
    "save_tree",
    "compute_stats",
    "next_guess",
    "verify_tree",
    # heuristic and optimal trees (treegen.strategies, treegen.exact)
    "build_tree",
    "solve_game",
    # the error family: every one a TreegenError, itself a ValueError
    "TreegenError",
    "GameError",
    "CodeError",
    "HintError",
    "NumberError",
    "ArgumentTypeError",
    "TreeError",
    "InvalidTree",
    "NotInTree",
    "InputError",
    "OutputError",
    "FormatError",
    "ServeError",
    "CheckpointError",
    "StrategyError",
    "Infeasible",
]
