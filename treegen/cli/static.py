"""``treegen static``: the static game, fewest guesses written down at once whose hints name the secret
(treegen.static: a depth-first search or OR-Tools CP-SAT)."""

from __future__ import annotations

import sys

from ..rules import TreegenError, refuse_list_game
from .common import (STATIC_METHODS, STATIC_OBJECTIVES, Exit, add_command, add_game, default_output, game_of, seconds,
                     whole)


def add_static(sub) -> None:
    p = add_command(
        sub, "static", cmd_static,
        "the static game: fewest guesses written down at once whose hints name the secret (OR-Tools CP-SAT)",
        "  treegen static --game mm:2:5                 # least size with its proof: 4\n"
        "  treegen static --game mastermind --size 4    # exit 1: no static set of 4 guesses\n"
        "  treegen static --game mastermind --guesses '1221 2354 3311 4524 5656 6643'   # check a set\n"
        "  treegen static --game bulls-cows --time-limit 600 -o bc-static.json\n"
        "\n  and for static only: exit 4 when the search stopped (time limit, or CP-SAT gave up) before a proof;\n"
        "  the best set so far is written, marked proved_minimum: false\n",
    )
    add_game(p)
    p.add_argument("--size", type=whole(0, 10**9), default=None, metavar="K",
                   help="find a set of exactly K guesses or prove that none exists (exit 1)")
    p.add_argument("--objective", choices=STATIC_OBJECTIVES, default="size",
                   help="size: least number of guesses (default); average: least total among least sets, "
                   "which is the same for every set (reported, see docs/usage.md)")
    p.add_argument("--guesses", default=None, metavar="CODES",
                   help="check and write this set (codes separated by spaces or commas) instead of searching")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write the tree (default GAME-static.json)")
    p.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="stop after S seconds and report the best bounds (exit 4)")
    p.add_argument("--method", choices=STATIC_METHODS, default="dfs",
                   help="how each symmetry case is decided: dfs, the compiled depth-first search (default), "
                   "or cp-sat, OR-Tools CP-SAT with lazy separation clauses; both give the same answer")
    p.add_argument("--workers", type=whole(None, 10**9), default=2, metavar="N",
                   help="threads of the depth-first search, or CP-SAT workers (default 2)")
    p.add_argument("--seed", type=whole(0, 2**31 - 1), default=0, metavar="N", help="CP-SAT random seed (default 0)")
    p.add_argument("--memory", type=whole(64, 10**9), default=None, metavar="MB",
                   help="cp-sat: cap each CP-SAT call at MB megabytes (it then stops, exit 4)")
    p.add_argument("--case-log", default=None, metavar="FILE",
                   help="write one JSON line per symmetry case: size, fixed codes, bound, status, seconds, "
                   "clauses, solves and subcases (cp-sat), codes tried and subcases (dfs)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def cmd_static(args) -> int:
    """``treegen static``: the least static set (or one of --size K), proved by the depth-first search or
    CP-SAT (``--method``); see treegen/static/ (search.py, dfs.py, cpsat.py).

    Exit 0: the file is written and its claim proved (least size, or a set of size K); 1: no static set of
    K guesses exists (proved); 4 (``Exit.STOPPED``): the time limit stopped the search (the best set so far
    is written, with ``proved_minimum`` false, when there is one); also when CP-SAT runs out of memory or
    gives up first.
    """
    from .. import static
    from ..files import output_file, same_path
    from ..report import format_stats
    from ..rules import parse_code
    from ..tree import save_tree

    game = game_of(args.game, guesses=args.guess_list)
    refuse_list_game(game, "the static game")
    out = args.output if args.output is not None else default_output(game, "static")
    output_file(out, "tree file")
    if args.case_log is not None:
        output_file(args.case_log, "case log")
        if same_path(args.case_log, out):
            raise TreegenError(f"--case-log {args.case_log} and the tree file {out} are the same file; give two")
    if args.guesses:
        searching = [f"--{name.replace('_', '-')}" for name in ("size", "time_limit", "memory", "case_log")
                     if getattr(args, name) is not None]
        if searching:  # they would be ignored: --guesses checks a set, it searches nothing
            raise TreegenError(f"{', '.join(searching)} appl{'ies' if len(searching) == 1 else 'y'} to a search, "
                               "not to checking a set given with --guesses")
    h = static.hint_count(game)
    if args.guesses:
        codes = [parse_code(game, c) for c in args.guesses.replace(",", " ").split()]
        if len(set(codes)) != len(codes):
            raise TreegenError("--guesses repeats a code; give distinct codes")
        if not static.is_static_set(game, codes):
            print(f"treegen: these {len(codes)} guesses do not tell every two secrets of {game.name} apart",
                  file=sys.stderr)
            return Exit.FALSE
        bounds = static.counting_bounds(game)
        result = static.StaticResult(game, len(codes), tuple(codes), min(bounds.lower, len(codes)),
                                     bounds.lower >= len(codes), False, bounds, method="counting")
    else:
        bar = None
        if not args.quiet:
            from tqdm import tqdm

            bar = tqdm(total=None, desc=f"static {game.name}", unit="case", file=sys.stderr, leave=False, delay=1.0,
                       bar_format="{desc}: {n}/{total} cases; {postfix} [{elapsed}]")

        def progress(lower: int, upper: int | None, note: str, done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.set_postfix_str(f"{lower} <= static <= {'?' if upper is None else upper}; {note}", refresh=False)
            bar.refresh()

        try:
            result = static.find_static(
                game, args.size, method=args.method, workers=args.workers, seed=args.seed,
                time_limit=args.time_limit, memory_mb=args.memory,
                progress=progress if bar is not None else None,
            )
        finally:
            if bar is not None:
                # close() alone leaves the line that refresh() drew (tqdm's delay makes it think nothing was
                # shown), and the next message would run on after it
                bar.clear()
                bar.close()
        if args.case_log is not None:
            import orjson

            from ..files import write_atomic

            write_atomic(args.case_log, b"".join(orjson.dumps(c.to_obj()) + b"\n" for c in result.cases), "case log")
    upper = None if result.guesses is None else len(result.guesses)
    print(f"game     {game.describe()}; {h} possible hints")
    print(f"bounds   counting: at least {result.bounds.lower} (h^k >= N: {result.bounds.plain}; "
          f"{result.bounds.cases} symmetry cases)")
    if args.guesses:
        pass  # a given set: nothing was searched
    elif result.method == "dfs":
        print(f"search   depth-first: {result.cases_solved} cases searched ({result.subcases} third-guess "
              f"subcases, {result.nodes} codes tried), {result.cases_bounded} closed by counting, "
              f"{result.seconds:.1f} s with {args.workers} thread{'s' if args.workers != 1 else ''}")
    else:
        print(f"search   CP-SAT: {result.iterations} solves, {result.constraints} separation clauses, "
              f"{result.cases_solved} cases solved"
              + (f" ({result.subcases} third-guess subcases)" if result.subcases else "")
              + f", {result.cases_bounded} closed by counting, "
              f"{result.seconds:.1f} s with {args.workers} worker{'s' if args.workers != 1 else ''}")
    if args.size is not None and result.guesses is None and not result.timed_out:
        print(f"treegen: no static set of {args.size} guesses separates the secrets of {game.name} "
              f"(proved: at least {result.lower_bound})", file=sys.stderr)
        return Exit.FALSE
    if result.guesses is None:
        print(f"treegen: {result.stopped}: no set of {args.size} found and none refuted; "
              f"static >= {result.lower_bound}; no file written", file=sys.stderr)
        return Exit.STOPPED
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
    return Exit.STOPPED if result.timed_out else Exit.OK
