"""The search's fast bound kernels against their plain versions and a count written here."""

import numpy as np
import pytest
from numba import njit

from treegen.exact import search_kernels, tables
from treegen.exact.solver import Solver, no_view, node_view
from treegen.exact.tables import onehot_table, search_tables
from treegen.rules import resolve_game

NO_KEYS = np.empty(0, dtype=np.uint8)  # ordered_guesses without the codes' keys

NO_ONEHOT = np.empty((0, 0), dtype=np.uint16)  # what a game without a one-hot table passes (read-only)
NO_ONEHOT.flags.writeable = False


def class_sizes(t, guesses, secrets):
    """counts[i, h]: the secrets to which guesses[i] gives dense hint h, counted with numpy."""
    guesses = np.asarray(guesses, dtype=np.int64)
    hints = t.table[guesses][:, secrets].astype(np.int64)
    return np.bincount((np.arange(len(guesses))[:, None] * t.nh + hints).ravel(),
                       minlength=len(guesses) * t.nh).reshape(len(guesses), t.nh)


def plain_bounds(t, guesses, secrets, lbtab, most=None):
    """|S| + sum over each guess's non-winning classes C of lbtab[|C|], or with ``most`` of the larger of
    that and 3|C| - most."""
    counts = class_sizes(t, guesses, secrets)
    costs = lbtab[counts] if most is None else np.maximum(lbtab[counts], 3 * counts - most)
    costs[:, t.win] = 0
    return len(secrets) + costs.sum(axis=1)


def most_key(t, secrets):
    """The most, over every code as the guess, of its non-empty non-winning classes plus 2 if it is one of
    the secrets."""
    seen = class_sizes(t, t.all_guesses, secrets) > 0
    return int((seen.sum(axis=1) + seen[:, t.win]).max())


def least_raised(t, secrets, lbtab):
    """The least bound over every code, classes raised to 3|C| - the set's most key (search_kernels.least_bound),
    INF when no guess's classes all fit (every bound of INF or more means that)."""
    return min(plain_bounds(t, t.all_guesses, secrets, lbtab, most_key(t, secrets)).min(), search_kernels.INF)


@pytest.mark.parametrize("spec", ["bulls-cows", "mastermind", "royale", "bc:3:5", "mm:3:3", "mm:6:3"])
def test_lookahead_and_least_bounds(spec):
    game = resolve_game(spec)
    t = search_tables(game)
    rng = np.random.default_rng(7)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    for depth in (2, 3, 4, 64):
        lbtab = t.bounds.lb[depth - 1]
        for n in (3, 8, 13, 14, 15, 40, 255, 256, 300, 510, 511, 766):
            if n > game.size:
                continue
            secrets = np.sort(rng.choice(game.size, n, replace=False)).astype(np.int32)
            # every code, or a subset (the gather path)
            some = np.sort(rng.choice(game.size, min(game.size, 200), replace=False)).astype(np.int32)
            for guesses in (t.all_guesses, some):
                want = plain_bounds(t, guesses, secrets, lbtab)
                assert (search_kernels.lookahead_bounds(t.table, guesses, secrets, t.nh, t.win, lbtab) == want).all()
            # the routes class_bound sends to least_bound: hint masks from the one-hot table, or byte
            # counters in 2 or 3 words (bigger sets, and every set of a game without the table); past 255
            # secrets, lookahead_bounds above adds them 255 at a time into 16-bit lanes (the sizes straddle
            # that), as class_bound does (test_class_bound_is_the_least_bound_and_is_memoised)
            for onehot in (t.onehot, NO_ONEHOT):
                if (n <= search_kernels.MASK_MAX and onehot.shape[0]) or (n <= 255 and t.nh <= 24):
                    got = search_kernels.least_bound(t.table, onehot, secrets, t.nh, t.win, lbtab, t.fast_limit[depth - 1],
                                              t.excess_limit[depth - 1], w0, w1, False, *no_view(onehot), secrets)
                    assert got == least_raised(t, secrets, lbtab)


