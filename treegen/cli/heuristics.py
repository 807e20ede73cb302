"""``treegen build`` and ``eval``: heuristic strategy trees, one saved or all compared."""

from __future__ import annotations

import argparse

from ..rules import TreegenError
from .common import (SEED_MAX, STRATEGIES, TIES, Exit, add_command, add_game, add_hybrid_options, add_memory,
                     default_output, game_of, progress_bar, whole)


def add_heuristic_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--first", default=None, metavar="CODE",
                   help="the opening guess (default: scored strategies choose it by their score, others the lowest code)")
    p.add_argument("--consistent-only", action="store_true", help="scored strategies guess only possible codes")
    p.add_argument("--seed", type=whole(0, SEED_MAX), default=None, metavar="N", help="random-consistent: the random seed (default 0)")
    p.add_argument(
        "--tie", choices=TIES, default="possible",
        help="equal scores go to the lowest possible code (possible, default) or as seed 001's program "
        "does, to the last possible code it scans (paper)",
    )


# -- build -----------------------------------------------------------------------------------------


def add_build(sub) -> None:
    p = add_command(
        sub, "build", cmd_build, "build a heuristic strategy tree over every secret and save it",
        "  treegen build --strategy entropy                       # bulls-cows-entropy.json\n"
        "  treegen build --strategy minimax --game mastermind --first 1122 -o knuth.json\n"
        "  treegen build --strategy expected-size --stats        # guesses scored per depth\n"
        "  treegen build --strategy random-consistent --seed 7\n"
        "  treegen build --strategy digit-sweep --game mastermind-digits\n"
        "  treegen build --strategy first-consistent --game bc:6:10 --memory 4G   # no 22.9 GB table: on the fly\n",
    )
    add_game(p)
    p.add_argument("--strategy", "-s", required=True, metavar="S", help=", ".join(STRATEGIES))
    add_heuristic_options(p)
    p.add_argument("--stats", action="store_true", help="also print how many guesses were scored at each depth")
    p.add_argument("--output", "-o", default=None, metavar="FILE", help="default: GAME-STRATEGY.json")
    add_memory(p)


def cmd_build(args) -> int:
    from ..feedback import parse_memory
    from ..files import output_file
    from ..report import format_stats
    from ..strategies import build_tree, format_scored, get_strategy
    from ..tree import save_tree

    game = game_of(args.game, guesses=args.guess_list)
    name = get_strategy(args.strategy).name
    out = args.output if args.output is not None else default_output(game, name)
    output_file(out, "tree file")
    memory = parse_memory(args.memory) if args.memory is not None else None
    with progress_bar(game.secret_count, name) as bar:
        built = build_tree(
            game, name, first=args.first, consistent_only=args.consistent_only, seed=args.seed,
            tie=args.tie, progress=bar.update, memory=memory,
        )
    save_tree(built.tree, out)
    print(f"{built.tree.strategy} for {game.name}, opening {built.tree.root.guess}: wrote {out}")
    print(format_stats(built.tree.stats))
    print(f"time     {built.seconds:.2f} s")
    if args.stats:
        print("guesses scored per depth:")
        print(format_scored(built))
    return Exit.OK


# -- eval ------------------------------------------------------------------------------------------


def add_eval(sub) -> None:
    p = add_command(
        sub, "eval", cmd_eval, "build the heuristic trees and compare them in one table",
        "  treegen eval                                   # every strategy for bulls-cows\n"
        "  treegen eval --game mastermind --first 1122\n"
        "  treegen eval --strategy minimax --tie paper    # seed 001's tie rule\n"
        "  treegen eval --game bc:10:10 --sample 100 --strategy hybrid --seed 1   # 95% interval of the mean\n",
    )
    add_game(p)
    p.add_argument("--strategy", "-s", default="all", metavar="S|all", help="one strategy, or all that apply (default)")
    add_heuristic_options(p)
    p.add_argument("--sample", type=whole(0, 10**9), default=None, metavar="N",
                   help="play N random secrets (--seed) without building trees; games of up to 10 positions")
    add_hybrid_options(p)
    add_memory(p)


def cmd_eval(args) -> int:
    from ..feedback import feedback_table, parse_memory
    from ..strategies import applicable, build_tree, format_comparison, get_strategy, uses_table

    if args.sample is not None:
        return _eval_sample(args)
    if args.threshold is not None or args.guess_sample is not None:
        raise TreegenError("--threshold and --guess-sample apply to the hybrid strategy, with --sample")
    game = game_of(args.game, guesses=args.guess_list)
    names = applicable(game) if args.strategy == "all" else [get_strategy(args.strategy).name]
    memory = parse_memory(args.memory) if args.memory is not None else None
    if any(uses_table(game, name, memory) for name in names):
        feedback_table(game, memory)  # built once up front, so that no strategy's time includes it
    rows = []
    with progress_bar(game.secret_count * len(names), "eval") as bar:
        for name in names:
            kind = get_strategy(name).kind
            built = build_tree(
                game, name,
                first=args.first if kind != "sweep" else None,
                consistent_only=args.consistent_only and kind == "scored",
                seed=args.seed if kind == "random" else None,
                tie=args.tie, progress=bar.update, memory=memory,
            )
            rows.append((name, built))
    opening = "chosen by each scored strategy's own score (else the lowest code)" if args.first is None else args.first
    print(f"{game.describe()}; opening {opening}, ties: {args.tie}")
    print(format_comparison(rows))
    return Exit.OK


def _eval_sample(args) -> int:
    """``treegen eval --sample N``: play N random secrets with each strategy, no trees built."""
    from ..feedback import parse_memory
    from ..liveplay import LIVE_STRATEGIES, Player, evaluate, format_sample
    from ..rules import MAX_CODES
    from ..strategies import applicable

    game = game_of(args.game, large=True, guesses=args.guess_list)
    if args.first is not None or args.consistent_only or args.tie != "possible":
        raise TreegenError("--first, --consistent-only and --tie apply to built trees, not to --sample")
    if args.strategy != "all":
        names = [args.strategy]
    elif game.size > MAX_CODES:
        names = list(LIVE_STRATEGIES)
    else:
        names = [n for n in applicable(game) if n != "digit-sweep"] + ["hybrid"]
    memory = parse_memory(args.memory) if args.memory is not None else None
    players = [
        Player.make(
            game, name, seed=args.seed if name in ("hybrid", "random-consistent") else None,
            threshold=args.threshold if name == "hybrid" else None,
            guess_sample=args.guess_sample if name == "hybrid" else None, memory=memory,
        )
        for name in names
    ]
    n = min(args.sample, game.size)
    print(game.describe())
    seed = 0 if args.seed is None else args.seed
    for player in players:
        with progress_bar(n, player.strategy) as bar:
            sample = evaluate(player, args.sample, seed, progress=bar.update)
        print(format_sample(player.strategy, sample))
    return Exit.OK
