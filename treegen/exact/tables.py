"""The search's tables of one game, shared by every solver of the process: the feedback table with dense
hint ids, the one-hot table, the counting bounds, and the trees read straight off them (one or two
secrets; a node's children; the cost of a tree in wire form). Their sizes are checked here too
(:func:`check_memory`), before a search builds them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ..feedback import TableTooLarge, by_secret, default_memory, feedback_table, format_bytes, table_bytes
from ..rules import Code, Game
from ..tree import Wire
from . import search_kernels
from .contracts import INF, UNCAPPED

DenseHint = int
"""A hint renumbered 0..nh-1 over the game's possible hints (``SearchTables.hints`` maps it back), so
that per-guess counters pack into bytes of 64-bit words."""


@dataclass(frozen=True)
class CountingTable:
    """Lower-bound tables for one game.

    ``b`` is the most non-winning classes a guess can make (possible hints minus the all-bulls hint).
    ``lb[d, k]`` is the counting bound on the total of k secrets within at most d guesses: a tree's
    node at level j solves at most one secret, and there are at most b**(j-1) nodes at level j, so
    the cheapest conceivable tree fills levels 1, 2, ... greedily; if k exceeds 1 + b + ... + b**(d-1),
    no tree exists and the bound is INF.

    ``extra`` is the crush objective's price of a secret solved with the last guess the cap allows: in
    row d (d guesses left, the last of them at the cap) a secret at level d costs d + extra. Filling the
    levels greedily still gives the least conceivable cost: it puts the fewest secrets at level d and
    the least total on the others at once, so the bound stays valid for either part of the price.
    """

    b: int
    lb: np.ndarray  # (UNCAPPED + 1, n + 1) int64

    @classmethod
    def for_game(cls, b: int, n: int, extra: int = 0) -> CountingTable:
        lb = np.full((UNCAPPED + 1, n + 1), INF, dtype=np.int64)
        for d in range(UNCAPPED + 1):
            total = 0
            level_cap = 1
            k = 0
            lb[d, 0] = 0
            for level in range(1, d + 1):
                for _ in range(level_cap):
                    k += 1
                    if k > n:
                        break
                    total += level + (extra if level == d else 0)
                    lb[d, k] = total
                if k > n:
                    break
                level_cap = min(level_cap * b, n + 1)
        lb.flags.writeable = False
        return cls(b, lb)


@dataclass(frozen=True)
class SearchTables:
    """One game's feedback table with dense hint ids, shared by every solver of the process."""

    table: np.ndarray  # (codes, codes) uint8 dense hint ids
    hints: np.ndarray  # dense id -> game hint int
    nh: int
    win: int  # dense id of the all-bulls hint
    bounds: CountingTable
    all_guesses: np.ndarray
    fast_limit: np.ndarray  # search_kernels.fast_bound_limit of each depth's bound table (int64)
    excess_limit: np.ndarray  # search_kernels.excess_bound_limit of each depth's bound table (int64)
    onehot: np.ndarray  # (codes, codes) uint16 or uint32: 1 << dense hint id, or (0, 0) (see onehot_table)


# The one-hot table costs two or four bytes per pair of codes; games whose table would pass this go without.
ONEHOT_MAX_BYTES = 256 << 20
# A node's view (solver.NodeView) holds a row of masks per secret, a slice of the one-hot table, filled as
# its classes need them. A game without the table takes a view only at nodes whose rows would fit in this
# (bc:5:10: 2219 secrets), so that the views along a path stay within about a table's worth; a game with
# one never meets the limit.
VIEW_MAX_BYTES = 256 << 20


def mask_dtype(nh: int):
    """The type of a mask of a game's ``nh`` hints, one bit a hint: uint16 up to 16 hints, uint32 up to 32,
    else None."""
    return np.uint16 if nh <= 16 else np.uint32 if nh <= 32 else None


def onehot_dtype(codes: int, nh: int):
    """The dtype of the one-hot table of a game of ``codes`` codes and ``nh`` hints (see onehot_table):
    its mask_dtype, or None (no table) past 32 hints or past ONEHOT_MAX_BYTES."""
    dtype = mask_dtype(nh)
    if dtype is None or np.dtype(dtype).itemsize * codes * codes > ONEHOT_MAX_BYTES:
        return None
    return dtype


