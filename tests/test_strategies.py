"""Heuristic strategy trees: a naive builder written from the definitions, known figures, the CLI."""

import math
from collections import Counter

import pytest

from treegen.cli import main
from treegen.rules import GameError, TreegenError, format_code, parse_code, parse_hint, resolve_game, score_codes
from treegen.rules import ArgumentTypeError
from treegen.strategies import STRATEGIES, applicable, build_tree
from treegen.tree import load_tree, tree_to_bytes
from treegen.verify import verify_tree

SCORED = [s.name for s in STRATEGIES.values() if s.kind == "scored"]
TINY = ["bc:3:4", "mm:3:3", "bc:2:4"]


def _naive_score(name, sizes_by_hint, win, total):
    """The strategy's score (smaller is better) from {hint: class size}, straight from its definition."""
    sizes = list(sizes_by_hint.values())
    if name == "minimax":
        return max(sizes)
    if name == "expected-size":
        return sum(n * n for n in sizes)
    if name == "expected-steps":
        return sum(n * math.log(n) for n in sizes)
    if name == "entropy":
        return sum((n / total) * math.log2(n / total) for n in sizes)  # minus the entropy
    if name == "most-parts":
        return -len(sizes)
    if name == "n-ln-n-plus-1":
        return sum(n * math.log(n + 1) for h, n in sizes_by_hint.items() if h != win)
    raise AssertionError(name)


def _naive_tree(game, name, naive, first=None, consistent_only=False, tie="possible"):
    """The greedy tree as nested dicts of the file format, by brute force over every code.

    Without ``first``, scored strategies score the opening like any other node, over every code."""
    codes = game.codes
    win = (game.positions, 0)

    def fresh(code, history):
        # seed 001's enumeration: symbols unused so far appear as the smallest unused, in order
        used = {x for h in history for x in codes[h]}
        unused = sorted(set(range(game.symbols)) - used)
        seen = []
        for x in codes[code]:
            if x in unused and x not in seen:
                seen.append(x)
        return seen == unused[: len(seen)]

    def choose(secrets, history):
        if not history and (first is not None or name == "first-consistent"):
            return 0 if first is None else first
        if len(secrets) <= 2 or name == "first-consistent":
            return secrets[0]
        pool = secrets if consistent_only else range(game.size)
        scores = {}
        for g in pool:
            sizes = Counter(naive(codes[g], codes[s]) for s in secrets)
            scores[g] = _naive_score(name, sizes, win, len(secrets))
        best = min(scores.values())
        tied = [g for g in pool if scores[g] <= best + 1e-9 * max(1.0, abs(best))]
        if tie == "paper":
            possible = [g for g in tied if g in secrets and fresh(g, history)]
            return possible[-1] if possible else tied[0]
        possible = [g for g in tied if g in secrets]
        return possible[0] if possible else tied[0]

    def grow(secrets, history):
        if len(secrets) == 1:
            return {"guess": format_code(game, secrets[0])}
        g = choose(secrets, history)
        groups = {}
        for s in secrets:
            groups.setdefault(naive(codes[g], codes[s]), []).append(s)
        groups.pop(win, None)
        node = {"guess": format_code(game, g)}
        if groups:
            node["next"] = {f"{b}A{c}B": grow(groups[(b, c)], history + [g]) for b, c in sorted(groups)}
        return node

    return grow(list(range(game.size)), [])


@pytest.mark.parametrize("spec", TINY)
@pytest.mark.parametrize("name", SCORED + ["first-consistent"])
def test_matches_naive_builder(spec, name, naive):
    game = resolve_game(spec)
    built = build_tree(game, name, check=True)
    assert built.tree.root.to_obj() == _naive_tree(game, name, naive)
    verify_tree(built.tree)


@pytest.mark.parametrize("name", SCORED)
def test_matches_naive_builder_variants(name, naive):
    game = resolve_game("bc:3:5")
    for kwargs in ({"tie": "paper"}, {"consistent_only": True}, {"first": "123"}, {"first": "012", "tie": "paper"}):
        first = parse_code(game, kwargs["first"]) if "first" in kwargs else None
        built = build_tree(game, name, check=True, **kwargs)
        rest = {k: v for k, v in kwargs.items() if k != "first"}
        assert built.tree.root.to_obj() == _naive_tree(game, name, naive, first=first, **rest), kwargs


@pytest.mark.parametrize("spec", TINY + ["mm:3:4"])
def test_symmetry_changes_nothing(spec):
    game = resolve_game(spec)
    for name in applicable(game):
        ties = ("possible", "paper") if STRATEGIES[name].kind == "scored" else ("possible",)
        for tie in ties:
            on = build_tree(game, name, tie=tie, symmetry=True)
            off = build_tree(game, name, tie=tie, symmetry=False)
            assert tree_to_bytes(on.tree) == tree_to_bytes(off.tree), (name, tie)


