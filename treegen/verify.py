"""Check a strategy tree against the rules, independently of whatever made it.

Every secret of the game is played through the tree, scoring with ``rules.score``: the tree walk
carries the secrets that reach each node and partitions them by the hint they give. Standard library
only (plus the tree module), so ``treegen verify`` starts instantly.
"""

from __future__ import annotations

from .rules import CodeError, Game, format_code, format_hint, parse_code, score
from .tree import InvalidTree, Node, Stats, Tree, TreeError, load_tree

_EXAMPLES = 3  # secrets named in a message
_DIGITS = "0123456789"


def _some(game: Game, secrets: list) -> str:
    shown = " ".join("".join(game.alphabet[s] for s in c) for c in secrets[:_EXAMPLES])
    return shown + (" ..." if len(secrets) > _EXAMPLES else "")


def _key_hint(key: str) -> tuple[int, int] | None:
    """(bulls, cows) of a key written as canonical ``xAyB``, else None."""
    if len(key) != 4 or key[1] != "A" or key[3] != "B" or key[0] not in _DIGITS or key[2] not in _DIGITS:
        return None
    return int(key[0]), int(key[2])


def check_root(game: Game, root: Node, max_guesses: int | None = None) -> Stats:
    """Play every secret of ``game`` through the tree at ``root``; return the stats it achieves.

    Raises :class:`InvalidTree` naming the path of guesses and hints to the first problem (in
    depth-first order, branches in hint order): a guess that is not a legal code in canonical form;
    ``next`` on a node whose guess is the only secret left; a hint key that is not canonical, is the
    all-bulls hint, cannot occur in the game, or that no secret reaches; a hint that some secret gives
    but has no branch; with ``max_guesses``, a secret that needs more guesses.
    """
    histogram = [0]
    win = game.win_hint
    codes = game.codes

    def walk(node: Node, secrets: list, depth: int, path: tuple[str, ...]) -> None:
        guess = node.guess
        try:
            code = parse_code(game, guess)
        except CodeError as exc:
            raise InvalidTree(path, f"guess {guess!r} is not a legal code: {exc}") from None
        if format_code(game, code) != guess:
            raise InvalidTree(path, f"guess {guess!r} is not written canonically: write {format_code(game, code)}")
        g = codes[code]
        groups: dict[int, list] = {}
        for s in secrets:
            h = score(game, g, s)
            if h in groups:
                groups[h].append(s)
            else:
                groups[h] = [s]
        solved = groups.pop(win, None)
        if solved:
            while len(histogram) <= depth:
                histogram.append(0)
            histogram[depth] += 1
        if not groups and node.next:
            raise InvalidTree(
                path, f"guess {guess} is the only secret left, so the node must have no 'next' (it has {len(node.next)})"
            )
        branches: list[tuple[int, str, Node]] = []
        for key, child in node.next:
            bc = _key_hint(key)
            if bc is None:
                raise InvalidTree(
                    path + (guess,), f"hint key {key!r} is not a canonical hint; write hints as xAyB, e.g. 1A2B"
                )
            if bc[0] + bc[1] > game.positions:
                raise InvalidTree(path + (guess,), f"branch {key} is a hint that cannot occur in {game.name}")
            h = game.hint(*bc)
            if h == win:
                raise InvalidTree(path + (guess,), f"branch {key} follows the all-bulls hint, which ends the game")
            if h not in groups:
                if h not in game.possible_hints:
                    raise InvalidTree(path + (guess,), f"branch {key} is a hint that cannot occur in {game.name}")
                raise InvalidTree(path + (guess,), f"dead branch {key}: no secret gives {key} here")
            branches.append((h, key, child))
        if len(branches) != len(groups):
            have = {h for h, _, _ in branches}
            h = min(x for x in groups if x not in have)
            n = len(groups[h])
            raise InvalidTree(
                path + (guess,),
                f"no branch for hint {format_hint(game, h)}, which {n} secret{'s' if n != 1 else ''} "
                f"give{'s' if n == 1 else ''} ({_some(game, groups[h])})",
            )
        if groups and max_guesses is not None and depth >= max_guesses:
            left = [s for grp in groups.values() for s in grp]
            left.sort()
            raise InvalidTree(
                path + (guess,),
                f"{len(left)} secret{'s' if len(left) != 1 else ''} ({_some(game, left)}) "
                f"{'are' if len(left) != 1 else 'is'} not solved within {max_guesses} guesses",
            )
        branches.sort()
        for h, key, child in branches:
            walk(child, groups[h], depth + 1, path + (guess, key))

    try:
        walk(root, list(codes), 1, ())
    except RecursionError:
        raise TreeError("the tree is too deep to check") from None
    return Stats.from_histogram(histogram)