def onehot_bytes(codes: int, nh: int) -> int:
    """The bytes of a game's one-hot table (see onehot_table): 0 when it has none."""
    dtype = onehot_dtype(codes, nh)
    return 0 if dtype is None else np.dtype(dtype).itemsize * codes * codes


def dense_hints(game: Game) -> list[int]:
    """The hint of each dense id, in hint order: the game's possible hints, and under the per-position rule
    ids that no pair gives up to 25 of them.

    Why: the per-position rule is the one whose hint changes when guess and secret swap (SPEED scores --Y-Y
    on ABIDE, ABIDE ---YY on SPEED), and the packed class counters (search_kernels._packed_counts and
    _least_bound_counted) read ``table[s]`` as the hints of the guesses on s, which holds for a symmetric
    table only. They serve games of at most 24 dense hints; 25 take such a game to the counters that read
    the table by guess. Five-letter lists give well over 24 hints anyway. The counting bound is taken from
    the possible hints alone (``_search_tables``)."""
    hints = sorted(game.possible_hints)
    if game.rule == "per-position":
        hints += [256 + k for k in range(25 - len(hints))]  # not a hint: no entry of the table maps to them
    return hints


def wide_onehot(game: Game) -> bool:
    """Whether ``game``'s one-hot table is uint32, or, in a game without one, its empty stand-in (the search's
    kernels then compile for that type; see warmup.search_signature)."""
    return mask_dtype(len(dense_hints(game))) is np.uint32


def onehot_table(dense: np.ndarray, nh: int) -> np.ndarray:
    """``1 << dense[s, g]``, the least lookahead bound's hint masks ready to OR together (see
    search_kernels.least_bound), as uint16 for games of at most 16 hints (about 2.5 times as fast as shifting
    each byte of ``dense`` into a 32-bit mask) or uint32 for up to 32 (about 1.4 times), while it fits in
    ONEHOT_MAX_BYTES; else an empty (0, 0) table of the type of the masks (uint16 past 32 hints):
    class_bound then counts class sizes in packed bytes (up to 24 hints and 255 secrets) or plainly per guess
    (more of either), but for the classes of a node's view (search_kernels.least_bound), whose masks are
    then shifted into place from ``dense``."""
    codes = dense.shape[0]
    dtype = onehot_dtype(codes, nh)
    if dtype is None:
        onehot = np.empty((0, 0), dtype=mask_dtype(nh) or np.uint16)
    else:
        onehot = np.empty((codes, codes), dtype=dtype)
        for i in range(0, codes, 1024):  # by blocks of rows: no temporary the size of the table
            np.left_shift(dtype(1), dense[i : i + 1024], out=onehot[i : i + 1024], dtype=dtype)
    onehot.flags.writeable = False
    return onehot


def search_tables(game: Game, extra: int = 0) -> SearchTables:
    """The tables of ``game``; ``extra``: the crush objective's price of the last guess (see CountingTable).
    Built once per process: ``search_tables(game)`` and ``search_tables(game, 0)`` share one copy."""
    return _search_tables(game, extra)


@cache
def _search_tables(game: Game, extra: int) -> SearchTables:
    # functools.cache keys on the arguments as passed, so the public function passes both, always.
    if extra:
        plain = search_tables(game)
        bounds = CountingTable.for_game(plain.bounds.b, game.size, extra)
        fast = np.array([search_kernels.fast_bound_limit(row) for row in bounds.lb], dtype=np.int64)
        excess = np.array([search_kernels.excess_bound_limit(row, t) for row, t in zip(bounds.lb, fast)],
                          dtype=np.int64)
        fast.flags.writeable = excess.flags.writeable = False
        return SearchTables(plain.table, plain.hints, plain.nh, plain.win, bounds, plain.all_guesses, fast, excess,
                            plain.onehot)
    table = feedback_table(game)
    hints = dense_hints(game)
    b = len(game.possible_hints) - 1  # the counting bound's branching: the possible hints but the all-bulls one
    remap = np.zeros(256, dtype=np.uint8)
    for i, h in enumerate(hints[: len(game.possible_hints)]):  # (not the padding of dense_hints)
        remap[h] = i
    # Dense hint ids (0..nh-1) keep per-guess counters small enough to pack into 64-bit words.
    dense = remap[table]
    dense.flags.writeable = False
    bounds = CountingTable.for_game(b, game.size)
    fast = np.array([search_kernels.fast_bound_limit(row) for row in bounds.lb], dtype=np.int64)
    excess = np.array([search_kernels.excess_bound_limit(row, t) for row, t in zip(bounds.lb, fast)], dtype=np.int64)
    fast.flags.writeable = excess.flags.writeable = False
    return SearchTables(
        dense,
        np.array(hints, dtype=np.int64),
        len(hints),
        hints.index(game.win_hint),
        bounds,
        np.arange(game.size, dtype=np.int32),
        fast,
        excess,
        onehot_table(by_secret(game, dense), len(hints)),  # read by secret: onehot[s, g] is the hint of g on s
    )


