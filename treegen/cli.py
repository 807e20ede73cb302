"""The ``treegen`` command line: games, hints, candidates, trees, heuristics and exact search.

Heavy modules (numpy, numba) are imported inside the commands that need them, so that ``play``,
``verify`` and ``show`` start instantly. Every error a user can cause is a one-line message and exit 2.
"""

from __future__ import annotations

import argparse
import sys

from .rules import DEFAULT_GAME, PRESETS, TreegenError, resolve_game

EXIT_USAGE = 2

EPILOG = """\
examples:
  treegen games
  treegen hint 5346 5234                      # -> 1A2B
  treegen hint --game numbers-baseball 5382 3092
  treegen candidates 0123=1A2B 4567=0A1B
  treegen candidates --game mastermind 1122=BW 3456=W
  treegen build --strategy entropy            # a heuristic tree: bulls-cows-entropy.json
  treegen eval                                # every heuristic strategy compared in one table
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, then exits 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game",
        "-g",
        default=DEFAULT_GAME,
        metavar="G",
        help=f"a preset ({', '.join(PRESETS)}) or a spec bc:P:N / mm:P:N (default: {DEFAULT_GAME})",
    )


# -- games, hint, candidates -----------------------------------------------------------------------


def cmd_games(args) -> int:
    print(f"{'preset':<19} {'positions':>9}  {'alphabet':<11} {'repeats':<8} {'secrets':>7}  hints")
    for g in PRESETS.values():
        notation = {"ab": "xAyB", "pegs": "xAyB or pegs BBW", "baseball": "xAyB or ball=2 strike=1"}
        print(
            f"{g.name:<19} {g.positions:>9}  {g.alphabet:<11} {'yes' if g.repeats else 'no':<8} "
            f"{g.size:>7}  {notation[g.notation]}"
        )
    print("\nOther games: --game bc:P:N (P positions, N symbols, no repeats) or mm:P:N (repeats);")
    print("symbols are the first N of 0-9 then A-Z, e.g. --game bc:3:6, --game mm:4:7.")
    return 0


def cmd_hint(args) -> int:
    from .rules import format_hint, format_hint_native, parse_code, score_codes

    game = resolve_game(args.game)
    guess = parse_code(game, args.guess)
    secret = parse_code(game, args.secret)
    hint = score_codes(game, guess, secret)
    native = format_hint_native(game, hint)
    print(format_hint(game, hint) + (f"  ({native})" if native else ""))
    return 0


def _parse_history(game, pairs: list[str]):
    from .rules import HintError, parse_code, parse_hint

    history = []
    for item in pairs:
        if "=" not in item:
            raise HintError(f"{item!r} is not GUESS=HINT; write each guess and its hint as 0123=1A2B")
        code, hint = item.split("=", 1)
        history.append((parse_code(game, code), parse_hint(game, hint)))
    return history


def cmd_candidates(args) -> int:
    from .feedback import consistent_secrets
    from .rules import format_code

    game = resolve_game(args.game)
    history = _parse_history(game, args.history)
    alive = consistent_secrets(game, history)
    shown = alive[: args.limit] if args.limit > 0 else alive
    print(f"{alive.size} possible secret{'s' if alive.size != 1 else ''}")
    if shown.size:
        print(" ".join(format_code(game, int(c)) for c in shown) + (" ..." if shown.size < alive.size else ""))
    return 0


# -- tree files: verify, play, show (stdlib + orjson only: they start instantly) -------------------


def _tree_game(args):
    return resolve_game(args.game) if args.game else None


def cmd_verify(args) -> int:
    from . import verify

    return verify.run(args.file, args.max_guesses, _tree_game(args))


def cmd_play(args) -> int:
    from . import play

    return play.run(args)


def cmd_show(args) -> int:
    from . import verify

    return verify.show(args.file, args.depth, _tree_game(args))


def _add_tree_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", "-g", default=None, metavar="G",
        help="refuse a tree for any other game (default: the game named in the file)",
    )


# -- heuristic trees: build, eval -----------------------------------------------------------------


def _progress_bar(total: int, desc: str):
    """A tqdm bar on stderr that shows up only if the work takes over a second."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="secret", delay=1.0, leave=False, file=sys.stderr)


