"""The evil host (treegen.adversary): its W values and answers against brute force, the seed's example, and
the proved worst cases it forces on the shipped optimal-worst trees and on a naive player."""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from test_tree import naive_codes, naive_hint

from treegen import tree as T
from treegen.adversary import EXACT_LIMIT, EvilHost
from treegen.rules import format_code, format_hint, parse_code, resolve_game

TREES = Path(__file__).resolve().parent.parent / "trees"
TINY = ["mm:2:3", "bc:3:4", "mm:3:3", "bc:2:5"]


# -- independent references, by brute force over code strings ---------------------------------------------


def win_of(game) -> str:
    return f"{game.positions}A0B"


hint_of = lru_cache(maxsize=None)(naive_hint)  # the same naive scorer, remembered (the references rescore a lot)


def split(guess: str, alive) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for s in alive:
        groups.setdefault(hint_of(guess, s), []).append(s)
    return {h: tuple(v) for h, v in groups.items()}


def naive_worst(game):
    """W(S) by exhaustive minimax: the least guesses that solve every secret of S in the worst case,
    over every code of the game as a guess (the final all-bulls guess counts)."""
    codes = naive_codes(game)
    win = win_of(game)

    @lru_cache(maxsize=None)
    def w(alive: tuple[str, ...]) -> int:
        if len(alive) == 1:
            return 1
        best = None
        for g in codes:
            groups = split(g, alive)
            if len(groups) == 1 and g not in alive:
                continue  # learns nothing
            value = 1 + max((w(c) for h, c in groups.items() if h != win), default=0)
            best = value if best is None else min(best, value)
        return best

    return w


def naive_choice(game, alive, guess, w) -> tuple[str, dict[str, int]]:
    """The host's rule written from its definition: the largest W, then the largest class, then the lowest
    hint (bulls, then cows)."""
    win = win_of(game)
    groups = split(guess, alive)
    worst = {h: 0 if h == win else w(c) for h, c in groups.items()}
    hint = min(groups, key=lambda h: (-worst[h], -len(groups[h]), int(h[0]), int(h[2])))
    return hint, worst


def first_consistent_player(game):
    """A player who always guesses the lowest code that gives every hint so far."""
    codes = naive_codes(game)

    def play(history):
        return next(s for s in codes if all(naive_hint(g, s) == h for g, h in history))

    return play


def play_against(host: EvilHost, player) -> list[tuple[str, str]]:
    """A whole game: the player's guesses and the host's hints, as strings."""
    game = host.game
    history: list[tuple[str, str]] = []
    while not history or history[-1][1] != win_of(game):
        guess = player(history)
        reply = host.answer(parse_code(game, guess))
        history.append((guess, format_hint(game, reply.hint)))
        assert len(history) <= 20
    return history


def assert_honest(game, history) -> str:
    """Every hint the host gave is the true hint against the final secret (the last guess)."""
    secret = history[-1][0]
    assert all(naive_hint(g, secret) == h for g, h in history)
    return secret


# -- W and the host's answers against brute force -----------------------------------------------------------


@pytest.mark.parametrize("spec", TINY)
def test_every_first_answer_matches_brute_force(spec):
    game = resolve_game(spec)
    w = naive_worst(game)
    codes = tuple(naive_codes(game))
    for guess in codes:
        hint, worst = naive_choice(game, codes, guess, w)
        full = EvilHost(game).consider(parse_code(game, guess), every=True)
        assert {format_hint(game, h): v for h, v in full.worst.items()} == worst
        assert {format_hint(game, h): n for h, n in full.sizes.items()} == {h: len(c) for h, c in split(guess, codes).items()}
        quick = EvilHost(game).consider(parse_code(game, guess))
        assert format_hint(game, full.hint) == format_hint(game, quick.hint) == hint
        # the quick reply finds the chosen class's W and no W it did not need is wrong
        assert quick.worst[quick.hint] == worst[hint]
        assert all(worst[format_hint(game, h)] == v for h, v in quick.worst.items())
        assert all(worst[h] <= worst[hint] for h in worst)


@pytest.mark.parametrize("spec", TINY)
def test_whole_games_match_brute_force(spec):
    # the host's answers deeper in the game (where the search's symmetry reduction depends on the
    # history) against brute force, for a first-consistent player and a player who opens with the last code
    game = resolve_game(spec)
    w = naive_worst(game)
    codes = naive_codes(game)
    base = first_consistent_player(game)
    for player in (base, lambda hist: codes[-1] if not hist else base(hist)):
        host = EvilHost(game)
        history: list[tuple[str, str]] = []
        alive = tuple(codes)
        while not history or history[-1][1] != win_of(game):
            guess = player(history)
            hint, _ = naive_choice(game, alive, guess, w)
            reply = host.answer(parse_code(game, guess))
            assert format_hint(game, reply.hint) == hint, (history, guess)
            history.append((guess, hint))
            alive = split(guess, alive)[hint]
            assert [format_code(game, int(c)) for c in host.candidates] == list(alive)
        assert_honest(game, history)
        # no player beats the host's value, and a consistent first guess leaves W(all) guesses at least
        assert len(history) >= w(tuple(codes))


@pytest.mark.parametrize("spec", TINY)
def test_host_forces_exactly_the_value_on_an_optimal_player(spec):
    # an optimal worst-case player (brute force) against the host needs exactly W(all) guesses
    game = resolve_game(spec)
    w = naive_worst(game)
    codes = naive_codes(game)
    win = win_of(game)

    def optimal(history):
        alive = tuple(s for s in codes if all(naive_hint(g, s) == h for g, h in history))
        if len(alive) == 1:
            return alive[0]
        def value(g):
            groups = split(g, alive)
            if len(groups) == 1 and g not in alive:
                return 10**9
            return 1 + max((w(c) for h, c in groups.items() if h != win), default=0)
        return min(codes, key=value)

    history = play_against(EvilHost(game), optimal)
    assert len(history) == w(tuple(codes))
    assert_honest(game, history)


