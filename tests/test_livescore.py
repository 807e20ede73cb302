"""Scoring without a table (treegen.livescore) against the table, itertools and the naive scorer."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from treegen import feedback, scoring_kernels
from treegen.exact import search_kernels
from treegen.livescore import GUESS_BLOCK, LiveCodes, all_digits
from treegen.rules import resolve_game
from treegen.strategies import STRATEGIES, applicable, build_tree
from treegen.tree import tree_to_bytes

GAMES = ["bc:2:4", "bc:3:5", "mm:3:3", "mm:2:5", "bc:1:2", "mm:1:2", "bc:4:4", "mastermind", "royale"]


def _itertools_codes(game):
    """Every code's symbols in lexicographic order, straight from itertools (not from treegen)."""
    n, p = game.symbols, game.positions
    it = itertools.product(range(n), repeat=p) if game.repeats else itertools.permutations(range(n), p)
    return np.array(list(it), dtype=np.uint8).reshape(-1, p)


@pytest.mark.parametrize("spec", GAMES + ["bc:5:7", "mm:4:7"])
def test_all_digits_is_the_code_order(spec):
    game = resolve_game(spec)
    np.testing.assert_array_equal(all_digits(game.positions, game.symbols, game.repeats, game.size), _itertools_codes(game))


def test_all_digits_of_a_ten_position_game():
    game = resolve_game("bc:10:10", large=True)
    digits = all_digits(10, 10, False, game.size)
    assert digits.shape == (3628800, 10)
    assert digits[0].tolist() == list(range(10)) and digits[-1].tolist() == list(range(9, -1, -1))
    # Every row a permutation, rows strictly increasing as tuples: so every permutation exactly once.
    assert (np.sort(digits, axis=1) == np.arange(10)).all()
    keys = digits.astype(np.int64) @ (10 ** np.arange(9, -1, -1))
    assert (np.diff(keys) > 0).all()


@pytest.mark.parametrize("spec", GAMES)
def test_hints_match_the_table_and_the_naive_scorer(spec, naive):
    game = resolve_game(spec)
    live = LiveCodes.of(game)
    table = feedback.feedback_table(game)
    codes = _itertools_codes(game)
    every = np.arange(game.size, dtype=np.int32)
    rng = np.random.default_rng(3)
    for guess in rng.integers(0, game.size, size=20).tolist():
        got = live.hints(guess, every)
        np.testing.assert_array_equal(got, table[guess])
        for s in rng.integers(0, game.size, size=20).tolist():
            b, c = naive(tuple(codes[guess]), tuple(codes[s]))
            assert got[s] == b * (game.positions + 1) + c


def test_hints_in_a_ten_position_game(naive):
    game = resolve_game("mm:10:3", large=True)  # 59049 codes, repeats
    live = LiveCodes.of(game)
    codes = _itertools_codes(game)
    rng = np.random.default_rng(5)
    secrets = np.sort(rng.choice(game.size, size=500, replace=False)).astype(np.int32)
    for guess in rng.integers(0, game.size, size=5).tolist():
        got = live.hints(guess, secrets)
        for s, h in zip(secrets.tolist(), got.tolist()):
            b, c = naive(tuple(codes[guess]), tuple(codes[s]))
            assert h == b * 11 + c


@pytest.mark.parametrize("spec", ["bc:3:5", "mm:3:4", "mastermind"])
def test_scores_and_splits_are_the_tables(spec):
    game = resolve_game(spec)
    live = LiveCodes.of(game)
    table = feedback.feedback_table(game)
    rng = np.random.default_rng(11)
    slots = np.array(sorted(game.possible_hints), dtype=np.int64)
    for _ in range(5):
        secrets = np.sort(rng.choice(game.size, size=int(rng.integers(3, game.size)), replace=False)).astype(np.int32)
        guesses = np.sort(rng.choice(game.size, size=int(rng.integers(1, game.size)), replace=False)).astype(np.int32)
        for name in ("minimax", "expected-size", "entropy", "n-ln-n-plus-1"):
            s = STRATEGIES[name]
            f = np.zeros(1) if s.maximum else np.ascontiguousarray(s.f(np.arange(secrets.size + 1.0), secrets.size))
            want = scoring_kernels.guess_scores(table, guesses, secrets, game.hint_slots, slots, s.maximum, f)
            got = live.scores(guesses, secrets, slots, s.maximum, f)
            assert got.tobytes() == want.tobytes(), name  # bit for bit: same sums in the same order
        guess = int(rng.integers(game.size))
        order, starts = live.split(guess, secrets)
        want_order, want_starts = search_kernels.split_by_hint(table, guess, secrets, game.hint_slots)
        np.testing.assert_array_equal(order, want_order)
        np.testing.assert_array_equal(starts, want_starts)