def cmd_build(args) -> int:
    from .strategies import build_tree, default_output, format_scored, get_strategy
    from .tree import save_tree
    from .verify import format_stats

    game = resolve_game(args.game)
    name = get_strategy(args.strategy).name
    out = args.output or default_output(game, name)
    with _progress_bar(game.size, name) as bar:
        built = build_tree(
            game, name, first=args.first, consistent_only=args.consistent_only, seed=args.seed,
            tie=args.tie, progress=bar.update,
        )
    save_tree(built.tree, out)
    print(f"{built.tree.strategy} for {game.name}, opening {built.tree.root.guess}: wrote {out}")
    print(format_stats(built.tree.stats))
    print(f"time     {built.seconds:.2f} s")
    if args.stats:
        print("guesses scored per depth:")
        print(format_scored(built))
    return 0


def cmd_eval(args) -> int:
    from .feedback import feedback_table
    from .strategies import applicable, build_tree, format_comparison, get_strategy

    game = resolve_game(args.game)
    names = applicable(game) if args.strategy == "all" else [get_strategy(args.strategy).name]
    feedback_table(game)  # built once up front, so that no strategy's time includes it
    rows = []
    with _progress_bar(game.size * len(names), "eval") as bar:
        for name in names:
            kind = get_strategy(name).kind
            built = build_tree(
                game, name,
                first=args.first if kind != "sweep" else None,
                consistent_only=args.consistent_only and kind == "scored",
                seed=args.seed if kind == "random" else None,
                tie=args.tie, progress=bar.update,
            )
            rows.append((name, built))
    opening = "the lowest code" if args.first is None else args.first
    print(f"{game.describe()}; opening {opening}, ties: {args.tie}")
    print(format_comparison(rows))
    return 0


# -- exact search: solve --------------------------------------------------------------------------


def _nested_to_node(game, nested):
    from .rules import format_code, format_hint
    from .tree import Node

    guess, children = nested
    kids = {format_hint(game, h): _nested_to_node(game, c) for h, c in children}
    return Node.build(format_code(game, guess), kids or None)