def test_symmetry_changes_nothing_in_bulls_cows():
    game = resolve_game("bulls-cows")
    for tie in ("possible", "paper"):
        on = build_tree(game, "expected-steps", tie=tie)
        off = build_tree(game, "expected-steps", tie=tie, symmetry=False)
        assert tree_to_bytes(on.tree) == tree_to_bytes(off.tree)


def _figures(built):
    s = built.tree.stats
    return s.total, s.max_guesses, s.histogram[1:]


# Seed 001's histograms; 'paper' is its tie rule (the last possible code of its scan wins a tie).
@pytest.mark.parametrize(
    "name, tie, want",
    [
        ("first-consistent", "possible", (28024, 9, (1, 13, 108, 596, 1668, 1768, 752, 129, 5))),
        ("expected-size", "possible", (26551, 7, (1, 4, 59, 574, 2430, 1885, 87))),
        ("expected-size", "paper", (26553, 7, (1, 4, 59, 573, 2430, 1886, 87))),
        ("minimax", "possible", (27139, 7, (1, 3, 44, 515, 2124, 2151, 202))),
        ("minimax", "paper", (27162, 7, (1, 3, 44, 519, 2106, 2152, 215))),
        ("most-parts", "possible", (26751, 8, (1, 11, 80, 556, 2277, 1929, 183, 3))),
        ("n-ln-n-plus-1", "possible", (26425, 8, (1, 6, 65, 606, 2481, 1780, 100, 1))),
    ],
)
def test_bulls_cows_figures(name, tie, want):
    built = build_tree(resolve_game("bulls-cows"), name, tie=tie)
    assert _figures(built) == want
    assert built.tree.root.guess == "0123"


def test_bulls_cows_tree_verifies():
    built = build_tree(resolve_game("bulls-cows"), "entropy")
    assert verify_tree(built.tree) == built.tree.stats
    assert built.tree.stats.total == 26424


@pytest.mark.parametrize(
    "name, first, total, worst",
    [("minimax", "1122", 5801, 5), ("expected-size", "1123", 5696, 6), ("most-parts", "1123", 5668, 6)],
)
def test_mastermind_figures(name, first, total, worst):
    built = build_tree(resolve_game("mastermind"), name, first=first, check=True)
    assert (built.tree.stats.total, built.tree.stats.max_guesses) == (total, worst)


def test_random_consistent_is_reproducible():
    game = resolve_game("bulls-cows")
    a = build_tree(game, "random-consistent", seed=7)
    b = build_tree(game, "random-consistent", seed=7)
    c = build_tree(game, "random-consistent", seed=8)
    assert tree_to_bytes(a.tree) == tree_to_bytes(b.tree)
    assert tree_to_bytes(a.tree) != tree_to_bytes(c.tree)
    assert a.tree.provenance["seed"] == 7
    verify_tree(a.tree)


def test_builds_are_deterministic():
    game = resolve_game("mastermind")
    assert tree_to_bytes(build_tree(game, "entropy").tree) == tree_to_bytes(build_tree(game, "entropy").tree)


@pytest.mark.parametrize("spec", ["mastermind-digits", "mm:3:3", "mastermind"])
def test_digit_sweep_solves_every_secret(spec):
    game = resolve_game(spec)
    built = build_tree(game, "digit-sweep")
    stats = verify_tree(built.tree)
    assert stats.secrets == game.size
    assert built.tree.root.guess == format_code(game, 0)
    if spec == "mastermind-digits":
        assert stats.max_guesses <= 15  # seed 003: "within 15 guesses"


def test_consistent_only_guesses_possible_codes():
    game = resolve_game("mm:3:4")
    tree = build_tree(game, "minimax", consistent_only=True).tree
    verify_tree(tree)

    def walk(node, secrets):
        guess = parse_code(game, node.guess)
        assert guess in secrets
        for hint, child in node.next:
            h = parse_hint(game, hint)
            walk(child, [s for s in secrets if score_codes(game, guess, s) == h])

    walk(tree.root, list(range(game.size)))


def test_scored_stats_count_guesses():
    game = resolve_game("bulls-cows")
    built = build_tree(game, "expected-size", first="0123")
    depths = [row[0] for row in built.scored]
    assert depths[0] == 2 and depths == sorted(depths)  # a given opening is not scored
    assert built.scored[0][1:] == (13, 245, 20)  # 13 classes after 0123, at most 20 guesses apart
    # Choosing the opening scores one guess: every first guess of bulls-cows is equivalent.
    default = build_tree(game, "expected-size")
    assert default.scored[0] == (1, 1, 1, 1) and default.scored[1:] == built.scored
    assert tree_to_bytes(default.tree) == tree_to_bytes(built.tree)