@pytest.mark.parametrize("spec", ["mm:3:3", "bulls-cows"])
def test_least_bound_with_no_guess_left_for_classes(spec):
    """With one guess left (lb[0]: no class may remain), one secret costs its own guess and more secrets
    cannot be solved: the cut on low keys keeps the first and returns INF for the rest, by every route."""
    game = resolve_game(spec)
    t = search_tables(game)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    lbtab = t.bounds.lb[0]
    for n, want in ((1, 1), (3, search_kernels.INF), (9, search_kernels.INF)):
        secrets = np.arange(n, dtype=np.int32) * 2
        assert least_raised(t, secrets, lbtab) == want
        for onehot in (t.onehot, NO_ONEHOT):
            got = search_kernels.least_bound(t.table, onehot, secrets, t.nh, t.win, lbtab, t.fast_limit[0], t.excess_limit[0],
                                      w0, w1, False, *no_view(onehot), secrets)
            assert got == want


@pytest.mark.parametrize("spec", ["bulls-cows", "mastermind"])
def test_least_bound_on_search_classes(spec):
    """The search asks for the least bound of classes left by earlier guesses, whose best guesses tend
    to have a class above the fast limit (the route that checks guesses in order of their fast value)."""
    game = resolve_game(spec)
    t = search_tables(game)
    rng = np.random.default_rng(11)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    seen = set()
    raised = set()
    for _ in range(60):
        secrets = np.arange(game.size, dtype=np.int32)
        while secrets.shape[0] > 3:
            g = int(rng.integers(game.size))
            row = t.table[g][secrets]
            sizes = np.bincount(row, minlength=t.nh)
            sizes[t.win] = 0
            h = int(rng.choice(np.flatnonzero(sizes >= 3))) if (sizes >= 3).any() else -1
            if h < 0:
                break
            secrets = secrets[row == h]
            if secrets.shape[0] > 255:
                continue
            for depth in (3, 4, 64):
                lbtab = t.bounds.lb[depth - 1]
                want = least_raised(t, secrets, lbtab)
                raised.add(want > plain_bounds(t, t.all_guesses, secrets, lbtab).min())
                for onehot in (t.onehot, NO_ONEHOT):
                    got = search_kernels.least_bound(t.table, onehot, secrets, t.nh, t.win, lbtab, t.fast_limit[depth - 1],
                                              t.excess_limit[depth - 1], w0, w1, False, *no_view(onehot), secrets)
                    assert got == want
                seen.add(secrets.shape[0] <= search_kernels.MASK_MAX and secrets.shape[0] > t.fast_limit[depth - 1])
    assert True in seen  # the checked route was taken
    assert True in raised  # and 3|C| - most passed the counting bound somewhere


@pytest.mark.parametrize("spec, dtype", [("bulls-cows", np.uint16), ("mastermind", np.uint16), ("royale", np.uint32)])
def test_onehot_table(spec, dtype, monkeypatch):
    """One bit per pair, at the pair's dense hint: 16 bits for games of at most 16 hints, 32 for up to 32
    (royale has 20: five positions); none for more hints or a table past the size limit."""
    game = resolve_game(spec)
    t = search_tables(game)
    assert t.onehot.dtype == dtype and t.onehot.shape == t.table.shape
    rng = np.random.default_rng(5)
    for _ in range(2000):
        s, g = (int(x) for x in rng.integers(game.size, size=2))
        assert t.onehot[s, g] == 1 << int(t.table[s, g])
    assert onehot_table(t.table[:600, :600], 33).shape == (0, 0)  # too many hints
    monkeypatch.setattr(tables, "ONEHOT_MAX_BYTES", np.dtype(dtype).itemsize * 600 * 600 - 1)
    assert onehot_table(t.table[:600, :600], t.nh).shape == (0, 0)  # too big


def test_member_splits():
    """The first secret that tells the others apart, and the most classes a secret splits them into."""
    game = resolve_game("bulls-cows")
    t = search_tables(game)
    rng = np.random.default_rng(3)
    for _ in range(300):
        secrets = np.sort(rng.choice(game.size, int(rng.integers(3, 12)), replace=False)).astype(np.int32)
        classes = [len({int(t.table[s, x]) for x in secrets if x != s}) for s in secrets]
        perfect = [int(s) for s, c in zip(secrets, classes) if c == len(secrets) - 1]
        g, most = search_kernels.member_splits(t.table, secrets, t.nh)
        assert g == (perfect[0] if perfect else -1)
        if not perfect:
            assert most == max(classes)


