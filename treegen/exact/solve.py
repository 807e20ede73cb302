"""``solve_game``: the optimal tree of a whole game, proved and checked; ``solve_certified``: the same tree
with a certificate of its lower bound.

It checks its arguments, settles the cap (solver.settle_cap), starts a coordinator on an executor
(coordinator, executors) with a checkpoint store if asked (checkpoint), and turns the root's outcome into
a tree with its proof figures. ``solve_certified`` settles the cap the same way, then runs the certifying
search (certify: one process, one memo) instead of the coordinator. Before a tree is returned it is replayed over every secret
(``verify.make_tree``) and its total and worst case are compared with what the search proved; a mismatch
is a ``SearchBug``, never a file.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import asdict

import numpy as np

from .. import __version__
from ..rules import ArgumentTypeError, Game, NumberError, TreegenError, game_argument
from ..tree import Node, Tree
from ..verify import make_tree
from . import certify
from .checkpoint import CheckpointStore
from .contracts import INF, UNCAPPED, Infeasible, Outcome, SearchBug
from .coordinator import Coordinator, TaskProgress
from .executors import make_executor, plan_workers
from .objectives import OBJECTIVES, Objective, crush_price, least_worst, strategy_name
from .options import Options
from .solver import settle_cap
from .tables import check_memory
from .warmup import CallbackInterrupts


def _count_argument(name: str, value) -> int:
    """``value`` as an int of at least 1 (any integer type but bool: a numpy int too), else a one-line
    error (as the command's --workers and --max-guesses)."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ArgumentTypeError(f"solve_game: {name} must be an int, not {type(value).__name__}")
    value = operator.index(value)
    if value < 1:
        raise NumberError(f"{name} must be at least 1, not {value}")
    return value


def _game_and_objective(game, objective, caller: str) -> Game:
    """The game that solve_game and solve_certified were given, with their objective checked (see
    solve_game's errors)."""
    game = game_argument(game, caller)
    if objective not in OBJECTIVES:
        raise TreegenError(f"unknown objective {objective!r}; use one of {', '.join(OBJECTIVES)}")
    return game


def solve_game(
    game: Game | str,
    objective: Objective = "average",
    max_guesses: int | None = None,
    workers: int = 1,
    checkpoint: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    options: Options = Options(),
    warn: Callable[[str], None] | None = None,
    timings: Callable[[], dict] | None = None,
    consistent_only: bool = False,
    executor: str = "processes",
    address: str | None = None,
    profile: dict | None = None,
    eager: bool = False,
    split: int | None = None,
) -> Tree:
    """The optimal tree of ``game`` (a Game, or a name for ``rules.resolve_game``) for ``objective``,
    checked, with its proof figures in provenance.

    - ``average``: least total guesses over all secrets, within ``max_guesses`` if given.
    - ``worst``: least maximum number of guesses (proving one fewer impossible), then least total within
      it; a ``max_guesses`` below that maximum is Infeasible.
    - ``crush``: least maximum N as for ``worst``, then the fewest secrets that need all N guesses, then
      the least total. One search does both: each secret solved with the N-th guess costs ``N * size + 1``
      more, which exceeds any total within N guesses, so a cost orders trees by that count first.

    ``workers`` processes (see :func:`executors.plan_workers`) on ``executor`` (``processes`` or ``ray``, with
    its ``address``: see :func:`executors.make_executor`; the tree is the same for any executor and workers), an optional
    ``checkpoint`` folder, ``progress(done, total, note)`` and ``warn(message)`` callbacks, and
    ``timings()``, whose dict is added to the provenance at the end (None: the file records no timings,
    so rebuilding gives the same bytes). ``consistent_only``: hard mode, every guess a possible secret.
    Raises Infeasible (a TreegenError) when no tree fits in ``max_guesses``, SearchBug when the tree built
    does not achieve what the search proved; an unknown game or objective, ``workers``, ``max_guesses`` or
    ``split`` below 1 are TreegenErrors, a game or number of the wrong type an ``ArgumentTypeError`` (a TypeError
    too), all before any work. ``workers`` above 1 start worker processes: see :class:`executors.ProcessExecutor`
    for when a script needs an ``if __name__ == "__main__":`` guard. ``profile``, if given, receives the
    measured ``work`` and ``span`` seconds of the search after the cap is settled (see :class:`contracts.Outcome`)
    and the number of ``tasks``.
    ``eager``: coordinators search every class of every guess side by side, not the classes of a guess
    other than the first one after another: a failing guess may pay for classes a chain would skip, but
    no wave waits for a sum of classes, so the critical path is shorter (for many workers). The tree is
    the same (a guess below its wave's beta has every class below that class's beta, so exact, either
    way); the node count in the provenance is not, so ``eager`` is recorded there. With ``eager`` every
    set of at least ``max(600, size / 16)`` secrets is coordinated too, not only the root and its biggest
    classes, so that no single task is a long link of the critical path.
    ``split``: every set of at least ``split`` secrets, at any depth, is coordinated (with or without
    ``eager``, instead of its threshold), while the classes of a guess other than the first are still searched
    one after another (unless ``eager``; their share pass side by side), and the later waves of the sets it
    coordinates are scanned, and their guesses whose classes are all smaller searched, in tasks on the
    workers: for many workers, a shorter critical path for a little more work (``treegen solve --split N``,
    docs/search.md). The tree is the same; the node count is not, so ``split`` is recorded in the provenance.
    """
    game = _game_and_objective(game, objective, "solve_game")
    workers = _count_argument("workers", workers)
    max_guesses = None if max_guesses is None else _count_argument("max_guesses", max_guesses)
    split = None if split is None else _count_argument("split", split)
    # A Ctrl-C that LLVM's callbacks swallow while a kernel compiles is raised, not printed and lost.
    with CallbackInterrupts() as interrupts:
        return _solve(game, objective, max_guesses, workers, checkpoint, progress, options, warn, timings,
                      consistent_only, executor, address, profile, eager, interrupts, split)


def _solve(game: Game, objective: Objective, max_guesses: int | None, workers: int, checkpoint: str | None,
           progress, options: Options, warn, timings, consistent_only: bool, executor: str, address: str | None,
           profile: dict | None, eager: bool, interrupts: CallbackInterrupts, split: int | None) -> Tree:
    """solve_game once its arguments are checked."""
    check_memory(game)
    options = options.resolved(game)  # orbits decided by the game's size and the memo (so in a checkpoint's key)
    warn = warn or (lambda message: None)
    store = None
    if checkpoint is not None:
        # The game's rules, not only its name: a list's words (and other guesses) and its hint rule.
        listed = f", list {game.digest}" if game.listed else ""
        listed += f", guesses {game.guesses_digest}" if game.guesses is not None else ""
        listed += f", rule {game.rule}" if game.rule != "bulls-cows" else ""
        key = {"game": f"{game.name} ({game.spec}{listed})", "objective": objective, "cap": max_guesses,
               "options": asdict(options), "consistent_only": consistent_only, "treegen": __version__}
        store = CheckpointStore(checkpoint, key, warn)
    secrets = np.arange(game.secret_count, dtype=np.int32)
    report = TaskProgress(progress)
    cap, worst, nodes = settle_cap(game, options.symmetry, consistent_only, least_worst(objective), max_guesses,
                                   report.say)
    if executor == "ray":
        used = workers  # the cluster's CPUs decide; a small game is still worth a cluster's word
    else:
        used, _ = plan_workers(game, workers)
    extra = crush_price(objective, cap, game.size)
    run = Coordinator(game, cap, options, consistent_only, extra, make_executor(executor, used, address), store, report,
                      warn, eager, interrupts, split)
    try:
        depth = cap if cap is not None else UNCAPPED
        outcome = run.subproblem(secrets, INF, (), depth, 0).result()
    finally:
        run.close()
    if profile is not None:
        profile.update(work=outcome.work, span=outcome.span, tasks=report.total)
    if not outcome.exact:
        raise Infeasible(f"no strategy solves every secret of {game.name} within {cap} guesses")
    return _proved_tree(game, objective, max_guesses, cap, worst, consistent_only, extra, outcome, nodes + run.nodes,
                        timings, eager, split)


def solve_certified(
    game: Game | str,
    objective: Objective = "average",
    max_guesses: int | None = None,
    options: Options = Options(),
    consistent_only: bool = False,
    progress: Callable[[int], None] | None = None,
    timings: Callable[[], dict] | None = None,
) -> tuple[Tree, dict]:
    """``solve_game``'s tree with the certificate of what it proves (``treegen.certificate`` checks it): no
    strategy within the cap costs less, and none finishes within one guess fewer than the least worst case
    when the objective settles that. One process, one memo: the certifying search (``certify``) finds the
    tree and then the claims, so there are no workers, executor or checkpoint. The tree is the strategy
    ``solve_game`` finds (both take the first guess of least cost in the solver's best-first order); its
    provenance counts the certifying search's nodes. ``progress(claims)`` hears the claims written so far.
    Errors as for ``solve_game``."""
    game = _game_and_objective(game, objective, "solve_certified")
    max_guesses = None if max_guesses is None else _count_argument("max_guesses", max_guesses)
    with CallbackInterrupts():
        check_memory(game)
        options = options.resolved(game)
        cap, worst, nodes = settle_cap(game, options.symmetry, consistent_only, least_worst(objective), max_guesses,
                                       lambda note: None)
        extra = crush_price(objective, cap, game.size)
        doc, value, wire, found = certify.certified_search(game, cap, None if worst is None else worst - 1,
                                                          consistent_only, extra, options, progress)
    outcome = Outcome(value, True, found, wire, 0.0, 0.0)
    return _proved_tree(game, objective, max_guesses, cap, worst, consistent_only, extra, outcome, nodes + found,
                        timings), doc


def _proved_tree(game: Game, objective: Objective, asked: int | None, cap: int | None, worst: int | None, hard: bool,
                 extra: int, outcome: Outcome, nodes: int, timings: Callable[[], dict] | None,
                 eager: bool = False, split: int | None = None) -> Tree:
    """The tree of a finished search with its proof figures, after checking that it achieves them
    (``asked``: the cap the user gave, which names the strategy; ``cap``: the one the search used;
    ``extra``: the crush price, so that the proved cost is total + extra * (secrets at the cap))."""
    at_cap, total = divmod(outcome.value, extra) if extra else (None, outcome.value)
    if extra and total > cap * game.size:  # the price exceeds any total, so the remainder is the total
        raise SearchBug(f"the search proved cost {outcome.value}, which is no count and total under price {extra}")
    provenance: dict = {
        "objective": objective,
        "max_guesses": cap,
        "optimal_total": total,
        "lower_bound": total,
    }
    if hard:
        provenance["consistent_only"] = True
    if worst is not None:
        provenance["worst_case"] = worst
        provenance["impossible_within"] = worst - 1
    if at_cap is not None:
        provenance["at_worst"] = at_cap
    provenance["nodes"] = nodes
    if eager:
        provenance["eager"] = True  # the node count depends on it (see solve_game)
    if split is not None:
        provenance["split"] = split  # so does this
    provenance["treegen"] = __version__
    if timings is not None:
        provenance.update(timings())
    try:
        root = Node.from_wire(game, outcome.tree)
        tree = make_tree(game, strategy_name(objective, asked, hard), root, provenance)
    except TreegenError as exc:
        raise SearchBug(f"the search built an invalid tree: {exc}") from None
    if tree.stats.total != total:
        raise SearchBug(f"the search proved total {total} but built a tree of total {tree.stats.total}")
    if at_cap is not None and tree.stats.histogram[-1] != at_cap:
        raise SearchBug(f"the search proved {at_cap} secrets at {cap} guesses but built a tree with "
                        f"{tree.stats.histogram[-1]}")
    if worst is not None and tree.stats.max_guesses != worst:
        raise SearchBug(f"the search proved worst case {worst} but built a tree that needs {tree.stats.max_guesses}")
    if cap is not None and tree.stats.max_guesses > cap:
        raise SearchBug(f"the search was capped at {cap} guesses but built a tree that needs {tree.stats.max_guesses}")
    return tree
