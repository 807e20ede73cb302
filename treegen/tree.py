"""Strategy trees: the immutable node structure, the JSON file format, and walking a tree.

Standard library and orjson only (never numpy/numba), so that ``play``, ``verify`` and ``show`` start
instantly. The file format is documented in ``docs/tree-format.md``.

Building a tree (for strategy and search code)::

    from treegen.rules import resolve_game
    from treegen.tree import Node, make_tree, save_tree

    game = resolve_game("bc:2:3")                 # secrets 01 02 10 12 20 21
    root = Node.build("01", {                     # 01 itself gets 2A0B: no branch for it
        "0A1B": Node.build("12", {"0A1B": Node.build("20")}),   # 12 and 20 remain
        "0A2B": Node.build("10"),                 # a leaf: 10 is the only secret left
        "1A0B": Node.build("02", {"0A1B": Node.build("21")}),   # 02 and 21 remain
    })
    tree = make_tree(game, "heuristic:first-consistent", root, provenance={"seconds": 0.01})
    save_tree(tree, "bc23.json")                  # atomic, byte-deterministic
    tree.stats                                    # Stats(secrets=6, total=13, max_guesses=3, histogram=(0, 1, 3, 2))

Guesses are code strings as ``rules.format_code`` writes them; hint keys are canonical ``xAyB`` strings
(``rules.format_hint``). ``make_tree`` plays every secret through the tree, computes the stats and raises
``InvalidTree`` (a ``TreeError``) naming the path of the first problem.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from .rules import Game, GameError, TreegenError, game_from_dict, game_to_dict

FORMAT = "treegen-tree"
VERSION = 1
MAX_CODES = 200_000  # the largest game resolve_game supports

_HINT_KEY = re.compile(r"([0-9])A([0-9])B")


class TreeError(TreegenError):
    """A tree file that cannot be read or written, or a tree that cannot be used."""


class InvalidTree(TreeError):
    """A well-formed tree that does not solve its game correctly.

    ``path`` is the sequence of guesses and hints leading to the offending node (empty at the root),
    ``reason`` says what is wrong there.
    """

    def __init__(self, path: Iterable[str], reason: str) -> None:
        self.path = tuple(path)
        self.reason = reason
        where = f"at {' '.join(self.path)}" if self.path else "at the root"
        super().__init__(f"{where}: {reason}")


class NotInTree(TreeError):
    """A history of guesses and hints that the tree does not contain."""


def hint_key_order(key: str) -> tuple[int, int, str]:
    """Sort key that orders canonical ``xAyB`` keys by hint int (bulls, then cows); others go last."""
    m = _HINT_KEY.fullmatch(key)
    if m:
        return (int(m.group(1)), int(m.group(2)), "")
    return (99, 99, key)


@dataclass(frozen=True, slots=True)
class Node:
    """One guess of a strategy tree and, for each hint it can get, the node that follows.

    ``next`` is a tuple of ``(hint, node)`` pairs ordered by hint (bulls, then cows); it is empty when
    the guess is the last remaining secret. Create nodes with :meth:`build`.
    """

    guess: str
    next: tuple[tuple[str, Node], ...] = ()

    @classmethod
    def build(cls, guess: str, children: Mapping[str, Node] | None = None) -> Node:
        """The node that guesses ``guess`` and continues with ``children[hint]`` after each hint.

        ``guess`` is a code string (``rules.format_code``); the keys of ``children`` are canonical hint
        strings ``xAyB`` (``rules.format_hint``), in any order. Give one child for every hint that some
        secret still possible at this node gives, never the all-bulls hint, and no children (None or {})
        when ``guess`` is the only secret left.
        """
        if not isinstance(guess, str):
            raise TypeError(f"a guess is a code string such as '0123', not {guess!r}")
        if not children:
            return cls(guess)
        for key, child in children.items():
            if not isinstance(key, str) or not _HINT_KEY.fullmatch(key):
                raise TreeError(f"hint key {key!r} is not a canonical hint; write hints as xAyB, e.g. 1A2B")
            if not isinstance(child, Node):
                raise TypeError(f"the child for {key} must be a Node, not {type(child).__name__}")
        return cls(guess, tuple(sorted(children.items(), key=lambda kv: hint_key_order(kv[0]))))

    def child(self, hint: str) -> Node | None:
        """The node after ``hint`` (a canonical ``xAyB`` string), or None when there is no such branch."""
        for key, node in self.next:
            if key == hint:
                return node
        return None

    @property
    def children(self) -> dict[str, Node]:
        """``next`` as a dict from hint to node (a new dict each time)."""
        return dict(self.next)

    def nodes(self) -> int:
        """How many nodes this subtree has."""
        return 1 + sum(n.nodes() for _, n in self.next)

    def to_obj(self) -> dict:
        """The node as the nested dicts of the file format."""
        if not self.next:
            return {"guess": self.guess}
        return {"guess": self.guess, "next": {k: n.to_obj() for k, n in self.next}}


@dataclass(frozen=True, slots=True)
class Stats:
    """How well a tree plays: ``histogram[k]`` secrets are solved with exactly k guesses.

    The guess that gets the all-bulls hint counts. ``histogram[0]`` is 0 and the histogram has
    ``max_guesses + 1`` entries.
    """

    secrets: int
    total: int
    max_guesses: int
    histogram: tuple[int, ...]

    @classmethod
    def from_histogram(cls, histogram: Iterable[int]) -> Stats:
        hist = list(histogram)
        while hist and hist[-1] == 0:
            hist.pop()
        hist = hist or [0]
        return cls(sum(hist), sum(k * n for k, n in enumerate(hist)), len(hist) - 1, tuple(hist))

    @property
    def average(self) -> float:
        return self.total / self.secrets if self.secrets else 0.0

    def to_obj(self) -> dict:
        return {
            "secrets": self.secrets,
            "total": self.total,
            "max_guesses": self.max_guesses,
            "histogram": list(self.histogram),
        }


@dataclass(frozen=True, slots=True)
class Tree:
    """A strategy tree for ``game``: how it was made, how well it plays, and its root node.

    Make one with :func:`make_tree` (computes and checks the stats) or :func:`load_tree`. ``provenance``
    is an optional free-form JSON-able dict from the builder (parameters, timings, versions), or None.
    """

    game: Game
    strategy: str
    root: Node
    stats: Stats
    provenance: Mapping[str, Any] | None = field(default=None, hash=False)


# -- building ------------------------------------------------------------------------------------


def compute_stats(game: Game, root: Node) -> Stats:
    """Play every secret of ``game`` through the tree from ``root`` and return the stats.

    Scores with ``rules.score``. Raises :class:`InvalidTree` (naming the path) at the first problem:
    an illegal or non-canonical guess, a secret with no branch for its hint, a dead or impossible
    branch, a non-canonical hint key, or ``next`` on a node whose guess is the last secret.
    """
    from .verify import check_root

    return check_root(game, root)


def make_tree(game: Game, strategy: str, root: Node, provenance: Mapping[str, Any] | None = None) -> Tree:
    """A checked tree with computed stats; raises :class:`InvalidTree` if it does not solve ``game``.

    ``strategy`` says how the tree was made, e.g. ``"optimal-average"`` or ``"heuristic:entropy"``;
    ``provenance`` is written to the file as given (it must be JSON-serialisable by orjson).
    """
    if not isinstance(strategy, str):
        raise TypeError(f"strategy must be a string, not {strategy!r}")
    if provenance is not None and not isinstance(provenance, Mapping):
        raise TypeError(f"provenance must be a dict or None, not {type(provenance).__name__}")
    return Tree(game, strategy, root, compute_stats(game, root), provenance)


# -- writing -------------------------------------------------------------------------------------


def tree_to_obj(tree: Tree) -> dict:
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game_to_dict(tree.game),
        "strategy": tree.strategy,
        "stats": tree.stats.to_obj(),
    }
    if tree.provenance is not None:
        out["provenance"] = dict(tree.provenance)
    out["root"] = tree.root.to_obj()
    return out


def tree_to_bytes(tree: Tree) -> bytes:
    """The file contents: compact JSON with keys in format order and a trailing newline."""
    try:
        return orjson.dumps(tree_to_obj(tree)) + b"\n"
    except (orjson.JSONEncodeError, RecursionError) as exc:
        raise TreeError(f"cannot write the tree as JSON: {exc}") from None


def save_tree(tree: Tree, path: str | os.PathLike) -> None:
    """Write ``tree`` to ``path`` atomically: a temporary file in the same directory, then a rename.

    On any error no partial file is left behind and an existing file at ``path`` is untouched.
    """
    data = tree_to_bytes(tree)
    path = os.fspath(path)
    directory, name = os.path.split(path)
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise TreeError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise TreeError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


# -- reading -------------------------------------------------------------------------------------

_ACCEPTED = f'a JSON object with "format": "{FORMAT}", "version": {VERSION}, "game", "strategy", "stats" and "root"'


def load_tree(path: str | os.PathLike, game: Game | None = None) -> Tree:
    """Read a tree file. Raises :class:`TreeError` with a one-line message if it is not a valid file.

    Only the file's structure is checked (use ``verify.verify_tree`` to check that the tree solves its
    game). With ``game``, the file must be a tree for that game.
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise TreeError(f"cannot read {path}: {exc.strerror or exc}") from None
    return tree_from_bytes(data, path, game)


