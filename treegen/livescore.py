"""Scoring without a feedback table: hints computed on the fly from the codes' symbols.

A feedback table has codes² bytes (22.9 GB for bc:6:10, 13 TB for bc:10:10). Here a hint is computed
from the two codes' symbols each time it is needed, so memory grows with the codes being scored, not
with codes²: the symbols of every code (codes * positions bytes, 36 MB for bc:10:10), and per call the
symbols of the secrets scored and one block of per-guess class counters.

This module holds both the numba kernels of on-the-fly scoring and their orchestration
(:class:`LiveCodes`), because the two change together and nothing else uses the kernels; it needs
no feedback table and no ``Game.codes`` tuple list (which for 3.6 million codes would take gigabytes),
so it also serves games beyond ``resolve_game``'s usual 200000 codes. The results are the table's
results exactly: ``scores`` sums the same floats in the same order as ``scoring_kernels.guess_scores`` and
``split`` groups secrets as ``exact.search_kernels.split_by_hint`` does.

A kernel calls only kernels in its own file: numba's disk cache keys a compiled function on its own file,
so a callee edited in another file would leave this file's cached callers stale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .jitcache import ensure_cache
from .rules import Game

ensure_cache(__file__)  # before the first kernel: a read-only install must still compile (jitcache)

# Guesses scored per block: the block's class counters are GUESS_BLOCK * hint slots int32 (at most
# 8192 * 121 * 4 bytes = 4 MB for 10 positions), so memory does not grow with the number of guesses.
GUESS_BLOCK = 8192

# -- kernels ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _hint(gd, gmask, gcount, sd, smask, scount, npos, repeats):
    """Hint of a guess (digits gd; mask gmask or counts gcount) against a secret (sd; smask or scount)."""
    bulls = 0
    for p in range(npos):
        if gd[p] == sd[p]:
            bulls += 1
    common = 0
    if repeats:
        for x in range(gcount.shape[0]):
            a = gcount[x]
            b = scount[x]
            common += a if a < b else b
    else:
        # no repeats: the common symbols are the set bits both masks share
        m = gmask & smask
        while m:
            m &= m - np.int64(1)
            common += 1
    return bulls * (npos + 1) + common - bulls


@njit(cache=True, inline="always")
def _score(counts, slots, maximum, f):
    """One guess's score from its class sizes ``counts``: the largest class over ``slots`` (minimax), or
    the sum of ``f[size]`` over them (the other scored strategies)."""
    if maximum:
        m = 0
        for h in slots:
            if counts[h] > m:
                m = counts[h]
        return np.float64(m)
    v = 0.0
    for h in slots:
        v += f[counts[h]]
    return v


@njit(cache=True)
def live_hints(gd, gmask, gcount, sdigits, smasks, scounts, repeats):
    """Hints (uint8) of one guess against every secret (rows of ``sdigits``)."""
    ns, npos = sdigits.shape
    out = np.empty(ns, dtype=np.uint8)
    for j in range(ns):
        out[j] = _hint(gd, gmask, gcount, sdigits[j], smasks[j], scounts[j], npos, repeats)
    return out


@njit(cache=True)
def live_scores(gdigits, gmasks, gcounts, sdigits, smasks, scounts, repeats, nslots, slots, maximum, f):
    """As ``scoring_kernels.guess_scores`` with hints computed on the fly: the score (float64, smaller is
    better) of each guess (rows of ``gdigits``) from the sizes n_h of the classes it splits the secrets
    into, ``max n_h`` if ``maximum`` else ``sum of f[n_h]`` over ``slots`` in their order."""
    ng, npos = gdigits.shape
    ns = sdigits.shape[0]
    counts = np.zeros(nslots, dtype=np.int32)
    out = np.empty(ng, dtype=np.float64)
    for k in range(ng):
        counts[:] = 0
        gd = gdigits[k]
        gm = gmasks[k]
        gc = gcounts[k]
        for j in range(ns):
            counts[_hint(gd, gm, gc, sdigits[j], smasks[j], scounts[j], npos, repeats)] += 1
        out[k] = _score(counts, slots, maximum, f)
    return out


@njit(cache=True)
def group_by_hint(hints, secrets, nslots):
    """Secrets grouped by their hint: (order, starts), the class of hint h ``order[starts[h]:starts[h+1]]``,
    secrets in their relative order inside a class (as ``exact.search_kernels.split_by_hint``)."""
    starts = np.zeros(nslots + 1, dtype=np.int64)
    for h in hints:
        starts[h + 1] += 1
    for h in range(nslots):
        starts[h + 1] += starts[h]
    fill = starts[:-1].copy()
    order = np.empty(secrets.shape[0], dtype=secrets.dtype)
    for j in range(secrets.shape[0]):
        h = hints[j]
        order[fill[h]] = secrets[j]
        fill[h] += 1
    return order, starts


@njit(cache=True)
def all_digits(npos, nsym, repeats, total):
    """Every code's symbols (uint8 rows) in code order, the lexicographic order of the symbol tuples.

    An odometer: from one code to the next, the rightmost position that can take a larger symbol
    (unused by the positions before it, without repeats) takes the smallest such, and the positions
    after it take the smallest symbols left, in increasing order. Each step is amortised O(symbols).
    """
    out = np.empty((total, npos), dtype=np.uint8)
    cur = np.zeros(npos, dtype=np.int64)
    used = np.int64(0)
    if not repeats:
        for p in range(npos):
            cur[p] = p
            used |= np.int64(1) << p
    for i in range(total):
        for p in range(npos):
            out[i, p] = cur[p]
        p = npos - 1
        while p >= 0:
            if not repeats:
                used &= ~(np.int64(1) << cur[p])
            s = cur[p] + 1
            while not repeats and s < nsym and (used >> s) & 1:
                s += 1
            if s < nsym:
                cur[p] = s
                if not repeats:
                    used |= np.int64(1) << s
                break
            p -= 1
        s = 0
        for q in range(p + 1, npos):
            while not repeats and (used >> s) & 1:
                s += 1
            cur[q] = s
            if not repeats:
                used |= np.int64(1) << s
    return out


@njit(cache=True, inline="always")
def _popcount(x):
    """Set bits of a uint64 (SWAR: bit counts of pairs, nibbles, bytes, then summed by one multiply)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def packed_hints(gpos, gsym, spos, ssym, npos):
    """Hints (uint8) of one guess (position mask gpos, symbol mask gsym) against secrets; see _packed."""
    ns = spos.shape[0]
    out = np.empty(ns, dtype=np.uint8)
    for j in range(ns):
        bulls = _popcount(gpos & spos[j])
        out[j] = bulls * (npos + 1) + _popcount(gsym & ssym[j]) - bulls
    return out