def verify_tree(tree: Tree, max_guesses: int | None = None) -> Stats:
    """Check that ``tree`` solves every secret of its game and that its stored stats are right.

    Returns the recomputed stats; raises :class:`InvalidTree` at the first problem (see
    :func:`check_root`). Stats problems are reported after the whole tree has been walked.
    """
    stats = check_root(tree.game, tree.root, max_guesses)
    stored = tree.stats
    for name in ("secrets", "total", "max_guesses", "histogram"):
        want, have = getattr(stats, name), getattr(stored, name)
        if want != have:
            if name == "histogram":
                want, have = list(want), list(have)
            raise InvalidTree((), f"stats: {name} is {have} in the file but the tree gives {want}")
    from . import static  # a static set's file: its claims (standard library only)

    if static.claims_static(tree):
        static.check_static_tree(tree)
    return stats


# -- reporting -----------------------------------------------------------------------------------


def format_stats(stats: Stats) -> str:
    """The summary table: secrets, total, average, max and the histogram of guesses."""
    ks = range(1, len(stats.histogram))
    counts = [stats.histogram[k] for k in ks]
    w = max([len(str(k)) for k in ks] + [len(str(c)) for c in counts] + [1])
    lines = [
        f"secrets  {stats.secrets}",
        f"total    {stats.total}",
        f"average  {stats.average:.3f}",
        f"max      {stats.max_guesses}",
        "guesses: " + " ".join(f"{k:>{w}}" for k in ks),
        "secrets: " + " ".join(f"{c:>{w}}" for c in counts),
    ]
    return "\n".join(lines)


def describe_tree(tree: Tree) -> str:
    return f"game     {tree.game.describe()}\nstrategy {tree.strategy}"


def run(path: str, max_guesses: int | None = None, game: Game | None = None) -> int:
    """``treegen verify``: print the summary and return 0, or print the first problem and return 1."""
    import sys

    if max_guesses is not None and max_guesses < 1:
        raise TreeError(f"--max-guesses must be at least 1, not {max_guesses}")
    tree = load_tree(path, game)
    try:
        stats = verify_tree(tree, max_guesses)
    except InvalidTree as exc:
        print(f"treegen: {path} is not a valid tree: {exc}", file=sys.stderr)
        return 1
    within = f" within {max_guesses}" if max_guesses is not None else ""
    print(f"{path}: valid tree, every secret solved{within}")
    print(describe_tree(tree))
    print(format_stats(stats))
    return 0


def outline(tree: Tree, depth: int = 2) -> list[str]:
    """The top ``depth`` levels of guesses as indented lines: each hint with the size of its class.

    A line ``0A1B  1440  -> 1045`` says that 1440 secrets give 0A1B and the tree then guesses 1045.
    Works on invalid trees too (missing and dead branches are marked).
    """
    game = tree.game
    win = game.win_hint
    width = len(str(game.size))
    lines = [f"{tree.root.guess}  ({game.size} secrets)"]

    def walk(node: Node, secrets: list, level: int, indent: str) -> None:
        try:
            g = game.codes[parse_code(game, node.guess)]
        except CodeError:
            lines.append(f"{indent}(guess {node.guess!r} is not a legal code)")
            return
        groups: dict[int, list] = {}
        for s in secrets:
            groups.setdefault(score(game, g, s), []).append(s)
        kids = dict(node.next)
        for h in sorted(groups):
            key = format_hint(game, h)
            head = f"{indent}{key}  {len(groups[h]):>{width}}"
            if h == win:
                lines.append(f"{head}  solved")
                continue
            child = kids.pop(key, None)
            if child is None:
                lines.append(f"{head}  (no branch)")
                continue
            last = "" if child.next or len(groups[h]) != 1 else "  (last)"
            lines.append(f"{head}  -> {child.guess}{last}")
            if level < depth:
                walk(child, groups[h], level + 1, indent + "  ")
        for key, child in kids.items():
            lines.append(f"{indent}{key}  {0:>{width}}  -> {child.guess}  (dead branch: no secret gets here)")

    if depth >= 1:
        walk(tree.root, list(game.codes), 1, "  ")
    return lines


def show(path: str, depth: int = 2, game: Game | None = None) -> int:
    """``treegen show``: the stored stats and the outline of the top levels."""
    if depth < 0:
        raise TreeError(f"--depth must be 0 or more, not {depth}")
    tree = load_tree(path, game)
    print(describe_tree(tree))
    print(format_stats(tree.stats))
    print()
    try:
        print("\n".join(outline(tree, depth)))
    except RecursionError:
        raise TreeError("the tree is too deep to show") from None
    return 0
