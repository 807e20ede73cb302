"""Look for a small static set by local search: an upper bound on a game's static number, not a proof.

A static set is k codes whose hint vectors differ for every two secrets (docs/results.md#static-game).
`treegen static` proves its sizes case by case, but its upper bound comes from a greedy set, which for
the larger games is several guesses above the proved lower bound. This script starts from k random codes
and repeatedly replaces one of them by the best of a random sample of codes, scoring a set by how many
secrets share their hint vector with an earlier secret (0: a static set). A move that does not make the
score worse is taken; a worse one now and then, so that the walk leaves a plateau. When a set of k is
found it drops the guess whose loss costs least and looks for k - 1, until the time limit.

With ``--complete N``, whenever the walk's set leaves at most N secrets unseparated, it also tries every
pair of its guesses exhaustively: the other k - 2 are kept and every two codes are tried in their place
(`complete_two`), so a set one or two codes away from a static set is not missed. A base found not to
complete is remembered and not tried again; how many were tried is printed at the end.

With ``--tabu`` the moves are a tabu search's instead (`tabu_search`): every code is tried in every place
of the set, scored by the pairs of secrets left unseparated, and the code a move replaces is barred from
coming back for a while; ``--complete`` then tries the exhaustive pairs each time the set is the best of
its start. On bulls-cows it found a set of 8 where the walk's best was 9:

    python scripts/static_local.py --game bulls-cows --size 8 --tabu --complete 8 --seed 1 --time-limit 1500

Nothing it prints is taken on trust: it ends with the `treegen static --guesses` command that checks the
set (every secret's hint vector is recomputed) and writes it as a tree that `treegen verify` replays.

    python scripts/static_local.py --game bulls-cows --size 9 --seed 1 --time-limit 120
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from treegen.feedback import feedback_table
from treegen.rules import TreegenError, format_code, resolve_game
from treegen.static.cases import hint_labels


def collisions(keys: np.ndarray) -> np.ndarray:
    """Per row of ``keys`` (one hint vector key per secret): the secrets whose key an earlier secret has,
    that is |S| minus the number of distinct keys. 0 exactly when the row's guesses form a static set."""
    s = np.sort(keys, axis=-1)
    return (s[..., 1:] == s[..., :-1]).sum(axis=-1)


def complete_two(table: np.ndarray, base: list[int]) -> tuple[int, int] | None:
    """Two codes that make ``base`` (codes, rows of ``table``) a static set, or None if no two codes do.

    Exhaustive: every code is tried as the first. With it, ``base`` leaves classes of secrets that share
    their hint vector, and the second code must give the secrets of each class distinct hints; one code
    gives at most ``hints`` different hints, so a class bigger than that rules the first code out at once.
    Otherwise the second is looked for among every code, keeping those that tell apart each class in
    turn (largest first, so that most codes drop out early). The two are different codes, neither in
    ``base`` (no loss: if a code of ``base`` could be one of them, the other alone completes ``base``, and
    then with any third code too)."""
    codes, n = table.shape
    hints = int(table.max()) + 1
    _, labels = np.unique(hint_labels(table, base) if base else np.zeros(n, dtype=np.int64), return_inverse=True)
    labels = labels.reshape(n).astype(np.int64) * hints
    outside = np.ones(codes, dtype=bool)
    outside[list(base)] = False
    for first in np.flatnonzero(outside):
        keys = labels + table[first]
        order = np.argsort(keys, kind="stable")
        ends = np.flatnonzero(np.diff(keys[order])) + 1
        starts = np.concatenate(([0], ends))
        sizes = np.diff(np.concatenate((starts, [n])))
        if sizes.max() > hints:
            continue
        alive = np.flatnonzero(outside)
        alive = alive[alive != first]
        for c in np.argsort(-sizes, kind="stable"):
            if sizes[c] < 2:
                break
            members = order[starts[c]:starts[c] + sizes[c]]
            column = np.sort(table[np.ix_(members, alive)], axis=0)
            alive = alive[~(column[1:] == column[:-1]).any(axis=0)]
            if alive.size == 0:
                break
        if alive.size:
            return int(first), int(alive[0])
    return None


