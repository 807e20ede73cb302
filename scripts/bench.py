"""Whole-process timings of treegen commands: the median of several runs of each, side by side in one table.

    python scripts/bench.py                       # every benchmark, 5 timed runs each after a warm-up run
    python scripts/bench.py --only build-entropy --only eval-bulls-cows --runs 3
    python scripts/bench.py --list

Each benchmark is a name and a treegen argument list; ``{out}`` stands for a scratch directory. Add
cases to BENCHMARKS. Every run is a fresh ``python -m treegen.cli`` process, so interpreter start,
imports and numba's cache loading count; the warm-up run fills numba's cache first.
"""

from __future__ import annotations

import argparse
import fnmatch
import statistics
import subprocess
import sys
import tempfile
import time

SCORED = ["minimax", "expected-size", "expected-steps", "entropy", "most-parts", "n-ln-n-plus-1"]

BENCHMARKS: dict[str, list[str]] = {
    **{f"build-{s}": ["build", "--strategy", s, "-o", "{out}/t.json"] for s in SCORED},
    "eval-bulls-cows": ["eval", "--strategy", "all"],
    "build-baseball-entropy": ["build", "--game", "numbers-baseball", "--strategy", "entropy", "-o", "{out}/t.json"],
    # exact search (issue 5): `--only 'solve-*'`
    "solve-mastermind": ["solve", "--game", "mastermind", "-q", "-o", "{out}/t.json"],
    "solve-mastermind-max5": ["solve", "--game", "mastermind", "--max-guesses", "5", "-q", "-o", "{out}/t.json"],
    "solve-mastermind-worst": ["solve", "--game", "mastermind", "--objective", "worst", "-q", "-o", "{out}/t.json"],
    "solve-bulls-cows-worst": ["solve", "--objective", "worst", "-q", "--workers", "2", "-o", "{out}/t.json"],
    # the proof that 6 guesses cannot solve every secret: exits 1 by design
    "solve-bulls-cows-not-6": ["solve", "--max-guesses", "6", "-q", "-o", "{out}/t.json"],
    "solve-bulls-cows": ["solve", "-q", "--workers", "2", "-o", "{out}/t.json"],
    "solve-bulls-cows-1worker": ["solve", "-q", "--workers", "1", "-o", "{out}/t.json"],
}


# Benchmarks whose command fails on purpose (a proof of impossibility), by argument string.
EXPECTED_EXIT = {" ".join(BENCHMARKS["solve-bulls-cows-not-6"]): 1}


def run_once(args: list[str], out: str) -> float:
    """Wall time of one ``treegen`` process; raises if it fails."""
    cmd = [sys.executable, "-m", "treegen.cli", *(a.replace("{out}", out) for a in args)]
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != EXPECTED_EXIT.get(" ".join(args), 0):
        raise SystemExit(f"bench: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="run only these (glob patterns allowed; repeatable)")
    parser.add_argument("--runs", type=int, default=5, metavar="N", help="timed runs of each (default 5)")
    parser.add_argument("--no-warmup", action="store_true", help="time the first run too")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args = parser.parse_args(argv)

    names = [n for n in BENCHMARKS if not args.only or any(fnmatch.fnmatch(n, p) for p in args.only)]
    if args.list:
        for n in BENCHMARKS:
            print(f"{n:<26} treegen {' '.join(BENCHMARKS[n])}")
        return 0
    if not names:
        parser.error(f"no benchmark matches {args.only}; see --list")
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    rows = []
    with tempfile.TemporaryDirectory() as out:
        for name in names:
            if not args.no_warmup:
                run_once(BENCHMARKS[name], out)
            times = [run_once(BENCHMARKS[name], out) for _ in range(args.runs)]
            rows.append((name, statistics.median(times), min(times), max(times)))
            print(f"  {name}: {rows[-1][1]:.2f} s", file=sys.stderr)

    width = max(len("benchmark"), *(len(r[0]) for r in rows))
    print(f"{'benchmark':<{width}}  {'median':>7}  {'min':>6}  {'max':>6}   runs={args.runs}")
    for name, med, lo, hi in rows:
        print(f"{name:<{width}}  {med:>6.2f}s  {lo:>5.2f}s  {hi:>5.2f}s   treegen {' '.join(BENCHMARKS[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
