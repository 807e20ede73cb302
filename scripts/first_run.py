"""The first run after install: ``treegen solve --game mastermind`` with an empty numba cache, timed.

    python scripts/first_run.py                 # 3 cold runs and 3 warm runs, medians of wall and CPU time
    python scripts/first_run.py --runs 5 --warm 0
    python scripts/first_run.py -- solve --game bulls-cows --workers 2 -q -o {out}/t.json

Each cold run is a fresh ``python -m treegen.cli`` process given a new, empty ``NUMBA_CACHE_DIR``: numba
then neither reads nor writes its usual cache (``treegen/__pycache__/*.nbi, *.nbc`` beside the sources),
so the run compiles every kernel it calls, as the first run after install does, and the user's own cache
is left alone. The warm runs reuse the last cold run's folder. CPU time is the child's user + sys
seconds (its worker processes included), which a busy machine inflates less than wall time; the load
average is printed before and after, since wall time on a shared machine means little without it.

With the default command, each run's output file is compared byte for byte with the shipped
``trees/mastermind-optimal-average.json``: a faster first run must not change the tree.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["solve", "--game", "mastermind", "-q", "-o", "{out}/t.json"]
SHIPPED = ROOT / "trees" / "mastermind-optimal-average.json"


def run_once(args: list[str], out: str, cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one treegen process with numba's cache in ``cache``; raises if it fails."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    cmd = [sys.executable, "-m", "treegen.cli", *(a.replace("{out}", out) for a in args)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"first_run: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, metavar="N", help="cold runs (default 3)")
    parser.add_argument("--warm", type=int, default=3, metavar="N", help="warm runs after them (default 3)")
    parser.add_argument("command", nargs="*", help="treegen arguments ({out}: a scratch folder); default: "
                        + " ".join(DEFAULT))
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warm < 0:
        parser.error("--runs must be at least 1 and --warm at least 0")
    command = args.command or DEFAULT
    check = not args.command and SHIPPED.exists()
    print(f"treegen {' '.join(command)}")
    print(f"load average before: {load()}")
    results: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as out:
        for i in range(args.runs):
            cache = tempfile.mkdtemp(prefix="numba-", dir=out)
            results["cold"].append(run_once(command, out, cache))
            print(f"  cold {i + 1}: wall {results['cold'][-1][0]:.2f} s, CPU {results['cold'][-1][1]:.2f} s",
                  file=sys.stderr)
            if check and (Path(out) / "t.json").read_bytes() != SHIPPED.read_bytes():
                raise SystemExit(f"first_run: the tree differs from {SHIPPED.relative_to(ROOT)}")
        for i in range(args.warm):
            results["warm"].append(run_once(command, out, cache))
            print(f"  warm {i + 1}: wall {results['warm'][-1][0]:.2f} s, CPU {results['warm'][-1][1]:.2f} s",
                  file=sys.stderr)
    print(f"load average after:  {load()}")
    for kind, runs in results.items():
        if runs:
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            print(f"{kind:<5} median of {len(runs)}: wall {wall:.2f} s, CPU (user+sys) {cpu:.2f} s")
    if check:
        print(f"output identical to {SHIPPED.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