@pytest.mark.parametrize("spec, n", [("bulls-cows", 400), ("bulls-cows", 766), ("royale", 600), ("mm:5:3", 60),
                                     ("mastermind", 20), ("mm:6:3", 30)])
def test_class_bound_is_the_least_bound_and_is_memoised(spec, n):
    """class_bound of a set with no memo entry is the least lookahead bound over every code (its
    shortcuts find the same value), and it memoises it, by every route: hint masks from the game's one-hot
    table (16 or 32 bits) for small sets, packed byte counters without one (up to 24 hints; 16-bit lanes
    for sets over 255 secrets), and a plain count for games of more hints without a table (mm:6:3 has
    27)."""
    from treegen.exact.memo import Memo

    game = resolve_game(spec)
    t = search_tables(game)
    rng = np.random.default_rng(2)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    for onehot in (t.onehot, NO_ONEHOT):
        for depth in (4, 64):
            memo = Memo(game.size)
            for _ in range(5):
                secrets = np.sort(rng.choice(game.size, n, replace=False)).astype(np.int32)
                memo.make_room(1, n)
                counts = np.zeros(3, dtype=np.int64)
                got = search_kernels.class_bound(t.table, onehot, secrets, depth, 0, t.nh, t.win, t.bounds.lb,
                                          t.fast_limit, t.excess_limit, *memo.arrays(), w0, w1, counts,
                                          *no_view(onehot), secrets)
                want = least_raised(t, secrets, t.bounds.lb[depth - 1])
                assert got == want
                assert memo.get(secrets, 0).value == got


@pytest.mark.parametrize("spec", ["bulls-cows", "royale"])
def test_most_key(spec):
    """least_bound's keys_only: the most key of a set (16- and 32-bit one-hot tables), each code's key left
    in the scratch bytes."""
    game = resolve_game(spec)
    t = search_tables(game)
    rng = np.random.default_rng(9)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    for n in (1, 2, 5, 30, 64, 200):
        secrets = np.sort(rng.choice(game.size, n, replace=False)).astype(np.int32)
        seen = class_sizes(t, t.all_guesses, secrets) > 0
        keys = seen.sum(axis=1) + seen[:, t.win]
        lbtab = t.bounds.lb[63]
        assert search_kernels.least_bound(t.table, t.onehot, secrets, t.nh, t.win, lbtab, 0, 0, w0, w1, True,
                                   *no_view(t.onehot), secrets) == keys.max()
        assert (w1.view(np.uint8)[:game.size] == keys).all()


def search_classes(t, rng, sets):
    """Classes the search meets: from all codes, follow random guesses into a random class of 3 or more."""
    size = t.table.shape[0]
    out = []
    while len(out) < sets:
        secrets = np.arange(size, dtype=np.int32)
        while secrets.shape[0] > 3 and len(out) < sets:
            row = t.table[int(rng.integers(size))][secrets]
            sizes = np.bincount(row, minlength=t.nh)
            sizes[t.win] = 0
            if not (sizes >= 3).any():
                break
            secrets = secrets[row == int(rng.choice(np.flatnonzero(sizes >= 3)))]
            out.append(secrets)
    return out


