"""Where one set's search spends its time: the set reached by a path of guesses and hints, solved alone.

    python scripts/profile_set.py --game bc:5:10 --path 01234:0A2B 10567:0A2B 28375:0A2B   # about 2 min
    python scripts/profile_set.py --game bc:5:8 --path 01234:0A3B --top 10
    python scripts/profile_set.py --game bc:5:9 --path 01234:0A3B 12546:0A3B --guesses   # about 11 min
    python scripts/profile_set.py --game bc:5:9 --path 01234:0A3B 12546:0A3B --beta 3368  # its value known
    python scripts/profile_set.py --game bc:5:9 --path 01234:0A3B 12546:0A3B --guesses --gaps 20  # 25 min

The set is the secrets that answer each guess of the path with its hint. It is solved exactly by one
`Solver` (fresh memo, every lever on, as in `scripts/estimate_work.py`'s leaves) under cProfile, after a
smaller class of the same node has been solved to load the kernels (under ``--beta B``, the solver's
contract: the value if below B, else a bound of at least B). It prints the value, the CPU seconds,
the solver's counts, and the functions that took the most time of their own: the kernels are numba
functions called from Python, so each appears with its calls and seconds. cProfile slows the Python side,
so the seconds in the table add up to more than the CPU figure above it.

With ``--guesses`` it then says what the set's own node did, in two more searches without the profiler
(and without ``--beta``):
the guesses whose classes it searched (those the lookahead bound and the raised classes left below beta),
how many of them were refuted and how much of the time they took; and the set's R as
`scripts/estimate_work.py` defines it, its CPU seconds over those of its scan plus its best-first guess's
classes each solved alone: how much more the whole search costs than proving that one guess's subtree.
``--gaps K`` then takes K of the refuted guesses and says how far their bounds fall short of their exact
cost, and in classes of which sizes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import numpy as np

from treegen.exact import search_kernels
from treegen.exact.contracts import INF, UNCAPPED
from treegen.exact.solver import Solver
from treegen.feedback import consistent_secrets
from treegen.rules import format_code, parse_code, parse_hint, resolve_game

# estimate_work, beside this script, measures R; the same code measures it here
sys.path.insert(0, str(Path(__file__).resolve().parent))
from estimate_work import below_cpu


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
    parser.add_argument("--gaps", type=int, default=0, metavar="K",
                        help="with --guesses: for K of the refuted guesses, evenly spaced in the order searched, "
                             "solve every class exactly and say how far short each bound falls, by class size")
    args = parser.parse_args(argv)
    try:
        if args.beta is not None and args.beta < 1:
            raise ValueError(f"--beta {args.beta}: a total of guesses, at least 1")
        if args.gaps < 0 or (args.gaps and not args.guesses):
            raise ValueError(f"--gaps {args.gaps}: a number of guesses, with --guesses")
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
        refuted = searched_guesses(game, secrets, history, depth)
        if args.gaps:
            step = max(1, len(refuted) // args.gaps)
            bound_gaps(game, secrets, history, depth, refuted[::step][: args.gaps])
    return 0


def searched_guesses(game, secrets: np.ndarray, history: tuple[int, ...], depth: int) -> list[tuple[int, int]]:
    """Print the guesses whose classes the set's own node searched, and the set's R (module docstring); return
    the refuted ones, (guess, its bound with the big classes raised), in the order searched."""
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
    # When the node found its best guess, and how many guesses it searched whose bound was already at or
    # above the value (a beta at the value from the start would have left those out).
    found = max((i for i, x in enumerate(searched) if x[3] < x[2]), default=None)
    if found is not None:
        print(f"  its best guess {format_code(game, searched[found][0])} ({searched[found][3]}) was number "
              f"{found + 1:,} of them, after {sum(x[4] for x in searched[:found]):.1f} s of their searches; "
              f"{sum(x[1] >= value for x in searched):,} of them had a bound of {value} or more")
    for g, bound, beta, cost, sec in sorted(searched, key=lambda x: -x[4])[:5]:
        print(f"  {format_code(game, g)}: lookahead bound {bound}, beta {'none' if beta >= INF else beta}, "
              f"{'refuted at' if cost >= beta else 'cost'} {cost}, {sec:.2f} s")
    # R, measured as estimate_work measures it: the best-first guess's scan and classes, each solved alone.
    ex, below = below_cpu(Solver(game, orbits=True), secrets, history, None)
    if below < 0.01 or cpu < 0.01:  # a few clock ticks, on either side: no ratio to speak of
        print(f"R: the search ({cpu:.2f} s) or the best-first guess {format_code(game, ex.guess)}'s scan and "
              f"classes ({below:.2f} s) took no measurable time")
    else:
        print(f"R = {cpu:.2f} s / {below:.2f} s = {cpu / below:.3g} (the best-first guess "
              f"{format_code(game, ex.guess)}'s scan and {len(ex.classes)} classes of three or more, each solved "
              "alone)")
    return [(g, bound) for g, bound, _beta, _cost, _sec in refuted]


def bound_gaps(game, secrets: np.ndarray, history: tuple[int, ...], depth: int, guesses: list[tuple[int, int]]) -> None:
    """For each (guess, raised bound): the guess's total with every class of three or more at its counting
    bound (one step), at its least lookahead bound (two steps: the bound the search raises big classes
    to) and solved exactly (smaller classes cost their closed form in all three); then the two-step
    bound's shortfall summed by class size."""
    if not guesses:
        print("\nno guess was refuted at the set's node: no bound fell short there")
        return
    solver = Solver(game, orbits=True)
    lb = solver.bounds.lb[depth - 1]
    short: dict[int, list[int]] = {}  # class size bucket -> [classes, sum of (exact - two-step)]
    print(f"\n{len(guesses)} refuted guesses, their totals with the classes at each bound:")
    for g, raised in guesses:
        members, starts, big = search_kernels.split_classes(solver.table, g, secrets, solver.nh, solver.win)
        sizes = np.diff(starts)
        # every secret pays for g; a class of one or two (not the winning hint) costs its counting bound
        closed = secrets.shape[0] + sum(int(lb[n]) for h, n in enumerate(sizes)
                                        if 0 < n <= 2 and h != solver.win)
        one = two = exact = closed
        for h in big:
            cls = members[starts[h] : starts[h + 1]].copy()
            n = cls.shape[0]
            scan = solver.scan(cls, INF, history + (g,), depth - 1)
            least = int(scan.bounds[: len(scan.guesses)].min())
            solver.reset()
            value = solver.solve(cls, INF, history + (g,), depth - 1)
            one, two, exact = one + int(lb[n]), two + least, exact + value
            bucket = short.setdefault(min(n // 25 * 25, 150), [0, 0])
            bucket[0] += 1
            bucket[1] += value - least
        print(f"  {format_code(game, g)}: raised {raised}, one step {one}, two steps {two}, exact {exact}")
    total = sum(x[1] for x in short.values())
    print("the two-step bound's shortfall by class size: " + ", ".join(
        f"{b}{'+' if b == 150 else f'-{b + 24}'}: {x[1]} over {x[0]} classes ({100 * x[1] / max(total, 1):.0f}%)"
        for b, x in sorted(short.items())))


if __name__ == "__main__":
    sys.exit(main())
