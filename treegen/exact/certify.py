"""Certificates from the search: the claims that prove a whole game's lower bound, for ``treegen.certificate``
to check (see its docstring for the format and the rules each claim must pass).

The certifying search runs one solver over the whole game in one process, exactly (beta unbounded), and
both the tree and the certificate are read off its memo: ``treegen solve --certificate`` runs it instead
of the coordinator, not after it. (A search with beta at a known figure, a null window, refutes as much,
but on bulls-cows the exact search cost the same, 6.2 to 7.5 s against 6.6 to 7.0, and it gives the tree
too.) Each memo entry is a lower bound on its set that the search proved from the bounds of its guesses'
classes (or its exact value), and a later entry of a set is never lower, so at the end every guess the
search refuted is still refuted by the memo's entries of its classes. :meth:`Prover.claim` walks down from the root: a set needs a claim
only where the checker's own bounds (counting and key, computed for every guess) fall short of what its
parent needs from it; each guess still short raises its classes, biggest raise first, to what their memo
entries say. A class whose own keys give what it needs (the checker's rule 4: most of the search's least
lookahead bounds of small classes) is a reference checked in place, not a claim. A class the memo by orbit
answered from an equivalent set refers to that set's claim, through the element mapping one onto the other
(``ProvingSolver`` records both). Sets are named by the history the search met them by, so that their
guesses are the search's representatives, with the node's group as witnesses (position permutations fixing
the history with the symbol maps they force, and the free and the absent symbols renamed among themselves):
the checker derives the same classes of guesses. A class whose memo entry still falls short (met by another
path, whose group chose other representatives) is searched again under what it needs.

The choice per guess is compiled (search_kernels.claim_picks, over every short guess of a claim at once);
:meth:`Prover._raise` makes the same choice in Python and is what the walk calls for a guess whose memo
entries fall short, since only it searches classes again. The test suite holds the two to the same choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import orjson

from ..certificate import FORMAT, VERSION
from ..feedback import code_digits
from ..rules import Game, game_to_dict
from ..symmetry import permutations
from ..symmetry_kernels import node_group
from . import search_kernels
from .contracts import INF, UNCAPPED, SearchBug
from .objectives import crush_price
from .options import Options
from .memo import GUESS_TO_FIND, Memo, MemoEntry
from .solver import Solver


KEY_BOUNDS_HELD = 1 << 20  # sets whose own key bound Prover keeps (see Prover._key_cache)


def _pick(gains: list, short: int) -> list | None:
    """From ``gains`` ([hint, class, own bound, memo value, key bound or None]), the classes whose raises add
    up to ``short``, biggest raise first, each with the value it must reach and its key bound; None if they
    cannot."""
    picks = []
    for h, cls, base, value, key in sorted(gains, key=lambda item: item[2] - item[3]):
        if short <= 0:
            break
        if value <= base:
            break
        gain = min(value - base, short)
        need = INF if value >= INF and gain == value - base else base + gain
        picks.append((h, cls, need, key))
        short -= gain
    return picks if short <= 0 else None


class ProvingSolver(Solver):
    """The solver of the certifying search: it also records, for each set the memo by orbit answers, the set it
    was answered from and the element mapping that one onto it, and the history under which each set was
    first searched (whose representatives the memo's entries of its classes are for)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.carried: dict[tuple[bytes, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.searched: dict[tuple[bytes, int], tuple] = {}

    def _search(self, secrets, beta, history, depth, floor=0, orbit=None):
        self.searched.setdefault((secrets.tobytes(), self._keydepth(depth)), history)
        return super()._search(secrets, beta, history, depth, floor, orbit)

    def _orbit_answer(self, orbit, secrets, beta):
        # Solver._orbit_answer, keeping the set and the element it answered from
        for known, entry in self._by_orbit.get(orbit, ()):
            if not (entry.exact or entry.value >= beta):
                continue
            element = self._set_orbits.element(known, secrets)
            if element is None:
                continue
            self.carried[(secrets.tobytes(), orbit[0])] = (known, *element)
            return MemoEntry(entry.value, True, GUESS_TO_FIND) if entry.exact else entry
        return None


class Prover:
    """The claims of one game's certificate, read off the certifying search's memo (see the module)."""

    def __init__(self, game: Game, consistent_only: bool, extra: int, options: Options,
                 progress: Callable[[int], None] | None = None, as_json: bool = False) -> None:
        self.game = game
        # as_json: the claims are kept as their JSON in one buffer (claims_json), not in ``claims``, for a prover
        # whose claims only leave as JSON (parts.run_part). A reference as a list costs about 150 bytes (the
        # list, its guess and its value as int objects) against some 16 as JSON, and one buffer leaves no
        # long-lived small objects among the short-lived lists each claim is built from (an orjson.Fragment
        # per claim did, and held more than the lists). On bc:5:9's part 1722 class 1 (3.3 million nodes) the
        # process peaked at 2030 MB with lists and 1465 MB with the buffer, the same bytes written.
        self.as_json = as_json
        self._json = bytearray()  # as_json: each claim's JSON followed by a comma
        self._count = 0  # claims added, in either form: the next claim's index
        self.options = replace(options, memo=True)
        self.consistent_only = consistent_only
        self.extra = extra
        self.progress = progress
        self.claims: list[list] = []
        self.roots: dict[str, int] = {}  # the root claims (see _prove)
        self.found: tuple | None = None  # least_cost's search: (value, tree in wire form or None, nodes)
        self.witnesses: list[list] = []
        self._witness_ids: dict[tuple, int] = {}
        self._digits = code_digits(game)
        self._perms = permutations(game.positions)
        self._done: dict[tuple, tuple[int, int]] = {}  # (set, depth) -> (claim, value)
        # sets -> their own key bounds (search_kernels.cached_key_bound): bulls-cows asks 260,832 times for
        # 165,231 sets; emptied at KEY_BOUNDS_HELD sets, so that the largest certificates (millions of classes)
        # do not hold every set they met
        self._key_cache = Memo(game.size)
        self._searches = 0  # classes searched again by _raise: each may raise memo entries claim_picks read
        self._active: set[tuple] = set()

    # -- the node's group, as witnesses ---------------------------------------------------------------
    def _witness(self, perm, sigma) -> int:
        key = (tuple(perm), tuple(sigma))
        w = self._witness_ids.get(key)
        if w is None:
            w = self._witness_ids[key] = len(self.witnesses)
            self.witnesses.append([list(key[0]), list(key[1])])
        return w

    def generators(self, history: tuple, secrets: np.ndarray) -> list[int]:
        """Witnesses generating the group whose classes of guesses the search's representatives stand for
        (symmetry.py): each position permutation fixing the history with its symbol map (free and absent
        symbols kept), and the swaps of consecutive free symbols and of consecutive absent symbols."""
        g = self.game
        if g.listed:
            return []  # a list game has no symmetry: every guess is its own class
        role, aut_perm, aut_sigma = node_group(self._digits, g.symbols, np.asarray(history, dtype=np.int64),
                                               secrets, False, self._perms)
        out = []
        ident = list(range(g.positions))
        for perm, sigma in zip(aut_perm, aut_sigma):
            s = [int(sigma[x]) if role[x] == 0 else x for x in range(g.symbols)]
            out.append(self._witness([int(p) for p in perm], s))
        for r in (1, 2):
            same = [x for x in range(g.symbols) if role[x] == r]
            for a, b in zip(same, same[1:]):
                s = list(range(g.symbols))
                s[a], s[b] = b, a
                out.append(self._witness(ident, s))
        return out

    # -- claims -----------------------------------------------------------------------------------------
    def _add(self, history: list, depth: int | None, value: int, gens: list[int], refs: list) -> int:
        # an uncapped search's claims have no depth (nor has a weighted one's: depth None)
        claim = [history, None if depth is None or self.solver.cap is None else depth, None if value >= INF else value,
                 gens, refs]
        if self.as_json:
            self._json += orjson.dumps(claim)
            self._json += b","
        else:
            self.claims.append(claim)
        self._count += 1
        if self.progress is not None and self._count % 1024 == 0:
            self.progress(self._count)
        return self._count - 1

    def claims_json(self) -> memoryview:
        """An as_json prover's claims as the inside of a JSON list (no brackets): the text orjson writes
        between them for the same claims as lists."""
        return memoryview(self._json)[:-1]  # the last comma off (empty stays empty)

    def claim(self, secrets: np.ndarray, history: list, depth: int, target: int) -> int:
        """A claim that ``secrets`` (reached by ``history``: code, game hint, ...) cost at least ``target``
        within ``depth`` guesses (INF: cannot be finished), added with the claims it refers to; its index."""
        s = self.solver
        key = (secrets.tobytes(), s._keydepth(depth))
        known = self._done.get(key)
        if known is not None and known[1] >= target:
            return known[0]
        if key in self._active:
            raise SearchBug("certificate: a set's proof needs itself (a class equal to its set)")
        self._active.add(key)
        if key in s.searched:  # the history the search met it by: the memo's entries are for its representatives
            history = self._history(secrets, depth)
        guesses = [int(c) for c in history[0::2]]
        scan = None if self._all_refuted(secrets, depth, target) else s.scan(secrets, target, tuple(guesses), depth)
        refs: list[list] = []
        t = s.tables
        lb = t.bounds.lb[depth - 1]
        ng, k = (0 if scan is None else scan.guesses.shape[0]), 0
        while k < ng:
            # the kernel reads the memo for every guess from k on; a class searched again below (a fallback
            # in _raise) may raise memo entries, so after one the rest are read again, as _raise would
            searches = self._searches
            stop, count, p_guess, p_hint, p_need, p_key, p_from, p_to, members = self._picks(scan, k, secrets, target, lb,
                                                                                            depth)
            k = stop
            for j in range(count):
                g, need = int(scan.guesses[p_guess[j]]), int(p_need[j])
                cls = None if p_key[j] else members[p_from[j] : p_to[j]]
                self._ref(refs, history, depth, g, int(p_hint[j]), cls, need)
                if self._searches != searches and (j + 1 == count or p_guess[j + 1] != p_guess[j]):
                    k = int(p_guess[j]) + 1
                    break
            else:
                if stop < ng:  # the memo and the key bounds fall short: _raise searches the classes again
                    g = int(scan.guesses[stop])
                    members, starts, big = search_kernels.split_classes(t.table, g, secrets, t.nh, t.win)
                    short = target - int(scan.bounds[stop])
                    for h, cls, need, by_key in self._raise(secrets, history, depth, g, members, starts, big, lb,
                                                            scan.most, short):
                        self._ref(refs, history, depth, g, h, None if by_key else cls, need)
                    k = stop + 1
        self._active.discard(key)
        i = self._add(history, depth, target, self.generators(tuple(guesses), secrets), refs)
        self._done[key] = (i, target)
        return i

    def _all_refuted(self, secrets: np.ndarray, depth: int, target: int) -> bool:
        """Whether no guess's lookahead bound, as the claim's scan takes it, is below ``target``: then the
        claim has no references, and the scan is spared (bulls-cows: 6,076 of its 8,269 claims, whose scans
        were 2.2 of the walk's 4.7 s). The scan bounds each candidate by |S| + the sum over its classes C of
        max(lb[depth - 1][|C|], 3|C| - the set's most key); search_kernels.least_bound gives the least of the
        same over every code, at most the least over the candidates, which are codes. Only where the scan
        takes the most key (lookahead on, a one-hot table) and least_bound takes the set's size."""
        s, t = self.solver, self.solver.tables
        n = secrets.shape[0]
        if not (s.options.lookahead and t.onehot.shape[0] > 0
                and (n <= search_kernels.MASK_MAX or (n <= 255 and t.nh <= 24))):
            return False
        least = search_kernels.least_bound(t.table, t.onehot, secrets, t.nh, t.win, s.bounds.lb[depth - 1],
                                           s.fast_limit[depth - 1], s.excess_limit[depth - 1], s._w0, s._w1,
                                           np.bool_(False), *s._no_view, secrets)
        return int(least) >= target

    def _ref(self, refs: list, history: list, depth: int, g: int, h: int, cls: np.ndarray | None, need: int) -> None:
        """Append guess ``g``'s reference for its class of dense hint ``h``, raised to ``need``: checked in
        place by its own key bound (``cls`` None), or a claim of the class, or, when the memo by orbit
        answered it from an equivalent set, that set's claim mapped onto it."""
        s, t = self.solver, self.solver.tables
        hint = int(t.hints[h])
        if cls is None:  # the checker confirms the class's own key bound itself (its rule 4)
            refs.append([g, hint, -1, need])
            return
        carried = s.carried.get((cls.tobytes(), s._keydepth(depth - 1)))
        if carried is None:
            refs.append([g, hint, self.claim(cls, history + [g, hint], depth - 1, need), -1])
            return
        known, perm, sigma = carried
        j = self.claim(known, self._history(known, depth - 1), depth - 1, need)
        # the element maps c to the code with digits sigma[c[perm[p]]]; a witness puts sigma[c[p]] at w[p]
        refs.append([g, hint, j, self._witness(np.argsort(perm).tolist(), [int(x) for x in sigma])])

    def _picks(self, scan, start: int, secrets: np.ndarray, target: int, lb: np.ndarray, depth: int) -> tuple:
        """search_kernels.claim_picks for the claim's guesses from ``start`` (_raise's first steps and its
        choice, compiled), with the key-bound cache made roomy first."""
        s, t, m = self.solver, self.solver.tables, self.solver.memo
        if len(self._key_cache) >= KEY_BOUNDS_HELD:
            self._key_cache = Memo(self.game.size)
        kc = self._key_cache
        entries = min((scan.guesses.shape[0] - start) * t.nh, 1 << 16)
        kc.make_room(entries, min(entries * secrets.shape[0], 1 << 22))
        return search_kernels.claim_picks(t.table, t.onehot, scan.guesses, scan.bounds, start, secrets, target, scan.most,
                                          lb, t.bounds.lb[0], t.nh, t.win, s.cap is None, m.slots, m.ent, m.pool, m.zob,
                                          s._keydepth(depth - 1), s._w0, s._w1, *s._no_view, kc.slots, kc.ent, kc.pool,
                                          kc.state, kc.zob)

    def _raise(self, secrets, history, depth, g, members, starts, big, lb, most, short):
        """The classes of guess ``g`` to raise by claims, with what each must reach, so that the guess's
        bound gains ``short``: those whose memo entries gain the most first; if the memo falls short,
        the classes are searched again, largest first, under what the guess still needs."""
        s = self.solver
        keydepth = s._keydepth(depth - 1)
        gains = []
        have = 0
        for h in big.tolist():  # largest first: the memo's values, until they cover the shortfall
            cls = members[starts[h] : starts[h + 1]]
            if (cls.tobytes(), keydepth) in self._active:
                continue  # a class equal to an open set (a guess that splits nothing): no help from it
            base = max(int(lb[cls.shape[0]]), 3 * cls.shape[0] - most)
            gains.append([h, cls, base, max(base, self._known(cls, keydepth)), None])
            have += gains[-1][3] - base
            if have >= short:
                break
        if have < short:
            # the class's own key bound costs a pass over every code: taken only now, for the classes the
            # memo knows nothing of (the search stopped raising a guess's classes once it was refuted)
            for item in gains:
                if item[3] == item[2]:
                    item[4] = self._key_bound(item[1])
                    have += max(item[3], item[4]) - item[3]
                    item[3] = max(item[3], item[4])
                    if have >= short:
                        break
        picks = _pick(gains, short) if have >= short else None
        if picks is None:
            left = short - sum(v - b for _h, _c, b, v, _k in gains)
            hist = tuple(int(c) for c in history[0::2]) + (g,)
            for item in gains:
                if left <= 0:
                    break
                was = item[3]  # the class's value so far (the running ``have`` above is the guess's)
                self._searches += 1
                got = s.solve(item[1], was + left, hist, depth - 1)
                if got > was:
                    left -= min(got, was + left) - was
                    item[3] = got
            picks = _pick(gains, short)
        if picks is None:
            raise SearchBug(f"certificate: guess {g} at a set of {secrets.shape[0]} secrets is refuted by the search, "
                            "but its classes' bounds fall short")
        return [(h, cls, need, (self._key_bound(cls) if key is None else key) >= need) for h, cls, need, key in picks]

    def _history(self, secrets: np.ndarray, depth: int) -> list:
        """The history (code, game hint, ...) under which the search first searched a set."""
        s, t = self.solver, self.solver.tables
        guesses = s.searched[(secrets.tobytes(), s._keydepth(depth))]
        return [x for g in guesses for x in (int(g), int(t.hints[t.table[g, secrets[0]]]))]

    def _key_bound(self, cls: np.ndarray) -> int:
        """The class's own key bound, 3|C| - its most key over every code (the checker's rule 4)."""
        s, t, kc = self.solver, self.solver.tables, self._key_cache
        kc.make_room(1, cls.shape[0])
        return int(search_kernels.cached_key_bound(t.table, t.onehot, cls, t.nh, t.win, t.bounds.lb[0], s._w0, s._w1,
                                                   *s._no_view, kc.slots, kc.ent, kc.pool, kc.state, kc.zob))

    def _known(self, cls: np.ndarray, keydepth: int) -> int:
        """The memo's value of a class (a bound or exact), or 0. (The kernel's lookup itself, without a
        MemoEntry: the claims walk asks it half a million times on mm:4:7.)"""
        m = self.solver.memo
        e, _ = search_kernels.memo_find(m.slots, m.ent, m.pool, m.zob, cls, keydepth)
        return 0 if e < 0 else int(m.ent[e, search_kernels.MEMO_VALUE])

    # -- impossibility ------------------------------------------------------------------------------------
    def impossible(self, secrets: np.ndarray, history: list, depth: int) -> int:
        """A claim that no strategy finishes ``secrets`` within ``depth`` guesses, read off the feasibility
        search's memo (every guess it tried has a class it proved impossible one level down)."""
        s = self.solver
        key = (secrets.tobytes(), depth)
        known = self._done.get(key)
        if known is not None:
            return known[0]
        guesses = tuple(int(c) for c in history[0::2])
        scan = s.scan(secrets, INF, guesses, depth)
        refs = []
        t = s.tables
        for g in scan.guesses.tolist():
            members, starts, big = search_kernels.split_classes(t.table, g, secrets, t.nh, t.win)
            hopeless = None
            for h in big.tolist():
                cls = members[starts[h] : starts[h + 1]]
                if s._feasible.get((cls.tobytes(), depth - 1), 0) == -1:
                    hopeless = (h, cls)
                    break
            if hopeless is None:
                for h in big.tolist():
                    cls = members[starts[h] : starts[h + 1]]
                    if not s.feasible(cls, depth - 1, guesses + (g,)):
                        hopeless = (h, cls)
                        break
            if hopeless is None:
                raise SearchBug(f"certificate: guess {g} fits a set the search proved impossible within {depth}")
            h, cls = hopeless
            j = self.impossible(cls, history + [g, int(t.hints[h])], depth - 1)
            refs.append([g, int(t.hints[h]), j, -1])
        i = self._add(history, depth, INF, self.generators(guesses, secrets), refs)
        self._done[key] = (i, INF)
        return i

    # -- the whole game -------------------------------------------------------------------------------
    def least_cost(self, cap: int | None, cost: int | None, secrets: np.ndarray | None = None) -> int:
        """The root claim: no strategy within ``cap`` guesses (None: any number) costs less than ``cost``
        (None: than the least cost, which the search finds) over ``secrets`` (sorted codes; None: every
        secret). The search is exact, and its value, tree (wire form) and node count are kept in ``found``;
        the tree is read off the memo before the claims, so that a known ``cost`` and None give the same
        claims (certify_tree's and certified_search's)."""
        self.solver = ProvingSolver(self.game, cap, self.options, consistent_only=self.consistent_only, extra=self.extra)
        depth = self.solver.full_depth()
        everything = (np.arange(self.game.secret_count, dtype=np.int32) if secrets is None
                      else np.asarray(secrets, dtype=np.int32))
        got = self.solver.solve(everything, INF, (), depth)
        if cost is not None and got < cost:
            raise SearchBug(f"certificate: the certifying search found cost {got} below the proved {cost}")
        if cost is None and got >= INF:
            raise SearchBug(f"certificate: the certifying search found no strategy within {cap} guesses")
        tree = self.solver.tree(everything, depth, ()) if got < INF else None
        counts = self.solver.counts
        self.found = (got, tree, counts.nodes + counts.bound_scans)
        return self.claim(everything, [], depth, got if cost is None else cost)

    def impossible_root(self, within: int) -> int:
        """The root claim: no strategy finishes every secret within ``within`` guesses."""
        self.solver = ProvingSolver(self.game, within, self.options, consistent_only=self.consistent_only)
        everything = np.arange(self.game.secret_count, dtype=np.int32)
        if self.solver.feasible(everything, within):
            raise SearchBug(f"certificate: the certifying search found a strategy within {within} guesses")
        return self.impossible(everything, [], within)

    def document(self, roots: dict, secrets: np.ndarray | None = None, weights: np.ndarray | None = None) -> dict:
        doc = {"format": FORMAT, "version": VERSION, "game": game_to_dict(self.game),
               "consistent_only": self.consistent_only, "extra": self.extra, "roots": roots}
        if secrets is not None:  # a root set and its weights (certificate.py): after the figures, before the long lists
            doc["secrets"] = [int(c) for c in secrets]
        if weights is not None:
            doc["weights"] = [int(w) for w in weights]
        doc["witnesses"], doc["claims"] = self.witnesses, self.claims
        return doc


def _popcount(x: np.ndarray) -> np.ndarray:
    """The set bits of each unsigned integer (int64): numpy's bitwise_count where it has one (2.0 and later)."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x).astype(np.int64)
    bits = np.unpackbits(np.ascontiguousarray(x).view(np.uint8)).reshape(x.size, 8 * x.itemsize)
    return bits.sum(axis=1, dtype=np.int64).reshape(x.shape)


class WeightedProver(Prover):
    """The claims of a certificate with weights (``certificate``'s weights: a cost is each secret's weight
    times its guesses), from the weighted search (``treegen.weighted``), whose lookahead rests on the
    checker's weighted counting bound. A claim's guesses whose bound by the checker's rules 1 and 2 with
    weights falls short raise their classes of three or more secrets, heaviest first, as the search refutes
    a guess: to their lookahead bounds (or the memo's) first, and to what a search in depth finds only where
    that falls short (exact below the beta asked, else a bound at least beta: either is a true lower bound).
    A raised class is checked in place by its own weighted key bound (rule 4) where that reaches it, else it
    is a claim of its own. No memo by orbit: equivalent sets have claims of their own. The claims (and the
    certificate) are held as lists: a value's certificate is small (royale's: 616 claims)."""

    def __init__(self, game: Game, weights: np.ndarray, options: Options = Options(),
                 progress: Callable[[int], None] | None = None) -> None:
        from ..weighted import WeightedSolver

        super().__init__(game, False, 0, options, progress)
        s = self.solver = WeightedSolver(game, weights)
        # rows by secret of 1 << (the guess's dense hint), for keys; the all-bulls bit is the set's own code
        kind = np.uint16 if s.nh <= 16 else np.uint32 if s.nh <= 32 else np.uint64
        self._masks = np.left_shift(kind(1), np.ascontiguousarray(s.table.T).astype(kind))
        self._win_bit = kind(1) << kind(s.win)
        levels = sorted(set(int(w) for w in weights[weights > 0]))
        self._layers = [(t - below, weights >= t) for below, t in zip([0] + levels, levels)]
        self._count_row = np.concatenate([[0], np.cumsum(s.level_of[1:])])  # count(k): k secrets, levels filled in order

    def _keys(self, secrets: np.ndarray) -> np.ndarray:
        """Every code's weighted key over the set (the checker's rule 2 with weights)."""
        out = np.zeros(self.game.size, dtype=np.int64)
        for delta, inside in self._layers:
            layer = secrets[inside[secrets]]
            if layer.size:
                seen = np.bitwise_or.reduce(self._masks[layer], axis=0)
                win = (seen & self._win_bit) != 0
                out += delta * (_popcount(seen & ~self._win_bit) + 2 * win)
        return out

    def _class_bounds(self, secrets: np.ndarray, guesses: np.ndarray, most: int) -> np.ndarray:
        """Each class's bound by the checker's rules 1 and 2 with weights (guesses x dense hints; the all-bulls
        class 0): the larger of the layers' counting bounds, sum_j d_j * count(|C and L_j|), and 3 W(C) - most."""
        s = self.solver
        count = np.zeros((guesses.size, s.nh), dtype=np.int64)
        weight = np.zeros_like(count)
        step = max(1, (1 << 22) // max(1, secrets.size))
        for delta, inside in self._layers:
            layer = secrets[inside[secrets]]
            for lo in range(0, guesses.size, step):
                g = guesses[lo : lo + step]
                hints = s.table[np.ix_(g, layer)].astype(np.int64) + s.nh * np.arange(g.size)[:, None]
                sizes = np.bincount(hints.ravel(), minlength=g.size * s.nh).reshape(g.size, s.nh)
                sizes[:, s.win] = 0
                count[lo : lo + g.size] += delta * self._count_row[sizes]
                weight[lo : lo + g.size] += delta * sizes
        return np.maximum(count, np.where(weight > 0, 3 * weight - most, 0))

    def claim(self, secrets: np.ndarray, history: list, depth: int | None, target: int) -> int:
        """A claim that ``secrets`` (reached by ``history``) cost at least ``target`` (weighted), added with the
        claims it refers to; its index."""
        s = self.solver
        key = secrets.tobytes()
        known = self._done.get(key)
        if known is not None and known[1] >= target:
            return known[0]
        guesses = tuple(int(c) for c in history[0::2])
        candidates = s._guesses(secrets, guesses)
        # the search's bound (rule 1 alone) picks the guesses that may fall short; rule 2 may carry some of them
        bounds = search_kernels.weighted_bounds(s.table, candidates, secrets, s._order(secrets), s.weights, s.nh, s.win,
                                                s.level_of)
        total = int(s.weights[secrets].sum())
        refs: list[list] = []
        maybe = candidates[bounds < target]
        if maybe.size:
            most = int(self._keys(secrets)[candidates].max())
            class_bounds = self._class_bounds(secrets, maybe, most)
            short_ones = np.flatnonzero(total + class_bounds.sum(axis=1) < target)
        else:
            short_ones = maybe
        for k in short_ones.tolist():
            g = int(maybe[k])
            members, starts, _ = search_kernels.split_classes(s.table, g, secrets, s.nh, s.win)
            classes = [(h, members[starts[h] : starts[h + 1]]) for h in range(s.nh)
                       if h != s.win and starts[h + 1] > starts[h]]
            base = [int(class_bounds[k, h]) for h, _ in classes]
            short = target - total - sum(base)
            # As the search refutes a guess: its classes of three or more secrets, heaviest first, raised to their
            # lookahead bounds (or what the memo holds) first, and searched in depth only if that falls short.
            big = sorted((j for j, (_, c) in enumerate(classes) if 3 <= c.shape[0] < secrets.shape[0]),
                         key=lambda j: -int(s.weights[classes[j][1]].sum()))
            raised = list(base)
            for j in big:
                if short <= 0:
                    break
                cls = classes[j][1]
                got = max(s.least_bound(cls), s._known_bound(cls))
                if got > raised[j]:
                    short -= got - raised[j]
                    raised[j] = got
            for j in big:
                if short <= 0:
                    break
                # exact below what is asked, else a bound at least that: the class is raised by what it gives
                want = raised[j] + short
                got = int(min(s.solve(classes[j][1], want, guesses + (g,)), want))
                if got > raised[j]:
                    short -= got - raised[j]
                    raised[j] = got
            for j in big:
                if raised[j] > base[j]:
                    (h, cls), need = classes[j], int(raised[j])
                    hint = int(s.hints[h])
                    own = 3 * int(s.weights[cls].sum()) - int(self._keys(cls).max())
                    refs.append([g, hint, -1, need] if own >= need else
                                [g, hint, self.claim(cls, history + [g, hint], None, need), -1])
            if short > 0:
                raise SearchBug(f"certificate: guess {g} at a set of {secrets.shape[0]} secrets is refuted by the "
                                "weighted search, but its classes' bounds fall short")
        i = self._add(history, None, target, self.generators(guesses, secrets), refs)
        self._done[key] = (i, target)
        return i


def certify_weighted(game: Game, secrets: np.ndarray, weights: np.ndarray, cost: int, options: Options = Options(),
                     progress: Callable[[int], None] | None = None) -> dict:
    """The certificate that no strategy has a weighted cost below ``cost`` over ``secrets`` (sorted codes),
    secret s weighing ``weights[k]`` (positive ints, in the order of ``secrets``, constant on the orbits of the
    game's symmetry, as a value file's setter's are). Raises SearchBug if the search finds a lower cost."""
    secrets = np.asarray(secrets, dtype=np.int32)
    per_code = np.zeros(game.size, dtype=np.int64)
    per_code[secrets] = weights
    prover = WeightedProver(game, per_code, options, progress)
    got = prover.solver.solve(secrets, cost)
    if got < cost:
        raise SearchBug(f"certificate: the weighted search found cost {got} below the proved {cost}")
    prover.roots["least_cost"] = prover.claim(secrets, [], None, cost)
    return prover.document(prover.roots, secrets, weights)


def certify_value(vf, options: Options = Options(), progress: Callable[[int], None] | None = None) -> dict:
    """The certificate of a value file's lower side (``valuefile.certified_value``): against its setter no tree
    averages below its value, i.e. no strategy's cost over the codes the setter draws from, weighted in
    proportion to their probabilities (``valuefile.setter_weights``), is below the value times the weights'
    sum. A setter that draws its codes alike gets a certificate of a root set alone (keys and orbits make it
    compact: mm:4:7's 1511 claims); another, one with weights. Raises SearchBug if the value is not the least."""
    from ..valuefile import setter_weights

    codes, weights = setter_weights(vf)
    cost = vf.value * sum(weights)
    if cost.denominator != 1:  # the setter's trees average exactly v, so v * W is some tree's weighted total
        raise SearchBug(f"certificate: the value {vf.value} times the weights' sum {sum(weights)} is not an integer")
    if set(weights) == {1}:
        return certify_secrets(vf.game, codes, int(cost), options, progress)
    return certify_weighted(vf.game, codes, np.array(weights, dtype=np.int64), int(cost), options, progress)


def certify(game: Game, cap: int | None, cost: int | None, impossible_within: int | None, consistent_only: bool = False,
            extra: int = 0, options: Options = Options(), progress: Callable[[int], None] | None = None) -> dict:
    """The certificate (a JSON-ready dict) that no strategy within ``cap`` guesses (None: any number) costs
    less than ``cost`` (total + ``extra`` per secret at the cap; None: not claimed) and that none finishes
    every secret within ``impossible_within`` guesses (None: not claimed). ``progress(claims)`` hears the
    count now and then. Raises SearchBug if the certifying search contradicts either figure."""
    prover = _prove(game, cap, cost is not None, cost, impossible_within, consistent_only, extra, options, progress)
    return prover.document(prover.roots)


def certify_secrets(game: Game, secrets: np.ndarray, cost: int, options: Options = Options(),
                    progress: Callable[[int], None] | None = None) -> dict:
    """The certificate that no strategy (any number of guesses, any code a guess) has a total below ``cost``
    over ``secrets`` alone (sorted codes, a union of orbits of the game's symmetry: the search's groups are
    the history's, which must map the set onto itself, and the checker checks that they do). A value file's
    lower side when its setter draws uniformly from ``secrets`` (``valuefile.setter_weights``). Raises
    SearchBug if the search finds a lower total."""
    secrets = np.asarray(secrets, dtype=np.int32)
    prover = Prover(game, False, 0, options, progress)
    prover.roots["least_cost"] = prover.least_cost(None, cost, secrets)
    # every secret: no root set named, so the file is the ordinary certificate of that total
    return prover.document(prover.roots, None if secrets.shape[0] == game.secret_count else secrets)


def certified_search(game: Game, cap: int | None, impossible_within: int | None, consistent_only: bool = False,
                     extra: int = 0, options: Options = Options(),
                     progress: Callable[[int], None] | None = None) -> tuple[dict, int, object, int]:
    """The least cost within ``cap`` guesses (None: any number), found by the certifying search, with its
    certificate: (the certificate, the cost, the tree in wire form, the search's nodes). The certificate is
    the same as :func:`certify`'s for that cost. Raises SearchBug if no strategy fits within ``cap``, or one
    finishes within ``impossible_within`` (the caller has settled both: ``solver.settle_cap``)."""
    prover = _prove(game, cap, True, None, impossible_within, consistent_only, extra, options, progress)
    value, tree, nodes = prover.found
    return prover.document(prover.roots), value, tree, nodes


def _prove(game: Game, cap: int | None, least: bool, cost: int | None, impossible_within: int | None,
           consistent_only: bool, extra: int, options: Options, progress) -> Prover:
    """A Prover with its roots made: impossibility within ``impossible_within`` first, then (if ``least``)
    the least cost's claim at ``cost`` (None: the cost found)."""
    prover = Prover(game, consistent_only, extra, options, progress)
    if impossible_within is not None and impossible_within >= 1:
        prover.roots["impossible"] = prover.impossible_root(impossible_within)
        prover._done.clear()
    if least:
        prover.roots["least_cost"] = prover.least_cost(cap if cap is not None and cap < UNCAPPED else None, cost)
    return prover


def certify_tree(tree, options: Options = Options(), progress: Callable[[int], None] | None = None) -> dict:
    """The certificate of what a proved tree's provenance claims (``solve_game``'s figures): no strategy
    within its cap costs less than its total (plus the crush price per secret at the cap), and none
    finishes within one guess fewer than its worst case when the objective settles that first."""
    prov = tree.provenance
    objective, cap = prov["objective"], prov["max_guesses"]
    worst = prov.get("worst_case")
    extra = crush_price(objective, cap, tree.game.size)
    cost = prov["optimal_total"] + extra * prov.get("at_worst", 0)
    return certify(tree.game, cap, cost, None if worst is None else worst - 1, bool(prov.get("consistent_only")),
                   extra, options, progress)
