"""The exact search of one process: depth-first branch and bound for strategy trees of minimum total or
minimum worst case (``Solver.solve``, ``Solver.feasible``), with the memo and the cap's settling.

The costs, the sentinels and the result contract are in ``contracts``; the levers in ``options``; the
tables in ``tables``; the memo in ``memo``. Running a whole game (objectives, parallel subproblems,
checkpoints) is the coordinator's job (``coordinator``); it calls the solver's per-node step
(``Solver.scan`` and ``Solver.next_open``) exactly as ``Solver.solve`` does, and :func:`share_slack` as
``Solver._search`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..rules import Code, Game
from ..symmetry import NodeGuesses
from ..tree import Wire
from . import search_kernels
from .contracts import INF, UNCAPPED, Infeasible
from .memo import GUESS_TO_FIND, Memo, MemoEntry, SetOrbits
from .options import Options
from .tables import VIEW_MAX_BYTES, search_tables, small_tree, wire_node

@dataclass
class SearchCounts:
    """What a solver has done since its last reset (the node figures of a search)."""

    nodes: int = 0  # sets whose guesses were scanned (memo hits and closed forms excluded)
    memo_hits: int = 0
    bound_scans: int = 0  # sets bounded by one lookahead scan before any search (counted by the kernels)


class NodeView(NamedTuple):
    """A node's codes by their keys over its set, for its classes' least bounds (see search_kernels.least_bound):
    ``nkeys`` each code's key over the set; ``order`` and ``runs`` the codes sorted by key, highest first,
    in runs of one key, once a class needs them (``runs[0, search_kernels.RUNS]`` is -1 until then); ``src`` the
    node's one-hot rows with their columns in that order, row r filled up to ``built[r]`` as the bounds
    need them. An empty ``order``: every code, in code order (:func:`no_view`)."""

    src: np.ndarray
    nkeys: np.ndarray
    order: np.ndarray
    runs: np.ndarray
    built: np.ndarray


def no_view(onehot: np.ndarray) -> NodeView:
    """The view of no node: least_bound then takes every code, in code order."""
    return NodeView(np.empty((0, 0), dtype=onehot.dtype), np.empty(0, dtype=np.uint8), np.empty(0, dtype=np.int32),
                    np.full((2, search_kernels.RUNS + 1), -1, dtype=np.int64), np.zeros(1, dtype=np.int64))


def node_view(onehot: np.ndarray, secrets: np.ndarray, keys: np.ndarray) -> NodeView:
    """The view of the node of ``secrets`` whose codes have ``keys`` over it (uint8, one per code; copied).
    Cheap: the kernels sort and fill it only if a class of the node is bounded by hint masks."""
    codes = keys.shape[0]
    return NodeView(np.empty((secrets.shape[0], codes), dtype=onehot.dtype), keys.copy(),
                    np.empty(codes, dtype=np.int32), np.full((2, search_kernels.RUNS + 1), -1, dtype=np.int64),
                    np.zeros(secrets.shape[0], dtype=np.int64))


@dataclass
class GuessScan:
    """The guesses of one node under a beta, best first, with their one-step lookahead bounds (see
    :meth:`Solver.scan`); ``least`` is the least bound >= beta among the guesses refuted so far."""

    secrets: np.ndarray
    depth: int
    guesses: np.ndarray
    bounds: np.ndarray
    least: int
    most: int  # the most key of the set (search_kernels.least_bound), or 3|S| where no class bound is taken from it
    view: NodeView  # the codes by their keys over the set, for its classes' least bounds


@dataclass
class OpenGuess:
    """A guess still below beta once its big classes are raised to their cheap bounds (see
    :meth:`Solver.next_open`): ``total`` = |S| + the bound of every class, where the class of dense hint
    ``big[j]`` (``members[starts[h]:starts[h + 1]]``, largest first) counts ``base[j]``."""

    index: int
    guess: Code
    total: int
    members: np.ndarray
    starts: np.ndarray
    big: np.ndarray
    base: np.ndarray

    def classes(self):
        """(dense hint, secrets, bound) of each big class, largest first."""
        for j, h in enumerate(self.big):
            yield int(h), self.members[self.starts[h] : self.starts[h + 1]], int(self.base[j])


def share_slack(values: list[int], total: int, beta: int, search_class: Callable[[int, int], int]) -> int:
    """Search the big classes of a guess whose lower bound ``total`` is below ``beta`` when a better guess
    is known already (so this one most likely fails), each with a share of the slack instead of the whole
    of it; returns the new total, with ``values`` (each class's bound, then what its search returned)
    updated. ``search_class(i, class_beta)`` searches class i under ``class_beta`` and returns its value,
    with solve's contract. Solver._search and the coordinator's chains both share their slack so.

    The classes go largest first. Class i is searched with beta ``values[i] + share``, where ``share``
    is the slack left (beta - total) split in proportion to the classes' bounds (class i's part of the
    bounds of the classes from i on, rounded up): below it the class's value is exact, else a bound >= it,
    so ``total`` stays a lower bound of the guess's cost. If every class fails its share, the shares add
    up to the slack and the guess is refuted without any class searched under the whole slack, and a
    search under a lower beta cuts more (bulls-cows' 0A2B class in one process: 1214 sets searched and
    31,504 bound scans instead of 4218 and 141,579). A class that comes in under its share passes what it
    left to the classes after it. The last class's share would be the whole slack left, which the caller's
    pass gives it, so it is left to that pass, as are the classes that failed their shares if the guess
    still stands: that pass searches them with the whole slack (in the solver their memo entries, bounds,
    raise their own classes' bounds there).
    """
    weight = sum(max(v, 1) for v in values)
    for i in range(len(values)):
        slack = beta - total
        w = max(values[i], 1)
        share = -(-slack * w // weight)  # at least 1: the class's beta is above its bound
        weight -= w
        if share >= slack:
            break
        value = search_class(i, values[i] + share)
        total += value - values[i]
        values[i] = value
        if total >= beta:
            break
    return total


def fixed_shares(values: list[int], total: int, beta: int) -> list[int]:
    """The betas of a guess's big classes for a share pass run side by side (the split schedule's chains:
    Coordinator._chain), one for each class but the last: class i (``values[i]`` its bound, largest first)
    is searched under values[i] + its share of the slack (beta - total) in proportion to the classes' bounds,
    all fixed up front, where share_slack passes what a class leaves, or what one that fails raises the
    total, on to the classes after it. As there, the last class is left to the pass after the shares (its
    share would be the slack left), and so is every class once a share would be the whole slack; each
    search returns the exact value below its beta, else a bound >= it, so the total with each class's
    value in place of its bound stays a lower bound of the guess's cost."""
    slack = beta - total
    weight = sum(max(v, 1) for v in values)
    betas = []
    for v in values[:-1]:
        share = -(-slack * max(v, 1) // weight)  # at least 1: the class's beta is above its bound
        if share >= slack:
            break
        betas.append(v + share)
    return betas


class Solver:
    """Branch and bound over one game's feedback table. Not thread-safe; one per process.

    ``cap`` limits guesses per secret (None: unlimited). ``options``: the levers (see
    :class:`options.Options`), resolved for the game (so ``solver.options.orbits`` says whether the memo
    by orbit is on: see options.uses_orbits); a lever may also be given by its ``Options`` name as a
    keyword, which overrides that field of ``options`` (``Solver(game, symmetry=False)``). ``consistent_only`` is hard mode: every
    guess must be a secret still possible (the bounds below stay valid: each is a minimum over more guesses
    than hard mode allows, so it can only be lower). ``extra`` is the crush objective: each secret solved
    with the cap's last guess costs ``extra`` more, so that with extra above any total the cost orders
    trees by the secrets at the cap first, then by total. With ``options.orbits`` the memo also answers a
    set by an equivalent one searched before (see _orbit_answer); with ``options.shares`` a guess searched
    once a better one is known shares its slack among its classes first (see share_slack).
    """

    def __init__(self, game: Game, cap: int | None = None, options: Options = Options(),
                 consistent_only: bool = False, extra: int = 0, **levers: bool | None) -> None:
        self.game = game
        self.cap = cap
        self.options = replace(options, **levers).resolved(game)
        self.consistent_only = consistent_only
        self.extra = extra
        if self.extra and self.cap is None:
            raise ValueError("the crush price (extra) needs a cap: it prices the last guess the cap allows")
        t = self.tables = search_tables(self.game, self.extra)
        self.table, self.hints, self.nh, self.win = t.table, t.hints, t.nh, t.win
        self.bounds, self.all_guesses = t.bounds, t.all_guesses
        self.fast_limit, self.excess_limit = t.fast_limit, t.excess_limit
        self._node_guesses = NodeGuesses(self.game)
        self.memo = Memo(self.game.size)
        self._feasible: dict = {}  # feasible()'s memo: (secrets bytes, depth) -> a guess that fits, or -1
        # scratch counters for search_kernels.least_bound, one word pair per code
        self._w0 = np.empty(self.game.size, dtype=np.uint64)
        self._w1 = np.empty(self.game.size, dtype=np.uint64)
        # search_kernels.STAT_*: nodes, memo hits, bound scans (SearchCounts)
        self._counts = np.zeros(3, dtype=np.int64)
        self._no_view = no_view(t.onehot)
        self._no_keys = np.empty(0, dtype=np.uint8)
        # The memo by orbit: (key depth, orbit key) -> the sets searched under that key, with what the
        # memo learnt of each (see _orbit_answer).
        self._set_orbits = SetOrbits(self.game) if self.options.orbits else None
        self._by_orbit: dict[tuple[int, bytes], list[tuple[np.ndarray, MemoEntry]]] = {}

    @property
    def counts(self) -> SearchCounts:
        return SearchCounts(*(int(c) for c in self._counts))

    def take_counts(self) -> SearchCounts:
        """The counts so far, zeroed for the next piece of work."""
        counts = self.counts
        self._counts[:] = 0
        return counts

    def kernel_scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The scratch words and the counters (search_kernels.STAT_*) this solver hands the search's kernels,
        for a caller that times a kernel as the solver calls it (scripts/estimate_work.py)."""
        return self._w0, self._w1, self._counts

    def reset(self) -> None:
        """Forget every memoised set and zero the counts (a fresh search with the same tables)."""
        self.memo = Memo(self.game.size)
        self._by_orbit = {}
        self._feasible = {}
        self._counts[:] = 0

    # -- lower bounds ------------------------------------------------------------------------------
    def _flat_bounds(self) -> np.ndarray:
        """Ablation of the lookahead bound: with every class bounded by 0, each guess is bounded by
        |S| alone (still valid: every secret pays for the guess)."""
        return np.zeros(self.game.size + 1, dtype=np.int64)

    def _keydepth(self, depth: int) -> int:
        """The depth in a set's memo key: the guesses left when a cap makes them matter, else 0."""
        return depth if self.cap is not None else 0

    def full_depth(self) -> int:
        """The guesses a whole game may take: the cap, or UNCAPPED."""
        return self.cap if self.cap is not None else UNCAPPED

    # -- one node: the step that Solver.solve and the coordinator share ----------------------------------
    def candidate_guesses(self, secrets: np.ndarray, history: tuple[Code, ...]) -> np.ndarray:
        """The guesses worth trying at a node: every code, or with ``symmetry`` one per class of
        guesses that the symmetries fixing the history and the secrets make equivalent; in hard mode
        only the secrets among them (a symmetry maps the secrets onto themselves, so a class of
        guesses lies wholly inside or wholly outside them, and its representative tells which)."""
        if self.options.symmetry:
            guesses = self._node_guesses(history, secrets)
        else:
            guesses = self.all_guesses
        if self.consistent_only:
            guesses = guesses[np.isin(guesses, secrets, assume_unique=True)]
        return guesses

    def scan(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int) -> GuessScan:
        """The guesses of a node that may cost less than ``beta``, under this solver's levers.

        Each guess g is bounded by the one-step lookahead |S| + sum over its classes of the counting
        bound ``lb[depth - 1, |class|]`` (every secret pays for g; each class then costs at least its
        counting bound), or by |S| alone without ``lookahead``; best first with ``ordering``.
        """
        lbtab = self.bounds.lb[depth - 1] if self.options.lookahead else self._flat_bounds()
        # The set's most key bounds each class C of every guess by 3|C| - most (see search_kernels.least_bound):
        # part of the lookahead lever; 3|S| bounds no class.
        onehot = self.tables.onehot
        most = 3 * secrets.shape[0]
        keyed = False  # each code's key over the set is in _w1, and the set's view fits
        keys = self._no_keys  # each code's key over the set, or none
        if self.options.lookahead and onehot.shape[0] > 0:
            most = int(search_kernels.least_bound(self.table, onehot, secrets, self.nh, self.win, lbtab, 0, 0, self._w0,
                                           self._w1, True, *self._no_view, secrets))
            keyed = True
            keys = self._w1.view(np.uint8)[: self.game.size]
        elif self.options.lookahead and self.nh <= 24:
            # A game too big for a one-hot table (bc:5:9, bc:5:10, mm:5:7, mm:5:8) takes the same keys from
            # hints shifted into place, and its classes' bounds the same view (their masks shifted likewise).
            most = int(search_kernels.shifted_most_key(self.table, secrets, self.nh, self.win, self._w0, self._w1))
            keyed = secrets.shape[0] * self.game.size * onehot.itemsize <= VIEW_MAX_BYTES
            keys = self._w1.view(np.uint8)[: self.game.size]
        # The classes' bounds take the codes in the order of their keys over the set (the same bounds, from
        # fewer codes).
        view = node_view(onehot, secrets, keys) if keyed else self._no_view
        # With the keys, only the guesses whose fast value 3|S| - key is below beta have their classes counted
        # (the same guesses and bounds: see the kernel).
        guesses, bounds, rest = search_kernels.ordered_guesses(
            self.table, self.candidate_guesses(secrets, history), secrets, self.nh, self.win, lbtab,
            self.options.ordering, beta, most, keys)
        return GuessScan(secrets, depth, guesses, bounds, int(rest), most, view)

    def next_open(self, scan: GuessScan, start: int, beta: int, scan_all: bool = False) -> OpenGuess | None:
        """The first guess of ``scan`` from index ``start`` still below ``beta`` once its big classes are
        raised to cheap bounds (search_kernels.next_open_guess: the memoised value or bound, then, with
        ``two_phase``, the class's least lookahead bound), or None when none is left. Guesses refuted on
        the way lower ``scan.least``. ``scan_all``: the coordinator's accounting (see the kernel)."""
        secrets, depth = scan.secrets, scan.depth
        memo, levers = self.memo, self.options
        while True:
            status, idx, total, members, starts, big, base, least = search_kernels.next_open_guess(
                self.table, self.tables.onehot, scan.guesses, scan.bounds, start, scan.least, secrets, beta, scan.most,
                depth, self.cap is not None, self.nh, self.win, self.bounds.lb, self.fast_limit, self.excess_limit,
                levers.lookahead, levers.ordering, levers.two_phase, scan_all, memo.slots, memo.ent, memo.pool,
                memo.state, memo.zob, self._w0, self._w1, self._counts, *scan.view)
            scan.least = min(scan.least, int(least))
            if status == 2:  # the memo may run out of room: grow it and go on from the same guess
                memo.make_room(self.nh, secrets.shape[0])
                start = int(idx)
                continue
            if status == 1:
                return None
            idx = int(idx)
            return OpenGuess(idx, int(scan.guesses[idx]), int(total), members, starts, big, base)

    # -- the search -----------------------------------------------------------------------------------
    def solve(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...] = (), depth: int | None = None) -> int:
        """Cost of the best tree for ``secrets`` (sorted code ints) within ``depth`` guesses.

        Contract: returns the exact cost if it is below ``beta``; otherwise some lower bound >= beta
        (INF when no tree fits in ``depth`` guesses). Exact results are memoised with their best guess,
        so ``tree()`` can rebuild the optimal tree afterwards; bounds are memoised (with ``memo``) as
        bounds. Never returns NO_BOUND.
        """
        if depth is None:
            depth = self.full_depth()
        n = secrets.shape[0]
        # Closed forms: one secret costs one guess; two cost 1 + 2 (guess either, then the other). The
        # counting bound is exactly that (with the crush price when the last of them is at the cap).
        if n <= 2 or self.bounds.lb[depth, n] >= INF:
            return int(self.bounds.lb[depth, n])
        keydepth = self._keydepth(depth)
        floor = 0
        entry = self.memo.get(secrets, keydepth) if self.options.memo else None
        if entry is not None:
            if entry.exact or entry.value >= beta:
                self._counts[search_kernels.STAT_HITS] += 1
                return entry.value
            floor = entry.value  # a bound below beta: not enough to answer, but the answer is at least this
        orbit = None
        if self._set_orbits is not None:
            orbit = (keydepth, self._set_orbits.key(secrets))
            entry = self._orbit_answer(orbit, secrets, beta)
            if entry is not None:
                self._counts[search_kernels.STAT_HITS] += 1
                self.memo.put(secrets, keydepth, entry)
                return entry.value
        return self._search(secrets, beta, history, depth, floor, orbit)

    def _search(self, secrets: np.ndarray, beta: int, history: tuple[Code, ...], depth: int, floor: int = 0,
                orbit: tuple[int, bytes] | None = None) -> int:
        """``solve``'s search of a set of more than two secrets that the memo did not answer, with its
        contract, given ``floor``, a lower bound known already, and ``orbit``, the set's key for the memo
        by orbit (None: not recorded there)."""
        keydepth = self._keydepth(depth)
        self._counts[search_kernels.STAT_NODES] += 1
        scan = self.scan(secrets, beta, history, depth)
        best: Code | None = None
        start = 0
        while (step := self.next_open(scan, start, beta)) is not None:
            total = self.guess_cost(list(step.classes()), step.total, beta, history + (step.guess,), depth - 1,
                                    self.options.shares and best is not None)
            if total < beta:
                beta = total
                best = step.guess
            else:
                scan.least = min(scan.least, total)
            start = step.index + 1
        if best is not None:
            # Exact results are kept even without the memo: tree() rebuilds the optimal tree from them.
            self._remember(secrets, keydepth, MemoEntry(beta, True, best), orbit)
            return beta
        # Every guess was refuted: the least of their bounds (each >= beta) bounds the set.
        bound = max(min(scan.least, INF), floor)
        if self.options.memo:
            self._remember(secrets, keydepth, MemoEntry(bound, False, None), orbit)
        return bound

    def guess_cost(self, classes: list, total: int, beta: int, history: tuple[Code, ...], depth: int,
                   shares: bool) -> int:
        """The cost of one guess at a node, from its big ``classes`` ((dense hint, secrets, bound), largest
        first, as OpenGuess.classes gives them) and ``total``, its bound with each big class at its bound;
        ``history`` ends with the guess, and ``depth`` is what its classes have left. Same contract as
        ``solve``: the exact cost if below ``beta`` (every class then solved exactly, in the memo), else a
        lower bound >= beta. ``shares``: first search each big class under its share of the slack (see
        share_slack), as for a guess searched once a better one is known."""
        # `total` holds each big class's best value so far (values[i], exact or not), which the searches
        # replace: a lower bound of the guess's cost, exact once every class is.
        values = [base for _h, _cls, base in classes]
        exact = [False] * len(classes)
        if shares:

            def search_class(i: int, class_beta: int) -> int:
                value = self.solve(classes[i][1], class_beta, history, depth)
                exact[i] = value < class_beta
                return value

            total = share_slack(values, total, beta, search_class)
        # Then search the big classes, the largest first: they decide most often that the guess cannot
        # beat beta.
        for i, (_h, cls, _base) in enumerate(classes):
            if total >= beta:
                break
            if exact[i]:
                continue
            # The class may cost at most beta - (total - values[i]) for the guess to stay below beta.
            value = self.solve(cls, beta - (total - values[i]), history, depth)
            total += value - values[i]
            values[i] = value
        return total

    def _remember(self, secrets: np.ndarray, keydepth: int, entry: MemoEntry, orbit: tuple[int, bytes] | None) -> None:
        """Put what a search learnt of a set in the memo, and under its ``orbit`` key in the memo by orbit
        (None: not recorded there)."""
        self.memo.put(secrets, keydepth, entry)
        if orbit is not None:
            self._by_orbit.setdefault(orbit, []).append((secrets.copy(), entry))

    def _orbit_answer(self, orbit: tuple[int, bytes], secrets: np.ndarray, beta: int) -> MemoEntry | None:
        """What the memo knows of a set equivalent to ``secrets`` that answers at ``beta`` (an exact value,
        or a bound >= beta), carried over to ``secrets``; else None. An element of the group that maps one
        set onto the other maps each guess's classes onto its image's, so both sets cost the same within
        any depth (see symmetry.SetOrbits). An exact value comes without a guess (GUESS_TO_FIND): the
        image of the other set's best guess is a best guess too, but not always the first in this set's
        own order, which a search of it would choose; tree() finds that one, so the tree stays the same."""
        for known, entry in self._by_orbit.get(orbit, ()):
            if not (entry.exact or entry.value >= beta):
                continue
            if self._set_orbits.element(known, secrets) is None:
                continue
            return MemoEntry(entry.value, True, GUESS_TO_FIND) if entry.exact else entry
        return None

    def feasible(self, secrets: np.ndarray, depth: int, history: tuple[Code, ...] = ()) -> bool:
        """Whether some tree solves every secret of ``secrets`` within ``depth`` guesses.

        A guess can work only if each of its classes fits in depth - 1 guesses; the lookahead bound
        with the depth-capped counting table is INF exactly when some class is too big to fit.
        """
        n = secrets.shape[0]
        if self.bounds.lb[depth, n] >= INF:
            return False
        if n <= 2:
            return True  # one guess for one secret, two for two: the finite bound says depth allows it
        key = (secrets.tobytes(), depth)
        known = self._feasible.get(key)
        if known is not None:
            self._counts[search_kernels.STAT_HITS] += 1
            return known >= 0
        self._counts[search_kernels.STAT_NODES] += 1
        guesses = self.candidate_guesses(secrets, history)
        guesses, _, _ = search_kernels.ordered_guesses(
            self.table, guesses, secrets, self.nh, self.win, self.bounds.lb[depth - 1], True, INF, 3 * n,
            self._no_keys)
        fits = -1
        for g in guesses:
            members, starts, big = search_kernels.split_classes(self.table, int(g), secrets, self.nh, self.win)
            if all(
                self.feasible(members[starts[h] : starts[h + 1]], depth - 1, history + (int(g),)) for h in big
            ):
                fits = int(g)
                break
        self._feasible[key] = fits  # the guess is kept for feasible_tree()
        return fits >= 0

    def feasible_tree(self, secrets: np.ndarray, depth: int, history: tuple[Code, ...] = ()) -> Wire:
        """A tree solving ``secrets`` within ``depth`` guesses, in wire form: at each set the guess that
        :meth:`feasible` found to fit (searched first if need be). Raises ValueError when none fits."""
        if not self.feasible(secrets, depth, history):
            raise ValueError(f"no tree solves these {secrets.shape[0]} secrets within {depth} guesses")
        if secrets.shape[0] <= 2:
            return small_tree(self.tables, secrets)
        g = self._feasible[(secrets.tobytes(), depth)]
        return wire_node(self.tables, g, secrets,
                         lambda cls: self.feasible_tree(cls, depth - 1, history + (g,)))

    # -- the tree --------------------------------------------------------------------------------------
    def tree(self, secrets: np.ndarray, depth: int | None = None, history: tuple[Code, ...] = ()) -> Wire:
        """The optimal tree of a set already solved exactly (re-solved if its memo entry is gone), in
        wire form (``tree.Wire``: code ints and game hint ints)."""
        if depth is None:
            depth = self.full_depth()
        n = secrets.shape[0]
        if n <= 2:
            return small_tree(self.tables, secrets)
        entry = self.memo.get(secrets, self._keydepth(depth))
        if entry is None or not entry.exact:
            self.solve(secrets, INF, history, depth)
            entry = self.memo.get(secrets, self._keydepth(depth))
        if entry is None or not entry.exact:
            raise ValueError(f"no tree solves these {n} secrets within {depth} guesses")
        if entry.guess == GUESS_TO_FIND:
            # The value came from an equivalent set: search this one at beta = value + 1 (a tree of at most
            # that value), which finds the first guess of that cost in its own order, the one a search
            # from any beta keeps.
            got = self._search(secrets, entry.value + 1, history, depth)
            if got != entry.value:
                raise RuntimeError(f"the memo by orbit gave {entry.value} for a set whose search finds {got}")
            entry = self.memo.get(secrets, self._keydepth(depth))
        g = entry.guess
        return wire_node(self.tables, g, secrets,
                         lambda cls: self.tree(cls, depth - 1, history + (g,)))