def test_scores_over_several_guess_blocks():
    game = resolve_game("mm:5:6")  # 7776 codes
    table = feedback.feedback_table(game)
    guesses = np.arange(game.size, dtype=np.int32)
    guesses = np.concatenate([guesses, guesses])[: GUESS_BLOCK + 100]  # more than one block
    secrets = np.arange(0, game.size, 7, dtype=np.int32)
    slots = np.array(sorted(game.possible_hints), dtype=np.int64)
    want = scoring_kernels.guess_scores(table, guesses, secrets, game.hint_slots, slots, True, np.zeros(1))
    for live in (LiveCodes.of(game), LiveCodes.of(game, packed=False)):
        np.testing.assert_array_equal(live.scores(guesses, secrets, slots, True, np.zeros(1)), want)


@pytest.mark.parametrize("spec", ["bc:3:5", "mm:3:4", "mastermind"])
def test_builds_without_a_table_are_byte_identical(spec):
    game = resolve_game(spec)
    for name in applicable(game):
        kinds = [{}]
        if STRATEGIES[name].kind == "scored" and game.size < 1000:
            kinds += [{"tie": "paper"}, {"consistent_only": True}]
        for kw in kinds:
            with_table = build_tree(game, name, table=True, **kw)
            without = build_tree(game, name, memory=0, **kw)  # a budget no table fits: on the fly
            assert tree_to_bytes(without.tree) == tree_to_bytes(with_table.tree), (name, kw)


def test_bulls_cows_without_a_table():
    game = resolve_game("bulls-cows")
    for name in ("expected-size", "minimax"):
        assert tree_to_bytes(build_tree(game, name, memory=0).tree) == tree_to_bytes(build_tree(game, name, table=True).tree)


@pytest.mark.parametrize("spec", ["bc:6:10", "mm:6:6", "mm:3:2", "bc:3:5", "royale", "mm:4:16", "bc:8:8"])
def test_packed_kernels_agree_with_the_generic_ones(spec, naive):
    game = resolve_game(spec, large=True)
    fast, plain = LiveCodes.of(game), LiveCodes.of(game, packed=False)
    assert fast.pos is not None and plain.pos is None  # positions * symbols <= 64 in each of these (64 in mm:4:16 and bc:8:8)
    rng = np.random.default_rng(4)
    secrets = np.sort(rng.choice(game.size, size=min(game.size, 400), replace=False)).astype(np.int32)
    guesses = np.sort(rng.choice(game.size, size=min(game.size, 300), replace=False)).astype(np.int32)
    slots = np.array(sorted(game.possible_hints), dtype=np.int64)
    f = np.ascontiguousarray(STRATEGIES["entropy"].f(np.arange(secrets.size + 1.0), secrets.size))
    assert fast.scores(guesses, secrets, slots, False, f).tobytes() == plain.scores(guesses, secrets, slots, False, f).tobytes()
    for guess in guesses[:10].tolist():
        got = fast.hints(guess, secrets)
        np.testing.assert_array_equal(got, plain.hints(guess, secrets))
        for s, h in list(zip(secrets.tolist(), got.tolist()))[:30]:
            b, c = naive(tuple(plain.digits[guess]), tuple(plain.digits[s]))
            assert h == b * (game.positions + 1) + c


def test_ten_positions_use_the_generic_kernel():
    assert LiveCodes.of(resolve_game("bc:10:10", large=True)).pos is None  # 100 position-symbol bits


def test_which_builds_read_the_table():
    from treegen.feedback import TableTooLarge
    from treegen.strategies import uses_table

    wide = resolve_game("bc:3:22")  # 66 position-symbol bits, past the packed masks: the generic kernel, slower than the table
    assert uses_table(wide, "entropy") and not uses_table(wide, "entropy", memory=1000)
    assert not uses_table(wide, "first-consistent")  # nothing scored: one split a node
    assert not uses_table(resolve_game("mastermind"), "entropy")  # the packed kernel is as fast
    with pytest.raises(TableTooLarge):
        build_tree(resolve_game("mm:3:3"), "entropy", table=True, memory=10)
    a = build_tree(wide, "minimax", table=True)
    b = build_tree(wide, "minimax", table=False)
    assert tree_to_bytes(a.tree) == tree_to_bytes(b.tree)
