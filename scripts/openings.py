"""The README's table of heuristic openings: each scored strategy's total from the lowest code (the old
default), from the opening that seed 001's comparison uses (0123, or 1234 and 01234 where 0123 is not a
code), and from the opening it chooses by its own score (the default now).

    python scripts/openings.py                      # every preset with repeats, as a markdown table
    python scripts/openings.py --game royale

About ten seconds a game once numba's cache is warm; the figures are deterministic.
"""

from __future__ import annotations

import argparse
import sys

from treegen.rules import PRESETS, format_code, resolve_game
from treegen.strategies import STRATEGIES, build_tree

REPEAT_GAMES = [name for name, g in PRESETS.items() if g.repeats]
SEED_OPENING = {"mastermind": "1234", "royale": "01234"}  # others: 0123


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="a game (repeatable; default every preset with repeats)")
    args = ap.parse_args(argv)
    games = args.game or REPEAT_GAMES
    print("| game | strategy | from the lowest code | from seed 001's opening | chosen opening | total, max |")
    print("|---|---|---|---|---|---|")
    for name in games:
        game = resolve_game(name)
        seed_first = SEED_OPENING.get(game.name, "0123")
        for strat in (s.name for s in STRATEGIES.values() if s.kind == "scored"):
            low = build_tree(game, strat, first=format_code(game, 0)).tree
            paper = build_tree(game, strat, first=seed_first).tree
            own = build_tree(game, strat).tree
            print(
                f"| {game.name} | {strat} | {low.stats.total}, {low.stats.max_guesses} "
                f"| {seed_first}: {paper.stats.total}, {paper.stats.max_guesses} "
                f"| {own.root.guess} | **{own.stats.total}**, {own.stats.max_guesses} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
