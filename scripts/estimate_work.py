"""Estimate the exact search's work for a game too big to search here, from a sample of its subproblems.

    python scripts/estimate_work.py --calibrate-only --calibration cal.json       # ~4 min; cached in cal.json
    python scripts/estimate_work.py --game bc:5:10 --calibration cal.json --k 3 --limit 60 --seed 2  # ~10 min
    python scripts/estimate_work.py --game bc:5:10 --budget 30 --k 2 --limit 120 --seed 1
    python scripts/estimate_work.py --spans bc:4:9,bc:5:7,bc:4:10    # coordinated classes' work and span
    python scripts/estimate_work.py --spans bc:4:9,bc:5:7,bc:4:10 --split-divisor 22   # the same with solve --split codes / 22
    python scripts/estimate_work.py --kernels --game bc:5:10         # ns per code-secret pair of two kernels
    python scripts/estimate_work.py --game mm:5:8 --calibrate mm:5:4,mm:5:5,mm:5:6@120 --span-games mm:5:6 --others 2

A game with inequivalent first guesses (mm:P:C: one per partition shape, such as 00000, 00001, ..., 01234)
is estimated under one of them, ``--first CODE`` (default: the one the search tries first, Solver.scan's
best-first). The estimate is then the work of proving that first guess's subtree optimal (each of its
classes solved exactly), not the game's: refuting the other first guesses is extra work, estimated only
with ``--others MINUTES`` (each other first guess's subtree by the same sampling, MINUTES of wall each:
what its refutation costs if the search must solve it whole; the search refutes it under the best total
found, class by class, and may stop sooner, so this leans high). The calibration games are measured
under their own best-first guess in the same way.

Run it under ``nice -n 19``; it uses one process at a time (each subproblem is solved in a forked child,
so that its CPU seconds, peak memory and fresh memo are its own, and a CPU limit can stop it).

The method (docs/bc-5-10-plan.md says why and how well it does):

1. Calibration. In each calibration game the first guess (in a ``bc`` game every one is equivalent; in an
   ``mm`` game the search's best-first) splits the secrets into classes. Every class C is solved exactly
   (``Solver.solve`` with beta INF, fresh memo: its CPU seconds T(C)), and so is every class of C's
   best-first second guess g2 (the first guess of ``Solver.scan``, which the search tries first), alone,
   with beta INF. The ratio

       R(C) = T(C) / (scan(C) + sum over the classes c of g2 of T(c))

   says how much more the whole search of C costs than proving its first guess's subtree from scratch
   (the other guesses tried, minus what beta and the shared memo save). The same is measured one level
   down for the big classes of g2 (R at level 2).
2. The estimator of a set S with L levels to expand: expand S by its best-first guess, sample k of its
   classes with probability proportional to size**a (Hansen-Hurwitz: sum-hat = mean of T(c) / p(c),
   unbiased for the sum over all classes), estimate each sampled class with L - 1 levels (at L = 0:
   solve it, timed, under a CPU limit), and return scan(S) + R_L * sum-hat. Its error where the truth is
   known is measured by running it on the calibration games (leave one game out for R).
   Two more totals are printed from the same draws (no new solve): with R fitted apart for level 1 (the
   classes of the first guess, which keep most of the game's symmetry and so have few guesses to refute)
   and for the sets below (where the history breaks it and thousands of guesses come within the bound's
   gap), and with that deeper fit moved by the mean log residual of the target's own R, measured at its
   leaves of at least RATIO_MIN secrets (``--leaf-ratios``, on by default: each such leaf's best-first
   guess's classes are solved too). None of the three is right at the next size: leave one game out,
   bc:5:8 (measured whole) is estimated 91% low by the first and 83% low by the second, which puts
   bc:4:10 713% high (docs/bc-5-10-plan.md); they bracket, they do not pin down.
3. A second method: a log-log fit of T against |S| over the calibration games' measured sets, shifted
   to the target game by the mean residual of the target's own sampled leaves.
4. The critical path of ``treegen.exact.coordinator``'s schedule (see scripts/critical_path.py): the root's
   classes run side by side; a class of fewer than max(600, codes / 8) secrets is one task (its span is
   its work); a bigger one is coordinated, and its span is the fraction of its work measured (``--spans``)
   on the coordinated classes of smaller games, whose later waves' chains follow one another. With
   ``--others``, the root's second wave is added: the other first guesses' chains side by side, each
   chain's classes one after another (the sum of their spans, as if each chain ran to its end).
   With ``--split-divisor D`` the schedule is ``solve --split N``, N = codes / D, in the span games
   and the target alike: every class of at least min(N, max(600, codes / 8)) secrets is coordinated, its
   span the fraction measured with the same divisor, and the work grows by the factor measured there.

Figures are CPU seconds of one core of this machine (user + sys of the child that solved the set).
Sampling is deterministic for a given --seed; only the timings vary.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import sys
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from treegen.exact import search_kernels
from treegen.exact.contracts import INF, UNCAPPED
from treegen.exact.solver import Solver, no_view
from treegen.exact.tables import search_tables
from treegen.rules import Game, format_code, format_hint, parse_code, resolve_game
from treegen.symmetry import NodeGuesses

# -- one subproblem, solved in a forked child -----------------------------------------------------------


@dataclass
class Solved:
    """One set solved exactly (alone, beta INF, a fresh memo): its value (None if the CPU limit stopped
    it), CPU seconds, node count and the child's peak RSS in MB."""

    n: int
    value: int | None
    cpu: float
    nodes: int
    rss_mb: float

    @property
    def censored(self) -> bool:
        return self.value is None


def solve_forked(solver: Solver, secrets: np.ndarray, history: tuple[int, ...], limit: float | None) -> Solved:
    """Solve ``secrets`` in a forked child (copy-on-write: the tables are shared, the memo is fresh) with
    a CPU limit of ``limit`` seconds (None: none). The CPU figure is the child's own user + sys time."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: solve, write one JSON line, leave without running the parent's cleanup
        code = 0
        try:
            os.close(r)
            if limit is not None:
                # fork gives the child fresh CPU accounting, so the limit is on this solve alone
                soft = max(1, math.ceil(limit))
                resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
            solver.reset()
            start = time.process_time()
            value = solver.solve(secrets, INF, history, UNCAPPED - len(history))
            cpu = time.process_time() - start
            counts = solver.counts
            os.write(w, json.dumps({"value": int(value), "nodes": counts.nodes + counts.bound_scans,
                                    "cpu": cpu}).encode())
        except BaseException:  # noqa: BLE001 - the parent sees no answer and reports it
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    rss = usage.ru_maxrss / 1024
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return Solved(int(secrets.shape[0]), None, cpu, 0, rss)
    if not chunks or os.WEXITSTATUS(status) != 0:
        raise RuntimeError(f"the child solving {secrets.shape[0]} secrets failed (status {status})")
    d = json.loads(b"".join(chunks))
    # the solve's own seconds: the fork and the child's exit are not the search's work
    return Solved(int(secrets.shape[0]), d["value"], d["cpu"], d["nodes"], rss)


# -- expanding a set by its best-first guess ---------------------------------------------------------------


@dataclass
class Expansion:
    """A set split by its best-first guess ``guess``: the classes of three or more secrets (smaller ones
    cost their closed form, no search), largest first, and the CPU seconds of the scan and split;
    ``tried``, the scan's guesses in the order the search tries them (at the root: the first guesses)."""

    guess: int
    classes: list[np.ndarray]
    hints: list[int]
    scan_cpu: float
    tried: list[int] = field(default_factory=list)


