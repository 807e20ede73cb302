"""Feedback tables and batch scoring (numpy for games with repeats, a numba kernel for the others), checked
against the naive scorer."""

from __future__ import annotations

import numpy as np
import pytest

from treegen import feedback
from treegen.rules import PRESETS, format_code, parse_code, parse_hint, resolve_game, score_codes

SMALL_GAMES = ["bc:2:4", "bc:3:4", "bc:3:5", "mm:2:3", "mm:3:3", "mm:3:2", "mm:4:3"]


def naive_hint(game, naive, guess, secret):
    bulls, cows = naive(game.codes[guess], game.codes[secret])
    return bulls * (game.positions + 1) + cows


@pytest.mark.parametrize("spec", SMALL_GAMES + ["bc:1:2", "mm:1:2", "bc:4:4"])
def test_table_matches_naive_on_every_pair(spec, naive):
    game = resolve_game(spec)
    table = feedback.feedback_table(game)
    want = np.array(
        [[naive_hint(game, naive, g, s) for s in range(game.size)] for g in range(game.size)], dtype=np.uint8
    )
    np.testing.assert_array_equal(table, want)
    for g in range(game.size):
        for s in range(game.size):
            assert score_codes(game, g, s) == table[g, s]


@pytest.mark.parametrize("name", list(PRESETS))
def test_table_matches_naive_on_random_pairs_of_presets(name, naive):
    game = PRESETS[name]
    table = feedback.feedback_table(game)
    rng = np.random.default_rng(list(PRESETS).index(name))
    pairs = rng.integers(0, game.size, size=(3000, 2))
    for g, s in pairs.tolist():
        want = naive_hint(game, naive, g, s)
        assert table[g, s] == want, (format_code(game, g), format_code(game, s))
        assert score_codes(game, g, s) == want


@pytest.mark.parametrize("name", list(PRESETS) + ["bc:3:6", "mm:3:2"])
def test_score_many_on_random_subsets(name, naive):
    game = resolve_game(name)
    table = feedback.feedback_table(game)
    rng = np.random.default_rng(7)
    for _ in range(5):
        guesses = rng.integers(0, game.size, size=rng.integers(1, 40))  # unsorted, may repeat
        secrets = rng.choice(game.size, size=min(game.size, int(rng.integers(1, 600))), replace=False)
        got = feedback.score_many(game, guesses, secrets)
        assert got.dtype == np.uint8
        assert got.shape == (guesses.size, secrets.size)
        np.testing.assert_array_equal(got, table[np.ix_(guesses, secrets)])
        for k in rng.integers(0, guesses.size * secrets.size, size=50).tolist():
            i, j = divmod(k, secrets.size)
            assert got[i, j] == naive_hint(game, naive, int(guesses[i]), int(secrets[j]))
    # Plain lists work too.
    assert feedback.score_many(game, [0], [0]).tolist() == [[game.win_hint]]