def cmd_solve(args) -> int:
    import os
    import time

    from . import __version__
    from .search import Infeasible, Options, solve_game
    from .tree import make_tree, save_tree
    from .verify import format_stats

    game = resolve_game(args.game)
    if args.max_guesses is not None and args.max_guesses < 1:
        raise TreegenError(f"--max-guesses must be at least 1, not {args.max_guesses}")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise TreegenError(f"--workers must be at least 1, not {workers}")
    if args.objective == "worst":
        strategy = "optimal-worst"
    elif args.max_guesses is not None:
        strategy = f"optimal-average-max{args.max_guesses}"
    else:
        strategy = "optimal-average"
    out = args.output or f"{game.name.replace(':', '-')}-{strategy}.json"
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise TreegenError(f"cannot write {out}: folder {folder} does not exist")
    if os.path.isdir(out):
        raise TreegenError(f"cannot write {out}: it is a folder; give a file name with -o")
    if args.checkpoint and os.path.exists(args.checkpoint) and not os.path.isdir(args.checkpoint):
        raise TreegenError(f"--checkpoint {args.checkpoint} is a file; give a folder (it is created if missing)")
    options = Options(
        symmetry=not args.no_symmetry, lookahead=not args.no_lookahead, ordering=not args.no_ordering,
        memo=not args.no_memo, two_phase=not args.no_two_phase,
    )
    start = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=0, desc=f"solve {game.name}", unit="subproblem", file=sys.stderr, leave=False)

    def progress(done: int, total: int, note: str) -> None:
        # tqdm redraws at most every mininterval seconds on update(); never force a redraw here.
        bar.total = total
        if note != bar.postfix:
            bar.set_postfix_str(note, refresh=False)
        bar.update(done - bar.n)

    import signal
    from concurrent.futures.process import BrokenProcessPool

    def terminate(signum, frame):
        raise KeyboardInterrupt  # stop the workers and leave as after Ctrl-C

    signal.signal(signal.SIGTERM, terminate)
    try:
        result = solve_game(
            game, args.objective, args.max_guesses, workers, args.checkpoint,
            progress if bar is not None else None, options,
        )
    except (Infeasible, KeyboardInterrupt, BrokenProcessPool) as exc:
        failure: BaseException | None = exc
    else:
        failure = None
    finally:
        if bar is not None:
            bar.close()  # before any message, which would otherwise trail the bar's line
    if isinstance(failure, Infeasible):
        print(f"treegen: {failure}", file=sys.stderr)
        return 1
    if isinstance(failure, KeyboardInterrupt):
        again = f" (run it again with --checkpoint {args.checkpoint} to resume)" if args.checkpoint else ""
        print(f"treegen: interrupted; no tree written{again}", file=sys.stderr)
        return 130
    if isinstance(failure, BrokenProcessPool):
        print("treegen: error: a worker process died (out of memory?); no tree written", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
    provenance = {
        "objective": result.objective,
        "max_guesses": result.cap,
        "optimal_total": result.total,
        "lower_bound": result.total,
    }
    if result.worst is not None:
        provenance["worst_case"] = result.worst
        provenance["impossible_within"] = result.worst - 1
    provenance["nodes"] = result.nodes
    provenance["treegen"] = __version__
    if args.timings:
        provenance["seconds"] = round(seconds, 2)
        provenance["workers"] = workers
    tree = make_tree(game, strategy, _nested_to_node(game, result.tree), provenance)
    save_tree(tree, out)
    what = {"average": "least total", "worst": "least worst case, then least total"}[result.objective]
    cap = f" within {result.cap} guesses" if result.cap is not None else ""
    print(f"{strategy} for {game.name} ({what}{cap}): wrote {out}")
    if result.worst is not None:
        print(f"proved   every secret within {result.worst} guesses; within {result.worst - 1} is impossible")
    print(f"proved   optimal total {result.total} (lower bound {result.total})")
    print(format_stats(tree.stats))
    print(f"nodes    {result.nodes}")
    print(f"time     {seconds:.2f} s with {workers} worker{'s' if workers != 1 else ''}")
    return 0


def cmd_static(args) -> int:
    """``treegen static``: the least static set (or one of --size K), proved with CP-SAT; see treegen/static.py.

    Exit 0: the file is written and its claim proved (least size, or a set of size K); 1: no static set of
    K guesses exists (proved); 4: the time limit stopped the search (the best set so far is written, with
    ``proved_minimum`` false, when there is one); also when CP-SAT runs out of memory or gives up first.
    """
    import os

    from . import static
    from .rules import parse_code
    from .tree import save_tree
    from .verify import format_stats

    game = resolve_game(args.game)
    out = args.output or f"{game.name.replace(':', '-')}-static.json"
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise TreegenError(f"cannot write {out}: folder {folder} does not exist")
    if os.path.isdir(out):
        raise TreegenError(f"cannot write {out}: it is a folder; give a file name with -o")
    h = static.hint_count(game)
    if args.guesses:
        codes = [parse_code(game, c) for c in args.guesses.replace(",", " ").split()]
        if len(set(codes)) != len(codes):
            raise TreegenError("--guesses repeats a code; give distinct codes")
        if not static.is_static_set(game, codes):
            print(f"treegen: these {len(codes)} guesses do not tell every two secrets of {game.name} apart",
                  file=sys.stderr)
            return 1
        bounds = static.counting_bounds(game)
        result = static.StaticResult(game, len(codes), tuple(codes), min(bounds.lower, len(codes)),
                                     bounds.lower >= len(codes), False, bounds)
    else:
        bar = None
        if not args.quiet:
            from tqdm import tqdm

            bar = tqdm(total=None, desc=f"static {game.name}", unit="step", file=sys.stderr, leave=False, delay=1.0,
                       bar_format="{desc}: {postfix} [{elapsed}]")

        def progress(lower: int, upper: int | None, note: str) -> None:
            bar.set_postfix_str(f"{lower} <= static <= {'?' if upper is None else upper}; {note}", refresh=False)
            bar.update(1)

        try:
            result = static.find_static(
                game, args.size, workers=args.workers, seed=args.seed, time_limit=args.time_limit,
                progress=progress if bar is not None else None,
            )
        finally:
            if bar is not None:
                bar.close()
    upper = None if result.guesses is None else len(result.guesses)
    print(f"game     {game.describe()}; {h} possible hints")
    print(f"bounds   counting: at least {result.bounds.lower} (h^k >= N: {result.bounds.plain}; "
          f"{result.bounds.cases} symmetry cases)")
    print(f"search   {result.iterations} CP-SAT solves, {result.constraints} separation clauses, "
          f"{result.cases_solved} cases solved, {result.cases_bounded} closed by counting, "
          f"{result.seconds:.1f} s with {args.workers} worker{'s' if args.workers != 1 else ''}")
    if args.size is not None and result.guesses is None and not result.timed_out:
        print(f"treegen: no static set of {args.size} guesses separates the secrets of {game.name} "
              f"(proved: at least {result.lower_bound})", file=sys.stderr)
        return 1
    if result.guesses is None:
        print(f"treegen: {result.stopped}: no set of {args.size} found and none refuted; "
              f"static >= {result.lower_bound}; no file written", file=sys.stderr)
        return 4
    tree = static.static_tree(game, result, args.objective)
    save_tree(tree, out)
    k = len(result.guesses)
    claim = tree.provenance["static"]
    if args.size is None and not args.guesses:
        state = "proved" if claim["proved_minimum"] else f"not proved ({result.stopped})"
        print(f"static   {result.lower_bound} <= static({game.name}) <= {upper}: {state}")
    else:
        print(f"static   a static set of {k}; static({game.name}) >= {claim['lower_bound']}"
              + (" (so it is least)" if claim["proved_minimum"] else ""))
    print("guesses  " + " ".join(claim["guesses"]))
    print(f"total    {claim['total']} = k(k+1)/2 + (N-k)(k+1): the same for every static set of {k}"
          + ("; --objective average has nothing else to choose" if args.objective == "average" else ""))
    print(format_stats(tree.stats))
    print(f"wrote    {out}")
    return 4 if result.timed_out else 0


def _add_heuristic_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--first", default=None, metavar="CODE", help="the opening guess (default: the lowest code)")
    p.add_argument("--consistent-only", action="store_true", help="scored strategies guess only possible codes")
    p.add_argument("--seed", type=int, default=None, metavar="N", help="random-consistent: the random seed (default 0)")
    p.add_argument(
        "--tie", choices=("possible", "paper"), default="possible",
        help="equal scores go to the lowest possible code (possible, default) or as seed 001's program "
        "does, to the last possible code it scans (paper)",
    )


# -- the parser ------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="treegen",
        description="Optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, func, help: str, epilog: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name, help=help, description=help, epilog="examples:\n" + epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(func=func)
        return p

    command("games", cmd_games, "list the preset games", "  treegen games\n")

    p = command(
        "hint", cmd_hint, "score a guess against a secret",
        "  treegen hint 5346 5234                         # 1A2B\n"
        "  treegen hint --game numbers-baseball 5382 3092  # 1A1B  (ball=2 strike=1)\n"
        "  treegen hint --game mastermind 1122 1213\n",
    )
    _add_game(p)
    p.add_argument("guess", metavar="GUESS")
    p.add_argument("secret", metavar="SECRET")

    p = command(
        "candidates", cmd_candidates, "list the secrets still possible after some hints",
        "  treegen candidates 0123=1A2B 4567=0A1B\n"
        "  treegen candidates --game numbers-baseball 0115='b1s0' 5623=b0s0\n"
        "  treegen candidates --game mastermind 1122=BW\n",
    )
    _add_game(p)
    p.add_argument("history", nargs="*", metavar="GUESS=HINT", help="a guess and the hint it got")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="show at most N secrets (0: all; default 20)")

    p = command(
        "verify", cmd_verify,
        "check that a tree file solves every secret of its game; print its stats (exit 1: invalid tree)",
        "  treegen verify bc.json                  # stats table, exit 0 if valid\n"
        "  treegen verify bc.json --max-guesses 7  # also require every secret solved within 7 guesses\n"
        "  treegen verify --game mastermind mm.json\n",
    )
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md)")
    p.add_argument("--max-guesses", type=int, default=None, metavar="N", help="fail if a secret needs more than N guesses")
    _add_tree_game(p)

    p = command(
        "play", cmd_play,
        "play with a tree: it guesses your secret, solves a given one (--secret), or hosts a game (--host)",
        "  treegen play --tree bc.json                    # think of a secret, type the hints (1A2B, '1 2', ...)\n"
        "  treegen play --tree bc.json --secret 5346      # show how the tree solves 5346\n"
        "  treegen play --tree bc.json --host --seed 7    # you guess; type ? for the tree's advice\n"
        "  printf '0A2B\\n1A1B\\n' | treegen play --tree bc.json  # scripted hints\n",
    )
    p.add_argument("--tree", "-t", required=True, metavar="FILE", help="the tree file to play with")
    p.add_argument("--secret", "-s", default=None, metavar="CODE", help="play this secret without asking")
    p.add_argument("--host", action="store_true", help="pick a random secret and score your guesses")
    p.add_argument("--seed", type=int, default=None, metavar="N", help="with --host: pick the secret reproducibly")
    _add_tree_game(p)

    p = command(
        "show", cmd_show, "print a tree file's stats and its first levels as an outline",
        "  treegen show bc.json             # stats, then each hint of the first 2 levels: class size, next guess\n"
        "  treegen show bc.json --depth 1   # the first guess: each hint and the size of its class\n",
    )
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md)")
    p.add_argument("--depth", "-d", type=int, default=2, metavar="D", help="levels of guesses to show (default 2)")
    _add_tree_game(p)

    p = command(
        "build", cmd_build, "build a heuristic strategy tree over every secret and save it",
        "  treegen build --strategy entropy                       # bulls-cows-entropy.json\n"
        "  treegen build --strategy minimax --game mastermind --first 1122 -o knuth.json\n"
        "  treegen build --strategy expected-size --stats        # guesses scored per depth\n"
        "  treegen build --strategy random-consistent --seed 7\n"
        "  treegen build --strategy digit-sweep --game mastermind-digits\n",
    )
    _add_game(p)
    p.add_argument("--strategy", "-s", required=True, metavar="S", help="first-consistent, random-consistent, "
                   "minimax, expected-size, expected-steps, entropy, most-parts, n-ln-n-plus-1, digit-sweep")
    _add_heuristic_options(p)
    p.add_argument("--stats", action="store_true", help="also print how many guesses were scored at each depth")
    p.add_argument("--output", "-o", default=None, metavar="FILE", help="default: GAME-STRATEGY.json")

    p = command(
        "eval", cmd_eval, "build the heuristic trees and compare them in one table",
        "  treegen eval                                   # every strategy for bulls-cows\n"
        "  treegen eval --game mastermind --first 1122\n"
        "  treegen eval --strategy minimax --tie paper    # seed 001's tie rule\n",
    )
    _add_game(p)
    p.add_argument("--strategy", "-s", default="all", metavar="S|all", help="one strategy, or all that apply (default)")
    _add_heuristic_options(p)

    p = command(
        "solve", cmd_solve, "prove an optimal strategy tree by exact search",
        "  treegen solve -o bulls-cows.json && treegen verify bulls-cows.json\n"
        "  treegen solve --game mastermind                      # least total: 5625\n"
        "  treegen solve --game mastermind --max-guesses 5      # least total within 5 guesses: 5626\n"
        "  treegen solve --game mastermind --objective worst    # 5 guesses, 4 impossible\n"
        "  treegen solve --game mm:4:7 --workers 2 --checkpoint ckpt/\n",
    )
    _add_game(p)
    p.add_argument("--objective", choices=("average", "worst"), default="average",
                   help="average: least total guesses; worst: least maximum, then least total (default average)")
    p.add_argument("--max-guesses", type=int, default=None, metavar="N",
                   help="every secret must be solved within N guesses (exit 1 with a proof if impossible)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="where to write the tree (default GAME-optimal-OBJECTIVE.json)")
    p.add_argument("--workers", type=int, default=None, metavar="K",
                   help="worker processes (default: every core); the output is the same for any K")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="record finished subproblems in DIR; a rerun with the same DIR resumes")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--timings", action="store_true",
                   help="also record seconds and workers in the file (the bytes then differ run to run)")
    for lever in ("symmetry", "lookahead", "ordering", "memo", "two-phase"):
        p.add_argument(f"--no-{lever}", action="store_true", help=argparse.SUPPRESS)

    p = command(
        "static", cmd_static,
        "the static game: fewest guesses written down at once whose hints name the secret (OR-Tools CP-SAT)",
        "  treegen static --game mm:2:5                 # least size with its proof: 4\n"
        "  treegen static --game mastermind --size 4    # exit 1: no static set of 4 guesses\n"
        "  treegen static --game mastermind --guesses '1221 2354 3311 4524 5656 6643'   # check a set\n"
        "  treegen static --game bulls-cows --time-limit 600 -o bc-static.json\n",
    )
    _add_game(p)
    p.add_argument("--size", type=int, default=None, metavar="K",
                   help="find a set of exactly K guesses or prove that none exists (exit 1)")
    p.add_argument("--objective", choices=("size", "average"), default="size",
                   help="size: least number of guesses (default); average: least total among least sets, "
                   "which is the same for every set (reported, see README)")
    p.add_argument("--guesses", default=None, metavar="CODES",
                   help="check and write this set (codes separated by spaces or commas) instead of searching")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write the tree (default GAME-static.json)")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="stop after S seconds and report the best bounds (exit 4)")
    p.add_argument("--workers", type=int, default=2, metavar="N", help="CP-SAT workers (default 2)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="CP-SAT random seed (default 0)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except TreegenError as exc:
        print(f"treegen: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error of ours.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