def settle_cap(game: Game, symmetry: bool, consistent_only: bool, least_worst: bool, max_guesses: int | None,
               say: Callable[[str], None]) -> tuple[int | None, int | None, int]:
    """The cap a whole search of ``game`` runs under, settled by the feasibility search first (cheap next
    to the average search): (the cap, None when none binds; the least worst case if ``least_worst``, else
    None; the nodes the feasibility search took). ``least_worst``: find the least number of guesses that
    solves every secret (the cap then, which a ``max_guesses`` below it makes Infeasible); else check that
    ``max_guesses`` (if given) is feasible. ``say(note)`` hears each depth tried. Raises
    :class:`contracts.Infeasible`."""
    secrets = np.arange(game.secret_count, dtype=np.int32)
    nodes = 0
    worst = None
    cap = max_guesses
    if least_worst or max_guesses is not None:
        probe = Solver(game, None, Options(symmetry=symmetry), consistent_only=consistent_only)
        depth = 1
        while probe.bounds.lb[depth, game.secret_count] >= INF:
            depth += 1  # the counting bound alone rules these out
        if least_worst:
            while depth <= UNCAPPED:
                probe.cap = depth
                say(f"trying {depth} guesses")
                if probe.feasible(secrets, depth):
                    break
                depth += 1
            worst = depth
            if max_guesses is not None and max_guesses < worst:
                raise Infeasible(f"no strategy solves every secret of {game.name} within {max_guesses} guesses")
            cap = worst
        else:
            probe.cap = min(max_guesses, UNCAPPED)
            if max_guesses < depth or not probe.feasible(secrets, probe.cap):
                raise Infeasible(f"no strategy solves every secret of {game.name} within {max_guesses} guesses")
        nodes += probe.counts.nodes
    if cap is not None and cap >= UNCAPPED:
        cap = None  # no tree of a supported game is this deep: the cap cannot bind
    return cap, worst, nodes