@pytest.mark.parametrize("name", ["mastermind", "mm:3:3", "bc:3:5"])
def test_score_many_with_more_guesses_than_secrets(name, naive):
    """Many guesses against a few secrets (as play's suggestions score them), which numpy scores the other
    way round for games with repeats: the same hints, in a C-contiguous uint8 array of guesses by secrets."""
    game = resolve_game(name)
    table = feedback.feedback_table(game)
    guesses = np.arange(game.size)[::-1]
    for secrets in ([5], [0, 7, 3], list(range(1, game.size, max(1, game.size // 20)))):
        got = feedback.score_many(game, guesses, secrets)
        assert got.dtype == np.uint8 and got.flags.c_contiguous and got.shape == (game.size, len(secrets))
        np.testing.assert_array_equal(got, table[np.ix_(guesses, secrets)])
        for i in range(0, game.size, 37):
            for j, s in enumerate(secrets):
                assert got[i, j] == naive_hint(game, naive, int(guesses[i]), s)


@pytest.mark.parametrize("name", list(PRESETS) + SMALL_GAMES)
def test_table_properties(name):
    game = resolve_game(name)
    table = feedback.feedback_table(game)
    assert table.dtype == np.uint8
    assert table.shape == (game.size, game.size)
    # Symmetric; compared in blocks of rows (np.testing on a 10000x10000 transpose is slow).
    for i in range(0, game.size, 1024):
        assert np.array_equal(table[i : i + 1024], table[:, i : i + 1024].T)
    assert not table.flags.writeable
    with pytest.raises(ValueError):
        table[0, 0] = 0
    assert feedback.feedback_table(game) is table
    assert feedback.feedback_table(resolve_game(name)) is table
    assert (np.diagonal(table) == game.win_hint).all()
    assert set(np.unique(table).tolist()) == set(game.possible_hints)


def test_code_digits():
    game = PRESETS["mastermind"]
    digits = feedback.code_digits(game)
    assert digits.dtype == np.uint8 and digits.shape == (1296, 4)
    assert not digits.flags.writeable
    assert digits.tolist() == [list(c) for c in game.codes]


FIRST_GUESS_0123 = {
    "0A0B": 360, "0A1B": 1440, "0A2B": 1260, "0A3B": 264, "0A4B": 9,
    "1A0B": 480, "1A1B": 720, "1A2B": 216, "1A3B": 8,
    "2A0B": 180, "2A1B": 72, "2A2B": 6,
    "3A0B": 24,
    "4A0B": 1,
}  # fmt: skip


def test_first_guess_partition_of_bulls_cows():
    game = PRESETS["bulls-cows"]
    guess = parse_code(game, "0123")
    row = feedback.feedback_table(game)[guess]
    counts = np.bincount(row, minlength=game.hint_slots)
    got = {f"{b}A{c}B": int(counts[game.hint(b, c)]) for b in range(5) for c in range(5 - b) if counts[game.hint(b, c)]}
    assert got == FIRST_GUESS_0123
    assert sum(got.values()) == 5040
    assert counts[game.hint(3, 1)] == 0


def test_consistent_secrets_matches_naive_filter(naive):
    game = PRESETS["bulls-cows"]
    history = [(parse_code(game, "0123"), parse_hint(game, "1A2B")), (parse_code(game, "4567"), parse_hint(game, "0A1B"))]
    want = [s for s in range(game.size) if all(naive_hint(game, naive, g, s) == h for g, h in history)]
    got = feedback.consistent_secrets(game, history)
    assert got.dtype == feedback.CODE_DTYPE
    assert got.tolist() == want
    assert len(want) == 108
    # Restricting to a subset of secrets filters that subset.
    sub = np.array(want[::3] + [0, 1, 2], dtype=np.int64)
    assert feedback.consistent_secrets(game, history, sub).tolist() == want[::3]
    assert feedback.consistent_secrets(game, []).tolist() == list(range(game.size))


def test_consistent_secrets_refuses_inconsistent_hints():
    game = PRESETS["bulls-cows"]
    history = [(parse_code(game, "0123"), parse_hint(game, "4A0B")), (parse_code(game, "4567"), parse_hint(game, "0A1B"))]
    with pytest.raises(feedback.InconsistentHints) as info:
        feedback.consistent_secrets(game, history)
    assert "0123=4A0B" in str(info.value)
    assert "\n" not in str(info.value)


# -- memory: the table's size, the budget, the refusal ----------------------------------------------


def test_table_bytes_is_codes_squared():
    for spec, codes in (("bulls-cows", 5040), ("mastermind", 1296), ("bc:6:10", 151200)):
        game = resolve_game(spec)
        assert feedback.table_bytes(game) == codes * codes
    game = resolve_game("mm:3:3")
    assert feedback.table_bytes(game) == feedback.feedback_table(game).nbytes


def test_memory_total_agrees_with_proc_meminfo():
    with open("/proc/meminfo") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    assert abs(feedback.memory_total() - kb * 1024) <= 0.01 * kb * 1024
    assert feedback.default_memory() == feedback.memory_total() // 4


@pytest.mark.parametrize(
    "text, want",
    [("4G", 4 << 30), ("512M", 512 << 20), ("1.5GB", 3 << 29), ("2GiB", 2 << 30), ("100", 100), ("3k", 3072)],
)
def test_parse_memory(text, want):
    assert feedback.parse_memory(text) == want


@pytest.mark.parametrize("text", ["", "lots", "-1G", "0", "4X", "G"])
def test_parse_memory_refuses(text):
    with pytest.raises(feedback.TreegenError, match="is not a size"):
        feedback.parse_memory(text)


def test_table_over_the_budget_is_refused_before_it_is_built():
    game = resolve_game("bc:6:10")
    with pytest.raises(feedback.TableTooLarge) as exc:
        feedback.feedback_table(game, memory=4 << 30)  # would allocate 22.9 GB if it tried
    msg = str(exc.value)
    assert "151200 codes" in msg and "22.9 GB" in msg and "4.29 GB" in msg and "at most 65536 codes" in msg
    assert not feedback.table_fits(game, 4 << 30) and feedback.table_fits(resolve_game("bc:5:10"), 4 << 30)
    small = resolve_game("mm:3:2")
    with pytest.raises(feedback.TableTooLarge):
        feedback.feedback_table(small, memory=63)
    assert feedback.feedback_table(small, memory=64).shape == (8, 8)
