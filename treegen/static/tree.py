"""The static tree file: a static set written as the strategy tree that plays it."""

from __future__ import annotations

from ..rules import Game, format_code, format_hint, score_symbols
from ..tree import Node, Tree
from ..verify import STATIC_STRATEGY as STRATEGY
from ..verify import make_tree, static_total, static_worst
from .cases import OBJECTIVES, StaticError, hint_count
from .search import StaticResult


# -- the static tree file ------------------------------------------------------------------------


def static_root(game: Game, guesses) -> Node:
    """The ordinary tree that plays the static set ``guesses`` (code ints, in order): the node at depth j
    guesses g_j whatever the hints, the all-bulls hint ends the game, and after the k hints the one
    secret left is guessed. Raises StaticError when the set is not static."""
    guesses = [int(g) for g in guesses]
    k = len(guesses)
    codes = game.codes
    win = game.win_hint

    def build(depth: int, secrets: list[int]) -> Node:
        if depth == k:
            if len(secrets) != 1:
                shown = " ".join(format_code(game, s) for s in secrets[:3])
                raise StaticError(f"the guesses do not tell {shown} apart: not a static set of {game.name}")
            return Node.build(format_code(game, secrets[0]))
        g = guesses[depth]
        groups: dict[int, list[int]] = {}
        for s in secrets:
            groups.setdefault(score_symbols(game, codes[g], codes[s]), []).append(s)
        groups.pop(win, None)
        kids = {format_hint(game, hint): build(depth + 1, grp) for hint, grp in groups.items()}
        return Node.build(format_code(game, g), kids or None)

    return build(0, list(range(game.size)))


def static_tree(game: Game, result: StaticResult, objective: str = "size") -> Tree:
    """The tree file for the set of ``result`` (see :func:`static_root`), with the set and the proof
    figures under ``provenance["static"]``."""
    from .. import __version__

    if result.guesses is None:
        raise StaticError("no static set to write")
    if objective not in OBJECTIVES:
        raise StaticError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    k = len(result.guesses)
    claims = {
        "guesses": [format_code(game, g) for g in result.guesses],
        "size": k,
        "proved_minimum": bool(result.proved and result.lower_bound >= k),
        "lower_bound": int(result.lower_bound),
        "hints": hint_count(game),
        "total": static_total(game.size, k),
        "worst_case": static_worst(game.size, k),
        "objective": objective,
        "method": result.method,
    }
    provenance = {"static": claims, "treegen": __version__}
    return make_tree(game, STRATEGY, static_root(game, result.guesses), provenance)
