"""A list game's exact least total against the size of the list: how far the exact search reaches.

    python scripts/word_curve.py                         # 100, 200, 400, 800 words of word-mastermind
    python scripts/word_curve.py --sizes 100 200 --workers 2
    python scripts/word_curve.py --rate                  # also the node rate beside a symmetric game
    python scripts/word_curve.py --rule per-position --sizes 100 200 400   # five-letter words, marked per position
    python scripts/word_curve.py --rule jotto --sizes 50 100              # five-letter words, letters in common

Bulls and cows (the default rule) samples word-mastermind's list; the other rules sample the five-letter list
(jotto's, treegen/words/words5.txt), read as ``jotto:FILE`` or ``per-position:FILE``.

Each size is a sample of the shipped list (seeded by the size, so the same words every run), written to a
scratch file and solved by `treegen solve --game words:FILE` in a fresh process; the table gives the least
total, the seconds, and the search's nodes. A list game has no symmetry, so every word is its own class of
guesses at every node. --rate compares the nodes per second with a symmetric game of about the same size
(bc:4:7, 840 codes, beside a list of 840 words), so that the cost of losing symmetry shows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from treegen.rules import LIST_PREFIXES, resolve_game


def solve(game: str, workers: int, out: str) -> tuple[dict, float]:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treegen.cli", "solve", "--game", game, "--workers", str(workers), "-o", out],
                   check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    with open(out) as f:
        tree = json.load(f)
    return tree, seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 800])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rate", action="store_true")
    ap.add_argument("--rule", choices=sorted(LIST_PREFIXES.values()), default="bulls-cows")
    args = ap.parse_args()
    prefix = next(p for p, rule in LIST_PREFIXES.items() if rule == args.rule)
    words = resolve_game("word-mastermind" if args.rule == "bulls-cows" else "jotto").words
    print("| words | least total | average | max | seconds | nodes |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.sizes:
            sample = sorted(random.Random(n).sample(words, n))
            path = os.path.join(scratch, f"sample-{n}.txt")
            with open(path, "w") as f:
                f.write("".join(w + "\n" for w in sample))
            tree, seconds = solve(f"{prefix}{path}", args.workers, os.path.join(scratch, f"t{n}.json"))
            st, prov = tree["stats"], tree["provenance"]
            print(f"| {n} | {st['total']} | {st['total'] / st['secrets']:.4f} | {st['max_guesses']} | {seconds:.1f} | "
                  f"{prov.get('nodes', '?'):,} |", flush=True)
        if args.rate:
            for game in ("bc:4:7", "words:" + os.path.join(scratch, "sample-840.txt")):
                if game.startswith("words:"):
                    with open(game[6:], "w") as f:
                        f.write("".join(w + "\n" for w in sorted(random.Random(840).sample(words, 840))))
                tree, seconds = solve(game, 1, os.path.join(scratch, "rate.json"))
                nodes = tree["provenance"].get("nodes", 0)
                print(f"{game.split('/')[-1]}: {tree['stats']['total']} total, {nodes:,} nodes in {seconds:.1f} s "
                      f"({nodes / seconds:,.0f} nodes/s, one worker, process start included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
