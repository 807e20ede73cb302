"""How far the search's schedule can spread: its work, its critical path, and the speed-up they allow.

    python scripts/critical_path.py                          # bulls-cows, one process
    python scripts/critical_path.py --game numbers-baseball --workers 2  # about 5 min of 2 cores (510 s of CPU)
    python scripts/critical_path.py --game numbers-baseball --workers 2 --eager  # 53 min (4800 s of CPU)
    python scripts/critical_path.py --game mm:4:8 --workers 2
    python scripts/critical_path.py --game bc:5:8 --split 300    # about 3 min of one core (183 s of CPU)

The schedule of subproblems is fixed (it does not depend on workers or timing), so its critical path, the
longest chain of computing in which each piece waits for the one before (a coordinator's own scans, then
in each wave its longest job: all classes of the best-first guess side by side, or one other guess's
classes one after another), bounds the run time on any number of workers. Work / span is the most any
number of workers could speed it up (Brent: with p workers the time is at most work / p + span). The
figures are CPU seconds of the thread that computed each piece (so other jobs on the machine barely move
them; one worker still keeps tasks from sharing a core's caches), and vary a little from run to run.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time

from treegen.exact import solve_game
from treegen.rules import resolve_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="bulls-cows")
    parser.add_argument("--objective", default="average", choices=("average", "worst", "crush"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--eager", action="store_true",
                        help="every class of every guess side by side, and every big set coordinated (as solve --eager)")
    parser.add_argument("--split", type=int, default=None, metavar="N",
                        help="coordinate every set of at least N secrets at any depth (as solve --split N)")
    args = parser.parse_args(argv)
    game = resolve_game(args.game)
    profile: dict = {}
    # Each coordinator runs on a thread of its own (with --eager, one per big set at any depth), so the
    # most threads alive at once is a cost of the schedule too: sampled every tenth of a second.
    peak, done = [threading.active_count()], threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            peak[0] = max(peak[0], threading.active_count())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    try:
        tree = solve_game(game, args.objective, workers=args.workers, profile=profile, eager=args.eager,
                          split=args.split)
    finally:
        done.set()
        sampler.join()
    wall = time.perf_counter() - start
    work, span = profile["work"], profile["span"]
    print(f"{game.name}, {args.objective}{', eager' if args.eager else ''}{f', split {args.split}' if args.split else ''}: total {tree.stats.total}, {profile['tasks']} subproblems, "
          f"{args.workers} worker{'s' if args.workers != 1 else ''}, {wall:.1f} s wall")
    print(f"work  {work:9.1f} s   (CPU, summed over every subproblem and coordinator)")
    print(f"span  {span:9.1f} s   (the critical path)")
    print(f"most speed-up  {work / span:6.1f}x   (work / span)")
    print(f"threads  {peak[0]} at most at once (this one, the sampler's and each coordinator's, sampled every 0.1 s)")
    for p in (2, 8, 64):
        bound = work / p + span
        print(f"  {p:3d} workers: at least {max(work / p, span):8.1f} s, at most about {bound:8.1f} s "
              f"(speed-up {work / bound:5.1f}x to {work / max(work / p, span):5.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
