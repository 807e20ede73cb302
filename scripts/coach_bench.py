"""How fast the coach answers, served: per move as the page asks, per whole game, and the page's load.

    python scripts/coach_bench.py                       # bulls-cows and mastermind, 200 games each
    python scripts/coach_bench.py --games 50 --game mastermind
    python scripts/coach_bench.py --page                # also: each shipped tree's load in Chromium

A real `treegen serve --port 0` is started on loopback. Each game draws a secret and plays like a person:
most guesses are secrets still possible, some are any code, until the secret is found or 8 moves. As the
page does, the whole history is asked for after each move (`/api/analyze`), so earlier moves come from the
server's cache and the time is the new move's; the first move (the opening) is reported apart, as the
issue's figure is for moves after it. Then each game, replayed with the hints of another secret, is asked
for in one request (a whole game the server has not seen). Times are wall-clock per request, from this
process; the quantiles are over all requests of that kind. --page opens the page in headless Chromium and
times each shipped tree from its click to the page's "loaded" mark (the tree fetched, every secret
replayed through it, the views drawn).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from treegen.rules import format_code, format_hint, resolve_game, score_codes

ROOT = Path(__file__).resolve().parent.parent


def quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]  # noqa: E731
    return (f"n={len(xs)}  median {statistics.median(xs) * 1000:.0f} ms  p90 {q(0.9) * 1000:.0f} ms  "
            f"p95 {q(0.95) * 1000:.0f} ms  max {xs[-1] * 1000:.0f} ms")


def ask(url: str, game, history) -> tuple[float, dict]:
    moves = ",".join(f"{format_code(game, g)}={format_hint(game, h)}" for g, h in history)
    start = time.perf_counter()
    with urllib.request.urlopen(f"{url}api/analyze?game={game.name}&moves={urllib.parse.quote(moves)}", timeout=300) as r:
        body = json.loads(r.read())
    return time.perf_counter() - start, body


def play(game, rng) -> list[tuple[int, int]]:
    secret = rng.randrange(game.size)
    alive = list(range(game.size))
    history = []
    while len(history) < 8:
        g = rng.choice(alive) if rng.random() < 0.75 else rng.randrange(game.size)
        h = score_codes(game, g, secret)
        history.append((g, h))
        if g == secret:
            break
        alive = [s for s in alive if score_codes(game, g, s) == h]
    return history


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="a game (repeatable; default bulls-cows and mastermind)")
    ap.add_argument("--games", type=int, default=200, help="games per game (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--page", action="store_true", help="also time each shipped tree's load in the page")
    args = ap.parse_args()
    proc = subprocess.Popen([sys.executable, "-m", "treegen.cli", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+/", proc.stdout.readline()).group(0)
    try:
        for name in args.game or ["bulls-cows", "mastermind"]:
            game = resolve_game(name)
            rng = random.Random(args.seed)
            ask(url, game, [])  # the coach's first question loads the search; the page asks one on opening the tab
            first, later, whole, bounds, lengths = [], [], [], 0, []
            games = [play(game, rng) for _ in range(args.games)]
            for history in games:
                lengths.append(len(history))
                for k in range(1, len(history) + 1):
                    seconds, body = ask(url, game, history[:k])
                    (first if k == 1 else later).append(seconds)
                    bounds += not body["moves"][-1]["loss"]["exact"]
            for history in games:  # the same guesses against another secret: a game the server has not seen
                secret = rng.randrange(game.size)
                replay = []
                for g, _ in history:
                    replay.append((g, score_codes(game, g, secret)))
                    if g == secret:
                        break
                seconds, _ = ask(url, game, replay)
                whole.append(seconds)
            print(f"{game.name}: {args.games} games, {statistics.mean(lengths):.1f} moves on average")
            print(f"  first move (the opening):  {quantiles(first)}")
            print(f"  each later move, served:   {quantiles(later)}")
            print(f"  a whole unseen game:       {quantiles(whole)}")
            print(f"  moves given as bounds (out of the 1 s budget): {bounds}")
    finally:
        proc.terminate()
        proc.wait()
    if args.page:
        page_load()
    return 0


def page_load() -> None:
    from playwright.sync_api import sync_playwright

    proc = subprocess.Popen([sys.executable, "-m", "treegen.cli", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+/", proc.stdout.readline()).group(0)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
            page = browser.new_page()
            page.on("dialog", lambda d: d.accept())
            page.goto(url)
            page.wait_for_selector("table.trees")
            files = page.eval_on_selector_all("#shipped tr[data-file] button.pick", "bs => bs.map((b) => b.closest('tr').dataset.file)")
            print("page load, click to ready (median of 3):")
            for f in files:
                times = []
                for _ in range(3):
                    page.goto(url)
                    page.wait_for_selector("table.trees")
                    start = time.perf_counter()
                    page.click(f'#shipped tr[data-file="{f}"]')
                    page.wait_for_selector(f'body[data-loaded="{f}"]')
                    times.append(time.perf_counter() - start)
                print(f"  {f:<48} {statistics.median(times) * 1000:6.0f} ms")
            browser.close()
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
