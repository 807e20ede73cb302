"""Strategy trees: the immutable node structure, the JSON file format, and reading a tree's play:
:func:`partition` (secrets by the hint a guess gives them) and :func:`walk` (every node with its partition).

Standard library and orjson only (never numpy/numba), so that ``play``, ``verify`` and ``show`` start
instantly. The file format is documented in ``docs/tree-format.md``. Imports run one way:
``rules`` -> ``tree`` -> ``verify`` (the checks, ``make_tree``) -> builders and the command line.

Building a tree (for strategy and search code)::

    from treegen.rules import resolve_game
    from treegen.tree import Node, save_tree
    from treegen.verify import make_tree

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
(``rules.format_hint``). ``verify.make_tree`` plays every secret through the tree, computes the stats and
raises ``InvalidTree`` (a ``TreeError``) naming the path of the first problem.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from .files import InputError, read_input, write_atomic
from .rules import Code, CodeError, Game, GameError, Hint, TreegenError, format_code, format_hint, game_from_dict
from .rules import MARKS, game_to_dict, hint_of_key, parse_code, score_symbols, shorten

FORMAT = "treegen-tree"
VERSION = 1
MAX_CODES = 200_000  # the largest game resolve_game supports

_HINT_KEY = re.compile(r"([0-9])A([0-9])B")
_MARKS_KEY = re.compile(r"[-YG]{1,5}")  # a per-position hint (rules.MARKS), first position first


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
    """Sort key that orders canonical keys by hint int: ``xAyB`` by bulls, then cows; per-position marks by
    their base-3 value (the last position weighs most); others go last."""
    m = _HINT_KEY.fullmatch(key)
    if m:
        return (int(m.group(1)), int(m.group(2)), "")
    if _MARKS_KEY.fullmatch(key):
        return (sum(MARKS.index(ch) * 3**k for k, ch in enumerate(key)), 0, "")
    return (999, 999, key)


def _canonical_key(key) -> bool:
    return isinstance(key, str) and (_HINT_KEY.fullmatch(key) or _MARKS_KEY.fullmatch(key)) is not None


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
            if not _canonical_key(key):
                raise TreeError(f"hint key {key!r} is not a canonical hint; write hints as xAyB, e.g. 1A2B (or "
                                "per position, e.g. G-Y--)")
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

    def to_wire(self, game: Game) -> Wire:
        """The node in wire form (see :data:`Wire`): codes and hints as the game's ints. Raises TreeError for a
        guess or hint key that is not one of ``game``'s."""
        code = _legal_code(game, self.guess)
        if code is None:
            raise TreeError(f"{self.guess!r} is not a code of {game.name}")
        kids = []
        for key, child in self.next:
            h = hint_of_key(game, key)
            if h is None:
                raise TreeError(f"{key!r} is not a hint of {game.name}")
            kids.append([h, child.to_wire(game)])
        return [code, sorted(kids, key=lambda kid: kid[0])]

    @classmethod
    def from_wire(cls, game: Game, wire: Wire) -> Node:
        """The node of a tree in wire form (see :data:`Wire`), with codes and hints as strings."""
        guess, children = wire
        kids = {format_hint(game, h): cls.from_wire(game, c) for h, c in children}
        return cls.build(format_code(game, guess), kids or None)


Wire = list
"""A tree in the form search workers and checkpoints exchange: ``[guess, [[hint, child], ...]]`` with
code ints and game hint ints, children in rising hint order; ``[guess, []]`` when ``guess`` is the last
secret. Plain lists of ints, so that it pickles and serialises as JSON as it is."""


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

    Make one with :func:`verify.make_tree` (computes and checks the stats) or :func:`load_tree`. ``provenance``
    is an optional free-form JSON-able dict from the builder (parameters, timings, versions), or None.
    """

    game: Game
    strategy: str
    root: Node
    stats: Stats
    provenance: Mapping[str, Any] | None = field(default=None, hash=False)


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
    """Write ``tree`` to ``path`` atomically (``files.write_atomic``): a temporary file in the same
    folder, then a rename. On any error no partial file is left behind and an existing file at ``path``
    is untouched; the error is a ``files.OutputError`` (or a :class:`TreeError` if the tree cannot be
    written as JSON)."""
    write_atomic(os.fspath(path), tree_to_bytes(tree), "tree file")


# -- reading -------------------------------------------------------------------------------------

_ACCEPTED = f'a JSON object with "format": "{FORMAT}", "version": {VERSION}, "game", "strategy", "stats" and "root"'


def load_tree(path: str | os.PathLike, game: Game | None = None) -> Tree:
    """Read a tree file. Raises :class:`TreeError` with a one-line message if it is not a valid file.

    Only the file's structure is checked (use ``verify.verify_tree`` to check that the tree solves its
    game). With ``game``, the file must be a tree for that game.
    """
    path = os.fspath(path)
    try:
        data = read_input(path, "tree file")
    except InputError as exc:
        raise TreeError(str(exc)) from None
    return tree_from_bytes(data, path, game)


class _Strict(ValueError):
    """A JSON text that parses but breaks the format's rules (duplicate keys, NaN or Infinity)."""


