"""Value files: the value of the game against a randomising setter, with both players' strategies.

A value file certifies v = max_p min_T E_p[guesses] = min_q max_s E_q[guesses] (``treegen.value`` computes
it). It holds:

- the game's **orbits** under its symmetry group (every permutation of the positions and of the symbols
  maps codes to codes and hints to the same hints in every game treegen knows, so a code's orbit is
  fixed by how many times each symbol occurs in it, e.g. AABC), each with its size and the **setter's
  probability** of drawing a secret from it (uniform inside the orbit);
- the **guesser's mixture**: trees with weights. The guesser draws a tree, then a uniformly random group
  element, and plays the tree with every code relabelled by it; so a secret of orbit o costs, in
  expectation, tree t's average over that orbit, ``orbit_totals[o] / size[o]``;
- the value as an exact fraction.

:func:`check_value` replays every tree (``verify.check_root``) and checks, in exact arithmetic, that the
mixture holds every orbit to at most v (v is an upper bound) and that the setter's distribution holds every
listed tree to at least v. That no other tree does better than v against the setter is the lower bound's
claim; it rests on the exact weighted search and is rechecked by ``treegen value --recheck FILE`` (numpy
needed), or proved by a certificate (:func:`certified_value`): against a setter who draws the codes of R
with probabilities in proportion to the integers w (:func:`setter_weights`), a tree averages its total over
R, each secret's guesses weighed by w, divided by W(R); so a certificate that no strategy's weighted total
over R is below v * W(R) (``certificate``'s root set and weights) proves v from below. Standard library
only, so ``treegen verify`` reads value files as fast as trees.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .rules import Code, Game, TreegenError, format_code, game_to_dict, parse_code
from .tree import InvalidTree, Node, TreeError, game_from_obj, node_from_obj, parse_strict_json, walk
from .verify import NotCertified, check_root

FORMAT = "treegen-value"
VERSION = 1


class ValueFileError(TreeError):
    """A value file that cannot be read (malformed), as opposed to one whose claims are false."""


class FalseValue(InvalidTree):
    """A value file whose figures are not what its strategies achieve."""

    def __init__(self, reason: str) -> None:
        TreeError.__init__(self, reason)
        self.path = ()
        self.reason = reason


def orbit_key(symbols: tuple[int, ...]) -> tuple[int, ...]:
    """How many times each symbol occurs, largest first: the same for exactly the codes of one orbit."""
    return tuple(sorted(Counter(symbols).values(), reverse=True))


def game_orbits(game: Game) -> list[tuple[Code, int]]:
    """(smallest code, size) of each orbit of the game's codes, in order of smallest code."""
    first: dict[tuple[int, ...], Code] = {}
    size: Counter = Counter()
    for code, symbols in enumerate(game.codes):
        key = orbit_key(symbols)
        first.setdefault(key, code)
        size[key] += 1
    return sorted((first[k], size[k]) for k in first)


def orbit_labels(game: Game) -> tuple[list[int], list[int]]:
    """The orbit of every code, as an index into :func:`game_orbits`, and each orbit's size."""
    orbits = game_orbits(game)
    index = {orbit_key(game.codes[rep]): i for i, (rep, _) in enumerate(orbits)}
    return [index[orbit_key(symbols)] for symbols in game.codes], [size for _, size in orbits]


def orbit_totals(game: Game, root: Node) -> list[int]:
    """Total guesses of the tree over each orbit's secrets (orbits as in :func:`game_orbits`). The tree
    must be valid (``verify.check_root``)."""
    labels, sizes = orbit_labels(game)
    totals = [0] * len(sizes)
    win = game.win_hint
    for visit in walk(game, root):
        if visit.code is not None and win in visit.partition:
            totals[labels[visit.code]] += visit.depth
    return totals


@dataclass(frozen=True)
class Mixed:
    """A tree of the guesser's mixture: its weight, its total per orbit, and the tree."""

    weight: Fraction
    totals: tuple[int, ...]
    root: Node


@dataclass(frozen=True)
class ValueFile:
    game: Game
    value: Fraction
    orbits: tuple[tuple[Code, int], ...]  # (representative, size)
    setter: tuple[Fraction, ...]  # probability of each orbit
    guesser: tuple[Mixed, ...]
    provenance: dict


def _fraction_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


