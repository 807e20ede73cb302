"""Check a certificate: a proof that no strategy does better than a figure, whoever wrote it.

A tree shows that a total can be reached (``treegen.verify`` replays it). A certificate shows the other
half of "optimal": that nothing is cheaper. It is a list of **claims**, each about one set of secrets:

    claim i = (history, depth, value, generators, references)

- ``history`` (g1, h1, g2, h2, ...) defines the set S: the secrets (every code but a list game's other guesses) that give hint h_k to guess g_k for
  every k. The checker rebuilds S from its own hint table; nothing else about S is taken on trust. A
  certificate may name its root set, ``secrets`` (sorted codes, some of the game's secrets): then S is
  the root set's codes that give those hints, and every claim, roots included, is about them (see
  below).
- The claim says: **every strategy that finishes S within ``depth`` guesses (None: any number) costs at
  least ``value``** (None: no strategy finishes S within ``depth``). A strategy's cost is the total over
  S of the guesses each secret needs, plus the certificate's ``extra`` for every secret solved with the
  ``depth``-th guess (the crush objective; 0 otherwise).
- ``generators`` name witnesses, each a position permutation ``perm`` with a symbol permutation
  ``sigma`` acting on a code c as ``y[perm[p]] = sigma[c[p]]``. The checker checks that each maps S onto
  itself. Such a map keeps every hint (bulls count the positions where two codes agree and cows the
  symbols they share; renaming symbols and moving positions in both codes alike changes neither), so a
  guess g and its image split S into classes that the map carries onto each other, with the same costs:
  equivalent guesses cost the same. The checker derives the orbits of the codes under the generators
  itself and asks for one refuted guess per orbit.
- ``references`` (guess, hint, claim j, witness) bound one class of one guess by an **earlier** claim
  j < i (so the proof is by induction over the list, never circular): claim j's set, mapped by the
  witness (or as it is, with -1), must be that class exactly, and claim j's depth one less than this one's.
  A reference (guess, hint, -1, v) bounds the class by v, which the checker confirms itself (rule 4).

**The rule checked for claim i.** Every guess g (every code; in hard mode only the codes of S, which the
checker enforces) must cost at least ``value``: g costs each secret of S one guess, and then each class C
of S under g other than g itself must still be finished within depth - 1 guesses, so

    cost(S after g) >= |S| + sum over the classes C of bound(C)

where bound(C) is the largest of:

1. **the counting bound** ``count(depth - 1, |C|)``. A node of a strategy tree finds at most one secret,
   and a node has at most b children, b being the number of hints the game can give other than the
   all-bulls hint; so level j holds at most b**(j-1) nodes. The cheapest conceivable strategy for k
   secrets fills levels 1, 2, ... greedily (a secret at level j costs j, plus ``extra`` at the last
   level allowed); if k exceeds 1 + b + ... + b**(d-1) no strategy exists (None, infinite cost).
2. **the key bound** ``3|C| - most``, where a code's *key* over S is its number of non-empty classes
   other than the all-bulls one plus 2 if it is in S, and ``most`` is the largest key over every code
   (in hard mode over the codes of S, since every later guess is one of them).
   A set of m secrets costs at least 2m - 1 (one secret at best is found with the first guess), so any
   guess x on C costs |C| + sum over its classes D (other than x) of 2|D| - 1 = 3|C| - key_C(x); and
   key_C(x) <= key_S(x) <= most, since C is a subset of S (fewer secrets, no more classes) and, in hard
   mode, x is in C and so in S.
3. the value of a referenced claim for that class;
4. for a reference ``[guess, hint, -1, v]``, v itself, once the checker has found that no code has a key
   over C above 3|C| - v: then every guess on C costs at least v, by rule 2's derivation with C in place
   of S. Only the codes whose key over S is above 3|C| - v need trying (a key over a subset is no larger).

Rules 1 and 2 make a class's bound a convex function of its size, so a guess with k classes costs at least
what k classes as equal as can be cost; the checker counts class sizes only for the guesses that this
bound, from the keys alone, does not already refute.

The claim holds if for every orbit some guess's bound reaches ``value``.

The certificate's ``roots`` name what it proves about the whole game: ``least_cost`` (a claim with the
empty history: no strategy within its depth costs less) and ``impossible`` (a claim with the empty
history and value None: no strategy finishes every secret within its depth).

**A root set.** With ``secrets`` the whole game is the root set R: the secrets are R's codes, every code
may still be guessed, and a strategy's cost is counted over R alone. Nothing in the rules above asks
more of S than that it be a set of secrets (the witnesses are checked to map each claim's S onto itself,
the keys are counted over S, the counting bound needs only |S|), so they hold as written. A strategy for
the whole game, followed on R's secrets only, is a strategy for R: so the root's least cost bounds from
below every strategy's total over R, which is what a value file's setter needs when it draws uniformly
from R (``valuefile.certified_value``).

**Weights.** With ``weights`` (a positive integer w_s per secret of R) a strategy's cost is the sum over
the secrets of w_s times the guesses s needs: the guesser's expected count against a setter who draws s
with probability w_s / W(R). Every claim is then of any length (no depth, no price on the last guess) and
its value a weighted cost; the rule reads cost(S after g) >= W(S) + sum over the classes C of bound(C),
since each secret of S pays w_s for g, where bound(C) is the largest of rules 1 to 4 with weights. Let
t_1 < ... < t_k be the distinct weights (t_0 = 0), d_j = t_j - t_(j-1) and L_j the codes of weight t_j or
more; then w_s is the sum of d_j over the j with s in L_j.

1. **The weighted counting bound** sum_j d_j * count(|C and L_j|): a strategy's weighted cost over C is the
   sum over j of d_j times its plain cost over the secrets of C in L_j, each at least the counting bound (a
   strategy for C, followed on some of its secrets, finds them at distinct nodes). Summed this way it
   equals the heaviest secrets put on the shallowest levels.
2. **The weighted key bound** 3 W(C) - most. A guess x on C costs W(C); then each class D of x other than
   {x} costs at least 2 W(D) - (its heaviest weight), since at most one of its secrets is found with the
   next guess; so x costs at least 3 W(C) - key_C(x), where the **weighted key** key_C(x) is the sum over
   those classes D of their heaviest weight, plus 2 w_x if x is in C. Since D meets L_j exactly when its
   heaviest weight is t_j or more, key_C(x) = sum_j d_j * (x's key over the secrets of C in L_j), the plain
   key of rule 2 layer by layer: no larger over a subset, so no larger than over S, and ``most`` is the
   largest over every code (in hard mode, over the codes of S).
3. a referenced claim's value;
4. for ``[guess, hint, -1, v]``, v once no code has a weighted key over C above 3 W(C) - v (rule 2 with C
   in place of S; only the codes whose weighted key over S is above it need trying).

A witness must keep the weights as well as the set (w of its image is w), both for the orbits of guesses
and for a reference through it, so that equivalent guesses and equivalent sets still cost the same.

This module imports only the standard library, numpy and the game's rules: it shares no code with the
search that wrote the certificate (its hint table, counting bound, orbits and partitions are its own).
"""

from __future__ import annotations

import codecs
import gzip
import itertools
import json
import re
import struct
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from .rules import Game, TreegenError, format_code, format_hint, game_from_dict

