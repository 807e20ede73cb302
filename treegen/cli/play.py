"""``treegen play``: play with a tree file (it guesses, solves a given secret, or hosts), as an evil host
without a tree, or by a strategy without a tree. With a tree it imports no numpy: it starts instantly."""

from __future__ import annotations

from ..rules import DEFAULT_GAME, TreegenError, resolve_game
from .common import SEED_MAX, add_command, add_guesses, add_hybrid_options, add_memory, game_of, no_game, whole


def add_play(sub) -> None:
    p = add_command(
        sub, "play", cmd_play,
        "play with a tree: it guesses your secret, solves a given one (--secret), or hosts a game (--host)",
        "  treegen play --tree bc.json                    # think of a secret, type the hints (1A2B, '1 2', ...)\n"
        "  treegen play --tree bc.json --secret 5346      # show how the tree solves 5346\n"
        "  treegen play --tree bc.json --host --seed 7    # you guess; type ? for the tree's advice\n"
        "  treegen play --host --evil                     # you guess; the host keeps every hint consistent\n"
        "  treegen play --host --evil --game mastermind --tree trees/mastermind-optimal-worst.json\n"
        "  printf '0A2B\\n1A1B\\n' | treegen play --tree bc.json  # scripted hints\n"
        "\n"
        "commands at the prompt: help, undo (take back the last hint or guess), quit/q/exit;\n"
        "with --host, ? asks the tree, or off the tree's path a heuristic (it says which).\n"
        "\n"
        "When stdin is not a terminal, lines are read one by one and echoed after their prompt, and the\n"
        "first malformed line (a hint or code that cannot be read), inconsistent hint (no secret gives the\n"
        "hints so far), or an end of input before the secret is found stops the session with exit 2 and\n"
        "one line on stderr that says which. Exit 0 means solved, or quit on purpose (quit; Ctrl-D at a\n"
        "terminal); exit 1 means the tree is invalid (it has no move for a consistent history).\n",
    )
    p.add_argument("--tree", "-t", default=None, metavar="FILE",
                   help="the tree file to play with (required, except with --host --evil or --strategy)")
    p.add_argument("--secret", "-s", default=None, metavar="CODE", help="play this secret without asking")
    p.add_argument("--host", action="store_true", help="pick a random secret and score your guesses")
    p.add_argument("--seed", type=whole(0, SEED_MAX), default=None, metavar="N", help="with --host: pick the secret reproducibly")
    p.add_argument("--evil", action="store_true",
                   help="with --host: hold no secret; answer each guess with the consistent hint that leaves "
                   "you the most guesses in the worst case")
    p.add_argument(
        "--game", "-g", default=None, metavar="G",
        help="with --tree: refuse a tree for any other game (default: the game named in the file); "
        "with --host --evil or --strategy and no tree: the game to play (default bulls-cows)",
    )
    add_guesses(p)
    # The strategies live in treegen.liveplay.LIVE_STRATEGIES and treegen.strategies.STRATEGIES, which
    # import numpy; this help says them in words.
    p.add_argument("--strategy", default=None, metavar="S",
                   help="play without a tree file: hybrid, first-consistent, random-consistent or a scored "
                   "strategy (games of up to 200000 codes); games of up to 10 positions")
    add_hybrid_options(p)
    add_memory(p)


def cmd_play(args) -> int:
    """Check the options, then play from a tree (``play``), as an evil host (``play``, no tree), or by a
    strategy without a tree (``liveplay``)."""
    if args.secret is not None and args.host:
        raise TreegenError("--secret and --host do not go together: --secret plays a given secret, --host picks one")
    if args.evil and not args.host:
        raise TreegenError("--evil applies only with --host")
    if args.evil and args.seed is not None:
        raise TreegenError("--seed and --evil do not go together: the evil host picks no secret")
    if args.strategy is not None:
        return _play_strategy(args)
    if args.seed is not None and not args.host:
        raise TreegenError("--seed applies only with --host or --strategy")
    if any(v is not None for v in (args.threshold, args.guess_sample, args.memory)):
        raise TreegenError("--threshold, --guess-sample and --memory apply only with --strategy")
    import random

    from .. import play
    from ..tree import load_tree

    game = game_of(args.game, guesses=args.guess_list) if args.game else no_game(args)
    if args.tree is None:
        if not (args.host and args.evil):
            raise TreegenError("play needs --tree FILE (or --strategy S, or --host --evil to play without a tree)")
        tree, game = None, game or resolve_game(DEFAULT_GAME)
    else:
        tree = load_tree(args.tree, game)
        game = tree.game
    if args.secret is not None:
        return play.play_secret(tree, args.secret)
    with play.Console() as con:
        if args.host:
            setter = play.EvilSetter(game) if args.evil else play.FixedSecret(game, random.Random(args.seed).randrange(game.secret_count))
            return play.play_host(game, tree, setter, con)
        return play.play_guesser(tree, con)


def _play_strategy(args) -> int:
    """``treegen play --strategy S``: no tree file; the strategy chooses each guess as the game goes."""
    from .. import liveplay
    from ..feedback import parse_memory

    if args.tree is not None:
        raise TreegenError("--strategy plays without a tree file; give either --tree or --strategy")
    if args.host:
        raise TreegenError("--host plays with a tree file (or --evil): drop --strategy")
    game = game_of(args.game or DEFAULT_GAME, large=True, guesses=args.guess_list)
    memory = parse_memory(args.memory) if args.memory is not None else None
    player = liveplay.Player.make(game, args.strategy, seed=args.seed, threshold=args.threshold,
                                  guess_sample=args.guess_sample, memory=memory)
    if args.secret is not None:
        return liveplay.play_secret(player, args.secret)
    return liveplay.play_guesser(player)
