"""The least worst case of a game, proved, with a tree that achieves it (no least total: that is `solve`'s job).

    python scripts/within_cap.py --game numbers-baseball -o trees/numbers-baseball-within-7.json

The exact feasibility search (``Solver.feasible``: can every secret be solved within d guesses?) runs for
d = 1, 2, ... until it says yes; the d before it is then proved impossible. The tree is read back from the
search (``Solver.feasible_tree``: at each set, the guess the search found to fit). It records ``worst_case``
and ``impossible_within`` in its provenance, which `treegen verify` checks against the tree; its total is whatever that tree gives, not an optimum. `treegen solve --objective worst` proves
the same worst case and then the least total within it, which takes far longer on big games.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from treegen import __version__
from treegen.rules import resolve_game
from treegen.search import Solver
from treegen.tree import Node, save_tree
from treegen.verify import make_tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="numbers-baseball")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args(argv)
    game = resolve_game(args.game)
    secrets = np.arange(game.size, dtype=np.int32)
    start = time.perf_counter()
    depth = 1
    while True:
        solver = Solver(game, cap=depth)
        if solver.feasible(secrets, depth):
            break
        print(f"{game.name}: within {depth} guesses is impossible ({solver.counts.nodes} nodes)", flush=True)
        depth += 1
    wire = solver.feasible_tree(secrets, depth)
    seconds = time.perf_counter() - start
    root = Node.from_wire(game, wire)
    tree = make_tree(game, f"within-{depth}", root, {
        "max_guesses": depth, "worst_case": depth, "impossible_within": depth - 1,
        "nodes": solver.counts.nodes, "treegen": __version__})
    save_tree(tree, args.output)
    print(f"{game.name}: every secret within {depth} guesses ({solver.counts.nodes} nodes); total {tree.stats.total} "
          f"(not minimised); {seconds:.1f} s; wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