def split(solver: Solver, secrets: np.ndarray, g: int) -> tuple[list[np.ndarray], list[int]]:
    """The classes of three or more secrets that guess ``g`` makes of ``secrets``, largest first, with their
    hints."""
    members, starts, big = search_kernels.split_classes(solver.table, g, secrets, solver.nh, solver.win)
    return [members[starts[h] : starts[h + 1]].copy() for h in big], [int(solver.hints[h]) for h in big]


def expand(solver: Solver, secrets: np.ndarray, history: tuple[int, ...], guess: int | None = None) -> Expansion:
    """``secrets`` scanned and split by its best-first guess, or by ``guess`` if given (the scan timed all
    the same: the search scans the set whatever guess it then takes)."""
    start = time.process_time()
    scan = solver.scan(secrets, INF, history, UNCAPPED - len(history))
    g = int(scan.guesses[0]) if guess is None else guess  # beta INF: every guess is open, this one tried first
    classes, hints = split(solver, secrets, g)
    return Expansion(g, classes, hints, time.process_time() - start, scan.guesses.tolist())


# -- calibration: games where every figure is measured ----------------------------------------------------


@dataclass
class Node:
    """A measured set of a calibration game: its level (1: a class of the first guess), size, exact CPU
    seconds, and (if expanded) the scan time and the measured classes of its best-first guess."""

    level: int
    n: int
    hint: str
    solved: Solved
    scan_cpu: float = 0.0
    children: list[Node] = field(default_factory=list)

    @property
    def child_sum(self) -> float:
        return self.scan_cpu + sum(c.solved.cpu for c in self.children)

    @property
    def ratio(self) -> float:
        return self.solved.cpu / self.child_sum


@dataclass
class Calibration:
    """A calibration game measured under its first guess ``first`` (see first_guess): with inequivalent
    first guesses (mm), its total and value are that guess's subtree's, not the game's."""

    game: str
    first: str
    root_scan: float
    classes: list[Node]
    small_total: float  # CPU of the classes below --expand-min (solved, not expanded)

    @property
    def total(self) -> float:
        return self.root_scan + sum(c.solved.cpu for c in self.classes)

    @property
    def value(self) -> int | None:
        return None if self.censored else sum(c.solved.value for c in self.classes)

    @property
    def censored(self) -> bool:
        """Some class hit the CPU limit: the total is a lower bound."""
        return any(c.solved.censored for c in self.classes)


# The memo by orbit in every search here, as in a run of the target (bc:5:10): the calibration games of up
# to 2000 codes would otherwise search without it (exact.options.uses_orbits), and the fit would mix two searches.
ORBITS = True


def warm_up() -> None:
    """Load every compiled kernel in this process before forking, so that no child pays for it (the
    children inherit them): whole searches of a 14-hint and a 20-hint game's biggest classes, and of an
    mm game's (its one-hot table has 32-bit rows, bc:5:6's 16-bit: other kernel signatures, which each
    child would otherwise load from numba's cache, about 25 ms a set)."""
    for spec in ("bc:4:7", "bc:5:6", "mm:5:3"):
        game = resolve_game(spec)
        solver = Solver(game, orbits=ORBITS)
        first, root = first_guess(game, solver)
        for cls in root.classes[:2]:
            solver.reset()
            solver.solve(cls, INF, (first,), UNCAPPED - 1)


def first_choices(game: Game) -> list[int]:
    """The first guesses the search tries, one per class of codes the game's symmetries make equivalent
    (Solver.candidate_guesses at the root, with the symmetry lever on as in every solver here): one in a
    bc game, one per partition shape of the positions in an mm game."""
    return [int(g) for g in NodeGuesses(game)((), np.arange(game.size, dtype=np.int32))]


def first_guess(game: Game, solver: Solver, code: int | None = None) -> tuple[int, Expansion]:
    """The first guess whose subtree is measured, and the root split by it: ``code`` if given (it must be
    one of first_choices: ValueError otherwise), else the one the search tries first (Solver.scan's
    best-first; in a bc game the only one)."""
    secrets = np.arange(game.size, dtype=np.int32)
    if code is not None and code not in solver.candidate_guesses(secrets, ()):
        raise ValueError(f"{game.name}: {format_code(game, code)} is not a first guess the search tries; "
                         f"choose one of {', '.join(format_code(game, g) for g in first_choices(game))} "
                         "(one per class of equivalent codes)")
    ex = expand(solver, secrets, (), code)
    return ex.guess, ex


def calibrate(spec: str, expand_min: int, deep_min: int, say, limit: float | None = None) -> Calibration:
    """Measure ``spec``: every class of its first guess (first_guess: the search's best-first), every class
    of each class's best-first guess (for classes of at least ``expand_min`` secrets), and one level deeper
    for those of ``deep_min``. In a game with inequivalent first guesses only the first's subtree is
    measured (the others' refutation is not, nor needed: R and the size fit are about sets, and the target
    is estimated under one first guess too).
    A class over the CPU ``limit`` is kept as a lower bound (``Solved.censored``) and not expanded."""
    game = resolve_game(spec)
    solver = Solver(game, orbits=ORBITS)
    first, root = first_guess(game, solver)
    nodes = []
    small = 0.0
    for hint, cls in zip(root.hints, root.classes):
        solved = solve_forked(solver, cls, (first,), limit)
        node = Node(1, cls.shape[0], format_hint(game, hint), solved)
        if solved.censored:
            say(f"  {spec} {node.hint:>5} n={node.n:5d} over the CPU limit: {solved.cpu:.0f} s is a lower bound")
            nodes.append(node)
            continue
        if cls.shape[0] >= expand_min:
            ex = expand(solver, cls, (first,))
            node.scan_cpu = ex.scan_cpu
            for h2, sub in zip(ex.hints, ex.classes):
                s2 = solve_forked(solver, sub, (first, ex.guess), None)
                child = Node(2, sub.shape[0], format_hint(game, h2), s2)
                if sub.shape[0] >= deep_min:
                    ex2 = expand(solver, sub, (first, ex.guess))
                    child.scan_cpu = ex2.scan_cpu
                    for h3, sub2 in zip(ex2.hints, ex2.classes):
                        s3 = solve_forked(solver, sub2, (first, ex.guess, ex2.guess), None)
                        child.children.append(Node(3, sub2.shape[0], format_hint(game, h3), s3))
                node.children.append(child)
        else:
            small += solved.cpu
        nodes.append(node)
        say(f"  {spec} {node.hint:>5} n={node.n:5d} value {solved.value:6d} cpu {solved.cpu:8.2f} s"
            + (f"  R={node.ratio:5.2f} over {len(node.children)} classes" if node.children else ""))
    return Calibration(spec, format_code(game, first), root.scan_cpu, nodes, small)


