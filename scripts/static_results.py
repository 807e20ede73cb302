"""Long static-game runs: write trees/*-static*.json and print the results table of the README.

    python scripts/static_results.py                   # every run below, one at a time (about 25 minutes)
    python scripts/static_results.py --only mastermind-static.json
    python scripts/static_results.py --limit 120       # a shorter time limit for the open cases

Each run is one `nice treegen static ...` process, then `treegen verify` on the file it wrote. A run stopped
by its time limit exits 4 and writes the best set it has with `proved_minimum: false`; the lower bound it
reached depends on the machine's speed, so such files are reproducible only on the same machine (a run that
finishes, exit 0 or 1, gives the same bytes everywhere for the same seed and workers).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TREES = os.path.join(os.path.dirname(HERE), "trees")
GREENWELL = "1221 2354 3311 4524 5656 6643"

# (file or None, arguments, uses the time limit)
RUNS: list[tuple[str | None, list[str], bool]] = [
    ("mastermind-static-greenwell.json", ["--game", "mastermind", "--guesses", GREENWELL], False),
    (None, ["--game", "mastermind", "--size", "4"], False),
    ("mastermind-static.json", ["--game", "mastermind"], True),
    ("smash-the-code-static.json", ["--game", "smash-the-code"], True),
    ("bulls-cows-static.json", ["--game", "bulls-cows"], True),
    ("mm-4-7-static.json", ["--game", "mm:4:7"], True),
    ("royale-static.json", ["--game", "royale"], True),
]


def treegen() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "treegen")
    return exe if os.path.exists(exe) else "treegen"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=None, metavar="FILE", help="just this file")
    parser.add_argument("--limit", type=float, default=570, metavar="S", help="time limit of the open runs (570)")
    parser.add_argument("--out", default=TREES, metavar="DIR", help="where to write the files (trees/)")
    args = parser.parse_args()
    rows = []
    for name, extra, limited in RUNS:
        if args.only and name != args.only:
            continue
        cmd = ["nice", treegen(), "static", *extra, "-q"]
        if limited:
            cmd += ["--time-limit", str(args.limit)]
        if name:
            cmd += ["-o", os.path.join(args.out, name)]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        print("$ " + " ".join(cmd[1:]), flush=True)
        print(done.stdout + done.stderr, flush=True)
        print(f"exit {done.returncode}, {seconds:.1f} s wall\n", flush=True)
        if name and done.returncode in (0, 4):
            check = subprocess.run([treegen(), "verify", os.path.join(args.out, name)], capture_output=True, text=True)
            if check.returncode != 0:
                print(check.stderr, file=sys.stderr)
                return 3
        rows.append((name or "(no file)", " ".join(extra), done.returncode, seconds))
    print("| file | arguments | exit | seconds |")
    print("|---|---|---|---|")
    for name, extra, code, seconds in rows:
        print(f"| {name} | `{extra}` | {code} | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
