"""The exact search's contracts: its sentinels, the one type of what a search learnt of a set's cost, and its
errors. Every module of the search imports these from here.

Costs count guesses: a tree's total is the sum, over its secrets, of the guesses that solve each one (the
final all-bulls guess included). For a set S and a guess g that splits S into classes S_h,

    cost(S, g) = |S| + sum over non-winning hints h of cost(S_h)

because every secret of S pays for g, and the secret equal to g (if any) is solved by it.

Sentinels, one of each (the rule every routine of the search keeps):
  1. A cost is an int in [0, INF]. ``INF`` means "no tree solves the set within the depth left"; it is
     also a valid lower bound for any beta.
  2. ``NO_BOUND`` (> INF) is only the starting value of a least-bound-so-far; results are clamped with
     ``min(bound, INF)`` before they leave a routine, so it is never returned or memoised.
  3. A search result is exact when it is below the beta it was given, else a lower bound >= beta. Where
     a result travels (the memo, a subproblem's outcome, a checkpoint entry) it is a :class:`Cost`:
     ``value`` with ``exact``. (Inside the compiled memo, a best guess of -1 marks a bound; only
     ``memo.Memo`` reads and writes that, converting at the boundary. A checkpoint entry is an
     :class:`Outcome` written as a dict by :meth:`Outcome.to_obj` and read back by :meth:`Outcome.from_obj`.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import TreegenError
from ..tree import Wire
from . import search_kernels

INF = int(search_kernels.INF)
NO_BOUND = int(search_kernels.NO_BOUND)
UNCAPPED = 64  # "depth left" for searches without a cap on guesses (no tree is this deep)


@dataclass(frozen=True, slots=True)
class Cost:
    """What a search learnt of a set's cost under the beta it was given: the exact cost ``value`` when
    ``exact``, else a lower bound (>= that beta)."""

    value: int
    exact: bool


@dataclass(frozen=True, slots=True)
class Outcome(Cost):
    """What a subproblem's search found: a :class:`Cost`, with the optimal ``tree`` (wire form) when
    ``exact`` (``tree`` None for a bound). ``nodes``: the work done. An exact value carried over from an
    equivalent set comes without its tree, as does a coordinated set's that holds such a class (see
    Coordinator._transferred): only a coordinator whose tree is needed finds those (see
    Coordinator._fill_holes).

    ``work`` and ``span`` are measurements, never part of a result: the CPU seconds (of the thread that
    computed each piece, so that a busy machine does not inflate them) the subproblem took in all, and
    along its longest chain of dependent computing (its critical path, what no number of workers can
    shorten). A task's span is its work; a reused checkpoint's both are 0.
    """

    nodes: int
    tree: Wire | None = None
    work: float = field(default=0.0, compare=False)
    span: float = field(default=0.0, compare=False)

    def to_obj(self) -> dict:
        """The checkpoint entry's form (JSON): value, exact, nodes and tree."""
        return {"value": self.value, "exact": self.exact, "nodes": self.nodes, "tree": self.tree}

    @classmethod
    def from_obj(cls, d: dict) -> Outcome:
        return cls(d["value"], d["exact"], d["nodes"], d["tree"])


@dataclass(frozen=True, slots=True)
class GuessOutcomes:
    """What a task of guesses (tasks.run_guesses) found: the outcome of each guess it took, in order, a
    prefix of those it was given (at least one). Each is its set's :class:`Outcome` with its first guess
    fixed to that guess: the exact cost below beta with a tree whose root is the guess, else a bound."""

    outcomes: tuple[Outcome, ...]

    @property
    def nodes(self) -> int:
        return sum(o.nodes for o in self.outcomes)

    def to_obj(self) -> dict:
        return {"outcomes": [o.to_obj() for o in self.outcomes]}

    @classmethod
    def from_obj(cls, d: dict) -> GuessOutcomes:
        return cls(tuple(Outcome.from_obj(o) for o in d["outcomes"]))


@dataclass(frozen=True, slots=True)
class OpenGuesses:
    """A set's guesses still open in a later wave (tasks.run_open), as ``Solver.next_open`` finds them:
    for each, (its index in the set's scan, the guess, its total, the dense hints of its big classes and
    their bounds: OpenGuess's); ``least``, the least bound >= beta of the guesses refuted on the way;
    ``nodes``, the work counted; ``work``, a measurement as Outcome's."""

    guesses: tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], ...]
    least: int
    nodes: int
    work: float = field(default=0.0, compare=False)

    def to_obj(self) -> dict:
        return {"guesses": [list(g[:3]) + [list(g[3]), list(g[4])] for g in self.guesses], "least": self.least,
                "nodes": self.nodes}

    @classmethod
    def from_obj(cls, d: dict) -> OpenGuesses:
        return cls(tuple((i, g, t, tuple(big), tuple(base)) for i, g, t, big, base in d["guesses"]), d["least"],
                   d["nodes"])


class Infeasible(TreegenError):
    """No strategy solves every secret within the cap: a proven fact, not a usage error, though a
    TreegenError (one line for a human) like the others; the command exits 1 for it, not 2."""


class SearchBug(Exception):
    """The tree the search built does not achieve what the search proved: a bug, never a result."""