@njit(cache=True)
def packed_scores(gpos, gsym, spos, ssym, npos, nslots, slots, maximum, f):
    """As ``live_scores``, from the packed masks of ``_packed``: two popcounts a hint, no loops."""
    ng = gpos.shape[0]
    ns = spos.shape[0]
    counts = np.zeros(nslots, dtype=np.int32)
    out = np.empty(ng, dtype=np.float64)
    for k in range(ng):
        counts[:] = 0
        a = gpos[k]
        b = gsym[k]
        for j in range(ns):
            bulls = _popcount(a & spos[j])
            counts[bulls * (npos + 1) + _popcount(b & ssym[j]) - bulls] += 1
        out[k] = _score(counts, slots, maximum, f)
    return out


@njit(cache=True)
def _packed(digits, nsym, repeats):
    """Two uint64 masks per code, for games with positions * symbols <= 64.

    ``pos``: bit p * nsym + s for symbol s at position p, so bulls = popcount(pos_g & pos_s).
    ``sym``: without repeats bit s for each symbol s; with repeats, symbol s used c times sets the c
    bits s * npos + 0 .. c - 1 (counts in unary), so that in both cases the common symbols,
    sum over s of min(c_g(s), c_s(s)), are popcount(sym_g & sym_s).
    """
    n, npos = digits.shape
    pos = np.zeros(n, dtype=np.uint64)
    sym = np.zeros(n, dtype=np.uint64)
    seen = np.zeros(nsym, dtype=np.int64)
    for i in range(n):
        seen[:] = 0
        for p in range(npos):
            s = np.int64(digits[i, p])
            pos[i] |= np.uint64(1) << np.uint64(p * nsym + s)
            bit = s * npos + seen[s] if repeats else s
            sym[i] |= np.uint64(1) << np.uint64(bit)
            seen[s] += 1
    return pos, sym


@njit(cache=True)
def _masks_counts(digits, nsym, repeats):
    n, npos = digits.shape
    masks = np.zeros(n if not repeats else 1, dtype=np.int64)
    counts = np.zeros((n if repeats else 1, nsym), dtype=np.uint8)
    for i in range(n):
        for p in range(npos):
            s = np.int64(digits[i, p])
            if repeats:
                counts[i, s] += 1
            else:
                masks[i] |= np.int64(1) << s
    return masks, counts


# -- orchestration ---------------------------------------------------------------------------------


def packable(game: Game) -> bool:
    """Whether ``game``'s codes fit the two 64-bit masks of the fast kernels (positions * symbols <= 64)."""
    return game.positions * game.symbols <= 64


def live_bytes(game: Game) -> int:
    """Memory the on-the-fly route needs for ``game``: every code's symbols (positions bytes), its
    symbol mask (8) or counts (symbols), the two packed masks where they fit (16), and the candidate
    list with its filter (4 + 4 + 1 bytes)."""
    per_code = game.positions + (game.symbols if game.repeats else 8) + 9 + (16 if packable(game) else 0)
    return game.size * per_code