def _no_duplicates(pairs: list) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Strict(f"duplicate key {dup!r} in one object")
    return obj


def _no_constant(text: str):
    raise _Strict(f"{text} is not JSON")


def parse_strict_json(data: bytes):
    """Parse a treegen file's JSON strictly (duplicate keys, NaN and Infinity refused): a ValueError
    with the reason otherwise. Shared by every file format treegen reads. The stdlib parser with hooks:
    orjson silently keeps the last of duplicate keys."""
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    # A byte-order mark (Notepad writes one) is not part of the JSON; RFC 8259 lets a parser ignore it,
    # and json.loads would otherwise refuse the whole file for it.
    text = text.removeprefix("\ufeff")
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def tree_from_bytes(data: bytes, source: str = "<bytes>", game: Game | None = None) -> Tree:
    """Parse the contents of a tree file (see :func:`load_tree`); ``source`` names it in messages.

    Strict about the documented format: duplicate keys, non-integer numbers (``2.0``) where integers
    belong, unknown node keys, ``next`` keys out of order and an empty game name are refused, each with a
    message that names it. Unknown top-level keys are ignored (later versions may add some); provenance
    is free-form (its figures are checked by ``verify``).
    """
    try:
        obj = parse_strict_json(data)
    except _Strict as exc:
        raise TreeError(f"{source} is not a valid tree file: {exc}") from None
    except RecursionError:
        raise TreeError(f"{source}: the tree is too deep to read") from None
    except ValueError as exc:
        why = "it is empty" if not data.strip() else f"invalid JSON ({str(exc).splitlines()[0]})"
        raise TreeError(f"{source} is not a tree file: {why}; a tree file is {_ACCEPTED}") from None
    if not isinstance(obj, dict) or "format" not in obj:
        raise TreeError(f"{source} is not a tree file: a tree file is {_ACCEPTED}")
    if obj["format"] != FORMAT:
        raise TreeError(f"{source} has format {shorten(repr(obj['format']))}, not {FORMAT!r}; a tree file is {_ACCEPTED}")
    if type(obj.get("version")) is not int or obj["version"] != VERSION:
        raise TreeError(
            f"{source} has tree format version {obj.get('version')!r}; this treegen reads version {VERSION}"
        )
    for key in ("game", "strategy", "stats", "root"):
        if key not in obj:
            raise TreeError(f"{source} lacks {key!r}; a tree file is {_ACCEPTED}")
    file_game = game_from_obj(obj["game"], source)
    if game is not None and not file_game.same_rules(game):
        if file_game.listed and game.listed and file_game.size == game.size and file_game.digest != game.digest:
            raise TreeError(f"{source} is a tree for another list of {game.size} words (list {file_game.digest[:12]}, "
                            f"not {game.digest[:12]})")
        raise TreeError(f"{source} is a tree for {file_game.describe()}, not for {game.describe()}")
    strategy = obj["strategy"]
    if not isinstance(strategy, str):
        raise TreeError(f"{source}: 'strategy' must be a string, not {strategy!r}")
    provenance = obj.get("provenance")
    if provenance is not None and not isinstance(provenance, dict):
        raise TreeError(f"{source}: 'provenance' must be an object, not {type(provenance).__name__}")
    stats = _read_stats(obj["stats"], source)
    root = node_from_obj(obj["root"], source)
    return Tree(file_game, strategy, root, stats, provenance)