def small_tree(t: SearchTables, secrets: np.ndarray) -> Wire:
    """The optimal tree of one secret (guess it) or two (guess the lower, then the other: cost 3)."""
    a = int(secrets[0])
    if secrets.shape[0] == 1:
        return [a, []]
    b = int(secrets[1])
    return [a, [[int(t.hints[t.table[a, b]]), [b, []]]]]


def wire_node(t: SearchTables, guess: Code, secrets: np.ndarray, subtree) -> Wire:
    """``[guess, children]`` in wire form: a child per non-empty non-winning class of ``guess`` over
    ``secrets``, in hint order, its tree ``subtree(class)``."""
    members, starts, _ = search_kernels.split_classes(t.table, guess, secrets, t.nh, t.win)
    return [guess, [[int(t.hints[h]), subtree(members[starts[h] : starts[h + 1]])]
                    for h in range(t.nh) if h != t.win and starts[h + 1] > starts[h]]]



def is_int(x) -> bool:
    """Whether ``x`` is an int and not a bool (a JSON integer, as a tree or checkpoint entry holds it)."""
    return isinstance(x, int) and not isinstance(x, bool)


def wire_cost(t: SearchTables, secrets: np.ndarray, wire, depth: int, extra: int = 0) -> int | None:
    """The cost of ``wire`` over ``secrets`` within ``depth`` guesses (its total, plus ``extra`` for each
    secret solved with the last of them), or None when it is not a complete, well-formed tree for them
    (a check independent of how the tree was found)."""
    if not (isinstance(wire, list) and len(wire) == 2 and is_int(wire[0]) and isinstance(wire[1], list)):
        return None
    g, children = wire
    n = secrets.shape[0]
    if depth < 1 or not 0 <= g < t.table.shape[0] or n == 0:
        return None
    members, starts = search_kernels.split_by_hint(t.table, g, secrets, t.nh)
    classes = {int(t.hints[h]): members[starts[h] : starts[h + 1]]
               for h in range(t.nh) if h != t.win and starts[h + 1] > starts[h]}
    if len(children) != len(classes):
        return None
    total = n + (extra if depth == 1 and starts[t.win + 1] > starts[t.win] else 0)
    for child in children:
        if not (isinstance(child, list) and len(child) == 2 and is_int(child[0]) and child[0] in classes):
            return None
        cost = wire_cost(t, classes.pop(child[0]), child[1], depth - 1, extra)
        if cost is None:
            return None
        total += cost
    return total


def check_memory(game: Game) -> None:
    """Refuse up front a game whose hint tables would not fit (never an OOM kill or a MemoryError).

    The search holds two tables of a byte per pair of codes (the hints and their dense renumbering; while
    the one-hot table of a per-position game is built, the dense one's transpose too), so they must fit in twice ``feedback.default_memory`` (half the machine's memory): the same bound as
    one table within feedback's default budget, which the heuristics use; so must the one-hot table
    (:func:`onehot_table`: two or four bytes a pair, for games small enough to have one). Each worker
    process holds its own copy of all three.
    """
    tables = 3 if game.rule == "per-position" else 2  # and the dense table's transpose (see _search_tables)
    need = tables * table_bytes(game) + onehot_bytes(game.size, len(dense_hints(game)))
    budget = 2 * default_memory()
    if need > budget:
        raise TableTooLarge(
            f"{game.name} has {game.size} codes: the search's hint tables need {format_bytes(need)}, more "
            f"than half this machine's memory ({format_bytes(budget)}); exact search accepts games of up to "
            f"{int((budget / 2) ** 0.5)} codes here"
        )
