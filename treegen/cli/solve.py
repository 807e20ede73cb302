"""``treegen solve``: prove an optimal strategy tree by exact search (the coordinator, on worker processes
or Ray), with a progress bar, Ctrl-C and SIGTERM that leave no tree, and an optional checkpoint folder."""

from __future__ import annotations

import argparse
import os
import sys

from ..rules import TreegenError
from .common import (
    EXECUTORS,
    OBJECTIVES,
    Exit,
    Stop,
    add_command,
    add_game,
    default_output,
    failure_status,
    game_of,
    interrupt_within,
    nonempty,
    refuse_uncheckable,
    whole,
    workers_asked,
)


def add_solve(sub) -> None:
    p = add_command(
        sub, "solve", cmd_solve, "prove an optimal strategy tree by exact search",
        "  treegen solve -o bulls-cows.json && treegen verify bulls-cows.json\n"
        "  treegen solve --game mastermind                      # least total: 5625\n"
        "  treegen solve --game mastermind --max-guesses 5      # least total within 5 guesses: 5626\n"
        "  treegen solve --game mastermind --objective worst    # 5 guesses, 4 impossible\n"
        "  treegen solve --game mastermind --objective crush    # 5 guesses, then fewest secrets needing 5\n"
        "  treegen solve --game mastermind --consistent-only    # hard mode: only possible codes as guesses\n"
        "  treegen solve --game mm:4:7 --workers 2 --checkpoint ckpt/\n"
        "  treegen solve --game mastermind -o mm.json --certificate mm.cert.json.gz   # a proof anyone can check:\n"
        "  treegen verify mm.json                                                     #   certified optimal\n"
        "  treegen solve --executor ray --address auto --eager   # on a Ray cluster (ray start --head, then workers)\n"
        "  treegen solve --game bc:5:8 --executor ray --address auto --split 300   # a bigger game on a cluster\n"
        "\n"
        "a checkpoint folder is trusted to be treegen's own work: each entry is checked for damage, for\n"
        "belonging to this search and this version of the search's code, and an exact value against its\n"
        "tree, and the final tree is replayed over every secret. But an entry rewritten with a worse,\n"
        "self-consistent outcome (its checksum recomputed) passes those checks, and the solve would claim\n"
        "what it never proved: resume only from a folder nothing but treegen has written, and for a claim\n"
        "others must trust, solve without a checkpoint folder or with a fresh one.\n",
    )
    add_game(p)
    p.add_argument("--objective", choices=OBJECTIVES, default="average",
                   help="average: least total guesses; worst: least maximum, then least total; crush: least "
                   "maximum, then fewest secrets needing it, then least total (default average)")
    p.add_argument("--max-guesses", type=whole(None, 10**9), default=None, metavar="N",
                   help="every secret must be solved within N guesses (exit 1 with a proof if impossible)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="where to write the tree (default GAME-optimal-OBJECTIVE.json); a symlink is written "
                   "through to its target")
    p.add_argument("--certificate", default=None, metavar="FILE", type=nonempty,
                   help="also write a certificate of the lower bound to FILE (gzip-compressed JSON): claims that "
                   "`treegen verify` checks with code that shares nothing with the search; the tree names it. The "
                   "tree and its certificate come from one search in one process (the same tree): no "
                   "--checkpoint, --executor ray, --eager or --split, and --workers is not used")
    p.add_argument("--workers", type=whole(None, 10**9), default=None, metavar="K",
                   help="worker processes (default and most: every core); the output is the same for any K")
    p.add_argument("--executor", choices=EXECUTORS, default="processes",
                   help="where subproblems run: local worker processes (default) or Ray (pip install -e '.[ray]')")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="with --executor ray: 'auto' joins this machine's Ray cluster (ray start), or a Ray "
                   "address; without it a local Ray of --workers CPUs starts on loopback")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="record finished subproblems in DIR (created if its parent exists); a rerun with the "
                   "same DIR resumes; a DIR of another search is refused")
    p.add_argument("--eager", action="store_true",
                   help="search every class of every guess side by side rather than one after another, and "
                   "coordinate every big set, not only those near the root: for many workers (Ray), a shorter "
                   "critical path (bulls-cows 1.4 s of CPU against 2.6 s) for more work; the same tree (the "
                   "file records eager, as its node count differs)")
    p.add_argument("--split", type=whole(1, 10**9), default=None, metavar="N",
                   help="coordinate every set of at least N secrets at any depth, and search the other guesses of "
                   "the sets it coordinates in tasks on the workers: for many workers, a shorter critical path "
                   "for more work (bc:5:8 with N = 230: a path of 1.7 s of CPU for 142.9 s of work; "
                   "numbers-baseball with N = 200: 5.3 s for 359.8 s); the same tree (the file records split)")
    p.add_argument("--consistent-only", "--hard", action="store_true",
                   help="hard mode: every guess must be a secret still possible")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--timings", action="store_true",
                   help="also record seconds and workers in the file (the bytes then differ run to run)")
    for lever in ("symmetry", "lookahead", "ordering", "memo", "two-phase", "orbits", "shares"):
        p.add_argument(f"--no-{lever}", action="store_true", help=argparse.SUPPRESS)
    # The memo by orbit is on by default only for games of more than 2000 codes (search.uses_orbits).
    p.add_argument("--orbits", action="store_true", help=argparse.SUPPRESS)