def game_from_obj(d: Any, source: str) -> Game:
    """The game of a file's "game" object; :class:`TreeError` naming ``source`` if it is not one."""
    accepted = 'a "game" object with name, positions, alphabet and repeats (see `treegen games`)'
    if not isinstance(d, dict):
        raise TreeError(f"{source}: 'game' must be {accepted}, not {shorten(repr(d))}")
    if not isinstance(d.get("name"), str) or not d["name"].strip():
        raise TreeError(f"{source}: the game's name must be a non-empty string, not {shorten(repr(d.get('name')))}")
    for key, kind, what in (("positions", int, "an integer"), ("alphabet", str, "a string"), ("repeats", bool, "a boolean")):
        value = d.get(key)
        if key in d and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise TreeError(f"{source}: unknown game: its {key} is {shorten(repr(value))}, not {what}")
    try:
        game = game_from_dict(d)  # also refuses symbols with spaces, line breaks or a letter in both cases
    except GameError as exc:
        raise TreeError(f"{source}: unknown game: {exc}") from None
    except (TypeError, ValueError):
        raise TreeError(f"{source}: unknown game {shorten(repr(d), 80)}; expected {accepted}") from None
    if game.size > MAX_CODES:
        raise TreeError(f"{source}: game {game.name!r} has {game.size} codes; at most {MAX_CODES} are supported")
    return game


def _read_stats(d: Any, source: str) -> Stats:
    accepted = "an object with integer secrets, total, max_guesses and a histogram list of integers"
    if not isinstance(d, dict):
        raise TreeError(f"{source}: 'stats' must be {accepted}")
    for key in ("secrets", "total", "max_guesses", "histogram"):
        if key not in d:
            raise TreeError(f"{source}: 'stats' lacks {key!r}; 'stats' must be {accepted}")
    hist = d["histogram"]
    if not isinstance(hist, list):
        raise TreeError(f"{source}: 'stats' histogram is {shorten(repr(hist))}, not a list; 'stats' must be {accepted}")
    for name, value in [("secrets", d["secrets"]), ("total", d["total"]), ("max_guesses", d["max_guesses"])] + [
        (f"histogram[{k}]", v) for k, v in enumerate(hist)
    ]:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TreeError(f"{source}: 'stats' {name} is {shorten(repr(value))}, not an integer; 'stats' must be {accepted}")
    return Stats(d["secrets"], d["total"], d["max_guesses"], tuple(hist))


class _BadNode(Exception):
    pass


_NODE_KEYS = frozenset(("guess", "next"))


def _read_node(obj: Any, path: tuple[str, ...] = ()) -> Node:
    where = f" at {' '.join(path)}" if path else " at the root"
    if not isinstance(obj, dict) or not isinstance(obj.get("guess"), str):
        raise _BadNode(f'the node{where} is not an object {{"guess": CODE, "next": {{HINT: node, ...}}}}')
    guess = obj["guess"]
    unknown = sorted(set(obj) - _NODE_KEYS)
    if unknown:
        raise _BadNode(f"the node{where} has unknown key {shorten(repr(unknown[0]))}; a node has only 'guess' and 'next'")
    if "next" not in obj:
        return Node(guess)
    nxt = obj["next"]
    if not isinstance(nxt, dict) or not nxt:
        raise _BadNode(
            f"'next'{where} must be a non-empty object mapping hints to nodes (leave it out after the last guess)"
        )
    # Canonical keys must come in hint order; other keys are the checker's to name (not canonical).
    keys = [k for k in nxt if _canonical_key(k)]
    order = sorted(keys, key=hint_key_order)
    if keys != order:
        k = next(i for i, (a, b) in enumerate(zip(keys, order)) if a != b)
        raise _BadNode(
            f"'next' keys{where} are out of order: {keys[k]} comes before {order[k]}; "
            "write them by hint, bulls then cows (0A0B, 0A1B, ..., 1A0B, ...)"
        )
    kids = [(key, _read_node(child, path + (guess, key))) for key, child in nxt.items()]
    kids.sort(key=lambda kv: hint_key_order(kv[0]))  # moves only non-canonical keys (to the end)
    return Node(guess, tuple(kids))


def node_from_obj(obj: Any, source: str) -> Node:
    """A tree node (and everything below it) from its JSON object; :class:`TreeError` naming ``source``
    and the node's path if it is malformed."""
    try:
        return _read_node(obj)
    except _BadNode as exc:
        raise TreeError(f"{source}: {exc}") from None
    except RecursionError:
        raise TreeError(f"{source}: the tree is too deep to read") from None


# -- partitioning and walking ---------------------------------------------------------------------


