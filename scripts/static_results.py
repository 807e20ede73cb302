"""Long static-game runs: write trees/*-static*.json and print the results table of the README.

    python scripts/static_results.py                   # every run below, one at a time (about an hour)
    python scripts/static_results.py --only mastermind-static.json
    python scripts/static_results.py --limit 120       # a shorter time limit for the open cases
    python scripts/static_results.py --cross-check     # dfs and cp-sat, case by case, on smaller games

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
# Smaller sets than the greedy ones, found by `python scripts/static_local.py --game G --size K --seed 1`
# (a local search: upper bounds, not proofs; the files are written with --guesses, which checks them).
LOCAL = {
    "bulls-cows": "1976 2417 3194 5648 6820 7301 8253 9085",  # --size 8 --tabu --complete 8: 2692 moves
    "smash-the-code": "1358 2538 3791 4956 6582 7945 8429 9815",  # --size 8
    "royale": "00221 00413 11204 31130 33444 40004",  # --size 6
}

# Games and sizes where the two methods must agree on every symmetry case: the least size and one below.
# (static numbers: mm:4:4 4, mm:3:6 5, bc:3:6 4, mm:4:5 5, mastermind 6.)
CROSS = [("bc:3:6", (3, 4)), ("mm:3:6", (4, 5)), ("mastermind", (4,)), ("mm:4:4", (3, 4)), ("mm:4:5", (4, 5))]
# And mastermind's size 5 (the proof), on the cases that allow at most 200 codes: CP-SAT's size-5 models
# grow too big beyond these.
SPOT = [("mastermind", 5, 200)]
CROSS_LIMIT = 600  # seconds per method, game and size; a case still open then is reported, not compared

# (file or None, arguments, uses the time limit)
RUNS: list[tuple[str | None, list[str], bool]] = [
    ("mastermind-static-greenwell.json", ["--game", "mastermind", "--guesses", GREENWELL], False),
    (None, ["--game", "mastermind", "--size", "4"], False),
    ("mastermind-static.json", ["--game", "mastermind"], False),  # the proof that 5 do not suffice
    ("smash-the-code-static.json", ["--game", "smash-the-code"], True),
    ("bulls-cows-static.json", ["--game", "bulls-cows"], True),
    ("mm-4-7-static.json", ["--game", "mm:4:7"], True),
    ("royale-static.json", ["--game", "royale"], True),
    (None, ["--game", "royale", "--size", "4", "--workers", "1"], False),  # no set of 4: about 3 minutes
] + [(f"{game}-static-local.json", ["--game", game, "--guesses", codes], False) for game, codes in LOCAL.items()]


def treegen() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "treegen")
    return exe if os.path.exists(exe) else "treegen"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=None, metavar="FILE", help="just this file")
    parser.add_argument("--limit", type=float, default=570, metavar="S", help="time limit of the open runs (570)")
    parser.add_argument("--out", default=TREES, metavar="DIR", help="where to write the files (trees/)")
    parser.add_argument("--cross-check", action="store_true",
                        help="decide every symmetry case of the CROSS games with both methods and compare")
    args = parser.parse_args()
    if args.cross_check:
        return cross_check()
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


def cross_check() -> int:
    """Both methods on every case of the CROSS games: statuses must match ("filter" is CP-SAT's name for a
    case its domain filter closes, an infeasible case); every set found must separate. Run it under nice."""
    from treegen import static
    from treegen.rules import parse_code, resolve_game

    bad = 0
    print("| game | k | cases | dfs: found / infeasible / counting, seconds | cp-sat: found / infeasible / counting, seconds, clauses | agree |")
    print("|---|---|---|---|---|---|")
    jobs = [(name, k, None) for name, sizes in CROSS for k in sizes] + SPOT
    for name, k, max_codes in jobs:
        game = resolve_game(name)
        runs = {}
        for method in static.METHODS:
            start = time.perf_counter()
            records = static.decide_cases(game, k, method, time_limit=CROSS_LIMIT, max_codes=max_codes)
            runs[method] = (records, time.perf_counter() - start)
        dfs, sat = runs["dfs"][0], runs["cp-sat"][0]
        norm = {"filter": "infeasible"}
        same = [norm.get(a.status, a.status) == norm.get(b.status, b.status) for a, b in zip(dfs, sat)
                if "stopped" not in (a.status, b.status) and a.status != "skipped"]
        open_cases = sum("stopped" in (a.status, b.status) for a, b in zip(dfs, sat))
        for r in dfs + sat:
            if r.status == "found" and not static.is_static_set(game, [parse_code(game, c) for c in r.found]):
                same.append(False)
        bad += not all(same)

        def tally(records, seconds, clauses):
            st = [norm.get(r.status, r.status) for r in records]
            text = f"{st.count('found')} / {st.count('infeasible')} / {st.count('counting')}, {seconds:.1f} s"
            if st.count("stopped"):
                text += f" ({st.count('stopped')} stopped by the time limit)"
            return text + (f", {sum(r.clauses for r in records)}" if clauses else "")

        picked = sum(r.status != "skipped" for r in dfs)
        print(f"| {name} | {k} | {picked if max_codes else len(dfs)}{f' (those with at most {max_codes} codes)' if max_codes else ''} | {tally(*runs['dfs'], False)} | {tally(*runs['cp-sat'], True)} "
              f"| {'yes' if all(same) else 'NO'}{f' ({len(same)} compared, {open_cases} open)' if open_cases else ''} |",
              flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
