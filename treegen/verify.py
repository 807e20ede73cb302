"""Check a strategy tree against the rules, independently of whatever made it.

Every secret of the game is played through the tree: ``tree.walk`` gives each node with the partition of
the secrets that reach it by their hint (``tree.partition``, scoring with ``rules.score_symbols``). Then
the stored stats and every figure the file's provenance claims are checked against what the tree
achieves. Standard library only (plus the tree module), so ``treegen verify`` starts instantly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rules import CodeError, Game, TreegenError, format_code, format_hint, hint_of_key, parse_code, shorten
from .exact.objectives import OBJECTIVES
from .tree import InvalidTree, Node, Stats, Tree, TreeError, walk

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


def check_root(game: Game, root: Node, max_guesses: int | None = None, consistent_only: bool = False) -> Stats:
    """Play every secret of ``game`` through the tree at ``root``; return the stats it achieves.

    Raises :class:`InvalidTree` naming the path of guesses and hints to the first problem (in
    depth-first order, branches in hint order): a guess that is not a legal code in canonical form;
    ``next`` on a node whose guess is the only secret left; a hint key that is not canonical, is the
    all-bulls hint, cannot occur in the game, or that no secret reaches; a hint that some secret gives
    but has no branch; with ``max_guesses``, a secret that needs more guesses; with ``consistent_only``
    (hard mode), a guess that is not a secret still possible where it is made.
    """
    histogram = [0]
    win = game.win_hint
    marks = game.rule == "per-position"  # hint keys are marks (G-Y--), not xAyB
    try:
        for visit in walk(game, root):
            node, path, depth, classes = visit.node, visit.path, visit.depth, dict(visit.partition)
            guess = node.guess
            if visit.code is None:
                try:
                    code = parse_code(game, guess)
                except CodeError as exc:
                    raise InvalidTree(path, f"guess {shorten(guess)!r} is not a legal code: {exc}") from None
                raise InvalidTree(path, f"guess {shorten(guess)!r} is not written canonically: write {format_code(game, code)}")
            if consistent_only and win not in classes:
                raise InvalidTree(path, f"guess {guess} is not a possible secret here, but the file claims hard mode "
                                        "(consistent_only: every guess a possible secret)")
            if classes.pop(win, None):
                while len(histogram) <= depth:
                    histogram.append(0)
                histogram[depth] += 1
            if not classes and node.next:
                raise InvalidTree(
                    path, f"guess {guess} is the only secret left, so the node must have no 'next' (it has {len(node.next)})"
                )
            have = set()
            for key, _child in node.next:
                if marks:
                    h = hint_of_key(game, key)
                    if h is None:
                        raise InvalidTree(path + (guess,), f"hint key {shorten(key)!r} is not a canonical hint; "
                                          f"write a mark per position (G right, Y elsewhere, - absent), e.g. "
                                          f"{format_hint(game, 1)}")
                else:
                    bc = _key_hint(key)
                    if bc is None:
                        raise InvalidTree(
                            path + (guess,), f"hint key {shorten(key)!r} is not a canonical hint; write hints as xAyB, e.g. 1A2B"
                        )
                    if bc[0] + bc[1] > game.positions:
                        raise InvalidTree(path + (guess,), f"branch {key} is a hint that cannot occur in {game.name}")
                    h = game.hint(*bc)
                if h == win:
                    raise InvalidTree(path + (guess,), f"branch {key} follows the all-bulls hint, which ends the game")
                if h not in classes:
                    if h not in game.possible_hints:
                        raise InvalidTree(path + (guess,), f"branch {key} is a hint that cannot occur in {game.name}")
                    raise InvalidTree(path + (guess,), f"dead branch {key}: no secret gives {key} here")
                have.add(h)
            if len(have) != len(classes):
                h = min(x for x in classes if x not in have)
                n = len(classes[h])
                raise InvalidTree(
                    path + (guess,),
                    f"no branch for hint {format_hint(game, h)}, which {n} secret{'s' if n != 1 else ''} "
                    f"give{'s' if n == 1 else ''} ({_some(game, classes[h])})",
                )
            if classes and max_guesses is not None and depth >= max_guesses:
                left = sorted(s for grp in classes.values() for s in grp)
                raise InvalidTree(
                    path + (guess,),
                    f"{len(left)} secret{'s' if len(left) != 1 else ''} ({_some(game, left)}) "
                    f"{'are' if len(left) != 1 else 'is'} not solved within {max_guesses} guesses",
                )
    except RecursionError:
        raise TreeError("the tree is too deep to check") from None
    return Stats.from_histogram(histogram)


def compute_stats(game: Game, root: Node) -> Stats:
    """Play every secret of ``game`` through the tree from ``root`` and return the stats (see
    :func:`check_root`, which raises :class:`InvalidTree` at the first problem)."""
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


# -- what a file claims ----------------------------------------------------------------------------



def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_claims(tree: Tree, stats: Stats) -> None:
    """Check every figure the provenance claims against ``stats``, what the tree really achieves.

    The claims ``treegen solve`` writes (docs/tree-format.md): ``objective``, ``max_guesses`` (the cap),
    ``optimal_total``, ``lower_bound``, ``worst_case``, ``impossible_within`` and, for ``crush``,
    ``at_worst`` (the secrets that need all worst_case guesses); ``consistent_only`` is checked by the
    walk itself (see :func:`verify_tree`). A claim of the wrong
    type, or one that the tree contradicts, raises :class:`InvalidTree` naming the claim. Claims that no
    tree can show (that a bound is optimal) are the search's proof; what can be checked here is that
    the file is consistent: the total it claims optimal is its own total, its lower bound does not
    exceed it, and the worst case it claims is its own.
    """
    prov = tree.provenance or {}

    def bad(claim: str, why: str) -> InvalidTree:
        return InvalidTree((), f"provenance claim {claim}: {why}")

    for key in ("optimal_total", "lower_bound", "worst_case", "impossible_within", "at_worst"):
        if key in prov and not _int(prov[key]):
            raise bad(key, f"{shorten(repr(prov[key]))} is not an integer")
    if "objective" in prov and prov["objective"] not in OBJECTIVES:
        raise bad("objective", f"{shorten(repr(prov['objective']))} is not one of {', '.join(OBJECTIVES)}")
    cap = prov.get("max_guesses")
    if cap is not None:
        if not _int(cap) or cap < 1:
            raise bad("max_guesses", f"{shorten(repr(cap))} is not a positive integer or null")
        if stats.max_guesses > cap:
            raise bad("max_guesses", f"the cap is {cap} but the tree needs {stats.max_guesses} guesses")
    if "optimal_total" in prov and prov["optimal_total"] != stats.total:
        raise bad("optimal_total", f"{prov['optimal_total']} is not the tree's total {stats.total}")
    if "lower_bound" in prov:
        lb = prov["lower_bound"]
        if lb > stats.total:
            raise bad("lower_bound", f"{lb} exceeds the tree's total {stats.total}, which no tree can do")
        if "optimal_total" in prov and lb != prov["optimal_total"]:
            raise bad("lower_bound", f"{lb} does not prove the optimal_total {prov['optimal_total']} it claims")
    if "worst_case" in prov:
        worst = prov["worst_case"]
        if worst != stats.max_guesses:
            raise bad("worst_case", f"{worst} is not the tree's own worst case {stats.max_guesses}")
        if "impossible_within" in prov and prov["impossible_within"] != worst - 1:
            raise bad("impossible_within", f"{prov['impossible_within']} is not worst_case - 1 = {worst - 1}")
        if cap is not None and cap != worst:
            raise bad("max_guesses", f"the cap {cap} is not the proved worst case {worst}")
    elif "impossible_within" in prov:
        raise bad("impossible_within", "is claimed without a worst_case")
    if prov.get("objective") in ("worst", "crush") and "worst_case" not in prov:
        raise bad("objective", f"'{prov['objective']}' needs the worst_case it proved")
    if "at_worst" in prov:
        if "worst_case" not in prov:
            raise bad("at_worst", "is claimed without a worst_case")
        have = stats.histogram[-1] if stats.max_guesses == prov["worst_case"] else 0
        if prov["at_worst"] != have:
            raise bad("at_worst", f"{prov['at_worst']} secrets at {prov['worst_case']} guesses, but the tree has {have}")
    elif prov.get("objective") == "crush":
        raise bad("objective", "'crush' needs the at_worst count it proved")


def verify_tree(tree: Tree, max_guesses: int | None = None) -> Stats:
    """Check that ``tree`` solves every secret of its game, that its stored stats are right, and that
    every figure its provenance claims is true of it.

    Returns the recomputed stats; raises :class:`InvalidTree` at the first problem (see
    :func:`check_root`). Stats and claims are checked after the whole tree has been walked.
    """
    prov = tree.provenance or {}
    hard = prov.get("consistent_only", False)
    if not isinstance(hard, bool):
        raise InvalidTree((), f"provenance claim consistent_only: {shorten(repr(hard))} is not true or false")
    stats = check_root(tree.game, tree.root, max_guesses, hard)
    stored = tree.stats
    for name in ("secrets", "total", "max_guesses", "histogram"):
        want, have = getattr(stats, name), getattr(stored, name)
        if want != have:
            if name == "histogram":
                want, have = list(want), list(have)
            raise InvalidTree((), f"stats: {name} is {shorten(str(have))} in the file but the tree gives {shorten(str(want))}")
    check_claims(tree, stats)
    if claims_static(tree):
        check_static_tree(tree)
    return stats


# -- static sets (treegen.static writes them; checked here without ortools) ----------------------------

STATIC_STRATEGY = "static-size"


def static_total(secrets: int, k: int) -> int:
    """Total guesses over all secrets of any static set of size k: the secret g_j is solved by guess j,
    every other one by guess k + 1 (every code is a possible secret, so the set never matters)."""
    return k * (k + 1) // 2 + (secrets - k) * (k + 1)


def static_worst(secrets: int, k: int) -> int:
    """Worst case of any static set of size k: k + 1, or k when every secret is in the set."""
    return k + 1 if secrets > k else k


def check_static_tree(tree: Tree) -> None:
    """Check a tree that claims to be static (``provenance["static"]``); standard library only.

    The tree must already have passed ``verify.check_root``. Raises InvalidTree unless: the recorded
    guesses are distinct legal codes, ``size`` is their number, every node at depth j <= k guesses g_j,
    every node at depth k + 1 is a leaf (one secret left), the recorded total and worst case are those
    of the tree, and the recorded bounds are consistent (lower_bound <= size, proved_minimum iff equal).
    The lower bound itself is a proof that only the solver can redo (``treegen static --size K-1``).
    """
    prov = tree.provenance if isinstance(tree.provenance, Mapping) else {}
    claims = prov.get("static")
    game = tree.game
    if not isinstance(claims, Mapping):
        raise InvalidTree((), "provenance 'static' must be an object with guesses, size and lower_bound")
    guesses = claims.get("guesses")
    if not isinstance(guesses, list) or not guesses or not all(isinstance(g, str) for g in guesses):
        raise InvalidTree((), "static: 'guesses' must be a non-empty list of codes")
    for g in guesses:
        try:
            if format_code(game, parse_code(game, g)) != g:
                raise InvalidTree((), f"static: guess {shorten(g)!r} is not written canonically")
        except TreegenError as exc:
            if isinstance(exc, InvalidTree):
                raise
            raise InvalidTree((), f"static: guess {shorten(g)!r} is not a legal code: {exc}") from None
    if len(set(guesses)) != len(guesses):
        raise InvalidTree((), "static: the guesses repeat a code")
    k = len(guesses)
    for key in ("size", "lower_bound", "total", "worst_case"):
        v = claims.get(key)
        if not isinstance(v, int) or isinstance(v, bool):
            raise InvalidTree((), f"static: {key!r} must be an integer, not {shorten(repr(v))}")
    if claims["size"] != k:
        raise InvalidTree((), f"static: size is {claims['size']} but {k} guesses are listed")
    lower, proved = claims["lower_bound"], claims.get("proved_minimum")
    if not isinstance(proved, bool):
        raise InvalidTree((), "static: 'proved_minimum' must be true or false")
    if not 1 <= lower <= k:
        raise InvalidTree((), f"static: lower_bound {lower} must be between 1 and the size {k}")
    if proved != (lower == k):
        raise InvalidTree((), f"static: proved_minimum is {str(proved).lower()} but lower_bound {lower} and size {k}")
    stats = tree.stats
    if claims["total"] != stats.total or claims["worst_case"] != stats.max_guesses:
        raise InvalidTree(
            (), f"static: total {claims['total']} and worst case {claims['worst_case']} are recorded but the tree "
            f"gives {stats.total} and {stats.max_guesses}"
        )
    if stats.total != static_total(game.size, k):
        raise InvalidTree((), f"static: a static set of {k} gives total {static_total(game.size, k)}, not {stats.total}")

    def follow(node: Node, depth: int, path: tuple[str, ...]) -> None:
        if depth <= k:
            if node.guess != guesses[depth - 1]:
                raise InvalidTree(path, f"not static: guess {depth} is {node.guess}, the set says {guesses[depth - 1]}")
        elif node.next:
            raise InvalidTree(path, f"not static: after the {k} guesses of the set one secret must be left")
        for key, child in node.next:
            follow(child, depth + 1, path + (node.guess, key))

    # Every node, hints not needed (the secrets were checked by check_root): not tree.walk.
    follow(tree.root, 1, ())


def claims_static(tree: Tree) -> bool:
    """Whether the tree claims to be a static set (and so :func:`check_static_tree` applies)."""
    return isinstance(tree.provenance, Mapping) and "static" in tree.provenance or tree.strategy == STATIC_STRATEGY


class NotCertified(TreegenError):
    """A valid certificate that does not certify a tree: another game or mode, or a bound below its figures."""


def certified(tree: Tree, stats: Stats, proof) -> list[str]:
    """What a checked certificate (``certificate.Proof``) certifies about a valid tree with ``stats``, one
    line each; NotCertified naming both figures when it proves less than the tree claims, or applies to
    other trees (another game, hard mode for an ordinary tree, a cap the tree exceeds, some of the secrets)."""
    game, prov = tree.game, tree.provenance or {}
    if not proof.game.same_rules(game):
        raise NotCertified(f"the certificate is for {proof.game.describe()}, not for {game.describe()}")
    if proof.secrets is not None:
        raise NotCertified(f"the certificate bounds strategies over {len(proof.secrets)} of the {game.secret_count} "
                           "secrets (a value file's setter), not over every secret this tree solves")
    hard = bool(prov.get("consistent_only"))
    if proof.consistent_only and not hard:
        raise NotCertified("the certificate bounds hard-mode strategies only (every guess a possible secret); "
                           "this tree is for the ordinary game, where other guesses may do better")
    mode = ", every guess a possible secret" if proof.consistent_only else ""
    lines = []
    if proof.least_cost is not None:
        cap = proof.cap
        if cap is not None and stats.max_guesses > cap:
            raise NotCertified(f"the certificate bounds strategies within {cap} guesses; this tree needs {stats.max_guesses}")
        at_cap = stats.histogram[cap] if cap is not None and len(stats.histogram) > cap else 0  # [d]: at d guesses
        cost = stats.total + proof.extra * at_cap
        within = f" within {cap} guesses" if cap is not None else ""
        if proof.extra:
            at_least = divmod(proof.least_cost, proof.extra)
            what = (f"no strategy{within}{mode} has fewer than {at_least[0]} secrets needing all {cap} guesses, "
                    f"or as few with a total below {at_least[1]}")
            mine = f"{at_cap} secrets at {cap} guesses, total {stats.total}"
        else:
            what = f"no strategy{within}{mode} has a total below {proof.least_cost}"
            mine = f"total {stats.total}"
        if cost != proof.least_cost:
            raise NotCertified(f"the certificate proves {what}, but this tree has {mine}: its optimality is not certified")
        lines.append(f"{what}: this tree ({mine}) is optimal")
    if "impossible_within" in prov and proof.impossible_within is None:
        raise NotCertified(f"the tree claims that {prov['impossible_within']} guesses are not enough; the certificate "
                           "does not prove it")
    if "lower_bound" in prov and proof.least_cost is None:
        only = ("" if proof.impossible_within is None else
                f" (it proves only that no strategy solves every secret within {proof.impossible_within} guesses{mode})")
        raise NotCertified(f"the tree claims the lower bound {prov['lower_bound']}; the certificate proves no total{only}")
    if proof.impossible_within is not None:
        if stats.max_guesses != proof.impossible_within + 1:
            raise NotCertified(f"the certificate proves that no strategy finishes within {proof.impossible_within} "
                               f"guesses, but this tree needs {stats.max_guesses}: its worst case is not certified least")
        lines.insert(0, f"no strategy solves every secret within {proof.impossible_within} guesses{mode}: "
                        f"this tree's worst case {stats.max_guesses} is the least")
    return lines
