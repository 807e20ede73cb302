"""Where one set's search spends its time: the set reached by a path of guesses and hints, solved alone.

    python scripts/profile_set.py --game bc:5:10 --path 01234:0A2B 10567:0A2B 28375:0A2B   # about 2 min
    python scripts/profile_set.py --game bc:5:8 --path 01234:0A3B --top 10
    python scripts/profile_set.py --game bc:5:9 --path 01234:0A3B 12546:0A3B --guesses   # about 11 min
    python scripts/profile_set.py --game bc:5:9 --path 01234:0A3B 12546:0A3B --beta 3368  # its value known

The set is the secrets that answer each guess of the path with its hint. It is solved exactly by one
`Solver` (fresh memo, every lever on, as in `scripts/estimate_work.py`'s leaves) under cProfile, after a
smaller class of the same node has been solved to load the kernels (under ``--beta B``, the solver's
contract: the value if below B, else a bound of at least B). It prints the value, the CPU seconds,
the solver's counts, and the functions that took the most time of their own: the kernels are numba
functions called from Python, so each appears with its calls and seconds. cProfile slows the Python side,
so the seconds in the table add up to more than the CPU figure above it.

With ``--guesses`` it then says what the set's own node did, in two more searches without the profiler:
the guesses whose classes it searched (those the lookahead bound and the raised classes left below beta),
how many of them were refuted and how much of the time they took; and the set's R as
`scripts/estimate_work.py` defines it, its CPU seconds over those of its scan plus its best-first guess's
classes each solved alone: how much more the whole search costs than proving that one guess's subtree.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import numpy as np

from treegen.exact import search_kernels
from treegen.exact.contracts import INF, UNCAPPED
from treegen.exact.solver import Solver
from treegen.feedback import consistent_secrets
from treegen.rules import format_code, parse_code, parse_hint, resolve_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="bc:5:10")
    parser.add_argument("--path", nargs="+", required=True, metavar="GUESS:HINT",
                        help="guesses and the hints that keep the set, in order (e.g. 01234:0A2B)")
    parser.add_argument("--top", type=int, default=18, help="functions to list")
    parser.add_argument("--beta", type=int, default=None, metavar="B",
                        help="solve under beta B (the solver's contract: exact when below B, else a bound >= B) "
                             "instead of none")
    parser.add_argument("--guesses", action="store_true",
                        help="then count the guesses searched at the set's node, and measure the set's R")
    args = parser.parse_args(argv)
    try:
        if args.beta is not None and args.beta < 1:
            raise ValueError(f"--beta {args.beta}: a total of guesses, at least 1")
        game = resolve_game(args.game)
        steps = []
        for step in args.path:
            guess, sep, hint = step.partition(":")
            if not sep:
                raise ValueError(f"{step!r}: expected GUESS:HINT, e.g. 01234:0A2B")
            steps.append((parse_code(game, guess), parse_hint(game, hint)))
        # the secrets that give every hint of the path, and the set they were a class of
        parent = consistent_secrets(game, steps[:-1])
        secrets = consistent_secrets(game, steps[-1:], parent)
    except ValueError as e:  # TreegenError, treegen's errors (InconsistentHints among them), is a ValueError
        print(f"profile_set.py: {e}", file=sys.stderr)
        return 2
    print(f"{secrets.shape[0]} secrets", flush=True)
    if secrets.shape[0] < 3:
        print("profile_set.py: the path leaves fewer than 3 secrets; nothing to search", file=sys.stderr)
        return 2
    solver = Solver(game, orbits=True)
    history = tuple(guess for guess, _ in steps)
    depth = UNCAPPED - len(history)
    # load the kernels on a smaller class of the last node, so the profile holds no compile or cache load
    members, starts, _ = search_kernels.split_classes(solver.table, steps[-1][0], parent, solver.nh, solver.win)
    sizes = np.diff(starts)
    smaller = [d for d in np.argsort(sizes)[::-1] if 3 <= sizes[d] < secrets.shape[0]]
    if smaller:
        solver.solve(members[starts[smaller[0]] : starts[smaller[0] + 1]].copy(), INF, history, depth)
    solver.reset()
    profile = cProfile.Profile()
    start = time.process_time()
    profile.enable()
    beta = INF if args.beta is None else args.beta
    value = solver.solve(secrets, beta, history, depth)
    profile.disable()
    cpu = time.process_time() - start
    c = solver.counts
    print(f"{'value' if value < beta else f'at least {beta}: bound'} {value}, {cpu:.1f} CPU s, {c.nodes:,} nodes, {c.bound_scans:,} bound scans, {c.memo_hits:,} memo hits")
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    if args.guesses:
        searched_guesses(game, secrets, history, depth)
    return 0


def searched_guesses(game, secrets: np.ndarray, history: tuple[int, ...], depth: int) -> None:
    """Print the guesses whose classes the set's own node searched, and the set's R (module docstring)."""
    searched = []  # (guess, bound before its classes were searched, beta then, its cost or bound, CPU s)

    class Recording(Solver):
        def guess_cost(self, classes, total, beta, hist, depth_left, shares):
            if len(hist) != len(history) + 1:  # below the set's own node
                return super().guess_cost(classes, total, beta, hist, depth_left, shares)
            start = time.process_time()
            cost = super().guess_cost(classes, total, beta, hist, depth_left, shares)
            searched.append((hist[-1], total, beta, cost, time.process_time() - start))
            return cost

    solver = Recording(game, orbits=True)
    start = time.process_time()
    value = solver.solve(secrets, INF, history, depth)
    cpu = time.process_time() - start
    refuted = [x for x in searched if x[3] >= x[2]]
    print(f"\nthe set's node searched the classes of {len(searched):,} guesses (of "
          f"{len(solver.candidate_guesses(secrets, history)):,} it tries); {len(refuted):,} were refuted; they took "
          f"{sum(x[4] for x in searched):.1f} of the search's {cpu:.1f} CPU s (value {value})")
    for g, bound, beta, cost, sec in sorted(searched, key=lambda x: -x[4])[:5]:
        print(f"  {format_code(game, g)}: lookahead bound {bound}, beta {'none' if beta >= INF else beta}, "
              f"{'refuted at' if cost >= beta else 'cost'} {cost}, {sec:.2f} s")
    # R: the best-first guess (the first the scan returns under beta INF) and its classes, each alone.
    solver = Solver(game, orbits=True)
    start = time.process_time()
    scan = solver.scan(secrets, INF, history, depth)
    best_first = int(scan.guesses[0])
    members, starts, big = search_kernels.split_classes(solver.table, best_first, secrets, solver.nh, solver.win)
    below = time.process_time() - start
    for h in big:
        solver.reset()
        start = time.process_time()
        solver.solve(members[starts[h] : starts[h + 1]].copy(), INF, history + (best_first,), depth - 1)
        below += time.process_time() - start
    if below <= 0:  # a few clock ticks: no ratio to speak of
        print(f"R: the best-first guess {format_code(game, best_first)}'s scan and classes took no measurable time")
        return
    print(f"R = {cpu:.1f} s / {below:.2f} s = {cpu / below:.1f} (the best-first guess {format_code(game, best_first)}'s "
          f"scan and {len(big)} classes of three or more, each solved alone)")


if __name__ == "__main__":
    sys.exit(main())
