"""The family's hint rules (rules.Game.rule_hint, rules.score_symbols): bulls and cows, black pegs only, Jotto, per position.

Each rule is checked against a scorer written here from its definition, over every pair of a small game and
of a word list, and against examples published with the game:

- Jotto (Wikipedia's article, and the sample games of "Jotto and Some Variants", The Game Shelf, 2009): the
  reply is the number of letters two words share, positions aside; a repeated letter counts as often as both
  words have it (the "Scrabble tiles" reading: CLASS against PASTA is 2), and the secret itself ends the game.
- Exact and partial matches (a Jotto program's help, McGill COMP 202): LOUSE/PURSE 2 exact 1 partial,
  QUEUE/QUEER 3 exact 1 partial, QUEUE/FEATS 0 exact 1 partial; black pegs count the exact ones alone.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from brute import optimum

from treegen.feedback import feedback_table
from treegen.rules import (Game, HintError, format_hint, format_hint_native, parse_hint, parse_word_list,
                           resolve_game, score_codes)
from treegen.certificate import score_table


def bulls(g: str, s: str) -> int:
    return sum(a == b for a, b in zip(g, s))


def shared(g: str, s: str) -> int:
    """Letters in common, each as often as both words have it (Counter intersection)."""
    return sum((Counter(g) & Counter(s)).values())


def naive(rule: str, g: str, s: str) -> tuple[int, int]:
    """(bulls, cows) as the game writes its hint, from the rule's definition."""
    if rule == "black-pegs":
        return bulls(g, s), 0
    if rule == "jotto":
        return (len(g), 0) if g == s else (0, shared(g, s))
    return bulls(g, s), shared(g, s) - bulls(g, s)


def jotto_of(words):
    return parse_word_list("\n".join(words), "examples", "examples", "jotto")


@pytest.mark.parametrize("secret, sample", [
    ("MOVER", [("SPORT", 2), ("SPORE", 3), ("SPARE", 2), ("PARED", 2), ("SCARE", 2), ("SCAPE", 1), ("JOKER", 3),
               ("LONER", 3), ("GROVE", 4), ("GORGE", 3), ("HOVER", 4)]),
    ("PEARL", [("TRIOS", 1), ("FALSE", 3), ("SLANG", 2), ("SWELL", 2), ("PASSE", 3), ("ABASE", 2), ("PLEAT", 4),
               ("PALER", 5)]),
    ("OTHER", [("PEACH", 2)]),
    ("CLASS", [("PASTA", 2)]),
])
def test_jotto_published_games(secret, sample):
    game = jotto_of(sorted({secret, *(w for w, _ in sample)}))
    s = game.code_index[tuple(game.alphabet.index(c) for c in secret)]
    for word, reply in sample:
        g = game.code_index[tuple(game.alphabet.index(c) for c in word)]
        hint = score_codes(game, g, s)
        assert format_hint_native(game, hint) == f"{reply} in common", word
    assert format_hint_native(game, score_codes(game, s, s)) == "found"  # the game ends only on the word itself


@pytest.mark.parametrize("guess, secret, exact, partial", [
    ("LOUSE", "PURSE", 2, 1), ("QUEUE", "QUEER", 3, 1), ("QUEUE", "FEATS", 0, 1),
])
def test_exact_and_partial_matches(guess, secret, exact, partial):
    for rule, want in (("bulls-cows", f"{exact}A{partial}B"), ("black-pegs", f"{exact}A0B")):
        game = parse_word_list(f"{guess}\n{secret}\n", "examples", "examples", rule)
        code = {w: k for k, w in enumerate(game.words)}
        assert format_hint(game, score_codes(game, code[guess], code[secret])) == want


@pytest.mark.parametrize("rule", ["bulls-cows", "black-pegs", "jotto"])
def test_every_pair_against_the_definition(rule):
    """Every pair of a small spec game with repeats and of 300 random five-letter words, by rules.score_codes,
    the feedback table (numpy) and the certificate checker's own table, against the definition."""
    mm = Game("examples", 3, "0123", True, "pegs", rule=rule)
    words = sorted(random.Random(4).sample(resolve_game("jotto").words, 300))
    wl = parse_word_list("\n".join(words), "sample", "sample", rule)
    for game in (mm, wl):
        text = ["".join(game.alphabet[x] for x in c) for c in game.codes]
        table, checker = feedback_table(game), score_table(game)
        for g, s in itertools.product(range(game.size), repeat=2):
            want = game.hint(*naive(rule, text[g], text[s]))
            assert score_codes(game, g, s) == table[g, s] == checker[g, s] == want, (rule, text[g], text[s])
        seen = {int(h) for h in table.ravel()}
        assert seen <= game.possible_hints