def test_undo_and_restricted_start():
    game = resolve_game("bc:3:4")
    host = EvilHost(game)
    first = host.answer(parse_code(game, "012"))
    after = host.candidates.copy()
    host.answer(parse_code(game, "123"))
    host.undo()
    assert list(host.candidates) == list(after) and host.history == [(parse_code(game, "012"), first.hint)]
    host.undo()
    host.undo()  # nothing left to take back
    assert host.candidates.size == game.size and host.history == []
    with pytest.raises(ValueError, match="at least one candidate"):
        EvilHost(game, candidates=[])


# -- seed 001, section 2.1, rule 3 -------------------------------------------------------------------------


def test_seed_example_seven_guesses_for_012x():
    # "You know the first three digits are 012 and guess 0123, 0124, ..., 0129; on average that takes
    # 7/2 = 3.5 guesses, but a setter who sees your plan makes the answer 0129 and you need all 7."
    game = resolve_game("bulls-cows")
    promised = [f"012{x}" for x in range(3, 10)]
    host = EvilHost(game, candidates=[parse_code(game, s) for s in promised])
    said = []
    for guess in promised:
        reply = host.answer(parse_code(game, guess))
        said.append(format_hint(game, reply.hint))
        if said[-1] == "4A0B":
            break
    assert said == ["3A0B"] * 6 + ["4A0B"]
    assert format_code(game, int(host.candidates[0])) == "0129"
    assert_honest(game, list(zip(promised, said)))
    # the host's reason: after 0123 the other six still need W = 3 guesses (brute force: a guess such as
    # 4567 splits them into {0127}, {0124, 0125, 0126} and {0128, 0129}; no guess tells six apart at once)
    w = naive_worst(game)
    again = EvilHost(game, candidates=[parse_code(game, s) for s in promised])
    reply = again.consider(parse_code(game, "0123"), every=True)
    assert {format_hint(game, h): v for h, v in reply.worst.items()} == {"4A0B": 0, "3A0B": w(tuple(promised[1:]))}
    assert w(tuple(promised[1:])) == 3


# -- the shipped optimal-worst trees and a naive player -----------------------------------------------------


def tree_player(tree):
    return lambda history: T.next_guess(tree, history)


@pytest.mark.parametrize("name,bound", [("mastermind-optimal-worst.json", 5), ("bulls-cows-optimal-worst.json", 7)])
def test_shipped_optimal_worst_tree_needs_exactly_its_bound(name, bound):
    tree = T.load_tree(TREES / name)
    assert tree.provenance["worst_case"] == bound == tree.stats.max_guesses
    host = EvilHost(tree.game)
    history = play_against(host, tree_player(tree))
    assert len(history) == bound  # the tree wins within its proved bound, and the host forces all of it
    assert_honest(tree.game, history)
    if tree.game.name == "bulls-cows":
        # the first answer falls back to the largest class (1440 of 5040 > EXACT_LIMIT); the rest are exact
        assert host.history and EXACT_LIMIT < 1440


@pytest.mark.parametrize("spec,bound", [("mastermind", 5), ("bulls-cows", 7)])
def test_naive_player_needs_at_least_the_proved_worst_case(spec, bound):
    game = resolve_game(spec)
    history = play_against(EvilHost(game), first_consistent_player(game))
    assert len(history) >= bound
    assert_honest(game, history)


# -- the command ------------------------------------------------------------------------------------------


def _cli(*argv, stdin: str):
    proc = subprocess.run([sys.executable, "-m", "treegen.cli", *argv], input=stdin, capture_output=True, text=True,
                          timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def test_evil_host_command_with_the_tree_as_advice():
    path = TREES / "mastermind-optimal-worst.json"
    tree = T.load_tree(path)
    game = tree.game
    # the same deterministic game in-process gives the lines to type and the answers to expect
    history = play_against(EvilHost(game), tree_player(tree))
    lines = ["?", history[0][0], "2222", "undo"] + [x for g, _ in history[1:] for x in ("?", g)]
    rc, out, err = _cli("play", "--host", "--evil", "--tree", str(path), stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    secret = history[-1][0]
    for n, (guess, hint) in enumerate(history, 1):
        assert f"the tree suggests {guess}\n" in out
        assert f"  guess {n}: {guess}  {hint}  = hint({guess}, {secret})\n" in out
    assert "took back 2222" in out
    assert f"solved in 5 guesses\nevery answer was honest for the secret {secret}:\n" in out


def test_evil_host_command_without_a_tree():
    game = resolve_game("bc:3:4")
    history = play_against(EvilHost(game), first_consistent_player(game))
    lines = ["?"] + [g for g, _ in history]
    rc, out, err = _cli("play", "--host", "--evil", "--game", "bc:3:4", stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    assert "no tree given; heuristic suggestion (not the tree's): " in out
    assert out.endswith(f"  guess {len(history)}: {history[-1][0]}  3A0B  = hint({history[-1][0]}, {history[-1][0]})\n")
    rc, out, err = _cli("play", "--host", "--evil", "--game", "bc:3:4", stdin=history[0][0] + "\n")
    left = len([s for s in naive_codes(game) if naive_hint(history[0][0], s) == history[0][1]])
    assert rc == 2 and err == (
        f"treegen: error: input ended before the secret was found (no secret was fixed; {left} secrets were still possible)\n"
    )
