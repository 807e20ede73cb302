"""Irving notation: the strategy format that ``mmstrat`` of fancidev/mastermind prints and reads.

``1296 (1122: 1, 16 (1213: ...), 96A, ...)``: each class of secrets is its size and how it is played,
entries in a fixed hint order (Irving 1978/79, Knuth 1976), with big sub-trees named ``A = (...)`` after
the root. The reader checks every written class size against the true one; the writer lays the tree
out as mmstrat does, after the ``# treegen:`` header line (exact round trips).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..rules import MAX_CODES, SYMBOLS, Game, format_hint, score_symbols
from ..tree import InvalidTree, Node, Tree, partition
from .common import (
    DIGITS,
    FormatError,
    Parsed,
    choose_game,
    code_reader,
    code_text,
    error_at,
    fold,
    guess_game,
    header_alphabet,
    header_game,
    header_line,
    read_header,
    read_number,
    relabel,
    visits,
)


def _irving_order(game: Game) -> list[tuple[int, int]]:
    """The (bulls, cows) of each entry: bulls 0..P, cows high to low, never (P-1, 1) (impossible)."""
    p = game.positions
    return [(a, b) for a in range(p + 1) for b in range(p - a, -1, -1) if not (a == p - 1 and b == 1)]


_LABELS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # sub-tree names: not str.isupper, which takes 'Ä'


@dataclass
class _IState:
    count: int | None  # the class size written (None for a definition's body)
    line: int
    col: int
    label: str | None = None
    guess: str | None = None
    guess_at: tuple[int, int] = (0, 0)
    flag: str = ""  # '', '*' or 'x'
    entries: list | None = None  # elaborated: one _IState per entry of _irving_order


class _IrvingReader:
    def __init__(self, text: str, source: str, positions: int) -> None:
        self.text, self.source, self.pos = text, source, 0
        self.positions = positions
        self.order = _irving_order(Game("probe", positions, SYMBOLS[: max(positions, 2)], True))
        self.knuth = False
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, pos: int | None = None) -> tuple[int, int]:
        pos = self.pos if pos is None else pos
        k = bisect.bisect_right(self.line_starts, pos) - 1
        return k + 1, pos - self.line_starts[k] + 1

    def fail(self, msg: str, pos: int | None = None) -> FormatError:
        line, col = self.where(pos)
        return error_at(self.source, line, col, msg)

    def skip(self) -> None:
        t = self.text
        while self.pos < len(t):
            ch = t[self.pos]
            if ch in " \t\r\n":
                self.pos += 1
            elif ch == "#":
                while self.pos < len(t) and t[self.pos] != "\n":
                    self.pos += 1
            else:
                break

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch: str, what: str) -> None:
        if self.peek() != ch:
            got = repr(self.peek()) if self.peek() else "the end of the file"
            raise self.fail(f"expected {what}, found {got}")
        self.pos += 1

    def number(self) -> int:
        self.skip()
        m = DIGITS.match(self.text, self.pos)
        if not m:
            got = repr(self.peek()) if self.peek() else "the end of the file"
            raise self.fail(f"expected the number of secrets in a class, found {got}")
        line, col = self.where()
        self.pos = m.end()
        # No class has more secrets than a game has codes; parse_int also spares int() 5000 digits.
        return read_number(m.group(), "the number of secrets in a class", self.source, line, col, 0, MAX_CODES)

    def state(self, with_count: bool) -> _IState:
        self.skip()
        line, col = self.where()
        st = _IState(self.number() if with_count else None, line, col)
        ch = self.peek()
        if with_count and ch in _LABELS:
            st.label = ch
            self.pos += 1
            return st
        if ch != "(":
            if not with_count:
                raise self.fail("expected '(' to open a named sub-tree")
            return st
        self.pos += 1
        self.skip()
        st.guess_at = self.where()
        m = re.compile(r"[0-9A-Za-z]+").match(self.text, self.pos)
        if not m:
            raise self.fail("expected a guess after '('")
        word = m.group()
        self.pos = m.end()
        if word.endswith("x"):  # Knuth's mark: the guess leaves classes of at most two secrets
            st.flag, word = "x", word[:-1]
        elif self.peek() in ("*", "x"):
            st.flag = self.peek()
            self.pos += 1
        st.guess = word
        ch = self.peek()
        if ch == ")":
            self.pos += 1
            return st
        if ch != ":":
            raise self.fail(f"expected ')' or ':' after the guess {word}")
        self.pos += 1
        st.entries = self.entries()
        return st

    def entries(self) -> list:
        """The entries of an elaborated guess, in ``_irving_order``.

        Knuth (1976) also writes the impossible entry (P-1 bulls, 1 cow) as an explicit ``0`` before
        (P-1, 0); like mmstrat's reader, a bare 0 followed by ',' there is that entry and is dropped.
        """
        p = self.positions
        out = []
        for k, (a, b) in enumerate(self.order):
            st = self.state(True)
            if (a, b) == (p - 1, 0) and self.peek() == "," and st.count == 0 and st.guess is None and st.label is None:
                self.pos += 1
                self.knuth = True
                st = self.state(True)
            out.append(st)
            last = k == len(self.order) - 1
            sep = ")" if last else ("," if self.order[k + 1][0] == a else ";")
            if self.peek() != sep:
                got = repr(self.peek()) if self.peek() else "the end of the file"
                raise self.fail(
                    f"expected {sep!r} after the entry for {a} bulls and {b} cows, found {got} "
                    f"(entries go bulls 0..{p}, cows high to low, ',' within a bulls group, ';' between groups)"
                )
            self.pos += 1
        return out


def parse_irving(
    text: str, game: Game | None = None, alphabet: str | None = None, source: str = "<irving>"
) -> Parsed:
    """Read a strategy in Irving notation (see the module docstring and docs/tree-format.md).

    ``N`` alone is a class of N secrets left to the obvious play: 0 (no branch), 1 (guess it), 2 (guess
    the lower code, then the other); ``N (G)`` guesses G and every class it leaves has at most two
    secrets (played the same way); ``N (G: ...)`` lists the classes after G; ``N X`` is the class
    spelled out in ``X = (G: ...)``. Every written class size must be the true size.
    """
    lines = text.splitlines()
    meta = read_header(lines, source)
    # The positions come from the first guess: the order of the entries depends on them.
    m = re.search(r"\(\s*([0-9A-Za-z]+?)x?\s*[:)*x]", re.sub(r"#[^\n]*", "", text))
    if not m:
        raise FormatError(f"{source}: no guess found; a strategy in Irving notation starts like 1296 (1122: ...)")
    p = len(m.group(1))
    meta_game = header_game(meta, source)
    reader = _IrvingReader(text, source, p)
    root = reader.state(True)
    defs: dict[str, _IState] = {}
    while reader.peek():
        at = reader.pos
        ch = reader.peek()
        if ch not in _LABELS:
            raise reader.fail(f"expected a sub-tree definition such as 'A = (...)', found {ch!r}")
        reader.pos += 1
        reader.expect("=", "'=' after the sub-tree name")
        if ch in defs:
            raise reader.fail(f"sub-tree {ch} is defined twice", at)
        defs[ch] = reader.state(False)
    guessed = guess_game(p, root.count) if root.count else None
    g, notes = choose_game(game, meta_game, guessed, source, f"the root class of {root.count} {p}-symbol codes")
    if g.positions != p:
        raise FormatError(f"{source}: the guesses have {p} symbols but {g.name} codes have {g.positions}")
    if reader.knuth:
        notes.append("the impossible hint (P-1 bulls, 1 cow) is written as an explicit 0 (Knuth's layout)")

    used: set[str] = set()

    def collect(st: _IState) -> None:
        if st.guess:
            used.update(fold(st.guess))
        for e in st.entries or ():
            collect(e)

    collect(root)
    for d in defs.values():
        collect(d)
    occ: list[tuple[str, int, int]] = []

    def locate(st: _IState) -> None:
        if st.guess:
            occ.append((st.guess, *st.guess_at))
        for e in st.entries or ():
            locate(e)

    for st in [root, *defs.values()]:
        locate(st)
    alphabet = header_alphabet(meta, alphabet, source)
    codes = code_reader(g, used, alphabet, occ, source, notes)
    entries = _irving_order(g)
    win = g.win_hint
    used_labels: dict[str, tuple[int, int]] = {}

    def obvious(secrets: list, path: tuple[str, ...], st: _IState) -> Node:
        if len(secrets) == 1:
            return Node(code_text(g, secrets[0]))
        if len(secrets) == 2:
            low, high = sorted(secrets)
            h = format_hint(g, score_symbols(g, low, high))
            return Node.build(code_text(g, low), {h: Node(code_text(g, high))})
        raise InvalidTree(
            path, f"line {st.line}: a class of {len(secrets)} secrets has no guess (only classes of 1 or 2 may be left bare)"
        )

    def build(st: _IState, secrets: list, path: tuple[str, ...]) -> Node | None:
        if st.count is not None and st.count != len(secrets):
            raise InvalidTree(
                path, f"line {st.line} column {st.col}: the class is written as {st.count} secrets but has {len(secrets)}"
            )
        if st.label is not None:
            if st.label not in defs:
                raise error_at(source, st.line, st.col, f"sub-tree {st.label} is used but never defined")
            if st.label in used_labels:
                raise error_at(source, st.line, st.col, f"sub-tree {st.label} is used twice (first on line {used_labels[st.label][0]})")
            used_labels[st.label] = (st.line, st.col)
            return build(defs[st.label], secrets, path)
        if not secrets:
            if st.guess is not None:
                raise InvalidTree(path, f"line {st.line}: a guess for a class that no secret reaches")
            return None
        if st.guess is None:
            return obvious(secrets, path, st)
        guess = codes(st.guess, *st.guess_at)
        gtext = code_text(g, guess)
        classes = partition(g, guess, secrets)
        possible = classes.pop(win, None) is not None
        if st.entries is None:
            # The marks are indications only (mmstrat's reader ignores them); one that does not hold
            # is reported as a note, since the strategy itself is still complete.
            largest = max((len(s) for s in classes.values()), default=0)
            mark = {"": "')': the guess is possible and every class it leaves is one secret",
                    "*": "'*': the guess is not possible and every class it leaves is one secret",
                    "x": "'x': every class the guess leaves has at most two secrets"}[st.flag]
            holds = largest <= 2 if st.flag == "x" else (largest <= 1 and possible == (st.flag == ""))
            if not holds:
                mismarked.append(f"line {st.guess_at[0]} column {st.guess_at[1]} ({gtext})")
                mismarked_what.setdefault(mark, 0)
                mismarked_what[mark] += 1
            if not classes:
                return Node(gtext)
            return Node.build(
                gtext, {format_hint(g, h): obvious(s, path + (gtext, format_hint(g, h)), st) for h, s in classes.items()}
            )
        kids: dict[str, Node] = {}
        for (a, b), e in zip(entries, st.entries):
            h = g.hint(a, b)
            cls = [] if h not in g.possible_hints else classes.get(h, [])
            if h == win:
                n = len(secrets) - sum(len(s) for s in classes.values())
                if e.count != n or e.guess is not None or e.label is not None:
                    raise InvalidTree(
                        path + (gtext,),
                        f"line {e.line} column {e.col}: the all-bulls entry must be {n} "
                        f"({'the guess is' if n else 'the guess is not'} a possible secret)",
                    )
                continue
            key = format_hint(g, h)
            child = build(e, cls, path + (gtext, key))
            if child is not None:
                kids[key] = child
        if not kids:
            return Node(gtext)
        return Node.build(gtext, kids)

    mismarked: list[str] = []
    mismarked_what: dict[str, int] = {}
    node = build(root, list(g.codes[: g.secret_count]), ())
    if mismarked:
        kinds = "; ".join(f"{n} x {m}" for m, n in mismarked_what.items())
        notes.append(f"{len(mismarked)} guess mark{'s do' if len(mismarked) != 1 else ' does'} not hold "
                     f"(ignored, as mmstrat does): {kinds}; first at {mismarked[0]}")
    unused = sorted(set(defs) - set(used_labels))
    if unused:
        d = defs[unused[0]]
        raise error_at(source, d.line, d.col, f"sub-tree {unused[0]} is defined but never used")
    if node is None:
        raise FormatError(f"{source}: the strategy is empty")
    return Parsed(g, node, tuple(notes), meta, codes.map_text)


def format_irving(tree: Tree, header: bool = True, alphabet: str | None = None) -> str:
    """The tree in Irving notation, as ``mmstrat`` prints it, after the treegen header line.

    A class is ``0`` (none), ``1`` (its secret is guessed next), ``N (G)`` / ``N (G*)`` when every class
    G leaves is a single secret (``*``: G itself is not possible), or ``N (G: e, ...; ...)``. The root's
    children with at least P(P+3)/2 secrets that need more than two guesses are named ``A``, ``B``, ...
    and spelled out after the root, each as ``X = (G: ...)``, with a blank line after each.
    ``alphabet`` as for ``paths.format_paths``.
    """
    head = header_line(tree, alphabet) if header else ""
    if alphabet is not None:
        tree = relabel(tree, alphabet)
    game = tree.game
    p = game.positions
    order = _irving_order(game)
    win = game.win_hint
    named: list[tuple[str, str]] = []
    visited = visits(tree)  # the secrets at each node, by path: tree.walk's partition

    def depth(node: Node) -> int:
        return 1 + max((depth(c) for _, c in node.next), default=0)

    def state(path: tuple[str, ...], level: int) -> str:
        visit = visited[path]
        node, classes = visit.node, visit.partition
        n = sum(len(c) for c in classes.values())
        d = depth(node)
        if d <= 1:
            return str(n)
        star = "" if win in classes else "*"
        if d <= 2:
            return f"{n} ({node.guess}{star})"
        kids = dict(node.next)
        parts = []
        for k, (a, b) in enumerate(order):
            h = game.hint(a, b)
            if a == p:
                text = "1" if win in classes else "0"
            else:
                key = format_hint(game, h)
                text = state(path + (node.guess, key), level + 1) if key in kids else "0"
            sep = "," if b > 0 else (")" if a == p else ";")
            parts.append(f" {text}{sep}")
        body = f" ({node.guess}:" + "".join(parts)
        if level == 1 and n >= p * (p + 3) // 2 and len(named) < 26:
            label = chr(ord("A") + len(named))
            named.append((label, body))
            return f"{n}{label}"
        return f"{n}{body}"

    out = [head, state((), 0) + "\n\n"]
    for label, body in named:
        out.append(f"{label} ={body}\n\n")
    return "".join(out)