def _node_from_obj(d: dict) -> Node:
    return Node(d["level"], d["n"], d["hint"], Solved(**d["solved"]), d["scan_cpu"],
                [_node_from_obj(c) for c in d["children"]])


def calibration_from_obj(d: dict) -> Calibration:
    return Calibration(d["game"], d["first"], d["root_scan"], [_node_from_obj(c) for c in d["classes"]],
                       d["small_total"])


def expanded_nodes(cals: list[Calibration], min_n: int, games: set[str] | None = None) -> list[tuple[str, Node]]:
    """(game, node) of every expanded set of at least ``min_n`` secrets, at any level."""
    out = []

    def walk(game, node):
        if node.children and node.n >= min_n and node.child_sum > 0 and node.solved.cpu > 0:
            out.append((game, node))
        for c in node.children:
            walk(game, c)

    for cal in cals:
        if games is None or cal.game in games:
            for node in cal.classes:
                walk(cal.game, node)
    return out


@dataclass(frozen=True)
class RatioModel:
    """R(n) = exp(c) * n**beta, a least-squares fit of log R on log n, with the residual sd of log R."""

    c: float
    beta: float
    sd: float
    points: int

    def __call__(self, n: int, shift: float = 0.0) -> float:
        return math.exp(self.c + self.beta * math.log(n) + shift * self.sd)

    def at(self, level: int) -> RatioModel:
        """The model for sets ``level`` guesses down: one fit for every level."""
        return self

    def moved(self, delta: float) -> RatioModel:
        """The same fit with log R moved by ``delta``."""
        return RatioModel(self.c + delta, self.beta, self.sd, self.points)

    @classmethod
    def fit(cls, nodes: list[tuple[str, Node]]) -> RatioModel:
        ns = np.log([x.n for _, x in nodes])
        rs = np.log([x.ratio for _, x in nodes])
        beta, c = np.polyfit(ns, rs, 1)
        sd = float((rs - (c + beta * ns)).std())
        return cls(float(c), float(beta), sd, len(nodes))


@dataclass(frozen=True)
class LevelRatios:
    """R fitted apart for the classes of the first guess (level 1) and for the sets below them. A set one
    guess down keeps most of the game's symmetry: bc:5:9's class 0A3B (3840 secrets) has 35 inequivalent
    guesses. Two guesses down the history breaks it, and thousands of guesses come within the lookahead
    bound's gap of the set's value, each refuted by a search of its own: bc:5:8's level-2 set of 463 secrets
    has R = 185 where its level-1 class of 1920 has 3.75 (docs/bc-5-10-plan.md). One fit over both levels
    follows neither."""

    first: RatioModel
    deeper: RatioModel

    def at(self, level: int) -> RatioModel:
        return self.first if level <= 1 else self.deeper

    def moved(self, delta: float) -> LevelRatios:
        """log R moved by ``delta`` below level 1 only (the target's own leaves, which move it, are there)."""
        return LevelRatios(self.first, self.deeper.moved(delta))

    @classmethod
    def fit(cls, nodes: list[tuple[str, Node]]) -> LevelRatios | None:
        """Both fits, or None with fewer than three sets at either level."""
        first = [t for t in nodes if t[1].level <= 1]
        deeper = [t for t in nodes if t[1].level > 1]
        if len(first) < 3 or len(deeper) < 3:
            return None
        return cls(RatioModel.fit(first), RatioModel.fit(deeper))


def loglog_fit(ns, ts) -> tuple[float, float, float]:
    """Least squares log T = a + b log n: (a, b, residual sd of log T)."""
    ns, ts = np.log(np.asarray(ns, float)), np.log(np.asarray(ts, float))
    b, a = np.polyfit(ns, ts, 1)
    return float(a), float(b), float((ts - (a + b * ns)).std())


def measured_sets(cals: list[Calibration], min_n: int, min_cpu: float = 1e-3) -> tuple[list[int], list[float]]:
    """(sizes, CPU seconds) of every set solved in calibration with at least ``min_n`` secrets."""
    ns, ts = [], []

    def walk(node):
        if node.n >= min_n and node.solved.cpu >= min_cpu and not node.solved.censored:
            ns.append(node.n)
            ts.append(node.solved.cpu)
        for c in node.children:
            walk(c)

    for cal in cals:
        for node in cal.classes:
            walk(node)
    return ns, ts


# -- the sampling estimator ---------------------------------------------------------------------------------


def pps_sample(sizes: list[int], k: int, power: float, rng: np.random.Generator) -> list[tuple[int, float]]:
    """k draws with replacement, probability proportional to size**power: [(index, k * probability)].
    With k at least the number of classes, every class once with weight 1 (no sampling error)."""
    if k >= len(sizes):
        return [(i, 1.0) for i in range(len(sizes))]
    w = np.array(sizes, dtype=float) ** power
    p = w / w.sum()
    picks = rng.choice(len(sizes), size=k, replace=True, p=p)
    return [(int(i), float(p[i]) * k) for i in picks]


def hansen_hurwitz(draws: list[tuple[int, float]], values: dict[int, float]) -> float:
    """The sum over all classes estimated from draws (index, k * p): the sum of value / (k p), an
    unbiased estimate of the sum (each draw's value / p is)."""
    return sum(values[i] / kp for i, kp in draws)


def replay(node: Node, levels: int, r: RatioModel | LevelRatios, k: int, power: float, rng,
           shift: float = 0.0) -> float:
    """The estimator on a measured node, reading the sampled sets' times from the measurements: the
    node's measured time at ``levels`` 0 (or when it was not expanded in calibration)."""
    if levels == 0 or not node.children:
        return node.solved.cpu
    draws = pps_sample([c.n for c in node.children], k, power, rng)
    vals = {i: replay(node.children[i], levels - 1, r, k, power, rng, shift) for i, _ in draws}
    return node.scan_cpu + r.at(node.level)(node.n, shift) * hansen_hurwitz(draws, vals)