def value_to_bytes(vf: ValueFile) -> bytes:
    """Compact JSON, keys in format order, trailing newline (the same value file gives the same bytes)."""
    g = vf.game
    obj: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game_to_dict(g),
        "value": _fraction_text(vf.value),
        "value_decimal": round(float(vf.value), 6),
        "orbits": [{"representative": format_code(g, rep), "size": size, "setter": _fraction_text(p)}
                   for (rep, size), p in zip(vf.orbits, vf.setter)],
        "guesser": [{"weight": _fraction_text(m.weight), "orbit_totals": list(m.totals), "root": m.root.to_obj()}
                    for m in vf.guesser],
        "provenance": vf.provenance,
    }
    return (json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def _fraction(text: Any, what: str, source: str) -> Fraction:
    if not isinstance(text, str):
        raise ValueFileError(f"{source}: {what} must be a fraction written as a string like \"3/7\", not {text!r}")
    try:
        x = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueFileError(f"{source}: {what} {text!r} is not a fraction like \"3/7\"") from None
    if "." in text or "e" in text.lower():
        raise ValueFileError(f"{source}: {what} {text!r} must be exact: write it as p/q")
    return x


def is_value_obj(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("format") == FORMAT


def value_from_obj(obj: Any, source: str = "<value file>") -> ValueFile:
    """Parse a value file's JSON object (structure only; :func:`check_value` checks its claims)."""
    if not is_value_obj(obj):
        raise ValueFileError(f"{source} is not a value file (format {FORMAT!r})")
    if type(obj.get("version")) is not int or obj["version"] != VERSION:
        raise ValueFileError(f"{source} has value format version {obj.get('version')!r}; this treegen reads {VERSION}")
    for key in ("game", "value", "orbits", "guesser"):
        if key not in obj:
            raise ValueFileError(f"{source} lacks {key!r}")
    game = game_from_obj(obj["game"], source)
    value = _fraction(obj["value"], "value", source)
    orbits, setter = [], []
    if not isinstance(obj["orbits"], list):
        raise ValueFileError(f"{source}: 'orbits' must be a list")
    for k, o in enumerate(obj["orbits"]):
        if not isinstance(o, dict) or set(o) != {"representative", "size", "setter"} or type(o["size"]) is not int:
            raise ValueFileError(f"{source}: orbit {k + 1} must be {{\"representative\", \"size\" (an int), \"setter\"}}")
        try:
            rep = parse_code(game, o["representative"])
        except (TreegenError, TypeError) as exc:
            raise ValueFileError(f"{source}: orbit {k + 1}: {exc}") from None
        orbits.append((rep, o["size"]))
        setter.append(_fraction(o["setter"], f"orbit {k + 1}'s setter probability", source))
    guesser = []
    if not isinstance(obj["guesser"], list) or not obj["guesser"]:
        raise ValueFileError(f"{source}: 'guesser' must be a non-empty list of trees")
    for k, m in enumerate(obj["guesser"]):
        if not isinstance(m, dict) or set(m) != {"weight", "orbit_totals", "root"}:
            raise ValueFileError(f"{source}: guesser tree {k + 1} must be {{\"weight\", \"orbit_totals\", \"root\"}}")
        totals = m["orbit_totals"]
        if not isinstance(totals, list) or any(type(t) is not int for t in totals):
            raise ValueFileError(f"{source}: guesser tree {k + 1}: 'orbit_totals' must be a list of ints")
        root = node_from_obj(m["root"], f"{source}: guesser tree {k + 1}")
        guesser.append(Mixed(_fraction(m["weight"], f"guesser tree {k + 1}'s weight", source), tuple(totals), root))
    provenance = obj.get("provenance") or {}
    if not isinstance(provenance, dict):
        raise ValueFileError(f"{source}: 'provenance' must be an object")
    return ValueFile(game, value, tuple(orbits), tuple(setter), tuple(guesser), provenance)


def value_from_bytes(data: bytes, source: str = "<value file>") -> ValueFile:
    try:
        obj = parse_strict_json(data)
    except ValueError as exc:
        raise ValueFileError(f"{source} is not a value file: {str(exc).splitlines()[0]}") from None
    return value_from_obj(obj, source)


def upper_bound(vf: ValueFile) -> Fraction:
    """The most any orbit's secret costs in expectation against the guesser's (symmetrised) mixture."""
    return max(sum((m.weight * Fraction(m.totals[o], size) for m in vf.guesser), Fraction(0))
               for o, (_, size) in enumerate(vf.orbits))


def check_value(vf: ValueFile, max_guesses: int | None = None) -> None:
    """Check every claim of a value file but the search's lower bound; raise :class:`FalseValue` (or
    ``InvalidTree`` for a guesser tree that does not solve the game, within ``max_guesses`` if given)."""
    game = vf.game
    expected = game_orbits(game)
    if list(vf.orbits) != expected:
        shown = ", ".join(f"{format_code(game, r)} ({s})" for r, s in expected)
        raise FalseValue(f"the orbits must be the game's, in order of smallest code: {shown}")
    if any(p < 0 for p in vf.setter) or sum(vf.setter) != 1:
        raise FalseValue(f"the setter's orbit probabilities must be at least 0 and sum to 1 (they sum to {sum(vf.setter)})")
    if any(m.weight <= 0 for m in vf.guesser) or sum(m.weight for m in vf.guesser) != 1:
        raise FalseValue("the guesser's tree weights must be positive and sum to 1")
    for k, m in enumerate(vf.guesser):
        try:
            check_root(game, m.root, max_guesses)
        except InvalidTree as exc:
            raise InvalidTree((f"guesser tree {k + 1}",) + tuple(exc.path), exc.reason) from None
        totals = orbit_totals(game, m.root)
        if list(m.totals) != totals:
            raise FalseValue(f"guesser tree {k + 1} claims orbit totals {list(m.totals)}, but it plays {totals}")
    upper = upper_bound(vf)
    if upper != vf.value:
        raise FalseValue(f"the guesser's mixture holds every secret to {upper} ({float(upper):.6f}) in expectation, "
                         f"not to the claimed value {vf.value}")
    for k, m in enumerate(vf.guesser):
        against = sum((p * Fraction(t, size) for p, t, (_, size) in zip(vf.setter, m.totals, vf.orbits)), Fraction(0))
        if against < vf.value:
            raise FalseValue(f"guesser tree {k + 1} averages {against} against the setter's distribution, below the "
                             f"claimed value {vf.value}: the setter's distribution does not hold the guesser to it")


def setter_weights(vf: ValueFile) -> tuple[list[Code], list[int]]:
    """The codes the setter draws from (sorted) and the least positive integers in proportion to their
    probabilities (all 1 when it draws them alike)."""
    import math

    per_code = [p / size for (_, size), p in zip(vf.orbits, vf.setter)]
    scale = math.lcm(*(x.denominator for x in per_code))
    ints = [int(x * scale) for x in per_code]
    common = math.gcd(*ints)
    labels, _ = orbit_labels(vf.game)
    codes = [code for code, o in enumerate(labels) if ints[o] > 0]
    return codes, [ints[labels[code]] // common for code in codes]


def certified_value(vf: ValueFile, proof) -> list[str]:
    """What a checked certificate (``certificate.Proof``) certifies about a checked value file, one line each;
    NotCertified when it does not prove the value from below: another game or mode, a cap, a root set other
    than the codes the setter draws from, weights out of proportion to its probabilities, or a least cost
    below v times the weights' sum."""
    game = vf.game
    if not proof.game.same_rules(game):
        raise NotCertified(f"the certificate is for {proof.game.describe()}, not for {game.describe()}")
    if proof.consistent_only or proof.cap is not None or proof.extra or proof.least_cost is None:
        raise NotCertified("a value file's certificate must bound every strategy's total (no cap, not hard mode)")
    codes, weights = setter_weights(vf)
    proved = list(range(game.secret_count)) if proof.secrets is None else list(proof.secrets)
    if proved != codes:
        raise NotCertified(f"the certificate is about {len(proved)} secrets, not the {len(codes)} codes the setter "
                           "draws from")
    given = [1] * len(proved) if proof.weights is None else list(proof.weights)
    total, drawn = sum(given), sum(weights)
    for code, w, own in zip(proved, given, weights):
        if Fraction(w, total) != Fraction(own, drawn):  # in proportion to the setter's probabilities
            raise NotCertified(f"the certificate weighs code {format_code(game, code)} {w} of {total}, but the setter "
                               f"draws it with probability {Fraction(own, drawn)}")
    least = Fraction(proof.least_cost, total)
    if least != vf.value:
        raise NotCertified(f"the certificate proves that no tree averages below {least} against the setter, not the "
                           f"claimed value {vf.value}")
    what = ("total" if proof.weights is None else
            f"total weighted by the setter's probabilities ({', '.join(str(w) for w in sorted(set(given)))} of {total})")
    return [f"no tree averages below {vf.value} against the setter: no strategy's {what} over its {len(proved)} "
            f"codes is below {proof.least_cost}"]