def stderr_line(bar):
    """Print one line on stderr without breaking a progress bar's line."""

    def say(message: str) -> None:
        if bar is not None:
            bar.write(f"treegen: {message}", file=sys.stderr)
        else:
            print(f"treegen: {message}", file=sys.stderr)

    return say


def cmd_solve(args) -> int:
    import hashlib
    import time
    from concurrent.futures.process import BrokenProcessPool

    from ..exact import (
        Infeasible,
        Options,
        SearchBug,
        check_memory,
        compile_ahead,
        plan_workers,
        solve_certified,
        solve_game,
        strategy_name,
    )
    from ..files import output_file, output_folder, same_path, write_atomic
    from ..report import format_stats
    from ..tree import save_tree

    game = game_of(args.game, guesses=args.guess_list)
    if args.max_guesses is not None and args.max_guesses < 1:
        raise TreegenError(f"--max-guesses must be at least 1, not {args.max_guesses}")
    asked = workers_asked(args)
    objective = args.objective
    strategy = strategy_name(objective, args.max_guesses, args.consistent_only)
    out = args.output if args.output is not None else default_output(game, strategy)
    # Everything that can be refused is refused before the search starts (and before any folder is made).
    if args.orbits and args.no_orbits:
        raise TreegenError("--orbits and --no-orbits contradict each other; give one at most")
    if args.address is not None and args.executor != "ray":
        raise TreegenError("--address applies only with --executor ray")
    output_file(out, "tree file")
    if args.certificate is not None:
        output_file(args.certificate, "certificate file")
        if same_path(out, args.certificate):
            raise TreegenError(f"the tree and its certificate would both be written to {out}; give two files")
        refuse_uncheckable(game, "--certificate", "; solve it without --certificate")
    if args.certificate is not None:
        # The certifying search runs in one process from start to end (exact.certify): refuse what it cannot honour.
        refused = [flag for given, flag in ((args.checkpoint is not None, "--checkpoint"),
                                            (args.executor == "ray", "--executor ray"), (args.eager, "--eager"),
                                            (args.split is not None, "--split")) if given]
        if refused:
            raise TreegenError(f"{refused[0]} does not apply with --certificate, whose search runs in one process "
                               f"from start to end; drop one of them")
    if args.checkpoint is not None and (same_path(out, args.checkpoint)
                                        or same_path(os.path.dirname(os.path.abspath(out)), args.checkpoint)):
        # Found at the end, this would cost the whole search; and a checkpoint folder holds only entries.
        raise TreegenError(f"the tree file {out} would be written into the checkpoint folder {args.checkpoint}; "
                           "write it elsewhere")
    check_memory(game)
    if args.checkpoint is not None and output_folder(args.checkpoint):
        print(f"treegen: created checkpoint folder {args.checkpoint}", file=sys.stderr)
    if args.executor == "ray":
        workers = asked
    elif args.certificate is not None:
        workers = 1
        if args.workers is not None and asked > 1:
            print(f"treegen: --certificate: the certifying search runs in one process; --workers {asked} is not used",
                  file=sys.stderr)
    else:
        workers, note = plan_workers(game, asked)
        if note and args.workers is not None:  # said only to whoever asked for a number of workers
            print(f"treegen: {note}", file=sys.stderr)
    options = Options(
        symmetry=not args.no_symmetry, lookahead=not args.no_lookahead, ordering=not args.no_ordering,
        memo=not args.no_memo, two_phase=not args.no_two_phase,
        orbits=False if args.no_orbits else True if args.orbits else None, shares=not args.no_shares,
    ).resolved(game)
    start = time.perf_counter()
    bar = None

    def progress(done: int, total: int, note: str) -> None:
        # tqdm redraws at most every mininterval seconds on update(); never force a redraw here.
        bar.total = total
        if note != bar.postfix:
            bar.set_postfix_str(note, refresh=False)
        bar.update(done - bar.n)

    def timings() -> dict:
        return {"seconds": round(time.perf_counter() - start, 2), "workers": workers}

    stop = Stop()  # Ctrl-C and SIGTERM stop the workers and leave alike
    failure: BaseException | None = None
    try:
        with stop:
            # Before the progress bar, whose monitor thread would make compile_ahead spawn its helper
            # rather than fork it (slower to start).
            compile_ahead(game, asked, None if args.quiet else stderr_line(None), orbits=options.orbits)
            stop.check()
            if args.certificate is not None:
                from ..certificate import certificate_to_bytes

                if not args.quiet:
                    from tqdm import tqdm

                    # a count, not a fraction: neither the search's length nor the number of claims is known
                    # ahead (disable=None: no counter when standard error is not a terminal)
                    bar = tqdm(desc=f"certify {game.name}", unit=" claims", file=sys.stderr, leave=False, disable=None)
                tree, doc = solve_certified(
                    game, objective, args.max_guesses, options, args.consistent_only,
                    progress=None if bar is None else lambda n: bar.update(n - bar.n),
                    timings=timings if args.timings else None,
                )
                stop.check()
                certificate = certificate_to_bytes(doc)
            else:
                if not args.quiet:
                    from tqdm import tqdm

                    bar = tqdm(total=0, desc=f"solve {game.name}", unit="subproblem", file=sys.stderr, leave=False)
                tree = solve_game(
                    game, objective, args.max_guesses, workers, args.checkpoint, progress if bar is not None else None,
                    options, warn=stderr_line(bar), timings=timings if args.timings else None,
                    consistent_only=args.consistent_only, executor=args.executor, address=args.address,
                    eager=args.eager, split=args.split,
                )
            stop.check()
    except (Infeasible, SearchBug, KeyboardInterrupt, BrokenProcessPool) as exc:
        failure = exc
    except SystemError as exc:
        if not interrupt_within(exc):
            raise
        failure = KeyboardInterrupt()
    finally:
        if bar is not None:
            bar.close()  # before any message, which would otherwise trail the bar's line
    if isinstance(failure, Infeasible):
        print(f"treegen: {failure}", file=sys.stderr)
        return Exit.FALSE
    if failure is not None:
        again = f" (run it again with --checkpoint {args.checkpoint} to resume)" if args.checkpoint else ""
        return failure_status(failure, "no tree written", again, stop.terminated)
    seconds = time.perf_counter() - start
    if args.certificate is not None:
        write_atomic(args.certificate, certificate, "certificate file")
        tree.provenance["certificate"] = {"file": os.path.basename(args.certificate),
                                          "sha256": hashlib.sha256(certificate).hexdigest()}
    save_tree(tree, out)
    prov = tree.provenance
    what = {"average": "least total", "worst": "least worst case, then least total",
            "crush": "least worst case, then fewest secrets at it, then least total"}[objective]
    if args.consistent_only:
        what += ", every guess a possible secret"
    cap = f" within {prov['max_guesses']} guesses" if prov["max_guesses"] is not None else ""
    print(f"{tree.strategy} for {game.name} ({what}{cap}): wrote {out}")
    if "worst_case" in prov:
        print(f"proved   every secret within {prov['worst_case']} guesses; within {prov['impossible_within']} is impossible")
    if "at_worst" in prov:
        print(f"proved   {prov['at_worst']} secrets need all {prov['worst_case']} guesses, and no tree has fewer")
    print(f"proved   optimal total {prov['optimal_total']} (lower bound {prov['lower_bound']})")
    if args.certificate is not None:
        print(f"wrote    certificate {args.certificate} ({len(certificate):,} bytes): check it with "
              f"`treegen verify {out}`")
    print(format_stats(tree.stats))
    print(f"nodes    {prov['nodes']}")
    print(f"time     {seconds:.2f} s with {workers} worker{'s' if workers != 1 else ''}")
    return Exit.OK