@pytest.mark.parametrize("spec, sets", [("bulls-cows", 25), ("royale", 40), ("mm:6:3", 200)])
def test_ordered_guesses_with_keys(spec, sets):
    """Given every code's key over the set, ordered_guesses counts the classes of fewer guesses (those whose
    fast value 3n - key is below beta, and of the others those below the least bound found) and returns the
    same guesses, bounds and least bound as without keys: a numpy count's, at betas that cut anywhere,
    capped and uncapped."""
    game = resolve_game(spec)
    rng = np.random.default_rng(2)
    classes = search_classes(search_tables(game), rng, sets)
    cut = 0
    for t in (search_tables(game), search_tables(game, 5 * game.size + 1)):
        for secrets in classes:
            seen = class_sizes(t, t.all_guesses, secrets) > 0
            keys = (seen.sum(axis=1) + seen[:, t.win]).astype(np.uint8)  # classes, and twice 1 if a secret
            most = int(keys.max())
            fast = 3 * len(secrets) - keys.astype(np.int64)
            for depth in (3, 64):
                lbtab = t.bounds.lb[depth - 1]
                want = plain_bounds(t, t.all_guesses, secrets, lbtab, most)
                assert (fast <= want).all()  # the fast value bounds every guess: why the keys may skip it
                finite = np.sort(want[want < search_kernels.INF])
                for beta in {int(b) for b in finite[:: max(1, len(finite) // 4)]} | {search_kernels.INF}:
                    got = search_kernels.ordered_guesses(t.table, t.all_guesses, secrets, t.nh, t.win, lbtab, True,
                                                         beta, most, keys)
                    plain = search_kernels.ordered_guesses(t.table, t.all_guesses, secrets, t.nh, t.win, lbtab, True,
                                                           beta, most, NO_KEYS)
                    assert all((a == b).all() for a, b in zip(got[:2], plain[:2])) and got[2] == plain[2]
                    below = want < beta
                    assert sorted(got[0]) == list(np.flatnonzero(below)) and (got[1] == want[got[0]]).all()
                    assert got[2] == (want[~below].min() if (~below).any() else search_kernels.NO_BOUND)
                    cut += (fast >= beta).any()
    assert cut  # the keys did leave guesses out


@pytest.mark.parametrize("spec, sets", [("bulls-cows", 25), ("royale", 40), ("mm:6:3", 200)])
def test_raised_bounds_on_search_classes(spec, sets):
    """With a set's most key, every guess's bound (ordered_guesses, packed 2 or 3 words or plain counts) and
    the least bound by every route class_bound takes (one-hot masks, packed bytes, plain counts; mm:6:3 has
    27 hints and no table) match a numpy count of the raised classes, capped and uncapped, with and without
    the crush price; and the raise passes the counting bound somewhere on each route."""
    from treegen.exact.memo import Memo

    game = resolve_game(spec)
    rng = np.random.default_rng(1)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    classes = search_classes(search_tables(game), rng, sets)  # mm:6:3's raise is rarer: more of them
    active = {}
    for t in (search_tables(game), search_tables(game, 5 * game.size + 1)):
        for secrets in classes:
            n = secrets.shape[0]
            most = most_key(t, secrets)
            for depth in (3, 4, 64):
                lbtab = t.bounds.lb[depth - 1]
                guesses, bounds, rest = search_kernels.ordered_guesses(t.table, t.all_guesses, secrets, t.nh, t.win, lbtab,
                                                                True, search_kernels.INF, most, NO_KEYS)
                want = plain_bounds(t, t.all_guesses, secrets, lbtab, most)
                assert (bounds == want[guesses]).all() and len(guesses) == (want < search_kernels.INF).sum()
                assert rest == (want[want >= search_kernels.INF].min() if len(guesses) < game.size else search_kernels.NO_BOUND)
                plain = plain_bounds(t, t.all_guesses, secrets, lbtab).min()
                for onehot in (t.onehot, NO_ONEHOT):
                    memo = Memo(game.size)
                    memo.make_room(1, n)
                    got = search_kernels.class_bound(t.table, onehot, secrets, depth, 0, t.nh, t.win, t.bounds.lb, t.fast_limit,
                                              t.excess_limit, *memo.arrays(), w0, w1, np.zeros(3, dtype=np.int64),
                                              *no_view(onehot), secrets)
                    if n <= 2 or t.bounds.lb[depth, n] >= search_kernels.INF or memo.get(secrets, 0).exact:
                        continue  # closed forms and member_splits' exact values
                    assert got == least_raised(t, secrets, lbtab)
                    route = ("masks" if n <= search_kernels.MASK_MAX and onehot.shape[0] else
                             "packed" if n <= 255 and t.nh <= 24 else "lanes" if t.nh <= 24 else "plain")
                    active[route] = active.get(route, False) or got > plain
    assert all(active.values()) and active, active


def test_scan_takes_the_sets_most_key():
    """Solver.scan bounds a node's guesses with the set's most key (and 3n, no raise, without lookahead)."""
    game = resolve_game("bulls-cows")
    rng = np.random.default_rng(4)
    for secrets in search_classes(search_tables(game), rng, 10):
        scan = Solver(game).scan(secrets, search_kernels.NO_BOUND, (), 64)
        assert scan.most == most_key(search_tables(game), secrets)
        assert Solver(game, lookahead=False).scan(secrets, search_kernels.NO_BOUND, (), 64).most == 3 * len(secrets)


@pytest.mark.parametrize("spec, dtype", [("bulls-cows", np.uint16), ("royale", np.uint32), ("mm:5:4", np.uint32)])
def test_shifted_most_key(spec, dtype, monkeypatch):
    """A game without a one-hot table takes a set's most key from hints shifted into place: the most, over
    every code, of its non-empty non-winning classes plus 2 if it is one of the secrets (numpy's count), each
    code's key left in the scratch bytes; and the table it goes without is an empty stand-in of the masks'
    type, 16 or 32 bits (the view of its nodes is of that type)."""
    game = resolve_game(spec)
    t = search_tables(game)
    monkeypatch.setattr(tables, "ONEHOT_MAX_BYTES", 0)
    stand_in = onehot_table(t.table, t.nh)
    assert stand_in.shape == (0, 0) and stand_in.dtype == dtype
    rng = np.random.default_rng(11)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    for n in (1, 2, 3, 7, 64, 65, 300, 700):
        secrets = np.sort(rng.choice(game.size, min(n, game.size), replace=False)).astype(np.int32)
        seen = class_sizes(t, t.all_guesses, secrets) > 0
        keys = seen.sum(axis=1) + seen[:, t.win]
        assert search_kernels.shifted_most_key(t.table, secrets, t.nh, t.win, w0, w1) == keys.max()
        assert (w1.view(np.uint8)[:game.size] == keys).all()


@pytest.mark.parametrize("spec, nodes, onehot", [("bulls-cows", 6, True), ("royale", 6, True), ("mastermind", 10, True),
                                                 ("royale", 6, False), ("mastermind", 10, False)])
def test_least_bound_within_a_node(spec, nodes, onehot, monkeypatch):
    """Within a node, least_bound takes the codes by their keys over the node's set and stops once no code
    left can change the result: the same value as over every code (numpy's count), for every class of up
    to MASK_MAX secrets of the node's guesses, capped and uncapped, one after another on one node's
    view (rows filled part way by the classes before); and it did leave codes untaken. The same in a game
    without a one-hot table (its empty stand-in), whose node's keys are shifted (shifted_most_key) and whose
    view's rows are filled with the same bits, shifted into place, for classes of up to SHIFTED_MASK_MAX."""
    game = resolve_game(spec)
    rng = np.random.default_rng(4)
    w0 = np.empty(game.size, dtype=np.uint64)
    w1 = np.empty(game.size, dtype=np.uint64)
    t = search_tables(game)
    if not onehot:
        monkeypatch.setattr(tables, "ONEHOT_MAX_BYTES", 0)
    table = onehot_table(t.table, t.nh) if not onehot else t.onehot
    partial = False
    sets = [s for s in search_classes(t, rng, 60) if 20 <= s.shape[0] <= 400][:nodes]
    assert len(sets) == nodes
    for node in sets:
        if onehot:
            most = search_kernels.least_bound(t.table, t.onehot, node, t.nh, t.win, t.bounds.lb[0], 0, 0, w0, w1, True,
                                              *no_view(t.onehot), node)
        else:
            most = search_kernels.shifted_most_key(t.table, node, t.nh, t.win, w0, w1)
        view = node_view(table, node, w1.view(np.uint8)[: game.size])
        for g in rng.choice(game.size, 25, replace=False):
            row = t.table[g][node]
            for h in np.unique(row):
                secrets = node[row == h]
                if not 3 <= secrets.shape[0] <= (search_kernels.MASK_MAX if onehot else search_kernels.SHIFTED_MASK_MAX):
                    continue
                for depth in (3, 64):
                    lbtab = t.bounds.lb[depth - 1]
                    got = search_kernels.least_bound(t.table, table, secrets, t.nh, t.win, lbtab, t.fast_limit[depth - 1],
                                              t.excess_limit[depth - 1], w0, w1, False, *view, node)
                    assert got == least_raised(t, secrets, lbtab)
        # the codes sorted by key over the node, highest first, codes in order within a run of one key
        runs = int(view.runs[0, search_kernels.RUNS])
        ends, keys = view.runs[0, :runs], view.runs[1, :runs]
        assert keys[0] == most and (np.diff(keys) < 0).all() and ends[-1] == game.size
        assert (view.order == np.argsort(-view.nkeys.astype(np.int64), kind="stable")).all()
        assert (np.repeat(keys, np.diff(ends, prepend=0)) == view.nkeys[view.order]).all()
        rows = np.flatnonzero(view.built)
        partial = partial or (view.built[rows] < game.size).any()
        # the rows filled hold the node's one-hot rows with their columns in the view's order
        for r in rows[:5]:
            assert (view.src[r, : view.built[r]] == t.onehot[node[r], view.order[: view.built[r]]]).all()
            assert view.src.dtype == t.onehot.dtype
    assert partial


@pytest.mark.parametrize("spec", ["bulls-cows", "mastermind", "royale"])
def test_split_classes(spec):
    """Secrets grouped by hint in their own order, and the big classes (3 or more, not the winning hint)
    largest first, ties by the lower hint: against numpy."""
    game = resolve_game(spec)
    t = search_tables(game)
    rng = np.random.default_rng(9)
    for n in (1, 5, 40, 300):
        secrets = np.sort(rng.choice(game.size, n, replace=False)).astype(np.int32)
        for g in rng.choice(game.size, 30, replace=False):
            hints = t.table[g][secrets]
            order = np.argsort(hints, kind="stable")
            sizes = np.bincount(hints, minlength=t.nh)
            want_big = [h for h in sorted(range(t.nh), key=lambda h: (-sizes[h], h)) if h != t.win and sizes[h] >= 3]
            members, starts, big = search_kernels.split_classes(t.table, int(g), secrets, t.nh, t.win)
            assert (members == secrets[order]).all()
            assert (starts == np.concatenate(([0], np.cumsum(sizes)))).all()
            assert list(big) == want_big


@njit
def _through_words_as(words, like, index, value):
    """What _words_as gives inside compiled code: every item, its length, and a write through it."""
    view = search_kernels._words_as(words, like.dtype)
    view[index] = value
    return view.copy()


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_words_as_is_numpys_view(dtype):
    """least_bound's view of its scratch words as hint masks or key bytes, against numpy's own view."""
    rng = np.random.default_rng(5)
    words = rng.integers(0, 1 << 63, size=7, dtype=np.uint64)
    want = words.copy().view(dtype)
    want[3] = 9
    got = _through_words_as(words, np.empty(0, dtype=dtype), 3, dtype(9))
    assert got.dtype == dtype and got.tolist() == want.tolist()
    assert words.view(dtype).tolist() == want.tolist()  # the write went to the words themselves


# -- the rule of the kernel files: a kernel calls only kernels in its own file ---------------------------------


def test_a_kernel_uses_only_its_own_files_kernels_and_constants():
    """numba's disk cache keys a compiled kernel on its own file: a kernel that called a kernel (or read a
    constant) of another file would keep a stale copy of it after an edit there. So the compiled functions of
    each file that compiles kernels (those calling jitcache.ensure_cache) may name, besides their own file's
    definitions, only numpy and numba."""
    import ast
    from pathlib import Path

    import treegen

    package = Path(treegen.__file__).parent
    allowed = {"np", "njit", "types", "ir", "intrinsic", "arrayobj", "impl_ret_borrowed", "config", "prange"}
    files = [p for p in sorted(package.rglob("*.py")) if "ensure_cache(__file__)" in p.read_text()]
    assert {p.relative_to(package).as_posix() for p in files} >= {
        "exact/search_kernels.py", "symmetry_kernels.py", "scoring_kernels.py"}
    for path in files:
        tree = ast.parse(path.read_text())
        imported = set()
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        kernels = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and any(
            "njit" in ast.unparse(d) or "intrinsic" in ast.unparse(d) for d in n.decorator_list)]
        assert kernels, path
        for kernel in kernels:
            names = {n.id for n in ast.walk(kernel) if isinstance(n, ast.Name)}
            assert names & imported <= allowed, (path.name, kernel.name, names & imported - allowed)