def tree_from_bytes(data: bytes, source: str = "<bytes>", game: Game | None = None) -> Tree:
    """Parse the contents of a tree file (see :func:`load_tree`); ``source`` names it in messages."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        why = "it is empty" if not data.strip() else f"invalid JSON ({str(exc).splitlines()[0]})"
        raise TreeError(f"{source} is not a tree file: {why}; a tree file is {_ACCEPTED}") from None
    if not isinstance(obj, dict) or "format" not in obj:
        raise TreeError(f"{source} is not a tree file: a tree file is {_ACCEPTED}")
    if obj["format"] != FORMAT:
        raise TreeError(f"{source} has format {obj['format']!r}, not {FORMAT!r}; a tree file is {_ACCEPTED}")
    if type(obj.get("version")) is not int or obj["version"] != VERSION:
        raise TreeError(
            f"{source} has tree format version {obj.get('version')!r}; this treegen reads version {VERSION}"
        )
    for key in ("game", "strategy", "stats", "root"):
        if key not in obj:
            raise TreeError(f"{source} lacks {key!r}; a tree file is {_ACCEPTED}")
    file_game = _read_game(obj["game"], source)
    if game is not None and (file_game.positions, file_game.alphabet, file_game.repeats) != (
        game.positions,
        game.alphabet,
        game.repeats,
    ):
        raise TreeError(f"{source} is a tree for {file_game.describe()}, not for {game.describe()}")
    strategy = obj["strategy"]
    if not isinstance(strategy, str):
        raise TreeError(f"{source}: 'strategy' must be a string, not {strategy!r}")
    provenance = obj.get("provenance")
    if provenance is not None and not isinstance(provenance, dict):
        raise TreeError(f"{source}: 'provenance' must be an object, not {type(provenance).__name__}")
    stats = _read_stats(obj["stats"], source)
    try:
        root = _read_node(obj["root"])
    except _BadNode as exc:
        raise TreeError(f"{source}: {exc}") from None
    except RecursionError:
        raise TreeError(f"{source}: the tree is too deep to read") from None
    return Tree(file_game, strategy, root, stats, provenance)


def _read_game(d: Any, source: str) -> Game:
    accepted = 'a "game" object with name, positions, alphabet and repeats (see `treegen games`)'
    if not isinstance(d, dict):
        raise TreeError(f"{source}: 'game' must be {accepted}, not {d!r}")
    try:
        game = game_from_dict(d)
    except GameError as exc:
        raise TreeError(f"{source}: unknown game: {exc}") from None
    except (TypeError, ValueError):
        raise TreeError(f"{source}: unknown game {d!r}; expected {accepted}") from None
    if game.size > MAX_CODES:
        raise TreeError(f"{source}: game {game.name!r} has {game.size} codes; at most {MAX_CODES} are supported")
    return game


def _read_stats(d: Any, source: str) -> Stats:
    accepted = "an object with integer secrets, total, max_guesses and a histogram list of integers"
    try:
        vals = [d["secrets"], d["total"], d["max_guesses"]]
        hist = d["histogram"]
        if not isinstance(hist, list):
            raise TypeError
        vals += hist
        if any(not isinstance(v, int) or isinstance(v, bool) for v in vals):
            raise TypeError
    except (KeyError, TypeError):
        raise TreeError(f"{source}: 'stats' must be {accepted}") from None
    return Stats(d["secrets"], d["total"], d["max_guesses"], tuple(hist))


class _BadNode(Exception):
    pass


def _read_node(obj: Any, path: tuple[str, ...] = ()) -> Node:
    where = f" at {' '.join(path)}" if path else " at the root"
    if not isinstance(obj, dict) or not isinstance(obj.get("guess"), str):
        raise _BadNode(f'the node{where} is not an object {{"guess": CODE, "next": {{HINT: node, ...}}}}')
    guess = obj["guess"]
    if "next" not in obj:
        return Node(guess)
    nxt = obj["next"]
    if not isinstance(nxt, dict) or not nxt:
        raise _BadNode(
            f"'next'{where} must be a non-empty object mapping hints to nodes (leave it out after the last guess)"
        )
    kids = [(key, _read_node(child, path + (guess, key))) for key, child in nxt.items()]
    kids.sort(key=lambda kv: hint_key_order(kv[0]))
    return Node(guess, tuple(kids))


# -- walking -------------------------------------------------------------------------------------


def _canonical_hint(game: Game, text: str) -> str:
    """``text`` as a canonical ``xAyB`` string; fast for canonical input, else via ``rules.parse_hint``."""
    raw = "".join(str(text).split()).upper()
    m = _HINT_KEY.fullmatch(raw)
    if m and int(m.group(1)) + int(m.group(2)) <= game.positions:
        return raw
    from .rules import format_hint, parse_hint

    return format_hint(game, parse_hint(game, text))


def _canonical_code(text: str) -> str:
    return "".join(str(text).split()).upper()


def next_guess(tree: Tree, history: Iterable[tuple[str, str]]) -> str:
    """The tree's next guess after ``history``, a sequence of (guess, hint) strings.

    Hints may be in any notation ``rules.parse_hint`` accepts. Raises :class:`NotInTree` when the
    history leaves the tree (a guess the tree would not make, or a hint it has no branch for),
    :class:`TreeError` when the history already ends with the all-bulls hint, and ``HintError`` for a
    hint that cannot be read.
    """
    node = tree.root
    win = f"{tree.game.positions}A0B"
    said: list[str] = []
    for guess, hint in history:
        g, h = _canonical_code(guess), _canonical_hint(tree.game, hint)
        if node is None:
            raise TreeError(f"the secret was already found after {' '.join(said)}")
        if g != node.guess:
            where = f"after {' '.join(said)}" if said else "first"
            raise NotInTree(f"the tree guesses {node.guess} {where}, not {g}")
        said += [g, h]
        if h == win:
            node = None
            continue
        child = node.child(h)
        if child is None:
            raise NotInTree(f"the tree has no branch for {' '.join(said)}")
        node = child
    if node is None:
        raise TreeError(f"the secret was already found after {' '.join(said)}")
    return node.guess
