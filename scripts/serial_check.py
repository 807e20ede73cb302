"""Solve a shipped file's game again without the coordinator and compare its least total with the file's.

    python scripts/serial_check.py trees/mm-4-9-optimal-average.json
    python scripts/serial_check.py trees/royale-optimal-average.json --no-two-phase
    python scripts/serial_check.py trees/mastermind-optimal-worst.json      # the least total within its cap

``treegen solve`` runs its top levels through the coordinator (waves of guesses with fixed betas, tasks
on worker processes, checkpoints). This script solves the file's game again with ``Solver.solve`` alone,
depth first from the root with one memo, the way the tests check the coordinator on small games, and
compares the total it proves with the file's ``optimal_total`` (under the file's ``max_guesses`` cap, if
any: a ``worst`` tree's total is the least within its worst case). It rebuilds the tree from its memo and
checks that tree's total too, so the figure is a tree's, not only a bound's. ``--no-two-phase``,
``--no-ordering`` or ``--no-orbits`` take another route through the search (more nodes, the same optimum;
``--no-orbits`` leaves out the memo by orbit, so the check shares less code with the run it checks; games
of up to 2000 codes, mastermind's among them, search without it anyway).

This is not an independent proof. It runs the same ``Solver``, lower bounds, kernels and symmetry
reduction as ``treegen solve``, so it checks the coordinator (waves, worker tasks, checkpoints, chains),
not the lower bounds: a fault in a bound would give the same wrong total here too. The independent check
of a lower bound is a certificate, checked by ``treegen verify`` with ``treegen/certificate.py``, which shares
no code with the search (docs/certificates.md).

``--refute`` searches only for the lower bound, which is the hard half: the solver is given the file's total as
beta from the start, so it must refute every first guess (show that each costs at least that total)
instead of first finding a tree with a loose bound. The upper bound is the file's own tree, checked here
as ``treegen verify`` checks it. ``--part I/K`` refutes only the first guesses at places I, I+K, I+2K, ... of the
solver's best-first order, so K processes on K cores share the search: every part must agree, and all must
print the same ``order`` digest (the same best-first order, hence the same deal).

    python scripts/serial_check.py trees/numbers-baseball-optimal-average-max7.json --refute --part 1/2 &
    python scripts/serial_check.py trees/numbers-baseball-optimal-average-max7.json --refute --part 2/2

``--fresh-memo`` searches each class with an empty memo, for a game whose one memo would not fit: mm:5:7's
first part passed 12 GB on its first guess without it.

Exit 0 when the totals agree, 1 when they differ (the last line says ``agree`` or ``DIFFER``), 2 on bad
input (one line on stderr).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

import numpy as np

from treegen.rules import format_code
from treegen.exact.contracts import INF
from treegen.exact.solver import Solver
from treegen.tree import Node, load_tree
from treegen.verify import make_tree, verify_tree


def refute(tree, solver: Solver, secrets: np.ndarray, part: int, parts: int, fresh: bool = False) -> int:
    """Exit status of ``--refute``: 0 when every first guess this part owns costs at least the file's
    total and the file's tree (verified) has that total, else 1. ``fresh``: each class is searched with an
    empty memo, so the memory is one class's search, not the whole part's."""
    game, prov = tree.game, tree.provenance or {}
    claimed = prov.get("optimal_total")
    try:
        stats = verify_tree(tree)
    except ValueError as exc:
        print(f"serial_check: the file's tree does not verify: {exc}", file=sys.stderr)
        print("DIFFER")
        return 1
    start = time.process_time()
    beta = claimed
    depth = solver.full_depth()
    scan = solver.scan(secrets, beta, (), depth)
    guesses = scan.guesses.shape[0]  # the first guesses whose lookahead bound is below beta, best first
    # A part owns the guesses at its places in that order, fixed before any search. (Not the I-th, I+K-th,
    # ... guess that next_open returns: which guesses the kernel's bounds refute depends on what the memo
    # has learned, so two parts would open different sequences and a guess could fall between them.)
    owned = len(range(part - 1, guesses, parts))
    # Parts run apart can only share the proof if they deal out the same order: its digest is printed.
    order = hashlib.sha256(scan.guesses.astype("<i4").tobytes()).hexdigest()[:12]
    index = mine = cheap = nodes = 0
    cheaper = []

    def refuted_by_bounds(upto: int) -> int:
        """Name this part's guesses in [index, upto), which next_open refuted by bounds alone."""
        named = 0
        for i in range(index, upto):
            if i % parts == part - 1:
                print(f"  first guess {format_code(game, int(scan.guesses[i]))}: refuted by bounds", flush=True)
                named += 1
        return named

    # Each open guess is refuted as Solver.solve refutes it: every class starts at its lookahead bound
    # (`step.total`), and each class searched replaces its bound by its value, with the budget left for the
    # guess to stay below beta; once the running total reaches beta, no tree starting with it is cheaper.
    while (step := solver.next_open(scan, index, beta)) is not None:
        cheap += refuted_by_bounds(step.index)
        index = step.index + 1
        if step.index % parts != part - 1:
            continue
        mine += 1
        total = step.total
        for _h, cls, base in step.classes():
            if fresh:
                # The memo only saves work: a class searched without it gets the same value, or another
                # bound >= its beta, as valid (each searched class is exact below its beta, else a bound).
                nodes += solver.take_counts().nodes
                solver.reset()
            total += solver.solve(cls, beta - (total - base), (step.guess,), depth - 1) - base
            if total >= beta:
                break
        if total < beta:
            cheaper.append((step.guess, total))
        print(f"  first guess {format_code(game, step.guess)}: "
              f"{'refuted, at least ' if total >= beta else 'COSTS '}{total}", flush=True)
    cheap += refuted_by_bounds(guesses)
    # Every guess this part owns was named once: searched or refuted by bounds. (An explicit check, not an
    # assert, which python -O would drop.)
    if mine + cheap != owned:
        print(f"serial_check: this part named {mine + cheap} first guesses but owns {owned}", file=sys.stderr)
        print("DIFFER")
        return 1
    cpu = time.process_time() - start
    cap = prov.get("max_guesses")
    within = f" within {cap} guesses" if cap is not None else ""
    print(f"{game.name}: part {part}/{parts}: of the {guesses} first guesses bounded below beta {beta}{within}, "
          f"order {order}, this part owns {owned}: the memo's and lookahead bounds alone refute {cheap}, and the "
          f"serial solver's search {mine - len(cheaper)} of the other {mine} "
          f"({nodes + solver.counts.nodes} sets searched, {cpu:.1f} s CPU); the file's tree totals {stats.total}, "
          f"the file claims {claimed}" + ("" if prov.get("objective") != "worst" else
                                          " (that no tree fits in fewer guesses is treegen verify's claim, not checked here)"))
    same = not cheaper and stats.total == claimed and (cap is None or stats.max_guesses <= cap)
    print("agree" if same else "DIFFER")
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a tree file written by treegen solve (least total, within its cap if any)")
    parser.add_argument("--no-two-phase", action="store_true", help="switch off the two-phase class bounds")
    parser.add_argument("--no-ordering", action="store_true", help="switch off best-first guess ordering")
    parser.add_argument("--no-orbits", action="store_true", help="switch off the memo by orbit")
    parser.add_argument("--refute", action="store_true",
                        help="prove only that no tree costs less than the file's total (its tree gives the rest)")
    parser.add_argument("--part", default="1/1", metavar="I/K",
                        help="with --refute: the first guesses at places I, I+K, ... of the best-first order only (default 1/1)")
    parser.add_argument("--fresh-memo", action="store_true",
                        help="with --refute: search each class with an empty memo (less memory, more time)")
    args = parser.parse_args(argv)
    try:
        part, parts = (int(x) for x in args.part.split("/"))
        if not 1 <= part <= parts:
            raise ValueError
    except ValueError:
        print(f"serial_check: --part {args.part!r} is not I/K with 1 <= I <= K, e.g. 1/2", file=sys.stderr)
        return 2
    try:
        tree = load_tree(args.file)
    except (OSError, ValueError) as exc:
        print(f"serial_check: {exc}", file=sys.stderr)
        return 2
    prov = tree.provenance or {}
    if prov.get("objective") not in ("average", "worst") or prov.get("consistent_only"):
        print(f"serial_check: {args.file} is not a least-total tree of treegen solve (objective average or worst, "
              "not hard mode)", file=sys.stderr)
        return 2
    if (parts > 1 or args.fresh_memo) and not args.refute:
        print("serial_check: --part and --fresh-memo go with --refute (without it the whole game is solved at once)",
              file=sys.stderr)
        return 2
    if args.refute and not (isinstance(prov.get("optimal_total"), int) and not isinstance(prov["optimal_total"], bool)):
        print(f"serial_check: {args.file} claims no optimal_total for --refute to prove", file=sys.stderr)
        return 2
    game = tree.game
    cap = prov.get("max_guesses")
    solver = Solver(game, cap, two_phase=not args.no_two_phase, ordering=not args.no_ordering,
                    orbits=False if args.no_orbits else None)
    secrets = np.arange(game.size, dtype=np.int32)
    if args.refute:
        return refute(tree, solver, secrets, part, parts, args.fresh_memo)
    start = time.process_time()
    total = solver.solve(secrets, INF)
    cpu = time.process_time() - start
    rebuilt = make_tree(game, "serial-check", Node.from_wire(game, solver.tree(secrets)), {})
    within = f" within {cap} guesses" if cap is not None else ""
    print(f"{game.name}: serial solver proves {total}{within} ({solver.counts.nodes} sets searched, {cpu:.1f} s CPU); "
          f"its tree totals {rebuilt.stats.total}; the file claims {prov.get('optimal_total')}")
    same = (total == rebuilt.stats.total == prov.get("optimal_total") == tree.stats.total
            and (cap is None or rebuilt.stats.max_guesses <= cap))
    print("agree" if same else "DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