def partition(game: Game, guess: tuple[int, ...], secrets: Iterable[tuple[int, ...]]) -> dict[Hint, list]:
    """``secrets`` partitioned by the hint ``guess`` gives each: hint -> the secrets that give it.

    Guess and secrets are symbol tuples (``game.codes[code]``); each class keeps the secrets in the order
    given, and the all-bulls hint is a class when the guess is one of the secrets. The one partition of
    the pure-Python code: :func:`walk` reads a finished tree with it, and the importers of
    ``treegen.formats`` build trees with it. (The search has its own, vectorised over code ints:
    ``kernels.split_by_hint``.)
    """
    classes: dict[Hint, list] = {}
    for s in secrets:
        h = score_symbols(game, guess, s)
        if h in classes:
            classes[h].append(s)
        else:
            classes[h] = [s]
    return classes


@dataclass(frozen=True, slots=True)
class Visit:
    """A node reached by :func:`walk`, with the partition of the secrets that reach it.

    ``path`` is the guesses and hints from the root to the node, ``depth`` the number of the node's guess
    (1 at the root). ``code`` is the guess as a code int, or None when the guess is not a legal code
    written canonically (then ``partition`` is empty). ``partition`` is :func:`partition` of the secrets
    reaching the node by its guess: each hint some of them give -> those secrets (symbol tuples, in code
    order), the all-bulls hint included.
    """

    node: Node
    path: tuple[str, ...]
    depth: int
    code: Code | None
    partition: dict[Hint, list]


def _legal_code(game: Game, text: str) -> Code | None:
    try:
        code = parse_code(game, text)
    except CodeError:
        return None
    return code if format_code(game, code) == text else None


def walk(game: Game, root: Node, max_depth: int | None = None) -> Iterator[Visit]:
    """Every node of the tree, depth first with branches in hint order, as :class:`Visit` records.

    The one walk that partitions secrets (with :func:`partition`): the checker (``verify``), the outline
    (``report``) and every export (``treegen.formats``) read a finished tree through it. A branch is
    followed when its key is a canonical hint that some secret reaching the node gives; other branches
    (malformed, dead) are for the reader to judge. ``max_depth`` stops below that depth. The consumer
    may stop at any time (a generator).
    """
    # A tree repeats a few guesses and hint keys many times: each text is read once per walk.
    codes: dict[str, Code | None] = {}
    hints: dict[str, Hint | None] = {}
    win = game.win_hint
    stack = [(root, list(game.codes[: game.secret_count]), 1, ())]
    while stack:
        node, secrets, depth, path = stack.pop()
        guess = node.guess
        if guess in codes:
            code = codes[guess]
        else:
            code = codes[guess] = _legal_code(game, guess)
        classes = partition(game, game.codes[code], secrets) if code is not None else {}
        yield Visit(node, path, depth, code, classes)
        if max_depth is not None and depth >= max_depth:
            continue
        below = []
        for key, child in node.next:
            if key in hints:
                h = hints[key]
            else:
                # not a hint of this game (and game.hint would alias it to another): None
                h = hints[key] = hint_of_key(game, key)
            if h is not None and h in classes and h != win:
                below.append((child, classes[h], depth + 1, path + (guess, key)))
        stack.extend(reversed(below))


def _canonical_hint(game: Game, text: str) -> str:
    """``text`` as a canonical ``xAyB`` string; fast for canonical input, else via ``rules.parse_hint``."""
    raw = "".join(str(text).split()).upper()
    if hint_of_key(game, raw) is not None:
        return raw
    from .rules import format_hint, parse_hint

    return format_hint(game, parse_hint(game, text))


def _canonical_code(game: Game, text: str) -> str:
    """``text`` without spaces, each symbol as the game writes it (letters in either case).

    Character by character, never ``str.upper`` of the whole: ``'ß'.upper()`` is ``'SS'`` and
    ``'ı'.upper()`` is ``'I'``, which would turn a code the game cannot have into one it has.
    """
    lookup, alphabet = game.symbol_lookup, game.alphabet
    return "".join(alphabet[lookup[ch]] if ch in lookup else ch for ch in "".join(str(text).split()))


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
        g, h = _canonical_code(tree.game, guess), _canonical_hint(tree.game, hint)
        if node is None:
            raise TreeError(f"the secret was already found after {' '.join(said)}")
        if g != node.guess:
            where = f"after {' '.join(said)}" if said else "first"
            raise NotInTree(f"the tree guesses {node.guess} {where}, not {shorten(g)}")
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
