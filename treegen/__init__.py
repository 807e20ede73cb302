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
    score,
)

__version__ = "0.1.0"

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
    "score",
]