def validate(cals: list[Calibration], levels: int, k: int, power: float, min_n: int, seeds: int, say) -> None:
    """The estimator on each calibration game's classes of at least ``min_n`` secrets (smaller ones count
    their measured time, as for the target) with R(n) fitted on the other games only (leave one game
    out), replayed over ``seeds`` samplings: its error against the measured total, with one fit for R and
    with R by level (LevelRatios, when the other games give three sets at each level)."""
    for cal in cals:
        if cal.censored:
            continue
        others = expanded_nodes(cals, 100, {c.game for c in cals} - {cal.game})
        if len(others) < 3:
            continue
        r = RatioModel.fit(others)
        by_level = LevelRatios.fit(others)
        exact = cal.root_scan + sum(x.solved.cpu for x in cal.classes if x.n < min_n)
        errs, level_errs = [], []
        for seed in range(seeds):
            for model, out in ((r, errs), (by_level, level_errs)):
                if model is None:
                    continue
                rng = np.random.default_rng(seed)
                est = exact + sum(replay(x, levels, model, k, power, rng) for x in cal.classes if x.n >= min_n)
                out.append(est / cal.total - 1)
        errs.sort()
        level_errs.sort()
        say(f"  {cal.game:8s} truth {cal.total:7.1f} s; leave-one-out R(n) = {math.exp(r.c):.3g} n^{r.beta:.2f}; "
            f"error median {100 * errs[len(errs) // 2]:+5.0f}%, 10%..90% {100 * errs[len(errs) // 10]:+5.0f}% .. "
            f"{100 * errs[(9 * len(errs)) // 10]:+5.0f}%"
            + (f"; R by level: median {100 * level_errs[len(level_errs) // 2]:+5.0f}%, 10%..90% "
               f"{100 * level_errs[len(level_errs) // 10]:+5.0f}% .. {100 * level_errs[(9 * len(level_errs)) // 10]:+5.0f}%"
               if level_errs else ""))


# -- the target game ------------------------------------------------------------------------------------------


@dataclass
class Leaf:
    """A set of the target solved whole; ``ratio``, its own R measured in the target (leaf_ratio), or None."""

    path: str
    n: int
    solved: Solved
    ratio: float | None = None
    level: int = 0  # guesses down: the length of its history


# The target's own R is measured at leaves of at least this many secrets, as the fit takes sets of at
# least 100: below that a set's search is mostly its scan, and R says little about bigger sets. And of
# at least this many CPU seconds: the ratio of two times of a few clock ticks is noise.
RATIO_MIN = 100
RATIO_MIN_CPU = 0.05


def below_cpu(solver: Solver, secrets: np.ndarray, history: tuple[int, ...],
              limit: float | None) -> tuple[Expansion, float | None]:
    """A set's best-first expansion and the CPU seconds below it, R's denominator: its scan plus the classes
    of its best-first guess, each solved alone as in calibration (None if one hits the CPU ``limit``)."""
    ex = expand(solver, secrets, history)
    below = ex.scan_cpu
    for cls in ex.classes:
        s = solve_forked(solver, cls, history + (ex.guess,), limit)
        if s.censored:
            return ex, None
        below += s.cpu
    return ex, below


def leaf_ratio(solver: Solver, secrets: np.ndarray, history: tuple[int, ...], cpu: float,
               limit: float | None) -> float | None:
    """R of a set of the target solved whole in ``cpu`` seconds: that over ``below_cpu`` (None if a class
    hits the CPU ``limit``, or the time below is a few clock ticks of nothing)."""
    _, below = below_cpu(solver, secrets, history, limit)
    return cpu / below if below else None


@dataclass
class Sample:
    """What the estimator drew under one set of the target: the set's size and scan, and either the set
    solved whole (``leaf``) or the draws from the classes of its best-first guess with what was drawn under
    each. Evaluated under any R (``value``), so that a second R (shifted to the target) costs no new solve."""

    n: int
    level: int  # guesses down (1: a class of the first guess), which picks R from a LevelRatios
    scan_cpu: float = 0.0
    draws: list[tuple[int, float]] = field(default_factory=list)
    kids: dict[int, Sample] = field(default_factory=dict)
    leaf: Solved | None = None

    def value(self, r: RatioModel | LevelRatios, shift: float = 0.0) -> float:
        """scan + R(n) * the Hansen-Hurwitz sum over the draws, R (at the set's level) at ``shift`` residual
        sds from the fit."""
        if self.leaf is not None:
            return self.leaf.cpu
        vals = {i: k.value(r, shift) for i, k in self.kids.items()}
        return self.scan_cpu + r.at(self.level)(self.n, shift) * hansen_hurwitz(self.draws, vals)

    def estimate(self, r: RatioModel | LevelRatios, shift: float = 0.0) -> Estimate:
        """The middle, low and high (R at -1 and +1 sd from ``shift``, at every level together) estimates."""
        # The largest class is drawn almost surely (probability ~ size**power); if not, take the largest
        # drawn class's estimate. (No class of three or more, as in a small set of an mm game: nothing drawn.)
        largest = (self.kids[0].value(r, shift) if 0 in self.kids
                   else max((k.value(r, shift) for k in self.kids.values()), default=0.0))
        return Estimate(self.value(r, shift), self.value(r, shift - 1), self.value(r, shift + 1), largest)


@dataclass
class Estimate:
    """A set's estimated work, with the low and high ends from R(n) at -1 and +1 residual sd, and the
    estimate of its largest class of the best-first guess (the widest task of its first wave)."""

    mid: float
    low: float
    high: float
    largest_child: float = 0.0


class OutOfBudget(Exception):
    pass


def estimate_set(solver, secrets, history, levels, k, power, rng, limit, leaves, path, budget_end,
                 ratios: bool = False) -> Sample:
    """Sample ``secrets`` ``levels`` expansions down (see the module docstring): the draws, with the sets
    solved whole at the bottom appended to ``leaves`` (with their own R if ``ratios``)."""
    n = int(secrets.shape[0])
    if levels == 0:
        if time.monotonic() > budget_end:
            raise OutOfBudget
        s = solve_forked(solver, secrets, history, limit)
        ratio = (leaf_ratio(solver, secrets, history, s.cpu, limit)
                 if ratios and not s.censored and n >= RATIO_MIN and s.cpu >= RATIO_MIN_CPU else None)
        leaves.append(Leaf(path, n, s, ratio, len(history)))
        print(f"    leaf {path:34s} n={s.n:5d} cpu {s.cpu:8.2f} s{' (CPU limit: a lower bound)' if s.censored else ''}"
              f"  child peak RSS {s.rss_mb:6.0f} MB" + (f"  its own R {ratio:7.2f}" if ratio is not None else ""),
              flush=True)
        return Sample(n, len(history), leaf=s)
    ex = expand(solver, secrets, history)
    sizes = [c.shape[0] for c in ex.classes]
    sample = Sample(n, len(history), ex.scan_cpu, pps_sample(sizes, k, power, rng))
    for i, _ in sample.draws:
        if i not in sample.kids:
            sample.kids[i] = estimate_set(solver, ex.classes[i], history + (ex.guess,), levels - 1, k, power, rng,
                                          limit, leaves, f"{path}/{format_hint(solver.game, ex.hints[i])}:{sizes[i]}",
                                          budget_end, ratios)
    return sample


