"""A least-total certificate in parts: the root's guesses refuted by searches of their classes, each class
searched alone (a *part*), so that a game too big for the one-process certifying search (``certify``) is
certified on several worker processes, and resumes after a stop from the parts already on disk.

**What it proves.** The root claim (the empty history) says that no strategy within the cap costs less than
``cost``: for every class of equivalent guesses at the root (one guess each, as the search's scan lists
those whose one-step lookahead bound is below ``cost``) the guess's bound must reach ``cost``. A guess g
costs |S| plus, for each class C of S under g, what C costs within one guess fewer; the checker bounds C by
its counting and key bounds itself, and by a referenced claim where the certificate has one.

**How a guess is raised** (the same steps for every guess, so the chosen one is treated like the rest):

1. *Share pass*: each big class but the last is searched under its bound plus a share of the slack
   (cost - the guess's bound) in proportion to the classes' bounds (``solver.fixed_shares``), side by side.
2. *Whole pass*, if the guess still stands: the big classes not yet exact, one at a time, smallest first,
   each under its value plus the slack left then, until one fails (the guess's bound reaches ``cost``) or
   none is left. Side by side, as first written, every class was searched even when the first to end had
   already refuted the guess: on mm:5:7's first 178 whole passes, stopping at the first class that fails,
   smallest first, would have searched 41.8 M of their 70.6 M nodes (the cheapest failing class alone:
   41.3 M; largest first: 54.2 M). The guesses of a node still run side by side, so the workers stay busy.

Each search returns the class's exact value below its beta, else a bound >= it (``Solver.solve``'s
contract), and the part claims that value (the exact one, or the beta), so the guess's bound, |S| plus the
classes' values, stays a lower bound that the part claims prove. The whole pass ends when the guess's bound
reaches ``cost`` (a class failed, rising by at least the slack left, or the exact ones together took it all)
or when every class is exact and the guess costs exactly its bound: below ``cost`` means a strategy cheaper
than ``cost`` exists, an error (:class:`NotLeast`), and no certificate.

**A part** is one class under one beta: a :class:`certify.ProvingSolver` searches it from a fresh memo, and
:meth:`certify.Prover.claim` reads its claims off that memo, as the whole-game certifying search does at
every level. Its claims are named by histories that begin with the root guess and hint, so they stand as
they are in the assembled certificate; the root claim refers to the last part of each raised class. A part
is a function of its class and beta alone, so the certificate is the same bytes for any number of workers
and any order the parts finish in, and with or without parts taken from a parts folder.

**Nodes: splitting big classes further.** With a tree and a split size, a big class that the tree's own
guess leads to (when the scan's representative of that guess's class of equivalent guesses is the tree's
guess itself) is not one part but a *node*: its claim says that it costs at least the tree's total for it,
and its guesses are raised as the root's are, by parts one guess further down, and by nodes again where
the tree goes on. A proved tree's total for a class is that class's least cost (a cheaper strategy for the
class would make a cheaper tree), so a node's figure is exact; a tree that is not optimal fails at the
node, as at the root (:class:`NotLeast`). Nodes make the parts smaller, so that no single part of a big
game takes longer than a session and more of them run side by side.

**The parts folder** (optional) keeps each finished part: a ``checkpoint.CheckpointStore`` entry (value,
exactness, the claims file's name and SHA-256) and the claims in a gzip file beside it. A part whose entry or
file is damaged is searched again. Nothing in the folder is trusted for the proof: the certificate is
checked by ``treegen.certificate``, which shares no code with this module.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import queue
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import orjson

from ..certificate import CLAIM, certificate_chunks, claims_in, gzip_chunks, members
from ..files import InputError, map_input, write_atomic
from ..rules import Game, TreegenError, format_code, format_hint, game_to_dict
from ..tree import Wire
from .certify import Prover, ProvingSolver
from .checkpoint import CheckpointStore
from .contracts import INF, UNCAPPED
from .options import Options
from .search_kernels import split_classes
from .solver import fixed_shares
from .tables import wire_cost

CLAIMS_SUFFIX = ".claims.json.gz"


def parts_key(game: Game, cap: int | None, consistent_only: bool, cost: int) -> dict:
    """The key of a parts folder (``CheckpointStore`` adds the search code's digest): what is certified, and
    the digest of this module's and ``certify``'s source, so that a part written by another version of the
    claims' reading is searched again rather than reused. A part is a function of its path and beta alone,
    so one folder serves runs with any split."""
    digest = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("certify.py", "parts.py"):
        with open(os.path.join(here, name), "rb") as f:
            data = f.read()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return {"kind": "certificate parts", "game": game_to_dict(game), "max_guesses": cap,
            "consistent_only": consistent_only, "cost": cost, "prover": digest.hexdigest()}


class NotLeast(TreegenError):
    """The figure to certify is not the least: a guess at the root costs less (the tree is not optimal)."""


@dataclass(frozen=True)
class PartResult:
    """What one part proved: its class costs at least ``value`` (exactly ``value`` when ``exact``), by its
    claims (``claims[top]`` is the class's own); ``nodes`` searched.

    The claims are packed, as its claims file holds them: in ``data``, or with a parts folder in ``file``
    alone (``data`` empty), whose SHA-256 must still be ``sha256`` each time it is read. A part of a big game
    holds up to a GB of claims as JSON and some eight times that as Python lists (mm:5:7's first 51 parts: 643
    thousand claims, 1.17 GB of JSON, and 13 GB in the process that held them as lists), and bc:5:9's parts
    come to GBs packed, so the run holds none of them: it reads one part at a time, a claim at a time
    (:meth:`claims`), when it assembles the certificate. The worker holds them as JSON while it searches
    (``Prover(as_json=True)``)."""

    value: int
    exact: bool
    nodes: int
    data: bytes
    top: int
    file: str | None = None
    sha256: str | None = None

    def packed(self):
        """The claims file's bytes: held, or mapped from the folder (InputError if it changed since)."""
        if self.file is None:
            return self.data
        data = map_input(self.file, "certificate part")
        if hashlib.sha256(data).hexdigest() != self.sha256:
            raise InputError(f"certificate part {self.file} changed after this run read it (checksum mismatch); "
                             "run again, and it is searched again")
        return data

    def claims(self):
        """The part's claims, one at a time as they are read."""
        return claims_in(self.packed(), self.file or "certificate part")

    def outline(self) -> tuple[int, list]:
        """How many claims the part has, and its witnesses, read through it a claim at a time."""
        count, witnesses = 0, None
        for name, value in members(self.packed(), self.file or "certificate part"):
            if name is CLAIM:
                count += 1
            elif name == "witnesses":
                witnesses = value
        if witnesses is None:
            raise ValueError(f"certificate part {self.file or ''} lists no witnesses")
        return count, witnesses

    def unpack(self) -> tuple[list, list]:
        """The part's claims and their witnesses, held whole (for tests and small parts)."""
        doc = orjson.loads(gzip.decompress(self.packed()))
        return doc["claims"], doc["witnesses"]


def pack(claims_json: bytes | memoryview, witnesses: list) -> bytes:
    """A part's claims file (gzip-compressed JSON, no timestamp: same part, same bytes) from its claims' JSON
    without the brackets (Prover.claims_json): the bytes orjson writes for ``{"claims": [...], "witnesses":
    [...]}``, compact, in that order, compressed as certificates are (certificate.gzip_chunks) without
    copying the claims' JSON into one document first: on the largest parts that copy was a GB."""
    return b"".join(gzip_chunks((b'{"claims":[', claims_json, b'],"witnesses":' + orjson.dumps(witnesses) + b"}")))


def run_part(game: Game, cap: int | None, consistent_only: bool, options: Options, path: list, beta: int) -> PartResult:
    """Search the class that ``path`` (guess, dense hint, guess, dense hint, ...) leads to under ``beta`` in
    this process (fresh memo) and read its claims off the memo: the class costs its exact value if below
    ``beta``, else at least ``beta`` (the claim is then at ``beta``, which is all its guess needs of it)."""
    prover = Prover(game, consistent_only, 0, options, as_json=True)  # its claims leave only as JSON, by pack()
    solver = prover.solver = ProvingSolver(game, cap, prover.options, consistent_only=consistent_only)
    t = solver.tables
    cls = np.arange(game.secret_count, dtype=np.int32)
    for g, h in zip(path[0::2], path[1::2]):
        cls = cls[t.table[g, cls] == h]
    guesses = tuple(path[0::2])
    depth = solver.full_depth() - len(guesses)
    got = solver.solve(cls, beta, guesses, depth)
    value = min(got, beta)
    top = prover.claim(cls, _history(t, path), depth, value)
    counts = solver.counts
    return PartResult(value, got < beta, counts.nodes + counts.bound_scans, pack(prover.claims_json(), prover.witnesses),
                      top)


def _history(tables, path: list) -> list:
    """A claim's history (guess, game hint, ...) from a path of dense hints."""
    return [int(x) if k % 2 == 0 else int(tables.hints[x]) for k, x in enumerate(path)]


@dataclass
class _Guess:
    """One guess of a node being raised: its big classes (dense hints, largest first), each class's bound as
    the scan took it, its value so far, whether that is exact, and the part (a PartResult) or the child node
    (a _Node) that gives it."""

    guess: int
    bound: int  # |S| + every class's counting or key bound: the scan's one-step lookahead bound
    hints: list[int]
    bases: list[int]
    values: list[int]
    exact: list[bool]
    parts: list  # per class: its last PartResult, its _Node, or None
    stage: str = "shares"  # the pass under way or next: shares, then whole (a class at a time)
    waiting: int = 0

    def total(self) -> int:
        """A lower bound on the guess's cost: its bound with each class's value in place of its bound."""
        return self.bound + sum(self.values) - sum(self.bases)


@dataclass
class _Node:
    """A set whose claim is built here from its guesses' parts (the root, and with a split the big classes
    the tree leads to): its path (guess, dense hint, ...), secrets, guesses left and the figure to prove."""

    path: list
    secrets: np.ndarray
    depth: int
    target: int
    guesses: list[_Guess]


class _Parts:
    """Where parts come from: the parts folder if it holds them, else the executor (and then the folder)."""

    def __init__(self, game: Game, cap: int | None, consistent_only: bool, options: Options, submit,
                 store: CheckpointStore | None, warn: Callable[[str], None], tables) -> None:
        self.args = (game, cap, consistent_only, options)
        self.submit, self.store, self.warn, self.tables = submit, store, warn, tables
        self.searched = 0  # parts searched in this run (not taken from the folder)
        self.failed = False  # a part could not be written: the rest are not tried (said once)
        # a part searched in this run and put in the folder, by its future, as read from there (its claims not
        # held): set in the thread that ends the future, before the run's loop hears of it (see taken)
        self.kept: dict[Future, PartResult] = {}

    def start(self, path: list, beta: int) -> Future:
        """The part's future: from the folder if it holds the part, else from the executor."""
        task = {"path": path, "beta": beta}
        if self.store is not None:
            outcome = self.store.load(task, _check_entry)
            result = None if outcome is None else self._read(outcome, _history(self.tables, path))
            if result is not None:
                fut: Future = Future()
                fut.set_result(result)
                return fut
        self.searched += 1
        fut = self.submit(run_part, *self.args, path, beta)
        if self.store is not None:
            # kept as soon as it ends (in this thread when the part ran inline, else in the executor's), so a
            # stop loses only the parts still running
            fut.add_done_callback(lambda f: self._ended(task, f))
        return fut

    def _ended(self, task: dict, fut: Future) -> None:
        if not fut.cancelled() and fut.exception() is None:
            kept = self.keep(task, fut.result())
            if kept is not None:
                self.kept[fut] = kept

    def taken(self, fut: Future) -> PartResult:
        """An ended part's result: as the folder keeps it if it was put there, else as its worker sent it.
        (A future's callbacks run in the order they were added: ``start`` adds the one that keeps the part
        before the run's loop adds the one by which it hears that the part ended.)"""
        kept = self.kept.pop(fut, None)
        return fut.result() if kept is None else kept

    def keep(self, task: dict, result: PartResult) -> PartResult | None:
        """Put a part searched in this run in the folder (its claims file first, then its entry), and return
        it as read from there; None if it is not kept. Safe to call from several threads (CheckpointStore.save
        is; each part has its own files)."""
        if self.store.stopped or self.failed:
            return None
        data = result.data
        name = os.path.basename(self.store.path(task))[: -len(".json")] + CLAIMS_SUFFIX
        digest = hashlib.sha256(data).hexdigest()
        try:
            write_atomic(os.path.join(self.store.folder, name), data, "certificate part")
            self.store.save(task, {"value": result.value, "exact": result.exact, "nodes": result.nodes,
                                   "top": result.top, "file": name, "sha256": digest})
        except TreegenError as exc:  # a part on disk only saves time: losing them must not lose the run
            self.failed = True
            self.warn(f"{exc}; going on without saving parts")
            return None
        return PartResult(result.value, result.exact, result.nodes, b"", result.top,
                          os.path.join(self.store.folder, name), digest)

    def _read(self, outcome: dict, history: list) -> PartResult | None:
        """The part an entry names, or None (said in one line) if its claims file is missing or damaged, or
        its class's own claim is not about ``history`` at the entry's value."""
        path = os.path.join(self.store.folder, outcome["file"])
        try:
            data = map_input(path, "certificate part")
            if hashlib.sha256(data).hexdigest() != outcome["sha256"]:
                raise ValueError("checksum mismatch: its content changed after it was written")
            result = PartResult(int(outcome["value"]), bool(outcome["exact"]), int(outcome["nodes"]), b"",
                                int(outcome["top"]), path, outcome["sha256"])  # its claims are not held
            own = _claim(claims_in(data, path), result.top)
            # the root takes the class's value from the entry and the checker from the claim: they must agree
            if own[0] != history or (INF if own[2] is None else own[2]) != result.value:
                raise ValueError(f"its own claim is about {own[0]} at {own[2]}, not {history} at {result.value}")
            return result
        except (InputError, ValueError, OSError, EOFError, KeyError, TypeError, IndexError) as exc:
            self.warn(f"certificate part {path}: {exc}; searching it again")
            return None


def _claim(claims, k: int) -> list:
    """Claim ``k`` of claims as they are read (ValueError if there are fewer), read no further than it."""
    for i, value in enumerate(claims):
        if i == k:
            return value
    raise ValueError(f"it has no claim {k}")


def _check_entry(outcome) -> str | None:
    """What is wrong with a part's checkpoint entry, or None (its claims file is read and checked later)."""
    if not isinstance(outcome, dict) or not {"value", "exact", "nodes", "top", "file", "sha256"} <= set(outcome):
        return "not a certificate part (it lacks value, exact, nodes, top, file or sha256)"
    name = outcome["file"]
    if not isinstance(name, str) or os.path.basename(name) != name or not name.endswith(CLAIMS_SUFFIX):
        return f"its claims file {name!r} is not a file name of this folder"
    return None


def certify_in_parts(game: Game, cap: int | None, cost: int, consistent_only: bool = False,
                     options: Options | None = None, submit=None, store: CheckpointStore | None = None,
                     warn: Callable[[str], None] = lambda message: None,
                     progress: Callable[[int, int], None] | None = None, tree: Wire | None = None,
                     split: int | None = None) -> tuple[Iterator[bytes], dict]:
    """The certificate that no strategy within ``cap`` guesses (None: any number) costs less in total than
    ``cost``, as its file's bytes in chunks to be written in order (``certificate.certificate_chunks``: the
    bytes ``certificate.certificate_to_bytes`` writes), and the run's figures (parts, searched, nodes, claims,
    sets split, seconds). The chunks are made as they are taken, from the parts one at a time and a claim at
    a time, so that neither the claims nor the certificate is ever held whole: with a parts folder, the parts
    must stay there until the chunks are written.

    ``options``: the search's levers (None: the defaults). ``submit(fn, *args)`` runs a part and returns
    its future (an executor's submit; None: in this process). ``store`` keeps the parts (None: nowhere);
    ``warn`` hears of parts it holds that are not taken. ``progress(done, started)`` hears of every part
    that ends. With ``tree`` (wire form: a proved tree of total ``cost``) and ``split``, each class of at
    least ``split`` secrets that the tree's guess leads to is a node (see the module). Raises
    :class:`NotLeast` if a guess at the root, or at a node, costs less than its figure."""
    clock = time.perf_counter()
    if submit is None:
        from .executors import InlineExecutor

        submit = InlineExecutor().submit
    cap = cap if cap is not None and cap < UNCAPPED else None
    prover = Prover(game, consistent_only, 0, Options() if options is None else options)
    solver = prover.solver = ProvingSolver(game, cap, prover.options, consistent_only=consistent_only)
    t = solver.tables
    parts = _Parts(game, cap, consistent_only, prover.options, submit, store, warn, t)
    pending: dict[Future, tuple[_Node, int, int]] = {}  # future -> (node, guess's index, class)
    ended: queue.SimpleQueue = queue.SimpleQueue()  # the pending futures, each as it ends (see the loop below)
    order: dict[int, int] = {}  # id of a node -> its rank, so that parts are collected in a fixed order
    done = started = nodes = 0

    def node(path: list, secrets: np.ndarray, depth: int, target: int, wire: Wire | None) -> _Node:
        """The node of ``secrets`` with its guesses below ``target``, and its child nodes made at once."""
        guesses = tuple(path[0::2])
        scan = solver.scan(secrets, target, guesses, depth)
        lb = t.bounds.lb[depth - 1]
        made = _Node(path, secrets, depth, target, [])
        order[id(made)] = len(order)
        follow = None if wire is None or not wire[1] else int(wire[0])
        for g, bound in zip(scan.guesses.tolist(), scan.bounds.tolist()):
            if bound >= target:
                continue
            members, starts, big = split_classes(t.table, g, secrets, t.nh, t.win)
            hints = big.tolist()
            sizes = [int(starts[h + 1] - starts[h]) for h in hints]
            # each class's bound as the scan took it: its counting bound, or its key bound 3|C| - the set's
            # most key (the checker derives both itself, its rules 1 and 2, and takes the larger)
            bases = [max(int(lb[n]), 3 * n - scan.most) for n in sizes]
            state = _Guess(g, bound, hints, bases, list(bases), [False] * len(hints), [None] * len(hints))
            if g == follow and split is not None:
                below = _children(t, wire)
                for k, (h, n) in enumerate(zip(hints, sizes)):
                    if n >= split and h in below:
                        cls = members[starts[h] : starts[h + 1]].copy()
                        figure = wire_cost(t, cls, below[h], depth - 1)
                        if figure is None:  # not a tree for the class: its parts go without the tree
                            continue
                        child = node(path + [g, h], cls, depth - 1, figure, below[h])
                        state.values[k], state.exact[k], state.parts[k] = child.target, True, child
            made.guesses.append(state)
        return made

    def advance(at: _Node, i: int) -> None:
        """Start guess i's next pass at node ``at``, or leave it settled once its bound reaches the target."""
        nonlocal started
        state, target = at.guesses[i], at.target
        while state.waiting == 0 and state.total() < target:
            left = target - state.total()
            open_ = [k for k in range(len(state.hints)) if not state.exact[k]]
            if state.stage == "shares":
                state.stage = "whole"
                shares = fixed_shares([state.values[k] for k in open_], state.total(), target)
                betas = {open_[m]: beta for m, beta in enumerate(shares)}
            elif open_:
                # Whole pass, one class at a time: a class that fails its beta (its value plus all the slack
                # left) raises the guess's bound by at least ``left`` and so to the target, and the classes
                # after it need no search; one that is exact takes its part of the slack, so the next class's
                # beta is lower. Smallest first: the small ones cost least, and on mm:5:7's whole passes a
                # small class failed about as soon as the cheapest failing class would have (see the module).
                k = open_[-1]  # the classes are largest first
                betas = {k: state.values[k] + left}
            else:  # every class is exact (a failed one would have raised the bound by left) and still below
                where = "at the root" if not at.path else f"after {_describe(game, t, at.path)}"
                raise NotLeast(f"{game.name}: the guess {format_code(game, state.guess)} {where} leads to a "
                               f"strategy costing {state.total()}, less than {target}: the figure to certify is "
                               "not the least")
            for k, beta in betas.items():
                fut = parts.start(at.path + [state.guess, state.hints[k]], beta)
                pending[fut] = (at, i, k)
                fut.add_done_callback(ended.put)
                state.waiting += 1
                started += 1

    everything = np.arange(game.secret_count, dtype=np.int32)
    root = node([], everything, solver.full_depth(), cost, tree)
    every = _nodes(root)
    for at in every:
        for i in range(len(at.guesses)):
            advance(at, i)
    while pending:
        # Parts come here as they end, through a queue their futures put themselves in, not through
        # concurrent.futures.wait over every pending future: that holds each future's lock while it sets up,
        # thousands of them on a big game (some O(pending) work per part), and a Ctrl-C or SIGTERM raised
        # there leaves the locks it took held, so that the executor's shutdown then waits for them for ever
        # (seen on mm:5:7 with some 20,000 parts).
        finished = [ended.get()]
        while True:
            try:
                finished.append(ended.get_nowait())
            except queue.Empty:
                break
        # in a fixed order, so that the parts folder is written alike in every run
        for fut in sorted(finished, key=lambda f: (order[id(pending[f][0])], *pending[f][1:])):
            at, i, k = pending.pop(fut)
            state, result = at.guesses[i], parts.taken(fut)
            state.waiting -= 1
            state.values[k], state.exact[k], state.parts[k] = result.value, result.exact, result
            done += 1
            nodes += result.nodes
            if progress is not None:
                progress(done, started)
            advance(at, i)
    items: list = []
    top, count = _lay_out(prover, cap, root, items)
    prover.claims = []
    head = prover.document({"least_cost": top})
    del head["claims"]  # the last key: written one claim at a time
    certificate = certificate_chunks(head, _claims(items))
    figures = {"parts": done, "searched": parts.searched, "nodes": nodes, "claims": count, "nodes_split": len(every) - 1,
               "seconds": round(time.perf_counter() - clock, 1)}
    return certificate, figures


def _nodes(at: _Node) -> list[_Node]:
    """``at`` and every node below it, parents first."""
    out = [at]
    for state in at.guesses:
        for part in state.parts:
            if isinstance(part, _Node):
                out.extend(_nodes(part))
    return out


def _children(tables, wire: Wire) -> dict[int, Wire]:
    """A wire node's children by dense hint."""
    dense = {int(h): d for d, h in enumerate(tables.hints.tolist())}
    return {dense[int(h)]: child for h, child in wire[1]}


def _describe(game: Game, tables, path: list) -> str:
    history = _history(tables, path)
    return ", ".join(f"{format_code(game, g)} {format_hint(game, h)}" for g, h in zip(history[0::2], history[1::2]))


def _lay_out(prover: Prover, cap: int | None, at: _Node, items: list, count: int = 0) -> tuple[int, int]:
    """Lay out node ``at``'s claims as the certificate lists them, after every claim its own refers to: each
    raised class's last part (as (part, its first claim's index, its witnesses' numbers in the certificate))
    or its child node's claims, in the order of the node's guesses and their classes, then the node's own
    claim, appended to ``items``. ``count`` claims come before. Every witness is numbered here, in the order
    the claims use them, so the certificate's witnesses are known before a claim is written
    (:func:`_claims` writes them). Returns the node's claim's index, and the claims laid out so far."""
    t = prover.solver.tables
    refs: list = []
    for state in at.guesses:
        for hint, part in zip(state.hints, state.parts):
            if part is None:
                continue
            if isinstance(part, _Node):
                index, count = _lay_out(prover, cap, part, items, count)
                refs.append([state.guess, int(t.hints[hint]), index, -1])
                continue
            claims, witnesses = part.outline()
            items.append((part, count, [prover._witness(perm, sigma) for perm, sigma in witnesses]))
            refs.append([state.guess, int(t.hints[hint]), count + part.top, -1])
            count += claims
    items.append([_history(t, at.path), None if cap is None else at.depth, None if at.target >= INF else at.target,
                  prover.generators(tuple(at.path[0::2]), at.secrets), refs])
    return count, count + 1


def _claims(items: list):
    """The certificate's claims, one at a time, from :func:`_lay_out`'s items: a part's claims with their
    references and witnesses renumbered (a reference to a claim of the part moves by the part's offset; one
    with no claim, -1, stays as it is), a node's claim as it is."""
    for item in items:
        if not isinstance(item, tuple):
            yield item
            continue
        part, offset, wmap = item
        for history, cdepth, value, gens, crefs in part.claims():
            yield [history, cdepth, value, [wmap[w] for w in gens],
                   [[g, h, j, w] if j < 0 else [g, h, j + offset, w if w < 0 else wmap[w]] for g, h, j, w in crefs]]
