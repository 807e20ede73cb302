"""Which search technique buys how much: solve a game with each lever switched off in turn.

    python scripts/ablation.py                          # mastermind, every lever, 3 runs each
    python scripts/ablation.py --game smash-the-code --runs 1 --timeout 600

Each run is a fresh `treegen solve --workers 1` process (warm numba cache) with every other lever on,
the memo by orbit included, which games of up to 2000 codes leave off by default (so "none" is the
default search only for bigger games); the table gives the median wall time, the nodes searched (sets
scanned, plus bound scans) and the optimal total, which must not change. A run over --timeout seconds is
reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LEVERS = ["none", "orbits", "shares", "two-phase", "ordering", "memo", "symmetry", "lookahead"]


def run(game: str, lever: str, out: str, timeout: float) -> tuple[float, dict | None]:
    cmd = [sys.executable, "-m", "treegen.cli", "solve", "--game", game, "--workers", "1", "-q", "-o", out]
    # Every other lever on, the memo by orbit included, which games of up to 2000 codes leave off by default.
    cmd.append("--no-orbits" if lever == "orbits" else "--orbits")
    if lever not in ("none", "orbits"):
        cmd.append(f"--no-{lever}")
    start = time.perf_counter()
    try:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, None
    seconds = time.perf_counter() - start
    with open(out) as f:
        return seconds, json.load(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mastermind")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--only", action="append", choices=LEVERS)
    args = parser.parse_args(argv)
    print(f"{'switched off':<12} {'median s':>9} {'nodes':>10} {'total':>7}   ({args.game}, {args.runs} runs, 1 worker)")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.json")
        for lever in args.only or LEVERS:
            times, tree = [], None
            for _ in range(args.runs):
                seconds, tree = run(args.game, lever, out, args.timeout)
                times.append(seconds)
                if tree is None:
                    break
            if tree is None:
                print(f"{lever:<12} {'>' + format(args.timeout, '.0f'):>9} {'-':>10} {'-':>7}")
                continue
            prov = tree["provenance"]
            print(f"{lever:<12} {statistics.median(times):>9.2f} {prov['nodes']:>10} {tree['stats']['total']:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