FORMAT = "treegen certificate"
VERSION = 1
# "No strategy": more than any cost (200 000 secrets at 64 guesses each, plus the crush price of 64 * 200 000
# + 1 apiece, is below 2**42), and a sum of 45 of them (the most hints a game here has) still fits an int64.
INF = 1 << 50
_BLOCK = 1 << 22  # guess-secret pairs held at once when bounding a set's guesses
_POPCOUNT = getattr(np, "bitwise_count", None)  # numpy 2.0 and later
HINTS_MAX = 64  # a set's hints are ORed as one bit each into a 64-bit mask (see Checker.keys)
HELD = 2048  # witnesses' maps, and orbits of generator lists, kept for reuse (see _hold)
# The most the weights of a root set may sum to: a weighted counting bound is then at most that times its
# deepest level (under 64), far below INF (2**50), and so is any sum of them.
WEIGHT_MAX = 1 << 32
SHARE_BLOCK = 64  # claims in a row that one process checks when several share a certificate (small, for balance)
UNPACKED_LIMIT = 1 << 30  # the most bytes certificate_from_bytes, which holds the whole text, unpacks (no zip bomb)


class CertificateError(TreegenError):
    """A certificate that does not prove what it says: malformed, or a claim that does not hold (``claim``:
    its index, None if the failure is not one claim's)."""

    claim: int | None = None


@dataclass(frozen=True)
class Proof:
    """What a checked certificate proves about ``game`` (hard mode if ``consistent_only``): no strategy
    within ``cap`` guesses costs less than ``least_cost`` (total + ``extra`` per secret at the cap; None:
    not claimed), and no strategy finishes every secret within ``impossible_within`` guesses (None: not
    claimed), the secrets being ``secrets`` (None: all of them). ``claims`` were checked in ``seconds``."""

    game: Game
    consistent_only: bool
    cap: int | None
    extra: int
    least_cost: int | None
    impossible_within: int | None
    claims: int
    seconds: float
    secrets: tuple[int, ...] | None = None  # the root set's codes (None: every secret of the game)
    weights: tuple[int, ...] | None = None  # their weights, in that order (None: one each)