def test_hints_are_read_in_the_rules_own_words():
    jotto, black = resolve_game("jotto"), resolve_game("black-pegs")
    assert parse_hint(jotto, "3") == jotto.hint(0, 3) and parse_hint(jotto, "found") == jotto.win_hint
    assert parse_hint(black, "BB") == parse_hint(black, "2") == parse_hint(black, "2A0B") == black.hint(2, 0)
    for game, text in ((jotto, "1A2B"), (black, "1A1B"), (jotto, "6")):
        with pytest.raises(HintError):
            parse_hint(game, text)


def least_total(game) -> int:
    """The least total over every secret, any code as a guess (brute.py's plain recursion, this file's scorer)."""
    text = ["".join(game.alphabet[x] for x in c) for c in game.codes]
    best, _ = optimum(range(game.size), lambda g, s: naive(game.rule, text[g], text[s]), (game.positions, 0))
    return best(frozenset(range(game.size)))


@pytest.mark.parametrize("game", [
    Game("black-3-3", 3, "012", True, "pegs", rule="black-pegs"),
    Game("black-2-4", 2, "0123", True, "pegs", rule="black-pegs"),
    Game("jotto-3-4", 3, "0123", False, rule="jotto"),
    parse_word_list("BAKE\nCAKE\nLAKE\nMAKE\nABLE\nBALE\nBEAK\nLEAK\nCLAM\nCALM\nMACE\nLACE\n", "tiny", "tiny", "jotto"),
], ids=lambda g: g.name)
def test_exact_search_and_certificate_match_brute_force(game):
    """The exact search (its symmetry too, on the spec games: a relabelling keeps bulls and common symbols, so
    it keeps every rule's hint) and its certificate give the least total that plain recursion finds."""
    import json

    from treegen.certificate import certificate_from_bytes, check_certificate
    from treegen.exact import solve_game
    from treegen.exact.certify import certify_tree
    from treegen.verify import verify_tree

    want = least_total(game)
    tree = solve_game(game)
    assert tree.stats.total == verify_tree(tree).total == want
    proof = check_certificate(certificate_from_bytes(json.dumps(certify_tree(tree)).encode()))
    assert proof.least_cost == want and proof.game.same_rules(game)


# -- the per-position rule --------------------------------------------------------------------------------------
def marks(g: str, s: str) -> str:
    """Per-position marks from the definition, written separately from the game's scorer: G where the letters
    agree; of the rest, each letter x is Y at its first min(x's unmatched copies in the guess, in the secret)
    positions from the left, - elsewhere."""
    out = ["G" if a == b else "-" for a, b in zip(g, s)]
    for x in set(g):
        spare = sum(1 for a, b in zip(g, s) if b == x and a != b)
        for k in (k for k, (a, b) in enumerate(zip(g, s)) if a == x and a != b):
            if spare:
                out[k], spare = "Y", spare - 1
    return "".join(out)


def per_position_of(words):
    return parse_word_list("\n".join(sorted(set(words))), "examples", "examples", "per-position")


@pytest.mark.parametrize("guess, secret, want", [
    # The repeated-letter cases Wordle programs are commonly checked against: SPEED's second E has no E left
    # in ABIDE; ERASE's two Es both answer; a right letter uses its copy up first (STEAL, CREPE, KEBAB).
    ("SPEED", "ABIDE", "--Y-Y"), ("SPEED", "ERASE", "Y-YY-"), ("SPEED", "STEAL", "G-G--"),
    ("SPEED", "CREPE", "-YGY-"), ("ABBEY", "KEBAB", "YYGY-"), ("SPEED", "SPEED", "GGGGG"),
])
def test_per_position_published_examples(guess, secret, want):
    game = per_position_of([guess, secret])
    code = {w: k for k, w in enumerate(game.words)}
    hint = score_codes(game, code[guess], code[secret])
    assert format_hint(game, hint) == marks(guess, secret) == want
    assert (hint == game.win_hint) == (guess == secret)


def test_per_position_every_pair_against_the_definition():
    """Every pair of 400 random five-letter codes over six letters (repeats aplenty) and of every code of three
    letters over four, by rules.score_codes, the feedback table (numpy) and the certificate checker's own."""
    rng = random.Random(9)
    sample = {"".join(rng.choice("ABCDEF") for _ in range(5)) for _ in range(400)}
    every = {"".join(c) for c in itertools.product("ABCD", repeat=3)}
    for game in (per_position_of(sample), per_position_of(every)):
        table, checker = feedback_table(game), score_table(game)
        for g, s in itertools.product(range(game.size), repeat=2):
            want = marks(game.words[g], game.words[s])
            assert format_hint(game, score_codes(game, g, s)) == format_hint(game, int(table[g, s])) == want
            assert checker[g, s] == table[g, s]
        assert {int(h) for h in table.ravel()} <= game.possible_hints