@pytest.mark.parametrize(
    "kwargs, spec",
    [
        ({"strategy": "nope"}, "bulls-cows"),
        ({"strategy": "digit-sweep"}, "bulls-cows"),
        ({"strategy": "entropy", "first": "0012"}, "bulls-cows"),
        ({"strategy": "entropy", "seed": 3}, "bulls-cows"),
        ({"strategy": "entropy", "tie": "whatever"}, "bulls-cows"),
        ({"strategy": "digit-sweep", "first": "1234"}, "mastermind"),
    ],
)
def test_bad_options(kwargs, spec):
    with pytest.raises(TreegenError):
        build_tree(resolve_game(spec), kwargs.pop("strategy"), **kwargs)


# -- the command line ------------------------------------------------------------------------------


def test_cli_build_writes_a_valid_tree(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["build", "--game", "mastermind", "--strategy", "minimax", "--first", "1122", "--stats", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "5801" in text and "depth" in text
    tree = load_tree(out)
    assert verify_tree(tree).total == 5801
    assert tree.strategy == "heuristic:minimax"
    assert tree.provenance == {"first": "1122", "consistent_only": False, "tie": "possible"}
    assert main(["verify", str(out)]) == 0


def test_cli_build_default_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--game", "bc:3:4", "--strategy", "heuristic:entropy"]) == 0
    assert (tmp_path / "bc-3-4-entropy.json").exists()


def test_cli_eval_table(capsys):
    assert main(["eval", "--game", "mm:3:3"]) == 0
    out = capsys.readouterr().out
    for name in applicable(resolve_game("mm:3:3")):
        assert name in out
    assert "digit-sweep" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["build", "--strategy", "bogus"],
        ["build", "--strategy", "entropy", "--first", "00"],
        ["build", "--strategy", "digit-sweep"],
        ["eval", "--strategy", "bogus"],
    ],
)
def test_cli_errors_are_one_line(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("treegen: error:") and err.count("\n") == 1


# -- the opening: chosen by each scored strategy's own score unless --first says ---------------------


def test_bulls_cows_default_opening_changes_no_byte():
    # Every first guess of bulls-cows is equivalent: choosing by score must give 0123 and the same trees.
    game = resolve_game("bulls-cows")
    for name, tie in [(n, "possible") for n in SCORED] + [("expected-size", "paper")]:
        chosen = build_tree(game, name, tie=tie)
        given = build_tree(game, name, tie=tie, first="0123")
        assert tree_to_bytes(chosen.tree) == tree_to_bytes(given.tree), (name, tie)


@pytest.mark.parametrize(
    "name, lowest, from_0123, opening, total",
    [("entropy", 62213, 56209, "0123", 56209), ("most-parts", 64158, 57320, "0012", 58011)],
)
def test_numbers_baseball_openings(name, lowest, from_0123, opening, total):
    # The figures: entropy totals 62213 from 0000 and 56209 from 0123 (the optimum is 55632).
    game = resolve_game("numbers-baseball")
    assert build_tree(game, name, first="0000").tree.stats.total == lowest
    assert build_tree(game, name, first="0123").tree.stats.total == from_0123
    chosen = build_tree(game, name).tree
    assert (chosen.root.guess, chosen.stats.total) == (opening, total)
    assert chosen.provenance["first"] == opening


@pytest.mark.parametrize("spec", ["mm:4:4", "mm:3:5"])
def test_chosen_opening_is_the_best_scored_first_guess(spec, naive):
    # Brute force over every code: the opening has the best score, ties to the lowest code.
    game = resolve_game(spec)
    sizes = {
        g: Counter(naive(game.codes[g], game.codes[s]) for s in range(game.size)) for g in range(game.size)
    }
    for name in SCORED:
        scores = {g: _naive_score(name, sizes[g], (game.positions, 0), game.size) for g in range(game.size)}
        best = min(scores.values())
        want = min(g for g, v in scores.items() if v <= best + 1e-9 * max(1.0, abs(best)))
        assert build_tree(game, name).tree.root.guess == format_code(game, want), name


# -- the Python API's arguments (issue #40, class 17) --------------------------------------------------------


def test_build_tree_takes_a_game_by_name():
    named = build_tree("mastermind", "entropy").tree
    assert tree_to_bytes(named) == tree_to_bytes(build_tree(resolve_game("mastermind"), "entropy").tree)


@pytest.mark.parametrize("game,strategy,message", [
    (1296, "entropy", "build_tree: game must be a Game or a game name such as 'mastermind' or 'bc:4:10', not int"),
    (None, "entropy", "build_tree: game must be a Game or a game name such as 'mastermind' or 'bc:4:10', not NoneType"),
    ("mastermind", 3, "build_tree: strategy must be a name such as 'entropy', not int"),
])
def test_build_tree_refuses_arguments_of_another_type(game, strategy, message):
    with pytest.raises(ArgumentTypeError) as caught:
        build_tree(game, strategy)
    assert str(caught.value) == message
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, TreegenError)


def test_build_tree_refuses_an_unknown_game_name():
    with pytest.raises(GameError):
        build_tree("no-such-game", "entropy")