def score_table(game: Game) -> np.ndarray:
    """Every hint, ``table[guess, secret]`` (uint8, the game's hint ints): bulls are the positions where
    the two codes agree, cows the symbols they share (counted with multiplicity) minus the bulls; a game
    of black pegs has the bulls alone (``xA0B``), a game of Jotto the symbols shared (``0AcB``) or, for the
    secret itself, all bulls. Under the per-position rule, the sum over positions k of mark_k * 3**k (see
    _per_position)."""
    digits = np.array(game.codes, dtype=np.int8).reshape(game.size, game.positions)
    if game.rule == "per-position":
        return _per_position(digits, game.symbols)
    counts = np.zeros((game.size, game.symbols), dtype=np.int8)
    for p in range(game.positions):
        counts[np.arange(game.size), digits[:, p]] += 1
    table = np.empty((game.size, game.size), dtype=np.uint8)
    rows = max(1, (1 << 22) // game.size)
    for lo in range(0, game.size, rows):
        hi = min(lo + rows, game.size)
        bulls = np.zeros((hi - lo, game.size), dtype=np.uint8)
        for p in range(game.positions):
            bulls += digits[lo:hi, p, None] == digits[None, :, p]
        common = np.zeros((hi - lo, game.size), dtype=np.uint8)
        for x in range(game.symbols):
            common += np.minimum(counts[lo:hi, x, None], counts[None, :, x]).astype(np.uint8)
        if game.rule == "black-pegs":  # the bulls alone, as xA0B
            table[lo:hi] = bulls * np.uint8(game.positions + 1)
        elif game.rule == "jotto":  # the common symbols as 0AcB, or all-bulls for the secret itself
            table[lo:hi] = np.where(bulls == game.positions, np.uint8(game.positions * (game.positions + 1)), common)
        else:
            table[lo:hi] = bulls * np.uint8(game.positions + 1) + common - bulls
    return table


def _per_position(digits: np.ndarray, symbols: int) -> np.ndarray:
    """Per-position hints, ``table[guess, secret]``: mark 2 where the two codes agree; then position by position
    from the left, mark 1 where the guess's symbol still has an unused copy in the secret (the copies in the
    secret's positions that are not 2, each used up by one mark 1), else 0. One guess row at a time."""
    n, p = digits.shape
    table = np.empty((n, n), dtype=np.uint8)
    cols = np.arange(n)
    for g in range(n):
        same = digits == digits[g]  # (secrets, positions): the marks 2
        unused = np.zeros((n, symbols), dtype=np.int16)
        for k in range(p):
            np.add.at(unused, (cols[~same[:, k]], digits[~same[:, k], k]), 1)
        hint = np.zeros(n, dtype=np.int64)
        for k in range(p):
            x = digits[g, k]
            hint += np.where(same[:, k], 2, 0) * 3**k
            elsewhere = ~same[:, k] & (unused[:, x] > 0)
            unused[elsewhere, x] -= 1
            hint += elsewhere * 3**k
        table[g] = hint
    return table


def counting_row(b: int, size: int, depth: int | None, extra: int) -> np.ndarray:
    """``count(depth, k)`` for k = 0..size (int64; INF where no strategy fits): see the module's rule 1."""
    row = np.full(size + 1, INF, dtype=np.int64)
    row[0] = 0
    k, total, level, nodes = 0, 0, 1, 1
    while k < size and (depth is None or level <= depth):
        price = level + (extra if level == depth else 0)
        for _ in range(min(nodes, size - k)):
            k += 1
            total += price
            row[k] = total
        level, nodes = level + 1, min(nodes * b, size + 1)
    return row


def _hold(cache: dict, key, value) -> None:
    """Keep ``value`` in ``cache``, dropping the oldest entry beyond HELD: a witness's map or a generator list's
    orbits takes 8 bytes per code (134 KB on mm:5:7), and a big certificate names thousands of each (bulls-cows'
    crush 9,856 witnesses, some 400 MB of maps held), so that memory would grow with the certificate."""
    cache[key] = value
    if len(cache) > HELD:
        del cache[next(iter(cache))]


def _or_by_class(member: np.ndarray, rows_at: Callable) -> np.ndarray:
    """The masks ORed over each class (classes x codes): ``member`` holds the classes as boolean rows over a
    set, none empty, largest first; ``rows_at(pos)`` gives the masks of the set's secrets at positions ``pos``,
    a row each. The rows are laid out by rank within their class, then by class: the k-th rows of all the
    classes that have k + 1 or more are one slice, ORed at once (reduceat would walk the columns)."""
    size = member.sum(axis=1)
    which, pos = np.nonzero(member)
    rank = np.arange(pos.size) - np.searchsorted(which, which)
    rows = rows_at(pos[np.argsort(rank * member.shape[0] + which, kind="stable")])
    seen = rows[: member.shape[0]].copy()
    at = member.shape[0]
    for k in range(1, int(size[0])):
        c = int(np.searchsorted(-size, -k, side="left"))  # the classes of more than k secrets
        seen[:c] |= rows[at : at + c]
        at += c
    return seen


def _fail(i: int, what: str) -> CertificateError:
    exc = CertificateError(f"certificate claim {i}: {what}")
    exc.claim = i
    return exc


def _int(value, what: str, lo: int = 0, hi: int = INF, none: bool = False):
    if value is None and none:
        return None
    if type(value) is not int or not lo <= value <= hi:
        raise CertificateError(f"certificate: {what} must be an integer from {lo} to {hi}, not {str(value)[:40]}")
    return value


class Checker:
    """Checks one certificate (the parsed JSON object) claim by claim; :meth:`run` returns the Proof."""

    def __init__(self, doc, claims: Callable[[], Iterator] | None = None) -> None:
        """``doc``: a parsed certificate; or, with ``claims``, its members but the claims, and a function
        that gives the claims in order afresh each time it is called (read from the file as they are
        checked, see :func:`check_certificate_bytes`)."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CertificateError(f"not a certificate: a JSON object with \"format\": \"{FORMAT}\" is expected")
        if doc.get("version") != VERSION:
            raise CertificateError(f"certificate version {str(doc.get('version'))[:20]} is not supported (only {VERSION})")
        try:
            self.game = game_from_dict(doc.get("game"))
        except (TreegenError, TypeError, AttributeError) as exc:
            raise CertificateError(f"certificate: its game is not valid: {exc}") from None
        hard = doc.get("consistent_only")
        if type(hard) is not bool:
            raise CertificateError("certificate: consistent_only must be true or false")
        self.hard = hard
        self.extra = _int(doc.get("extra"), "extra")
        listed = doc.get("claims")
        if claims is None:
            claims = (lambda: iter(listed)) if isinstance(listed, list) else None
        elif "claims" in doc:
            claims = None  # the claims given twice
        self.claims = claims
        witnesses, roots = doc.get("witnesses"), doc.get("roots")
        if claims is None or not isinstance(witnesses, list) or not isinstance(roots, dict):
            raise CertificateError("certificate: claims and witnesses must be lists, roots an object")
        self.roots = roots
        g = self.game
        self.table = score_table(g)
        self.win = g.win_hint
        hints = np.unique(self.table)
        if hints.size > HINTS_MAX:
            raise CertificateError(f"certificate: {g.name} gives {hints.size} different hints; the checker takes "
                                   f"games of at most {HINTS_MAX}")
        self.b = int(hints.size) - 1  # the hints a guess can give, but the all-bulls one
        # The same hints renumbered 0..b by rank, the all-bulls one last, secret by secret (a set's rows
        # are then contiguous), for counting classes; ``self.hints`` maps them back.
        rank = np.zeros(256, dtype=np.uint8)
        rank[hints] = np.arange(hints.size)
        self.by_secret = np.ascontiguousarray(rank[self.table].T)
        self.hints = hints.astype(np.int64)
        self.dense_win = int(rank[self.win])  # the largest hint, so the last rank: bit b of a mask
        # 1 << rank, to OR over a set's secrets: a code's key is then a popcount (see keys)
        kind = np.uint16 if hints.size <= 16 else np.uint32 if hints.size <= 32 else np.uint64
        self.masks = np.left_shift(kind(1), self.by_secret.astype(kind))
        # numpy before 2.0 has no popcount: 16 bits at a time from a table (65,536 counts, built only then)
        self._bits = None if _POPCOUNT else np.array([bin(x).count("1") for x in range(1 << 16)], dtype=np.int64)
        self.digits = np.array(g.codes, dtype=np.int64).reshape(g.size, g.positions)
        place = g.symbols ** np.arange(g.positions - 1, -1, -1, dtype=np.int64)
        self.lookup = np.full(g.symbols**g.positions, -1, dtype=np.int64)
        self.lookup[self.digits @ place] = np.arange(g.size)
        self.place = place
        self.witnesses = witnesses
        self.size = g.size
        self._maps: dict[int, np.ndarray] = {}
        self._rows: dict[tuple, np.ndarray] = {}
        self.root = self._root_set(doc.get("secrets", None), "secrets" in doc)
        self.weights, self.layers = self._weighted(doc.get("weights", None), "weights" in doc)
        self._prefix: dict[tuple, np.ndarray] = {(): self.root}  # sets by history (see rebuild)
        self._orbits: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.sets: list[np.ndarray] = []  # each checked claim's set
        self.depths: list[int | None] = []
        self.values: list[int] = []

    def _root_set(self, listed, named: bool) -> np.ndarray:
        """The root set: every secret, or the certificate's ``secrets`` (checked to be secrets of the game,
        in increasing order, at least one)."""
        count = self.game.secret_count
        if not named:
            return np.arange(count)
        if not (isinstance(listed, list) and listed and all(type(c) is int for c in listed)):
            raise CertificateError("certificate: secrets must be a non-empty list of codes (integers)")
        root = np.array(listed, dtype=np.int64)
        if root[0] < 0 or root[-1] >= count or (np.diff(root) <= 0).any():
            raise CertificateError(f"certificate: secrets must be codes from 0 to {count - 1} in increasing order")
        return root

    def _weighted(self, listed, named: bool) -> tuple[np.ndarray | None, list]:
        """The root set's weights, one positive integer per secret in the order of ``secrets`` (None without
        them), as a weight per code (0 outside the root set), and the layers: for the distinct weights
        t_1 < ... < t_k (t_0 = 0), the pairs (t_j - t_(j-1), which codes weigh t_j or more)."""
        if not named:
            return None, []
        if not (isinstance(listed, list) and len(listed) == self.root.size
                and all(type(x) is int and x >= 1 for x in listed)):
            raise CertificateError(f"certificate: weights must be a list of {self.root.size} positive integers, one "
                                   "per secret of the root set")
        if sum(listed) > WEIGHT_MAX:
            raise CertificateError(f"certificate: its weights sum to {sum(listed)}; the checker takes at most {WEIGHT_MAX}")
        if self.extra:
            raise CertificateError("certificate: weights do not go with a price on the last guess")
        weights = np.zeros(self.size, dtype=np.int64)
        weights[self.root] = listed
        layers, below = [], 0
        for t in sorted(set(listed)):
            layers.append((t - below, weights >= t))
            below = t
        return weights, layers

    # -- the pieces ------------------------------------------------------------------------------
    def code_map(self, w: int, i: int) -> np.ndarray:
        """Witness ``w`` as a map of every code to its image (checked to be a position and a symbol
        permutation whose images are codes of the game)."""
        m = self._maps.get(w)
        if m is not None:
            return m
        if type(w) is not int or not 0 <= w < len(self.witnesses):
            raise _fail(i, f"names witness {str(w)[:20]}, which the certificate does not have")
        g = self.game
        item = self.witnesses[w]
        ok = isinstance(item, list) and len(item) == 2
        perm, sigma = (item if ok else (None, None))
        if not (ok and isinstance(perm, list) and isinstance(sigma, list) and all(type(x) is int for x in perm + sigma)
                and sorted(perm) == list(range(g.positions)) and sorted(sigma) == list(range(g.symbols))):
            raise _fail(i, f"witness {w} is not a permutation of the {g.positions} positions with one of the "
                           f"{g.symbols} symbols")
        image = np.empty_like(self.digits)
        image[:, perm] = np.asarray(sigma, dtype=np.int64)[self.digits]
        m = self.lookup[image @ self.place]
        if (m < 0).any():
            raise _fail(i, f"witness {w} maps some code to a tuple that is not a code of {g.name}")
        _hold(self._maps, w, m)
        return m

    def row(self, depth: int | None) -> np.ndarray:
        """Counting bounds of a class with ``depth`` guesses left (see the module's rule 1)."""
        key = (depth,)
        r = self._rows.get(key)
        if r is None:
            r = self._rows[key] = counting_row(self.b, self.size, depth, self.extra)
        return r

    def rebuild(self, i: int, history, keep: bool = False) -> np.ndarray:
        """The set a history defines (sorted codes): its last step's filter of the set one step shorter,
        which is kept for the claims that share it (``keep``: keep this one too)."""
        if not isinstance(history, list) or len(history) % 2:
            raise _fail(i, "its history must be a list of guess, hint pairs")
        key = tuple(history)
        got = self._prefix.get(key)
        if got is None:
            guess, hint = history[-2], history[-1]
            _int(guess, f"claim {i}: a guess of its history", 0, self.size - 1)
            _int(hint, f"claim {i}: a hint of its history", 0, 255)
            parent = self.rebuild(i, history[:-2], keep=True)
            got = parent[self.table[guess, parent] == hint]
            if keep:
                self._prefix[key] = got
        return got

    def orbits(self, i: int, secrets: np.ndarray, generators) -> tuple[np.ndarray, np.ndarray]:
        """Each code's orbit label (the least code of its orbit) under the generators, each checked to map
        the set onto itself, and the labels in use (one code per orbit). Kept per list of generators."""
        if not isinstance(generators, list):
            raise _fail(i, "its generators must be a list of witnesses")
        maps = []
        for w in generators:
            m = self.code_map(w, i)
            if not np.array_equal(np.sort(m[secrets]), secrets):
                raise _fail(i, f"witness {w} does not map the claim's set onto itself")
            if self.weights is not None and not np.array_equal(self.weights[m[secrets]], self.weights[secrets]):
                raise _fail(i, f"witness {w} does not keep the weights of the claim's set")
            maps.append(m)
        key = tuple(generators)
        got = self._orbits.get(key)
        if got is not None:
            return got
        label = np.arange(self.size)
        while maps:
            new = label.copy()
            for m in maps:
                np.minimum(new, label[m], out=new)  # a code takes its image's label
                new[m] = np.minimum(new[m], label)  # and the image its preimage's
            new = new[new]
            if np.array_equal(new, label):
                break
            label = new
        got = (label, np.flatnonzero(label == np.arange(self.size)))
        _hold(self._orbits, key, got)
        return got

    def counts(self, secrets: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """Class sizes (guesses x hint ranks, the all-bulls class zeroed)."""
        k = self.hints.size
        out = np.empty((guesses.size, k), dtype=np.int64)
        if not guesses.size:
            return out
        mine = self.by_secret[secrets]
        whole = guesses.size == self.size  # every code, in order: no gather of columns
        step = max(1, _BLOCK // max(1, secrets.size))
        for lo in range(0, guesses.size, step):
            g = guesses[lo : lo + step]
            rows = mine[:, lo : lo + g.size] if whole else mine[:, g]
            idx = rows.astype(np.int32) + (k * np.arange(g.size, dtype=np.int32))
            out[lo : lo + g.size] = np.bincount(idx.ravel(), minlength=g.size * k).reshape(g.size, k)
        out[:, self.dense_win] = 0
        return out

    def keys(self, secrets: np.ndarray, guesses: np.ndarray | None = None) -> np.ndarray:
        """Each guess's key over the set (every code's if ``guesses`` is None): its non-empty classes but
        the all-bulls one, plus 2 if it is in the set (the all-bulls class is not empty)."""
        rows = self.masks[secrets]
        if guesses is not None and 4 * guesses.size < self.size:
            rows = rows[:, guesses]
        seen = np.bitwise_or.reduce(rows, axis=0) if secrets.size else np.zeros(rows.shape[1], self.masks.dtype)
        if guesses is not None and rows.shape[1] != guesses.size:
            seen = seen[guesses]
        return self._key_of(seen)

    def _key_of(self, seen: np.ndarray) -> np.ndarray:
        """The keys of OR-ed masks (any shape): the bits below bit b counted, bit b twice."""
        win = ((seen >> self.b) & 1).astype(np.int64)
        rest = seen & self.masks.dtype.type((1 << self.b) - 1)
        if _POPCOUNT is not None:
            return _POPCOUNT(rest).astype(np.int64) + 2 * win
        count = self._bits[rest & 0xFFFF]  # numpy before 2.0: 16 bits at a time from a table
        rest = rest >> 16
        while rest.any():
            count += self._bits[rest & 0xFFFF]
            rest = rest >> 16
        return count + 2 * win

    def keys_within(self, secrets: np.ndarray, member: np.ndarray, most: np.ndarray, over_set: np.ndarray) -> int:
        """The first row of ``member`` (classes of the set, as boolean rows over it, none empty) over which
        some code has a key (weighted, with weights) above that row's ``most``, or -1 if none. ``over_set``:
        every code's key over the whole set. A code's key over a class is at most its key over the set (a
        subset has no more classes), so only the codes whose key over the set is above ``most`` are tried,
        highest first, in growing chunks: usually few or none."""
        order = np.argsort(-over_set, kind="stable")
        ahead = -over_set[order]
        needed = np.searchsorted(ahead, -most, side="left")  # per class: the codes with a key above its most
        sizes = member.sum(axis=1)
        live = np.flatnonzero(needed > 0)
        live = live[np.argsort(needed[live], kind="stable")]
        if not live.size:
            return -1
        # the masks of the secrets in these classes, with the codes in that order, once: each batch then
        # takes a prefix of the columns
        used = np.flatnonzero(member[live].any(axis=0))
        at_used = np.full(secrets.size, -1, dtype=np.int64)
        at_used[used] = np.arange(used.size)
        cols = self.masks[np.ix_(secrets[used], order[: needed.max()])]
        lo = 0
        while lo < live.size:  # classes in batches of about _BLOCK masks, each batch needing at most twice its fewest codes
            hi, held, cap = lo, 0, 2 * needed[live[lo]]
            while hi < live.size and (hi == lo or (held + sizes[live[hi]] * needed[live[hi]] <= _BLOCK
                                                   and needed[live[hi]] <= cap)):
                held += sizes[live[hi]] * needed[live[hi]]
                hi += 1
            part = live[lo:hi]
            part = part[np.argsort(-sizes[part], kind="stable")]  # largest class first
            tried = needed[live[hi - 1]]
            keys = self.class_keys(secrets, member[part], lambda pos: cols[at_used[pos], :tried])
            over = np.flatnonzero(keys.max(axis=1) > most[part])
            if over.size:
                return int(part[over[0]])
            lo = hi
        return -1

    def class_keys(self, secrets: np.ndarray, member: np.ndarray, rows_at: Callable) -> np.ndarray:
        """Each class's key for each code tried (classes x codes; weighted, with weights: the sum over the layers
        of delta_j times the key over the class's secrets in L_j). ``member``: the classes as boolean rows over
        the set, none empty, largest first; ``rows_at(pos)``: the masks of the set's secrets at positions
        ``pos``, a row each, over the codes tried."""
        if self.weights is None:
            return self._key_of(_or_by_class(member, rows_at))
        keys = None
        for delta, inside in self.layers:
            layer = member & inside[secrets]
            size = layer.sum(axis=1)
            met = np.flatnonzero(size)
            if not met.size:
                continue
            met = met[np.argsort(-size[met], kind="stable")]  # largest first, as _or_by_class needs
            got = self._key_of(_or_by_class(layer[met], rows_at))
            if keys is None:
                keys = np.zeros((member.shape[0], got.shape[1]), dtype=np.int64)
            keys[met] += delta * got
        return keys

    def class_bounds(self, counts: np.ndarray, depth: int | None, most: int) -> np.ndarray:
        """Rules 1 and 2 for every class (counts: guesses x hint slots; the all-bulls column is 0)."""
        row = self.row(None if depth is None else depth - 1)
        return np.maximum(row[counts], 3 * counts - most)

    # -- one claim ---------------------------------------------------------------------------------
    def check(self, i: int, claim) -> None:
        if not isinstance(claim, list) or len(claim) != 5:
            raise _fail(i, "a claim is [history, depth, value, generators, references]")
        history, depth, value, generators, refs = claim
        depth = _int(depth, f"claim {i}: depth", 1, 64, none=True)
        value = _int(value, f"claim {i}: value", 0, INF - 1, none=True)
        value = INF if value is None else value
        if self.extra and depth is None:
            raise _fail(i, "a certificate with a price on the last guess needs a depth in every claim")
        if self.weights is not None and depth is not None:
            raise _fail(i, "a certificate with weights bounds strategies of any length: its claims have no depth")
        secrets = self.rebuild(i, history)
        label, reps = self.orbits(i, secrets, generators)
        if self.hard:
            reps = np.unique(label[secrets])  # an orbit lies in S or outside it
        refs = self.references(i, refs, secrets)
        if self.weights is None:
            best = self.bounds(i, secrets, depth, value, label, reps, refs)
        else:
            best = self.weighted_bounds(i, secrets, label, reps, refs)
        short = np.flatnonzero(best < value)
        if short.size:
            rep, bound = int(reps[short[0]]), int(best[short[0]])
            shown = "no strategy" if value >= INF else str(value)
            raise _fail(i, f"{self.describe(history, secrets.size, depth)}: guess {format_code(self.game, rep)} (or one "
                           f"equivalent to it) is bounded only by {bound}, below the claimed {shown}")
        self.sets.append(secrets)
        self.depths.append(depth)
        self.values.append(value)

    def references(self, i: int, refs, secrets: np.ndarray) -> tuple | None:
        """A claim's references checked for form (None if it has none): the arrays (guess, hint, claim, witness
        or value), each reference's class as a boolean row over the set, and the class sizes."""
        given = None
        if isinstance(refs, list) and refs:
            try:
                given = np.array(refs)
            except ValueError:  # rows of different lengths
                given = None
        if not isinstance(refs, list) or (refs and (given is None or given.dtype.kind != "i" or given.ndim != 2
                                                    or given.shape[1] != 4)):
            raise _fail(i, "its references must be a list of [guess, hint, claim, witness], each an integer")
        if not refs:
            return None
        guess, hint, j, w = given.astype(np.int64).T
        bad = np.flatnonzero((guess < 0) | (guess >= self.size) | (hint < 0) | (hint > 255))
        if bad.size:
            raise _fail(i, f"a reference names guess {guess[bad[0]]} and hint {hint[bad[0]]}, which "
                           f"{self.game.name} does not have")
        bad = np.flatnonzero((j < -1) | (j >= i))
        if bad.size:
            raise _fail(i, f"a reference names claim {j[bad[0]]}: only earlier claims (0 to {i - 1}) can be named")
        if self.hard:
            bad = np.flatnonzero(~np.isin(guess, secrets))
            if bad.size:
                raise _fail(i, f"a hard-mode certificate refers to guess {format_code(self.game, int(guess[bad[0]]))}, "
                               "which is not a possible secret there")
        member = self.table[guess][:, secrets] == hint[:, None].astype(np.uint8)
        sizes = member.sum(axis=1)
        for r in np.flatnonzero((hint == self.win) | (sizes == 0) | ((j == -1) & ((w < 0) | (w >= INF)))):
            raise _fail(i, f"its reference for guess {format_code(self.game, int(guess[r]))} names "
                           f"{'the all-bulls class' if hint[r] == self.win else 'an empty class' if sizes[r] == 0 else 'no bound'}")
        return guess, hint, j, w, member, sizes

    def referenced(self, i: int, secrets: np.ndarray, depth: int | None, refs: tuple, raised: np.ndarray) -> None:
        """Rule 3: each reference to an earlier claim (``raised``, per reference, takes its value), whose set,
        mapped by its witness, must be the class exactly, one guess shallower (and, with weights, of the
        same weights: the witness keeps them)."""
        guess, hint, j, w, member, _ = refs
        for r in np.flatnonzero(j >= 0).tolist():
            k = int(j[r])
            cls, other = secrets[member[r]], self.sets[k]
            if other is None:  # released: named only in a way the first pass did not read (not an int)
                raise _fail(i, f"a reference names claim {k} in a form that is not an integer")
            if w[r] != -1:
                image = self.code_map(int(w[r]), i)[other]
                if self.weights is not None and not np.array_equal(self.weights[image], self.weights[other]):
                    raise _fail(i, f"its reference to claim {k} maps that claim's set by witness {w[r]}, which does "
                                   "not keep its weights")
                other = np.sort(image)
            if not np.array_equal(other, cls):
                raise _fail(i, f"its reference for guess {format_code(self.game, int(guess[r]))}, hint "
                               f"{format_hint(self.game, int(hint[r]))} names claim {k}, whose set is not that class")
            if self.depths[k] != (None if depth is None else depth - 1):
                raise _fail(i, f"its reference to claim {k} (depth {self.depths[k]}) needs depth "
                               f"{None if depth is None else depth - 1}")
            raised[r] = self.values[k]

    def bounds(self, i: int, secrets: np.ndarray, depth: int | None, value: int, label: np.ndarray, reps: np.ndarray,
               refs: tuple | None) -> np.ndarray:
        """Each orbit's best bound (by its representative in ``reps``) on a claim's set without weights: the
        plain bound of rules 1 and 2 and, for the guesses the references name, their classes raised by rules
        3 and 4."""
        n = secrets.size
        over_set = self.keys(secrets)  # every code's key over S
        keys = over_set[reps]
        most = int(keys.max()) if keys.size else 0
        # A first bound from the keys alone, with no class sizes: f(c) = max(count(depth - 1, c), 3c - most)
        # is convex in c (the counting bound's increments are level numbers, which never fall; the price
        # of the last level only adds to them), so k classes holding m secrets cost at least what k classes
        # as equal as can be cost: (k - r) f(q) + r f(q + 1), m = qk + r. The guesses this already refutes
        # need no class sizes (on bulls-cows, three quarters of the work).
        f = self.row(None if depth is None else depth - 1)
        f = np.maximum(f, 3 * np.arange(f.size) - most)
        inside = np.zeros(self.size, dtype=bool)
        inside[secrets] = True
        member_of = inside[reps]
        k = keys - 2 * member_of
        m = n - member_of
        kk = np.maximum(k, 1)
        q, r = m // kk, m % kk
        best = np.where(k > 0, n + (kk - r) * f[q] + r * f[np.minimum(q + 1, f.size - 1)], n)
        best = np.minimum(best, INF)  # each orbit's best bound so far, by its representative (reps is sorted)
        short = best < value
        sized = reps[short]  # the representatives whose class sizes were counted, with them
        counted = self.counts(secrets, sized)
        best[short] = np.minimum(n + self.class_bounds(counted, depth, most).sum(axis=1), INF)
        if refs is None:
            return best
        guess, hint, j, w, member, sizes = refs
        raised = np.zeros(guess.size, dtype=np.int64)
        own = np.flatnonzero(j == -1)  # rule 4: the class's own key bound, checked here
        if own.size:
            stated = w[own]
            bad = self.keys_within(secrets, member[own], 3 * sizes[own] - stated, over_set)
            if bad >= 0:
                r = own[bad]
                raise _fail(i, f"its reference for guess {format_code(self.game, int(guess[r]))}, hint "
                               f"{format_hint(self.game, int(hint[r]))} bounds the class by {w[r]}, but some code "
                               f"has a key above {3 * sizes[r] - w[r]} over it")
            raised[own] = stated
        self.referenced(i, secrets, depth, refs, raised)
        # each referring guess's bound, its referenced classes raised (the all-bulls class was refused above)
        guesses, which = np.unique(guess, return_inverse=True)
        # A guess splits S into classes of the sizes its representative's have, under the same hints
        # (the witnesses keep every hint), so those counted above are reused.
        at = np.minimum(np.searchsorted(sized, label[guesses]), max(sized.size - 1, 0))
        reused = (sized.size > 0) & (sized[at] == label[guesses]) if sized.size else np.zeros(guesses.size, bool)
        counts = np.empty((guesses.size, self.hints.size), dtype=np.int64)
        counts[reused] = counted[at[reused]]
        if not reused.all():
            counts[~reused] = self.counts(secrets, guesses[~reused])
        bounds = self.class_bounds(counts, depth, most)
        np.maximum.at(bounds, (which, np.searchsorted(self.hints, hint)), raised)
        np.maximum.at(best, np.searchsorted(reps, label[guesses]), np.minimum(n + bounds.sum(axis=1), INF))
        return best

    def weighted_bounds(self, i: int, secrets: np.ndarray, label: np.ndarray, reps: np.ndarray,
                        refs: tuple | None) -> np.ndarray:
        """Each orbit's best bound (by its representative in ``reps``) on a claim's set with weights: W(S) plus
        each class's bound by rules 1 and 2 with weights or, for the guesses the references name, rules 3 and
        4 with weights (see the module's weights)."""
        total = int(self.weights[secrets].sum())
        over_set = self.weighted_keys(secrets)  # every code's weighted key over S
        most = int(over_set[reps].max()) if reps.size else 0
        best = np.minimum(total + self.layered(secrets, reps, most).sum(axis=1), INF)
        if refs is None:
            return best
        guess, hint, j, w, member, _ = refs
        raised = np.zeros(guess.size, dtype=np.int64)
        own = np.flatnonzero(j == -1)  # rule 4 with weights: the classes' own weighted keys
        if own.size:
            rooms = 3 * (member[own] * self.weights[secrets]).sum(axis=1) - w[own]
            bad = self.keys_within(secrets, member[own], rooms, over_set)
            if bad >= 0:
                r = own[bad]
                raise _fail(i, f"its reference for guess {format_code(self.game, int(guess[r]))}, hint "
                               f"{format_hint(self.game, int(hint[r]))} bounds the class by {w[r]}, but some code "
                               f"has a weighted key above {rooms[bad]} over it")
            raised[own] = w[own]
        self.referenced(i, secrets, None, refs, raised)
        guesses, which = np.unique(guess, return_inverse=True)
        bounds = self.layered(secrets, guesses, most)
        np.maximum.at(bounds, (which, np.searchsorted(self.hints, hint)), raised)
        np.maximum.at(best, np.searchsorted(reps, label[guesses]), np.minimum(total + bounds.sum(axis=1), INF))
        return best

    def weighted_keys(self, secrets: np.ndarray) -> np.ndarray:
        """Every code's weighted key over the set: the sum over the layers of delta_j times its key over the
        set's secrets in L_j (see the module's weights)."""
        out = np.zeros(self.size, dtype=np.int64)
        for delta, inside in self.layers:
            out += delta * self.keys(secrets[inside[secrets]])
        return out

    def layered(self, secrets: np.ndarray, guesses: np.ndarray, most: int) -> np.ndarray:
        """Rules 1 and 2 with weights for every class (guesses x hint ranks; the all-bulls class 0): the larger
        of the sum over the layers L_j of delta_j * count(|C and L_j|) and 3 W(C) - most."""
        row = self.row(None)
        count = np.zeros((guesses.size, self.hints.size), dtype=np.int64)
        weight = np.zeros_like(count)
        for delta, inside in self.layers:
            sizes = self.counts(secrets[inside[secrets]], guesses)
            count += delta * row[sizes]
            weight += delta * sizes
        return np.maximum(count, np.where(weight > 0, 3 * weight - most, 0))

    def describe(self, history, n: int, depth: int | None) -> str:
        steps = ", ".join(f"{format_code(self.game, history[k])} {format_hint(self.game, history[k + 1])}"
                          for k in range(0, len(history), 2))
        where = f"after {steps}" if steps else "of the whole game"
        return f"the {n} secrets {where}, within {depth if depth is not None else 'any number of'} guesses"

    # -- the whole certificate -----------------------------------------------------------------------
    def note(self, i: int, claim, keep: bool) -> None:
        """Record claim i as it states itself, unchecked, for the claims after it that refer to it: its
        depth, its value and (``keep``: a later claim refers to it) its set. For a process that checks a share
        of the claims (see check_certificate_file): another process checks this one. A claim whose form is
        wrong is recorded as a set of no secrets, not raised here: the process that checks it fails on it, at
        its index, which is below that of any claim that refers to it."""
        try:
            depth = _int(claim[1], f"claim {i}: depth", 1, 64, none=True)
            value = _int(claim[2], f"claim {i}: value", 0, INF - 1, none=True)
            secrets = self.rebuild(i, claim[0]) if keep else None
        except (CertificateError, TypeError, IndexError, KeyError):
            depth, value, secrets = None, 0, np.zeros(0, dtype=np.int64)
        self.sets.append(secrets)
        self.depths.append(depth)
        self.values.append(INF if value is None else value)

    def run(self, progress: Callable[[int, int], None] | None = None, share: tuple[int, int] = (0, 1)) -> Proof:
        """Check every claim (``share`` (k, n): only the claims of blocks k, k + n, k + 2n, ... of SHARE_BLOCK,
        recording the others as they state themselves, see :meth:`note`; every claim is checked by one of
        the n processes, so they prove together what one proves alone) and the roots; the Proof."""
        k, n = share
        start = time.perf_counter()
        # A claim's set is kept until the last claim that refers to it (and the roots' to the end), so that
        # memory follows the claims in use, not all of them (bulls-cows' crush has 693,362): a first pass
        # over the claims finds those last uses.
        total = 0
        last: dict[int, int] = {}
        for i, claim in enumerate(self.claims()):
            total = i + 1
            refs = claim[4] if isinstance(claim, list) and len(claim) == 5 and isinstance(claim[4], list) else ()
            for ref in refs:
                if isinstance(ref, list) and len(ref) == 4 and type(ref[2]) is int and 0 <= ref[2] < i:
                    last[ref[2]] = i
        for j in self.roots.values():
            if type(j) is int:
                last[j] = total
        release: dict[int, list[int]] = {}
        for j, i in last.items():
            release.setdefault(i, []).append(j)
        for i, claim in enumerate(self.claims()):
            if n == 1 or (i // SHARE_BLOCK) % n == k:
                try:
                    self.check(i, claim)
                except CertificateError as exc:
                    if exc.claim is None:  # a field of the claim that _int refused: still claim i's failure
                        exc.claim = i
                    raise
            else:
                self.note(i, claim, i in last)
            if i not in last:
                self.sets[i] = None  # no claim refers to it
            for j in release.get(i, ()):
                self.sets[j] = None
            if progress is not None and (i % 256 == 255 or i == total - 1):
                progress(i + 1, total)
        least = impossible = cap = None
        for name in self.roots:
            if name not in ("least_cost", "impossible"):
                raise CertificateError(f"certificate: unknown root {str(name)[:40]!r}; roots are least_cost and impossible")
        for name in ("least_cost", "impossible"):
            j = self.roots.get(name)
            if j is None:
                continue
            if type(j) is not int or not 0 <= j < total:
                raise CertificateError(f"certificate: root {name} names claim {str(j)[:20]}, which it does not have")
            if self.sets[j] is None or self.sets[j].size != self.root.size:  # the root set (a subset of it is smaller)
                raise _fail(j, f"it is the {name} root but is not about the whole game")
            if name == "least_cost":
                if self.values[j] >= INF:
                    raise _fail(j, "the least_cost root claims no strategy at all; that is the impossible root")
                least, cap = self.values[j], self.depths[j]
            else:
                if self.values[j] < INF or self.depths[j] is None:
                    raise _fail(j, "the impossible root must claim that no strategy finishes within its depth")
                impossible = self.depths[j]
        if least is None and impossible is None:
            raise CertificateError("certificate: it names no root (least_cost or impossible), so it proves nothing")
        if self.extra and cap is None:
            raise CertificateError("certificate: a price on the last guess needs a least_cost root with a depth")
        secrets = None if self.root.size == self.game.secret_count else tuple(self.root.tolist())
        weights = None if self.weights is None else tuple(self.weights[self.root].tolist())
        return Proof(self.game, self.hard, cap, self.extra, least, impossible, total, time.perf_counter() - start,
                     secrets, weights)


def certificate_to_bytes(doc: dict) -> bytes:
    """A certificate's file: compact JSON, its claims last, gzip-compressed with no timestamp (same
    certificate, same bytes); see :func:`certificate_claims_to_bytes`."""
    return certificate_claims_to_bytes({k: v for k, v in doc.items() if k != "claims"}, doc.get("claims", ()))


_BATCH = 4096  # claims written by one json.dumps: one call per claim cost 30% more on bulls-cows' crush (693,269)


def certificate_claims_to_bytes(head: dict, claims: Iterable[list]) -> bytes:
    """A certificate's file: :func:`certificate_chunks` joined."""
    return b"".join(certificate_chunks(head, claims))


def certificate_chunks(head: dict, claims: Iterable[list]) -> Iterator[bytes]:
    """A certificate's file, in chunks to be written in order: ``head`` with ``"claims": list(claims)`` added
    last, as compact JSON, gzip-compressed with no timestamp, made without holding the claims at once: they
    are written and compressed as they come (a certificate assembled from parts can be tens of GB of JSON, and
    ten times that as Python lists). Batches of claims are written as one list less its brackets, which is the
    same text."""

    def pieces() -> Iterator[bytes]:
        opening = json.dumps(head, separators=(",", ":"))[:-1]
        yield (opening + ("," if head else "") + '"claims":[').encode()
        rest = iter(claims)
        first = True
        while batch := list(itertools.islice(rest, _BATCH)):
            text = json.dumps(batch, separators=(",", ":"))[1:-1]
            yield (text if first else "," + text).encode()
            first = False
        yield b"]}"

    return gzip_chunks(pieces())


def gzip_chunks(pieces: Iterable[bytes | memoryview]) -> Iterator[bytes]:
    """``gzip.compress(b"".join(pieces), compresslevel=6, mtime=0)``, the same bytes, in chunks, without the
    join (which would hold the text twice). The deflate stream does not depend on how its input is cut, so
    only gzip's header (taken from ``gzip.compress`` itself) and trailer (CRC-32 and size) are written here.
    Level 6, not 9: on mm:4:8's certificate (3.2 MB of JSON) 9 took 1.06 s and 6 took 0.24 s for a file 1.6%
    larger, a second of a search of about six."""
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    yield gzip.compress(b"", compresslevel=6, mtime=0)[:10]
    crc = size = 0
    for piece in pieces:
        crc = zlib.crc32(piece, crc)
        size += memoryview(piece).nbytes
        if out := deflate.compress(piece):
            yield out
    yield deflate.flush() + struct.pack("<II", crc, size & 0xFFFFFFFF)


_CHUNK = 1 << 20  # bytes unpacked at a time
_TAIL = 64  # characters that must follow a value decoded before the end of the text (see _Text.value)
VALUE_LIMIT = 1 << 28  # the most characters one claim (or any other member) may take: no claim comes near


class _Text:
    """A certificate file's JSON text (gzip-compressed or plain), unpacked and decoded a chunk at a time, so
    that reading it holds one claim at a time rather than the whole text. ``limit``: the most bytes it may
    unpack to (None: any number; a reader that holds the whole document sets it, see certificate_from_bytes)."""

    def __init__(self, data: bytes, source: str, limit: int | None) -> None:
        self.data, self.source, self.limit = data, source, limit
        self.unpack = zlib.decompressobj(wbits=31) if data[:2] == b"\x1f\x8b" else None
        self.fed = 0  # bytes of ``data`` consumed
        self.unpacked = 0
        self.decode = codecs.getincrementaldecoder("utf-8")()
        self.buf = ""
        self.at = 0  # the next character to read in ``buf``
        self.done = False  # everything is in ``buf``

    def more(self, want: int | None = None) -> None:
        """Read at least ``want`` (None: _CHUNK) more characters into the buffer, or to the end."""
        want = _CHUNK if want is None else want
        if self.at > _CHUNK and self.at > len(self.buf) // 2:
            self.buf, self.at = self.buf[self.at :], 0
        got = []
        n = 0
        while n < want and not self.done:
            raw = self._raw(max(want - n, _CHUNK))
            if self.limit is not None and self.unpacked > self.limit:
                raise CertificateError(f"{self.source}: unpacks to more than {self.limit >> 20} MB; certificates are smaller")
            try:
                text = self.decode.decode(raw, final=self.done)
            except UnicodeDecodeError:
                raise CertificateError(f"{self.source}: not a certificate (its text is not UTF-8)") from None
            got.append(text)
            n += len(text)
        self.buf += "".join(got)

    def _raw(self, want: int) -> bytes:
        data = self.data
        if self.unpack is None:
            raw = data[self.fed : self.fed + want]
            self.fed += len(raw)
            self.done = self.fed >= len(data)
        else:
            try:
                if self.unpack.unconsumed_tail:
                    raw = self.unpack.decompress(self.unpack.unconsumed_tail, want)
                elif self.fed < len(data) and not self.unpack.eof:
                    raw = self.unpack.decompress(data[self.fed : self.fed + _CHUNK], want)
                    self.fed += _CHUNK
                else:
                    raw = b""
            except zlib.error as exc:
                raise CertificateError(f"{self.source}: not a readable gzip file: {exc}") from None
            if not raw and not self.unpack.unconsumed_tail and (self.unpack.eof or self.fed >= len(data)):
                if not self.unpack.eof:
                    raise CertificateError(f"{self.source}: not a readable gzip file: it ends early")
                self.done = True
        self.unpacked += len(raw)
        return raw

    def char(self) -> str:
        """The next character that is not white space ("" at the end), not consumed."""
        while True:
            at = self.at = _SPACE.match(self.buf, self.at).end()
            if at < len(self.buf) or self.done:
                return self.buf[at] if at < len(self.buf) else ""
            self.more()

    def take(self, expected: str) -> str:
        c = self.char()
        if c not in expected or not c:
            raise self.malformed(f"expected {' or '.join(repr(e) for e in expected)} at character {self.at}")
        self.at += 1
        return c

    def value(self):
        """The JSON value that starts here, read through (more is read until it ends)."""
        self.char()
        decoder = _DECODER
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.at)
            except (ValueError, RecursionError) as exc:
                if self.done:
                    raise self.malformed(str(exc)[:80]) from None
                end = None
            # A number near the end of the buffer may go on in the next chunk: "1." and "1e" decode as 1,
            # stopping before their last character, and "12" may be "123"; so a value that ends within
            # _TAIL characters of the buffer's end is decoded again with more read.
            if end is not None and (self.done or len(self.buf) - end > _TAIL):
                if end - self.at > VALUE_LIMIT:
                    raise self.too_long()
                self.at = end
                return value
            held = len(self.buf) - self.at
            if held > VALUE_LIMIT:
                raise self.too_long()
            # doubling what is held (linear in the value's length), never past the limit by more than a chunk
            self.more(min(max(_CHUNK, held), VALUE_LIMIT + 1 - held + _CHUNK))

    def too_long(self) -> CertificateError:
        return CertificateError(f"{self.source}: a member or claim takes more than {VALUE_LIMIT:,} characters")

    def malformed(self, what: str) -> CertificateError:
        return CertificateError(f"{self.source}: not a certificate (gzip-compressed JSON is expected): {what}")


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space
CLAIMS = object()  # the name that members() gives the claims' list when it starts
CLAIM = object()  # and each claim


def members(data: bytes, source: str = "<bytes>", limit: int | None = None) -> Iterator[tuple]:
    """A certificate file's members, in file order, read as they come: (name, value) for each but the
    claims, and (CLAIM, claim) for each claim. CertificateError if the file is not a JSON object (gzip-
    compressed or plain), names a member twice, has claims that are not a list, or unpacks to more than
    ``limit`` bytes. Before the claims, (CLAIMS, None)."""
    text = _Text(data, source, limit)
    text.take("{")
    seen = set()
    if text.char() == "}":
        text.at += 1
    else:
        while True:
            name = text.value()
            if not isinstance(name, str):
                raise text.malformed("an object's names are strings")
            if name in seen:
                raise CertificateError(f"{source}: not a certificate: it has two members named {name[:40]!r}")
            seen.add(name)
            text.take(":")
            if name == "claims":
                if text.char() != "[":
                    raise CertificateError(f"{source}: not a certificate: its claims must be a list")
                text.at += 1
                yield CLAIMS, None
                if text.char() == "]":
                    text.at += 1
                else:
                    while True:
                        yield CLAIM, text.value()
                        if text.take(",]") == "]":
                            break
            else:
                yield name, text.value()
            if text.take(",}") == "}":
                break
    if text.char():
        raise text.malformed(f"more text after the object, at character {text.at}")


def _head(data: bytes, source: str, limit: int | None, claims: list | None) -> dict:
    """The members of a certificate file but the claims (appended to ``claims`` unless it is None), checked
    to name the format and to have claims."""
    head = {}
    listed = False
    for name, value in members(data, source, limit):
        if name is CLAIM:
            if claims is not None:
                claims.append(value)
        elif name is CLAIMS:
            listed = True
        else:
            head[name] = value
    if head.get("format") != FORMAT:
        raise CertificateError(f"{source}: not a certificate (a JSON object with \"format\": \"{FORMAT}\" is expected)")
    if not listed:
        raise CertificateError(f"{source}: not a certificate: it has no claims")
    return head


def certificate_from_bytes(data: bytes, source: str = "<bytes>") -> dict:
    """The parsed certificate of a file's bytes (gzip-compressed or plain JSON), held whole; CertificateError
    if it is neither, unpacks to more than UNPACKED_LIMIT bytes, or is no certificate. (check_certificate_bytes
    checks a file of any size, holding one claim at a time.)"""
    claims: list = []
    doc = _head(data, source, UNPACKED_LIMIT, claims)
    doc["claims"] = claims
    return doc


def claims_in(data: bytes, source: str = "<bytes>") -> Iterator:
    """A certificate file's claims (or a certificate part's), one at a time as they are read (see members)."""
    return (value for name, value in members(data, source) if name is CLAIM)


def check_certificate_bytes(data: bytes, source: str = "<bytes>",
                            progress: Callable[[int, int], None] | None = None,
                            share: tuple[int, int] = (0, 1)) -> Proof:
    """Check a certificate file's bytes (gzip-compressed or plain JSON) of any size: the file is read three
    times, for its members but the claims, then for where each claim is last referred to (see Checker.run),
    then to check the claims as they come, so what is held is one claim, the sets later claims refer to and
    a bounded cache (HELD), not the certificate. ``share``: see Checker.run (check_certificate_file)."""
    head = _head(data, source, None, None)
    return Checker(head, lambda: claims_in(data, source)).run(progress, share)


def check_certificate_file(data, path: str, source: str | None = None,
                           progress: Callable[[int, int], None] | None = None, workers: int = 2) -> Proof:
    """Check the certificate file at ``path``, whose bytes ``data`` (mapped) this process holds, with
    ``workers`` processes: each reads the whole file (checking first that its bytes are ``data``'s, by
    SHA-256) and checks a share of the claims (:meth:`Checker.run`), the same Proof or the same failure as
    :func:`check_certificate_bytes` gives, in less time for a big certificate (mm:4:9's: 0.61 of the wall
    with two), each process holding about what one process checking alone holds. ``progress(done, total)``:
    the claims that every process has passed."""
    import hashlib
    import multiprocessing

    source = path if source is None else source
    digest = hashlib.sha256(data).hexdigest()
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter each: nothing of this process is shared
    results = ctx.SimpleQueue()
    passed = [ctx.Value("q", 0, lock=False) for _ in range(workers)]
    total = ctx.Value("q", 0, lock=False)
    start = time.perf_counter()
    procs = [ctx.Process(target=_check_share, args=(path, digest, source, k, workers, passed[k], total, results),
                         daemon=True) for k in range(workers)]
    got: dict[int, tuple] = {}
    started = []
    try:
        for proc in procs:
            proc.start()
            started.append(proc)
        while len(got) < workers:
            while not results.empty():
                k, outcome = results.get()
                got[k] = outcome
            if len(got) < workers:
                dead = [k for k, proc in enumerate(started) if k not in got and not proc.is_alive()]
                if dead and results.empty():
                    raise TreegenError(f"{source}: a checking process ended without a result (exit status "
                                       f"{started[dead[0]].exitcode}); check it with fewer workers")
                time.sleep(0.2)
                if progress is not None and total.value:
                    progress(min(p.value for p in passed), total.value)
    finally:
        for proc in started:  # a process that failed to start has nothing to stop
            if proc.is_alive():
                proc.terminate()
            proc.join()
    failures = [(at, k, message) for k, (kind, at, message) in got.items() if kind == "failed"]
    if failures:
        # The first failing claim, as one process checking them all would report it: that claim fails in the
        # process that checks it, and every other process's first failure comes later (or at that claim, when
        # it only noted it, see Checker.note), so the first is the least index, from its checking process.
        def rank(item):
            at, k, _ = item
            owner = at is not None and (at // SHARE_BLOCK) % workers == k
            return (INF if at is None else at, not owner, k)

        raise CertificateError(min(failures, key=rank)[2])
    return replace(got[0][1], seconds=time.perf_counter() - start)


def _check_share(path: str, digest: str, source: str, k: int, n: int, passed, total, results) -> None:
    """One process of check_certificate_file: its share of the claims checked, its outcome put in
    ``results`` as (k, ("proved", Proof, None)) or (k, ("failed", claim index or None, message))."""
    import hashlib
    import mmap

    try:
        with open(path, "rb") as f:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if hashlib.sha256(data).hexdigest() != digest:
            raise CertificateError(f"{source}: the file changed while it was being checked")

        def progress(done: int, count: int) -> None:
            total.value, passed.value = count, done

        results.put((k, ("proved", check_certificate_bytes(data, source, progress, (k, n)), None)))
    except CertificateError as exc:
        results.put((k, ("failed", exc.claim, str(exc))))
    except Exception as exc:  # noqa: BLE001 -- any other failure comes back as one line, not as a traceback from a child
        results.put((k, ("failed", None, f"{source}: checking failed: {type(exc).__name__}: {exc}")))


def check_certificate(doc, progress: Callable[[int, int], None] | None = None) -> Proof:
    """Check a parsed certificate; return what it proves, or raise CertificateError naming the first
    claim that fails (and the guess it fails on)."""
    return Checker(doc).run(progress)