def test_per_position_hints_are_read_as_marks():
    game = per_position_of(["SPEED", "ABIDE"])
    want = parse_hint(game, "--Y-Y")
    for text in ("--y-y", "BBYBY", "..Y.Y", "00101", "xxyxy", "\u2b1b\u2b1b\U0001f7e8\u2b1b\U0001f7e8", "- - Y - Y"):
        assert parse_hint(game, text) == want, text
    assert format_hint(game, want) == "--Y-Y" and format_hint_native(game, want) is None
    for text in ("GGGGY", "1A2B", "--Y-", "--Y-YG", "--Z-Y"):
        with pytest.raises(HintError):
            parse_hint(game, text)


def test_per_position_needs_a_list():
    from treegen.rules import GameError

    with pytest.raises(GameError, match="list of codes"):
        Game("pp", 3, "0123", True, rule="per-position")
    with pytest.raises(GameError, match="1 to 5 symbols"):
        per_position_of(["ABCDEF", "ABCDEG"])


@pytest.mark.parametrize("words", [
    [w for w in ("".join(c) for c in itertools.product("ABC", repeat=3))][:22],
    ["BAKE", "CAKE", "LAKE", "MAKE", "ABLE", "BALE", "BEAK", "LEAK", "BEEF", "FLEE", "FEEL", "CALL", "LACE", "BELL"],
], ids=["abc-3", "words-4"])
def test_per_position_exact_search_and_certificate_match_brute_force(words):
    """The exact search (no symmetry: a list) and its certificate give the least total of plain recursion, with
    this file's marks as the hints."""
    import json

    from treegen.certificate import certificate_from_bytes, check_certificate
    from treegen.exact import solve_game
    from treegen.exact.certify import certify_tree
    from treegen.verify import verify_tree

    game = per_position_of(words)
    best, _ = optimum(game.words, marks, "G" * game.positions)
    want = best(frozenset(game.words))
    tree = solve_game(game)
    assert tree.stats.total == verify_tree(tree).total == want
    proof = check_certificate(certificate_from_bytes(json.dumps(certify_tree(tree)).encode()))
    assert proof.least_cost == want and proof.game.same_rules(game)


@pytest.mark.parametrize("strategy", ["expected-size", "minimax", "most-parts"])
def test_per_position_heuristics_score_by_the_marks(strategy):
    """A heuristic's opening on a per-position list is the guess its score ranks first, with the classes made
    from this file's marks (ties to the lowest word): the scorers read the hints of the right guess on the
    right secret, which a table that is not symmetric makes a question."""
    from treegen.strategies import build_tree

    words = sorted(random.Random(3).sample(resolve_game("jotto").words, 150))
    game = per_position_of(words)

    def score(g: str) -> tuple:
        sizes = Counter(marks(g, s) for s in words)
        sizes.pop("G" * 5, None)
        if strategy == "expected-size":
            return sum(n * n for n in sizes.values()) + 0, g
        if strategy == "minimax":
            return max(sizes.values()), g
        return -(len(sizes) + (g in words)), g

    want = min(words, key=score)
    assert build_tree(game, strategy).tree.root.guess == want


def test_per_position_trees_are_not_exported_as_counts(tmp_path):
    """Formats that write a hint as bulls and cows refuse a per-position tree (and its import) in one line;
    paths, dot and csv take it."""
    import subprocess

    from clitools import TREEGEN

    from treegen.strategies import build_tree
    from treegen.tree import save_tree

    words = sorted(random.Random(2).sample(resolve_game("jotto").words, 60))
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    save_tree(build_tree(per_position_of(words), "entropy").tree, tmp_path / "t.json")
    for fmt in ("irving", "arfst23", "arfst23-yml"):
        done = subprocess.run([TREEGEN, "export", fmt, str(tmp_path / "t.json")], capture_output=True, text=True,
                              check=False)
        assert done.returncode == 2 and "writes a hint as two counts" in done.stderr and done.stdout == ""
        assert done.stderr.count("\n") == 1
    done = subprocess.run([TREEGEN, "import", "irving", str(tmp_path / "w.txt"), "--game",
                           f"per-position:{tmp_path / 'w.txt'}", "-o", str(tmp_path / "x.json")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "writes a hint as two counts" in done.stderr
    for fmt in ("paths", "dot", "csv"):
        done = subprocess.run([TREEGEN, "export", fmt, str(tmp_path / "t.json")], capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0, done.stderr