def complete_pairs(table: np.ndarray, cur: list[int], tried: set, deadline: float) -> list[int] | None:
    """A static set made from ``cur`` by replacing two of its codes (complete_two on each base of the other
    k - 2, those in ``tried`` skipped and those that fail added), or None; stops at ``deadline``."""
    for i, j in itertools.combinations(range(len(cur)), 2):
        kept = tuple(sorted(c for m, c in enumerate(cur) if m not in (i, j)))
        if kept in tried or time.monotonic() >= deadline:
            continue
        pair = complete_two(table, list(kept))
        if pair is not None:
            return sorted([*kept, *pair])
        tried.add(kept)
    return None


def local_search(table: np.ndarray, k: int, rng: np.random.Generator, deadline: float, sample: int,
                 start: list[int] | None = None, say=print, complete: int = -1,
                 tried: set | None = None) -> list[int] | None:
    """A static set of ``k`` codes (rows of ``table``, codes x secrets) found by the walk of the module
    docstring before ``deadline`` (time.monotonic), or None. With ``complete`` >= 0, each set of the walk
    that leaves at most that many secrets unseparated has every pair of its codes replaced exhaustively
    (complete_two); ``tried`` collects the bases of k - 2 codes that do not complete."""
    codes = table.shape[0]
    hints = int(table.max()) + 1
    tried = tried if tried is not None else set()
    cur = list(start) if start is not None else [int(x) for x in rng.choice(codes, k, replace=False)]
    score = int(collisions(hint_labels(table, cur)))
    best = score
    moves = 0
    while score > 0 and time.monotonic() < deadline:
        if k >= 2 and score <= complete and (done := complete_pairs(table, cur, tried, deadline)) is not None:
            return done
        moves += 1
        i = int(rng.integers(k))
        base = hint_labels(table, cur[:i] + cur[i + 1:]) * hints
        cands = rng.choice(codes, min(sample, codes), replace=False)
        scores = collisions(base[None, :] + table[cands])
        j = int(np.argmin(scores))
        if scores[j] <= score or rng.random() < 0.05:
            cur[i] = int(cands[j])
            score = int(scores[j])
        if score < best:
            best = score
            say(f"size {k}: {best} secrets not yet separated after {moves} moves")
    return sorted(cur) if score == 0 else None


def unseparated_pairs_by_code(table: np.ndarray, labels: np.ndarray, hints: int) -> np.ndarray:
    """For every code (row of ``table``): the pairs of secrets that share their hint vector once the code
    is added to guesses whose hint vectors are ``labels`` (one small int per secret). Only the secrets that
    share their label with another secret can stay unseparated, so only they are looked at."""
    live = np.flatnonzero(np.bincount(labels)[labels] > 1)
    if live.size < 2:
        return np.zeros(table.shape[0], dtype=np.int64)
    keys = np.sort(labels[live][None, :] * hints + table[:, live], axis=1)
    # In each sorted row a secret pairs with every equal key before it: its place less its run's start.
    place = np.arange(live.size)
    first = np.ones(keys.shape, dtype=bool)
    first[:, 1:] = keys[:, 1:] != keys[:, :-1]
    run_start = np.maximum.accumulate(np.where(first, place, 0), axis=1)
    return (place - run_start).sum(axis=1)


