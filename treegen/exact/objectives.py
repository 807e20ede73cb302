"""What a proved tree minimises: ``OBJECTIVES``, the one list of them (the command reads it here, without
numpy: standard library only), the name each gives a tree (:func:`strategy_name`), and the crush
objective's price of a secret at the cap (:func:`crush_price`), which the search adds to its costs.

- ``average``: least total guesses over all secrets, within a cap if given.
- ``worst``: least maximum number of guesses (one fewer proved impossible), then least total within it.
- ``crush``: least maximum N as for ``worst``, then the fewest secrets that need all N guesses, then the
  least total. One search does both: each secret solved with the N-th guess costs ``N * size + 1`` more,
  which exceeds any total within N guesses, so a cost orders trees by that count first.
"""

from __future__ import annotations

from typing import Literal

Objective = Literal["average", "worst", "crush"]
OBJECTIVES: tuple[Objective, ...] = ("average", "worst", "crush")


def least_worst(objective: Objective) -> bool:
    """Whether ``objective`` first settles the least worst case (and searches within it)."""
    return objective in ("worst", "crush")


def crush_price(objective: Objective, cap: int | None, size: int) -> int:
    """The extra cost of a secret solved with the cap's last guess: for ``crush``, more than any total within
    the cap (at most cap * size); 0 for the others."""
    return cap * size + 1 if objective == "crush" else 0


def strategy_name(objective: Objective, cap: int | None, consistent_only: bool = False) -> str:
    """The ``strategy`` of a proved tree: optimal-average, optimal-average-max5, optimal-worst,
    optimal-crush, with ``-hard`` for hard mode."""
    if objective in ("worst", "crush"):
        name = f"optimal-{objective}"
    else:
        name = f"optimal-average-max{cap}" if cap is not None else "optimal-average"
    return name + ("-hard" if consistent_only else "")