def estimate_classes(solver: Solver, first: int, root: Expansion, r: RatioModel, args, rng, budget_end: float,
                     leaves: list[Leaf], say,
                     samples: dict[str, Sample] | None = None) -> list[tuple[str, int, Estimate | None, str]]:
    """Each class of the first guess ``first`` (the root split ``root``), biggest first: solved whole below
    ``args.min_class`` secrets, else sampled ``args.levels`` down (estimate_set): (hint, n, Estimate, how),
    with None for a class the budget did not reach (the caller gives it the size fit). A sampled class's
    draws go to ``samples`` by hint."""
    game = solver.game
    rows = []
    # The biggest classes first: they are most of the work; small ones left when the budget ends are
    # estimated by the size fit.
    order = sorted(range(len(root.classes)), key=lambda i: -root.classes[i].shape[0])
    for i in order:
        cls, hint = root.classes[i], format_hint(game, root.hints[i])
        n = cls.shape[0]
        try:
            if n < args.min_class:
                if time.monotonic() > budget_end:
                    raise OutOfBudget
                s = solve_forked(solver, cls, (first,), args.limit)
                say(f"  class {hint:5s} n={n:5d} solved whole: {s.cpu:8.2f} CPU s, value "
                    f"{s.value if not s.censored else 'over the CPU limit'}, child peak RSS {s.rss_mb:.0f} MB")
                if s.censored:
                    raise OutOfBudget
                rows.append((hint, n, Estimate(s.cpu, s.cpu, s.cpu), "solved"))
                leaves.append(Leaf(hint, n, s))
            else:
                say(f"  class {hint:5s} n={n:5d}: sampling {args.levels} levels down")
                sample = estimate_set(solver, cls, (first,), args.levels, args.k, args.power, rng, args.limit, leaves,
                                      f"{hint}:{n}", budget_end, args.leaf_ratios)
                e = sample.estimate(r)
                if samples is not None:
                    samples[hint] = sample
                rows.append((hint, n, e, "sampled"))
                say(f"  class {hint:5s} n={n:5d}: {e.mid:10.4g} CPU s ({e.low:.3g} .. {e.high:.3g}); its largest "
                    f"first-wave class {e.largest_child:.3g} s")
        except OutOfBudget:
            rows.append((hint, n, None, "fit"))
    return rows