def tabu_search(table: np.ndarray, k: int, rng: np.random.Generator, deadline: float, start: list[int] | None = None,
                say=print, complete: int = -1, tried: set | None = None, tenure: int = 25,
                restart: int = 20_000) -> list[int] | None:
    """A static set of ``k`` codes found before ``deadline`` by tabu search, or None.

    Each move tries every code in every place of the set (the whole neighbourhood, not a sample) and takes
    the one that leaves fewest pairs of secrets unseparated (a finer score than the secrets themselves,
    so that the search sees a pair split off a big class), ties broken at random; the code it replaces may
    not come back for ``tenure`` (plus 0 to 4) moves, unless it would beat the best of this start. After
    ``restart`` moves without beating that best, it starts again from random codes. The first start is
    ``start`` if given; ``complete`` and ``tried`` as in local_search."""
    codes = table.shape[0]
    hints = int(table.max()) + 1
    tried = tried if tried is not None else set()
    moves = 0
    best_ever = None
    while time.monotonic() < deadline:
        cur = list(start) if start is not None else [int(x) for x in rng.choice(codes, k, replace=False)]
        start = None
        labels = hint_labels(table, cur)
        sizes = np.bincount(labels)
        score = int((sizes * (sizes - 1) // 2).sum())
        best_run, stale, banned = score, 0, {}
        fresh = True  # the set is the best of this start so far: worth completing
        while score > 0 and stale < restart and time.monotonic() < deadline:
            if (fresh and k >= 2 and 0 <= complete and int(collisions(hint_labels(table, cur))) <= complete
                    and (done := complete_pairs(table, cur, tried, deadline)) is not None):
                return done
            moves += 1
            banned = {code: until for code, until in banned.items() if until > moves}
            options = []
            for i in range(k):
                scores = unseparated_pairs_by_code(table, hint_labels(table, cur[:i] + cur[i + 1:]), hints)
                scores[cur] = np.iinfo(np.int64).max
                for code in banned:
                    if scores[code] >= best_run:
                        scores[code] = np.iinfo(np.int64).max
                least = scores.min()
                options.append((int(least), i, int(rng.choice(np.flatnonzero(scores == least)))))
            least = min(o[0] for o in options)
            ties = [o for o in options if o[0] == least]
            _, i, code = ties[int(rng.integers(len(ties)))]
            banned[cur[i]] = moves + tenure + int(rng.integers(5))
            cur[i], score = code, least
            fresh = score < best_run
            if fresh:
                best_run, stale = score, 0
            else:
                stale += 1
            if best_ever is None or score < best_ever:
                best_ever = score
                say(f"size {k}: {score} pairs of secrets not yet separated after {moves} moves")
        if score == 0:
            return sorted(cur)
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="example:\n  python scripts/static_local.py --game bulls-cows --size 9 --seed 1")
    p.add_argument("--game", default="bulls-cows")
    p.add_argument("--size", type=int, required=True, help="the size to look for first (then smaller ones)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-limit", type=float, default=120.0, help="seconds (default 120)")
    p.add_argument("--sample", type=int, default=400, help="codes tried per move (default 400)")
    p.add_argument("--complete", type=int, default=-1, metavar="N",
                   help="at N or fewer secrets unseparated, try every pair of the set's codes exhaustively")
    p.add_argument("--tabu", action="store_true",
                   help="tabu search over every code in every place (slower moves, better sets) instead of the walk")
    args = p.parse_args(argv)
    try:
        game = resolve_game(args.game)
    except TreegenError as exc:
        print(f"static_local: {exc}", file=sys.stderr)
        return 2
    if args.size < 1 or args.sample < 1:
        print("static_local: --size and --sample must be at least 1", file=sys.stderr)
        return 2
    table = feedback_table(game)
    rng = np.random.default_rng(args.seed)
    deadline = time.monotonic() + args.time_limit
    k, found, start, tried = args.size, None, None, set()
    while k >= 1:
        if args.tabu:
            got = tabu_search(table, k, rng, deadline, start, complete=args.complete, tried=tried)
        else:
            got = local_search(table, k, rng, deadline, args.sample, start, complete=args.complete, tried=tried)
        if got is None:
            break
        found = got
        print(f"size {k}: found {' '.join(format_code(game, c) for c in found)}", flush=True)
        # drop the guess whose loss separates most of the others, and look for one fewer
        losses = [int(collisions(hint_labels(table, found[:i] + found[i + 1:]))) for i in range(k)]
        drop = losses.index(min(losses))
        start = found[:drop] + found[drop + 1:]
        k -= 1
    if args.complete >= 0:
        print(f"{len(tried)} sets of k - 2 codes completed exhaustively without success")
    if found is None:
        print(f"no static set of {args.size} found within {args.time_limit:g} s (seed {args.seed})")
        return 1
    codes = " ".join(format_code(game, c) for c in found)
    print(f"smallest found: {len(found)} guesses (seed {args.seed}); check and write it with\n"
          f"  treegen static --game {args.game} --guesses '{codes}' -o FILE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
