"""A second proof of a shipped least total: the plain recursive solver in one process, no coordinator.

    python scripts/serial_check.py trees/mm-4-9-optimal-average.json
    python scripts/serial_check.py trees/royale-optimal-average.json --no-two-phase
    python scripts/serial_check.py trees/mastermind-optimal-worst.json      # the least total within its cap

``treegen solve`` runs its top levels through the coordinator (waves of guesses with fixed betas, tasks
on worker processes, checkpoints). This script solves the file's game again with ``Solver.solve`` alone,
depth first from the root with one memo, the way the tests check the coordinator on small games, and
compares the total it proves with the file's ``optimal_total`` (under the file's ``max_guesses`` cap, if
any: a ``worst`` tree's total is the least within its worst case). It rebuilds the tree from its memo and
checks that tree's total too, so the figure is a tree's, not only a bound's. ``--no-two-phase`` or
``--no-ordering`` take another route through the search (more nodes, the same optimum).

Exit 0 when the totals agree, 1 when they differ.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from treegen.search import INF, Solver
from treegen.tree import Node, load_tree
from treegen.verify import make_tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a tree file written by treegen solve (least total, no cap)")
    parser.add_argument("--no-two-phase", action="store_true", help="switch off the two-phase class bounds")
    parser.add_argument("--no-ordering", action="store_true", help="switch off best-first guess ordering")
    args = parser.parse_args(argv)
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
    game = tree.game
    cap = prov.get("max_guesses")
    solver = Solver(game, cap, two_phase=not args.no_two_phase, ordering=not args.no_ordering)
    secrets = np.arange(game.size, dtype=np.int32)
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