def split_size(game, divisor: float | None) -> int | None:
    """The ``solve --split`` size of ``--split-divisor``: the game's codes / divisor (None: no split)."""
    return None if divisor is None else max(3, int(game.size // divisor))


def coordinated_size(game, divisor: float | None) -> int:
    """The least class of the first guess that the coordinator coordinates: max(600, codes / 8), or the
    split size if smaller."""
    split = split_size(game, divisor)
    return max(600, game.size // 8) if split is None else min(max(600, game.size // 8), split)


def coordinated_spans(spec: str, say, divisor: float | None = None) -> list[tuple[int, float, float, float]]:
    """Each class of ``spec``'s first guess that the coordinator coordinates (see coordinated_size) searched
    by ``treegen.exact.coordinator.Coordinator`` inline, as in a whole run's first wave, with ``solve_game``'s
    ``split`` at the game's codes / ``divisor`` if given: (n, the solver's T alone, the coordinator's work,
    its span), all in CPU seconds of one process."""
    from treegen.exact.coordinator import Coordinator, TaskProgress
    from treegen.exact.executors import InlineExecutor
    from treegen.exact.options import Options

    game = resolve_game(spec)
    solver = Solver(game, orbits=ORBITS)
    first, root = first_guess(game, solver)
    out = []
    for hint, cls in zip(root.hints, root.classes):
        if cls.shape[0] < coordinated_size(game, divisor):
            continue
        alone = solve_forked(solver, cls, (first,), None)
        run = Coordinator(game, None, Options(orbits=ORBITS), False, 0, InlineExecutor(), None, TaskProgress(None),
                          lambda m: None, split=split_size(game, divisor))
        outcome = run.subproblem(cls, INF, (first,), UNCAPPED - 1, 1).result()
        assert outcome.exact and outcome.value == alone.value, (outcome.value, alone.value)
        out.append((int(cls.shape[0]), alone.cpu, outcome.work, outcome.span))
        say(f"  {spec} {format_hint(game, hint):>5} n={cls.shape[0]:5d}: alone {alone.cpu:7.2f} s; coordinated "
            f"work {outcome.work:7.2f} s (x{outcome.work / alone.cpu:.2f}), span {outcome.span:7.2f} s (span / alone "
            f"{outcome.span / alone.cpu:.3f})" + (f", split {split_size(game, divisor)}" if divisor else ""))
    return out


def kernel_timings(spec: str, say) -> None:
    """Nanoseconds per (code, secret) pair of the two scans that dominate the search, on random sets of
    the sizes where their routes change (search_kernels.class_bound: hint masks up to 64 secrets if the game
    has a one-hot table (at most 32 hints; exact.tables.onehot_table), packed byte counters up to 255 and
    16-bit lanes beyond if it has at most 24 hints, else a plain count per guess; search_kernels.ordered_guesses:
    2 packed words up to 16 hints, 3 up to 24, the same lanes beyond 255 secrets, else plain counts)."""
    game = resolve_game(spec)
    solver = Solver(game, orbits=ORBITS)
    t = search_tables(game)
    rng = np.random.default_rng(7)
    codes = game.size
    lbtab_depth = UNCAPPED - 2
    w0, w1, counts = solver.kernel_scratch()
    row = []
    for n in (32, 64, 65, 128, 255, 256):
        secrets = np.sort(rng.choice(codes, size=n, replace=False)).astype(np.int32)
        memo = solver.memo
        reps = max(1, int(2e8 // (codes * n)))
        start = time.process_time()
        for _ in range(reps):
            memo.state[:] = 0
            memo.slots[:] = -1
            search_kernels.class_bound(t.table, t.onehot, secrets, lbtab_depth, 0, t.nh, t.win, t.bounds.lb,
                                       t.fast_limit, t.excess_limit, memo.slots, memo.ent, memo.pool, memo.state,
                                       memo.zob, w0, w1, counts, *no_view(t.onehot), secrets)
        cb = (time.process_time() - start) / reps / (codes * n) * 1e9
        start = time.process_time()
        for _ in range(reps):
            search_kernels.ordered_guesses(t.table, t.all_guesses, secrets, t.nh, t.win,
                                           t.bounds.lb[lbtab_depth - 1], True, INF, 3 * n, np.empty(0, dtype=np.uint8))
        og = (time.process_time() - start) / reps / (codes * n) * 1e9
        row.append(f"n={n}: bound {cb:.2f}, scan {og:.2f}")
    solver.reset()
    say(f"  {spec} ({t.nh} hints, {codes} codes), ns per code-secret pair: " + "; ".join(row))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="bc:5:10")
    parser.add_argument("--budget", type=float, default=30.0,
                        help="minutes (wall) for the target's samples; classes not reached get the size fit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", default="bc:4:8,bc:4:9,bc:4:10,bc:5:6,bc:5:7,bc:5:8@30",
                        help="comma-separated games measured exactly under their best-first guess (bc, or mm for "
                             "an mm target); GAME@S: at most S CPU seconds per class")
    parser.add_argument("--calibrate-only", action="store_true")
    parser.add_argument("--calibrate-limit", type=float, default=None,
                        help="CPU seconds per calibration class of games without @S (over it: a lower bound, "
                             "not used in fits)")
    parser.add_argument("--span-games", default="bc:4:9,bc:5:7,bc:4:10",
                        help="games whose coordinated classes' span / work calibrates the critical path")
    parser.add_argument("--spans", metavar="GAMES",
                        help="only measure the coordinated classes' work and span in these games")
    parser.add_argument("--split-divisor", type=float, default=None, metavar="D",
                        help="the schedule of solve --split N with N = codes / D, for the span games and the "
                             "target alike (default: solve's default schedule)")
    parser.add_argument("--span-min", type=float, default=0.0, metavar="S",
                        help="take span fractions only from span-game classes that the solver alone takes at "
                             "least S CPU seconds to search (default 0: all); a class of a twentieth of a second "
                             "is mostly the coordinator's scans, unlike the classes of hours it stands for")
    parser.add_argument("--kernels", action="store_true",
                        help="only time the bound and scan kernels per code-secret pair (target and bc:4:10)")
    parser.add_argument("--calibration", metavar="FILE",
                        help="JSON of calibration games: read the games it has from it, and add the others")
    parser.add_argument("--levels", type=int, default=2, help="expansions below each class of the first guess")
    parser.add_argument("--k", type=int, default=3, help="classes sampled per expansion")
    parser.add_argument("--power", type=float, default=2.0, help="sampling probability ~ size**power")
    parser.add_argument("--limit", type=float, default=60.0, help="CPU seconds per sampled leaf")
    parser.add_argument("--leaf-ratios", action=argparse.BooleanOptionalAction, default=True,
                        help="measure R at the target's own leaves of at least 100 secrets (their best-first "
                             "guess's classes solved too), and print the total with R by level moved to them "
                             "below level 1 (default: on)")
    parser.add_argument("--min-class", type=int, default=500,
                        help="classes of the first guess below this size are solved whole, not sampled")
    parser.add_argument("--first", metavar="CODE",
                        help="the first guess whose subtree is estimated (default: the search's best-first)")
    parser.add_argument("--others", type=float, default=0.0, metavar="MINUTES",
                        help="also estimate each other first guess's subtree, MINUTES (wall) each (default: not)")
    args = parser.parse_args(argv)
    try:
        target = resolve_game(args.game)
        specs, limits = [], {}
        for item in (x.strip() for x in args.calibrate.split(",")):
            if not item:
                continue
            spec, _, cap = item.partition("@")
            resolve_game(spec)
            specs.append(spec)
            try:
                limits[spec] = float(cap) if cap else args.calibrate_limit
            except ValueError:
                raise ValueError(f"--calibrate item {item!r}: write GAME or GAME@SECONDS, e.g. bc:5:8@30") from None
        if args.budget <= 0 or args.k < 1 or args.levels < 1 or args.limit <= 0:
            raise ValueError("--budget, --limit, --k and --levels must be positive")
        if args.others < 0:
            raise ValueError("--others must be 0 (not estimated) or positive minutes")
        first_code = None
        if args.first is not None:
            first_code = parse_code(target, args.first)
            if first_code not in first_choices(target):  # said now, not after minutes of calibration
                raise ValueError(f"--first {args.first}: not a first guess the search tries in {target.name}; "
                                 f"choose one of {', '.join(format_code(target, g) for g in first_choices(target))} "
                                 "(one per class of equivalent codes)")
    except ValueError as exc:
        print(f"estimate_work: {exc}", file=sys.stderr)
        return 2
    say = lambda m: print(m, flush=True)  # noqa: E731
    if args.spans:
        warm_up()
        for spec in args.spans.split(","):
            coordinated_spans(spec, say, args.split_divisor)
        return 0
    if args.kernels:
        warm_up()
        for spec in ("bc:4:10", "bc:5:7", target.name):
            kernel_timings(spec, say)
        return 0

    say(f"calibration ({', '.join(specs)}): every class solved exactly, one process, forked per set")
    warm_up()
    cals = []
    stored = {}
    if args.calibration and os.path.exists(args.calibration):
        with open(args.calibration) as f:
            stored = {d["game"]: calibration_from_obj(d) for d in json.load(f)}
    for spec in specs:
        t0 = time.monotonic()
        if spec in stored:
            cals.append(stored[spec])
            say(f"{spec}: read from {args.calibration}")
        else:
            cals.append(calibrate(spec, expand_min=20, deep_min=150, say=say, limit=limits[spec]))
            if args.calibration:
                stored[spec] = cals[-1]
                tmp = args.calibration + ".tmp"
                with open(tmp, "w") as f:
                    json.dump([asdict(c) for c in stored.values()], f)
                os.replace(tmp, args.calibration)
        cal = cals[-1]
        alone = len(first_choices(resolve_game(spec))) == 1
        say(f"{spec}: first guess {cal.first}{'' if alone else ' (the best-first; its subtree only)'}, total after "
            f"it {cal.value} (+{resolve_game(spec).size} for it), work {'at least ' if cal.censored else ''}"
            f"{cal.total:.1f} CPU s (measured in {time.monotonic() - t0:.0f} s wall)")

    nodes = expanded_nodes(cals, 100)
    r = RatioModel.fit(nodes)
    say(f"\nR(n) = T(set) / (scan + sum of T(classes of its best-first guess)), over {r.points} expanded sets of "
        f">= 100 secrets:\n  R(n) = {math.exp(r.c):.3g} * n^{r.beta:.2f}, residual sd {r.sd:.2f} in log "
        f"(x{math.exp(r.sd):.2f}); R(1000) = {r(1000):.1f}, R(7800) = {r(7800):.0f}")
    by_level = LevelRatios.fit(nodes)
    if by_level is not None:
        say("  by level: " + "; ".join(
            f"{name} R(n) = {math.exp(m.c):.3g} * n^{m.beta:.2f} over {m.points} sets (sd {m.sd:.2f}), R(1000) = "
            f"{m(1000):.3g}" for name, m in (("level 1", by_level.first), ("below", by_level.deeper))))
    for g, x in sorted(nodes, key=lambda t: -t[1].n)[:12]:
        say(f"    {g:8s} level {x.level} n={x.n:5d} T={x.solved.cpu:7.2f} s  R={x.ratio:6.2f}  fit {r(x.n):6.2f}"
            + (f", by level {by_level.at(x.level)(x.n):6.2f}" if by_level else ""))
    ns, ts = measured_sets(cals, 100)
    a, b, sd = loglog_fit(ns, ts)
    say(f"size fit over {len(ns)} measured sets of >= 100 secrets: T = {math.exp(a):.3g} * n^{b:.2f} s "
        f"(residual sd {sd:.2f} in log, x{math.exp(sd):.1f})")
    for levels in (1, 2):
        say(f"validation: the {levels}-level estimator (k={args.k}, size^{args.power:g}), classes of >= 200 "
            f"sampled, 200 samplings each:")
        validate(cals, levels, args.k, args.power, 200, 200, say)
    # The game family: total work against the number of codes, among games of the target's positions and
    # kind (repeats or not: mm:5:6 and bc:5:6 are different searches). An mm game's work is its best-first
    # guess's subtree's, as is the target's estimate.
    fam = [(resolve_game(c.game).size, c.total) for c in cals if resolve_game(c.game).positions == target.positions
           and resolve_game(c.game).repeats == target.repeats and c.total > 0.5 and not c.censored]
    family = None
    if len(fam) >= 2:
        fa, fb, _ = loglog_fit([x for x, _ in fam[-2:]], [y for _, y in fam[-2:]])
        family = math.exp(fa + fb * math.log(target.size))
        say(f"game family ({target.positions} positions): " + ", ".join(f"{n} codes {w:.1f} s" for n, w in fam)
            + f"; the last two give work ~ codes^{fb:.1f}, so {target.size} codes ~ {family:.3g} CPU s"
            + ("" if len(first_choices(target)) == 1 else " (under the best-first guess)"))
    if args.calibrate_only:
        return 0

    # -- the target
    t0 = time.process_time()
    solver = Solver(target, orbits=ORBITS)
    first, root = first_guess(target, solver, first_code)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    say(f"\n{target.name}: {target.size} secrets, {solver.nh} hints; tables and root scan "
        f"{time.process_time() - t0:.1f} CPU s, peak RSS {rss:.0f} MB; first guess {format_code(target, first)}")
    # What the estimate is of: with inequivalent first guesses, one of them only (see the module docstring).
    others = [g for g in root.tried if g != first]
    if others:
        say(f"  covers: proving first guess {format_code(target, first)}'s subtree optimal (its classes solved "
            f"exactly); refuting the other {len(others)} first guesses "
            f"({', '.join(format_code(target, g) for g in others)})"
            + (f" is estimated below ({args.others:g} min each)" if args.others else " is extra work, NOT covered "
               "(--others MINUTES estimates it)"))
    say("  classes: " + ", ".join(f"{format_hint(target, h)} {c.shape[0]}" for h, c in zip(root.hints, root.classes)))
    rng = np.random.default_rng(args.seed)
    leaves: list[Leaf] = []
    samples: dict[str, Sample] = {}
    rows = estimate_classes(solver, first, root, r, args, rng, time.monotonic() + 60 * args.budget, leaves, say,
                            samples)
    # The size fit, shifted to the target by the mean log residual of the target's own measured sets.
    own = [(x.n, x.solved.cpu) for x in leaves if not x.solved.censored and x.n >= 100 and x.solved.cpu > 0]
    shift = float(np.mean([math.log(t) - (a + b * math.log(n)) for n, t in own])) if own else 0.0
    fit = lambda n: math.exp(a + shift + b * math.log(n))  # noqa: E731
    say(f"\nsize fit shifted to {target.name} by its {len(own)} measured sets of >= 100 secrets: x{math.exp(shift):.2f}")
    say(f"{'class':>6} {'n':>6} {'how':>8} {'estimate s':>12} {'low':>10} {'high':>10} {'size fit s':>11}")
    def summed(rows, show: bool, model=None) -> tuple[list[float], float]:
        """A first guess's classes summed: ([middle, low, high] estimate, size fit); classes the budget did not
        reach take the size fit, with its residual sd for low and high. With ``model``, the sampled classes
        are evaluated again under that R (their draws are kept: no new solve)."""
        tot, fit_total = [0.0, 0.0, 0.0], 0.0
        for hint, n, e, how in sorted(rows, key=lambda t: -t[1]):
            if model is not None and hint in samples:
                e = samples[hint].estimate(model)
            e = e or Estimate(fit(n), fit(n) / math.exp(sd), fit(n) * math.exp(sd))
            tot = [tot[0] + e.mid, tot[1] + e.low, tot[2] + e.high]
            fit_total += fit(n)
            if show:
                say(f"{hint:>6} {n:6d} {how:>8} {e.mid:12.4g} {e.low:10.3g} {e.high:10.3g} {fit(n):11.3g}")
        return tot, fit_total

    tot, fit_total = summed(rows, True)
    tot, fit_total = [x + root.scan_cpu for x in tot], fit_total + root.scan_cpu
    under = f" under {format_code(target, first)}" if others else ""
    say(f"total work (one solver, CPU s of this machine){under}: "
        f"sampling estimator {tot[0]:.3g} ({tot[1]:.3g} .. {tot[2]:.3g}) = {tot[0] / 3600:.3g} CPU h; size fit "
        f"{fit_total:.3g}" + (f"; game family {family:.3g}" if family else ""))
    # The same draws under two other R: fitted apart by level, and with the fit below level 1 moved by the
    # mean log residual of the target's own leaves (one move for every size, though the leaves are the
    # target's smallest sampled sets and a residual can differ tenfold between sets: docs/bc-5-10-plan.md).
    def resummed(model) -> list[float]:
        """The total again with the sampled classes under another R."""
        return [x + root.scan_cpu for x in summed(rows, False, model)[0]]

    def said(name, t):
        say(f"  {name}: {t[0]:.3g} ({t[1]:.3g} .. {t[2]:.3g}) = {t[0] / 3600:.3g} CPU h, x{t[0] / tot[0]:.3g} the "
            "estimate above")

    if by_level is not None:
        said("with R by level", resummed(by_level))
    own_r = [x for x in leaves if x.ratio is not None and x.level > 1]
    if own_r and by_level is not None:
        model = by_level.deeper
        resid = [math.log(x.ratio / model(x.n)) for x in own_r]
        delta = float(np.mean(resid))
        say(f"  R at the target's own {len(own_r)} leaves of >= {RATIO_MIN} secrets and {RATIO_MIN_CPU} s: "
            + ", ".join(f"n={x.n} R={x.ratio:.3g} (fit below level 1: {model(x.n):.3g})"
                        for x in sorted(own_r, key=lambda x: -x.n)[:6]) + ("" if len(own_r) <= 6 else ", ..."))
        said(f"with R by level, below level 1 moved to them (x{math.exp(delta):.3g}: mean log residual {delta:+.2f}, "
             f"from {min(resid):+.2f} to {max(resid):+.2f})", resummed(by_level.moved(delta)))
    say("  (the critical path and the workers below are at the first estimate; they scale with the work)")
    # The critical path of the coordinator's schedule (see the module docstring). A class below the
    # coordinator's split size is one task: its span is its work. A coordinated class's span was
    # measured (--span-games) as a fraction of its work alone: the best-first guess's classes run side by
    # side, but the other guesses' chains, whose tasks each start from a fresh memo, follow one another wave by wave.
    # With --split-divisor every set of at least the split size is coordinated at any depth: more classes
    # of the root are coordinated, each with a smaller span fraction, and the coordinated work grows by the
    # factor the span games measured (printed; Brent's bound below uses the highest).
    split_min = coordinated_size(target, args.split_divisor)
    fractions, overheads = [], []
    for spec in [x for x in args.span_games.split(",") if x]:
        for _, alone, work, sp in coordinated_spans(spec, say, args.split_divisor):
            if alone < args.span_min:
                continue
            fractions.append(sp / alone)
            overheads.append(work / alone)
    lo_f, hi_f = (min(fractions), max(fractions)) if fractions else (0.0, 1.0)
    over = max(overheads, default=1.0)
    if args.split_divisor:
        say(f"split {split_size(target, args.split_divisor)} (codes / {args.split_divisor:g}): coordinated work "
            f"x{min(overheads, default=1.0):.2f} .. x{over:.2f} of the solver's alone in the span games")

    def class_spans(rows) -> list[tuple[str, int, str, float, float]]:
        """Each class's span, low and high, at its middle work estimate: (hint, n, how, low, high)."""
        spans = []
        for hint, n, e, how in rows:
            if e is None:
                e = Estimate(fit(n), fit(n), fit(n))
            if n >= split_min:
                spans.append((hint, n, f"coordinated, x{lo_f:.2f}..x{hi_f:.2f} of its work", lo_f * e.mid,
                              hi_f * e.mid))
            else:
                spans.append((hint, n, "one task: all its work", e.mid, e.mid))
        return sorted(spans, key=lambda t: -t[4])

    spans = class_spans(rows)
    for hint, n, how, sp_lo, sp_hi in spans[:5]:
        say(f"  span of class {hint:5s} n={n:5d} ({how}): {sp_lo:.3g} .. {sp_hi:.3g} s")
    span_lo = root.scan_cpu + max(x[3] for x in spans)
    span_hi = root.scan_cpu + max(x[4] for x in spans)
    # The schedule's work: the solver's, times the coordinated work's overhead with a split.
    sched = tot[0] * (over if args.split_divisor else 1.0)
    say(f"critical path ~ {span_lo:.3g} .. {span_hi:.3g} s ({span_lo / 3600:.3g} .. {span_hi / 3600:.3g} h) at the "
        f"middle work estimate; work / span = {sched / span_hi:.1f} .. {sched / span_lo:.1f}"
        + (f" (work x{over:.2f} with the split: {sched:.3g} s)" if args.split_divisor else ""))
    for p in (2, 64, 512):
        say(f"  {p:3d} workers: about {(sched / p + span_lo) / 3600:.3g} .. {(sched / p + span_hi) / 3600:.3g} h "
            f"(work / p + span, Brent" + ("" if args.split_divisor else "; one solver's work, not the coordinator's")
            + ")")
    say(f"leaves measured: {len(leaves)}, CPU {sum(x.solved.cpu for x in leaves):.0f} s, censored "
        f"{sum(x.solved.censored for x in leaves)}, largest child peak RSS {max((x.solved.rss_mb for x in leaves), default=0):.0f} MB")
    if not others or not args.others:
        return 0
    # The other first guesses: the root's second wave, each guess a chain (its classes one after another,
    # each under its share of the best total; coordinator._chain) that stops at the first class showing
    # the guess costs more. Estimated here as if each chain had to solve its guess's subtree whole (beta
    # INF), with the same sampler and R, and the size fit shifted by the chosen first guess's leaves.
    say(f"\nthe other first guesses, each its subtree solved whole ({args.others:g} min each):")
    secrets = np.arange(target.size, dtype=np.int32)
    more: list[Leaf] = []
    whole = list(tot)
    chain_lo = chain_hi = 0.0
    for g in others:
        ex = Expansion(g, *split(solver, secrets, g), 0.0)  # the root scan is counted once, above
        say(f"first guess {format_code(target, g)}: classes " + ", ".join(
            f"{format_hint(target, h)} {c.shape[0]}" for h, c in zip(ex.hints, ex.classes)))
        g_rows = estimate_classes(solver, g, ex, r, args, rng, time.monotonic() + 60 * args.others, more, say)
        g_tot, g_fit = summed(g_rows, False)
        g_spans = class_spans(g_rows)
        lo, hi = sum(x[3] for x in g_spans), sum(x[4] for x in g_spans)
        chain_lo, chain_hi = max(chain_lo, lo), max(chain_hi, hi)
        whole = [w + t for w, t in zip(whole, g_tot)]
        say(f"first guess {format_code(target, g)}: {g_tot[0]:.3g} CPU s ({g_tot[1]:.3g} .. {g_tot[2]:.3g}); size fit "
            f"{g_fit:.3g}; {sum(e is None for _, _, e, _ in g_rows)} of {len(g_rows)} classes by the size fit; "
            f"its chain's span {lo:.3g} .. {hi:.3g} s")
    say(f"leaves measured under the other first guesses: {len(more)}, CPU {sum(x.solved.cpu for x in more):.0f} s, "
        f"censored {sum(x.solved.censored for x in more)}")
    say(f"whole game ({format_code(target, first)}'s subtree + every other first guess's subtree solved whole): "
        f"{whole[0]:.3g} CPU s ({whole[1]:.3g} .. {whole[2]:.3g}) = {whole[0] / 3600:.3g} CPU h")
    # The second wave starts when the first ends: the paths add.
    w_lo, w_hi = span_lo + chain_lo, span_hi + chain_hi
    say(f"critical path with the second wave (its longest chain run to its end) ~ {w_lo:.3g} .. {w_hi:.3g} s "
        f"({w_lo / 3600:.3g} .. {w_hi / 3600:.3g} h); work / span = {whole[0] / w_hi:.1f} .. {whole[0] / w_lo:.1f}")
    for p in (2, 64, 512):
        say(f"  {p:3d} workers: about {(whole[0] / p + w_lo) / 3600:.3g} .. {(whole[0] / p + w_hi) / 3600:.3g} h "
            f"(work / p + span, Brent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