@dataclass(frozen=True, eq=False)
class LiveCodes:
    """Every code of ``game`` as symbol arrays, to score guesses against secrets without a table.

    ``digits`` is (codes, positions) uint8; ``masks`` (int64 symbol bit sets, games without repeats)
    or ``counts`` ((codes, symbols) uint8 symbol counts, games with repeats), the other one a dummy.
    Where positions * symbols <= 64, ``pos`` and ``sym`` hold the packed masks of ``_packed`` and hints
    take two popcounts (about five times faster); else they are None. Codes are ints in the order of
    ``Game.codes``; secrets and guesses are int arrays of codes.
    """

    game: Game
    digits: np.ndarray
    masks: np.ndarray
    counts: np.ndarray
    pos: np.ndarray | None = None
    sym: np.ndarray | None = None

    @classmethod
    def of(cls, game: Game, digits: np.ndarray | None = None, packed: bool = True) -> LiveCodes:
        """The arrays for ``game``: ``digits`` if given (e.g. ``feedback.code_digits``), else generated.
        ``packed=False`` leaves out the packed masks (tests compare the two kernels)."""
        if game.rule != "bulls-cows":
            from .rules import GameError

            raise GameError(f"{game.name} scores {game.rule}; hints computed on the fly are bulls and cows only, so "
                            "it is played from its feedback table (a game of at most 20000 codes)")
        if digits is None:
            digits = all_digits(game.positions, game.symbols, game.repeats, game.size)
        masks, counts = _masks_counts(digits, game.symbols, game.repeats)
        if packed and packable(game):
            pos, sym = _packed(digits, game.symbols, game.repeats)
            return cls(game, digits, masks, counts, pos, sym)
        return cls(game, digits, masks, counts)

    def _pick(self, codes: np.ndarray):
        c = np.asarray(codes, dtype=np.int64)
        if self.game.repeats:
            return self.digits[c], self.masks[:1].repeat(c.size), self.counts[c]
        return self.digits[c], self.masks[c], self.counts[:1].repeat(c.size, axis=0)

    def hints(self, guess: int, secrets: np.ndarray) -> np.ndarray:
        """The hint (uint8) of ``guess`` against each of ``secrets``."""
        if self.pos is not None:
            s = np.asarray(secrets, dtype=np.int64)
            return packed_hints(self.pos[guess], self.sym[guess], self.pos[s], self.sym[s], self.game.positions)
        gd, gm, gc = self._pick([guess])
        sd, sm, sc = self._pick(secrets)
        return live_hints(gd[0], gm[0], gc[0], sd, sm, sc, self.game.repeats)

    def split(self, guess: int, secrets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``secrets`` grouped by their hint to ``guess``, as ``exact.search_kernels.split_by_hint`` returns them."""
        secrets = np.asarray(secrets)
        return group_by_hint(self.hints(guess, secrets), secrets, self.game.hint_slots)

    def scores(self, guesses: np.ndarray, secrets: np.ndarray, slots: np.ndarray, maximum: bool, f: np.ndarray) -> np.ndarray:
        """As ``scoring_kernels.guess_scores(table, guesses, secrets, ...)``, the same floats, without a table.

        The secrets' symbols are gathered once (memory grows with the secrets); guesses are scored in
        blocks of GUESS_BLOCK.
        """
        guesses = np.asarray(guesses)
        out = np.empty(guesses.size, dtype=np.float64)
        if self.pos is not None:
            s = np.asarray(secrets, dtype=np.int64)
            spos, ssym = self.pos[s], self.sym[s]
            for a in range(0, guesses.size, GUESS_BLOCK):
                g = np.asarray(guesses[a : a + GUESS_BLOCK], dtype=np.int64)
                out[a : a + GUESS_BLOCK] = packed_scores(
                    self.pos[g], self.sym[g], spos, ssym, self.game.positions, self.game.hint_slots,
                    slots, maximum, f,
                )
            return out
        sd, sm, sc = self._pick(secrets)
        for a in range(0, guesses.size, GUESS_BLOCK):
            gd, gm, gc = self._pick(guesses[a : a + GUESS_BLOCK])
            out[a : a + GUESS_BLOCK] = live_scores(
                gd, gm, gc, sd, sm, sc, self.game.repeats, self.game.hint_slots, slots, maximum, f
            )
        return out

    def consistent(self, secrets: np.ndarray, guess: int, hint: int) -> np.ndarray:
        """The secrets among ``secrets`` that give ``hint`` to ``guess``."""
        secrets = np.asarray(secrets)
        return secrets[self.hints(guess, secrets) == hint]
