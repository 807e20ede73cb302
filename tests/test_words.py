"""Games of a list of words (Word Mastermind, seed 001 section 1.2): the list, the game, its trees.

References written here: hints from the definition, and the least total of a tiny list by a plain recursion
over every guess of the list (no symmetry, no bounds), which the exact search and its certificate must
match.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from brute import optimum
from clitools import TREEGEN

from treegen.certificate import certificate_from_bytes, check_certificate
from treegen.exact import solve_game
from treegen.exact.certify import certify_tree
from treegen.rules import game_from_dict, game_to_dict, parse_word_list, resolve_game
from treegen.strategies import build_tree
from treegen.tree import TreeError, load_tree, save_tree, tree_from_bytes, tree_to_bytes
from treegen.verify import verify_tree

WORDS = Path(__file__).resolve().parent.parent / "treegen" / "words"
TINY = ["BAKE", "CAKE", "LAKE", "MAKE", "RAKE", "ABLE", "BALE", "BEAK", "LEAK", "CLAM", "CALM", "MACE"]


def naive_hint(guess: str, secret: str) -> tuple[int, int]:
    bulls = sum(a == b for a, b in zip(guess, secret))
    common = sum(min(guess.count(x), secret.count(x)) for x in set(guess))
    return bulls, common - bulls


def least_total(words: list[str]) -> int:
    """The least total guesses over the list, every guess a word of the list (brute.py's plain recursion)."""
    best, _ = optimum(words, naive_hint, (4, 0))
    return best(frozenset(words))


def test_the_shipped_list_and_its_licence():
    lines = (WORDS / "word-mastermind.txt").read_text(encoding="ascii").splitlines()
    assert len(lines) == 1979 and lines == sorted(set(lines))
    assert all(len(w) == 4 == len(set(w)) and w.isalpha() and w.isupper() for w in lines)
    assert "Permission to use, copy, modify, distribute and sell these word" in (WORDS / "LICENSE-SCOWL").read_text()
    assert "wamerican" in (WORDS / "SOURCE").read_text()
    game = resolve_game("word-mastermind")
    assert game.size == 1979 and game.listed and not game.repeats and game.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.mark.parametrize("text, words", [
    ("ABLE\nBAKE\nABLE\n", "line 3: 'ABLE' is line 1's word again"),
    ("ABLE\nBAKED\n", "line 2: 'BAKED' has 5 letters, but line 1's word has 4"),
    ("ABLE\nBA-E\n", "line 2: 'BA-E' is not a word of the letters A-Z"),
    ("ABLE\n\nBAKE\n", "line 2 is empty"),
    ("ABLE\nBAKE\n 1234\n", "line 3: ' 1234' has spaces around it"),
    ("ABLE\nCAFÉ\n", "line 2: a character that is not ASCII"),
    ("", "has no words"),
])
def test_bad_lists_are_refused_naming_the_line(tmp_path, text, words):
    path = tmp_path / "list.txt"
    path.write_bytes(text.encode("utf-8"))
    proc = subprocess.run([TREEGEN, "build", "--game", f"words:{path}", "-s", "entropy", "-o", str(tmp_path / "t.json")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr
    assert not (tmp_path / "t.json").exists()


def test_hints_are_bulls_and_cows_of_the_words():
    game = parse_word_list("\n".join(TINY), "tiny", "tiny")
    for g, gw in enumerate(game.words):
        for s, sw in enumerate(game.words):
            from treegen.rules import score_codes

            assert game.split_hint(score_codes(game, g, s)) == naive_hint(gw, sw)


def test_exact_optimum_of_a_tiny_list_matches_brute_force_and_is_certified():
    game = parse_word_list("\n".join(TINY), "tiny", "tiny")
    want = least_total(sorted(TINY))
    tree = solve_game(game)
    assert tree.stats.total == want and verify_tree(tree).total == want
    cert = certify_tree(tree)
    proof = check_certificate(certificate_from_bytes(json.dumps(cert).encode()))
    assert proof.least_cost == want and proof.game == game
    # a claim one higher is refused: the certificate proves exactly the optimum
    cert["claims"][cert["roots"]["least_cost"]][2] = want + 1
    with pytest.raises(ValueError):
        check_certificate(certificate_from_bytes(json.dumps(cert).encode()))


def test_a_tree_for_one_list_is_refused_for_another(tmp_path):
    game = parse_word_list("\n".join(TINY), "tiny", "tiny")
    other = parse_word_list("\n".join(TINY[:-1] + ["LACE"]), "other", "tiny")
    tree = build_tree(game, "entropy").tree
    path = tmp_path / "t.json"
    save_tree(tree, path)
    assert load_tree(path, game).stats == tree.stats
    with pytest.raises(TreeError, match="another list of 12 words"):
        load_tree(path, other)
    # words changed in the file without its digest: refused
    obj = json.loads(path.read_text())
    obj["game"]["words"][0] = "ABET"
    with pytest.raises(ValueError, match="do not match its words_sha256"):
        tree_from_bytes(json.dumps(obj).encode())
    assert game_from_dict(game_to_dict(game)) == game and game_from_dict(game_to_dict(other)) != game
    proc = subprocess.run([TREEGEN, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "a list of 12 words of 4 letters" in proc.stdout


def test_word_mastermind_heuristic_tree_plays(tmp_path):
    out = tmp_path / "wm.json"
    proc = subprocess.run([TREEGEN, "build", "--game", "word-mastermind", "--strategy", "entropy", "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    tree = load_tree(out)
    assert verify_tree(tree).secrets == 1979
    proc = subprocess.run([TREEGEN, "play", "--tree", str(out), "--secret", "cake"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("solved in " + proc.stdout.split("solved in ")[1].strip())
    lines = [line.split() for line in proc.stdout.splitlines() if line.startswith("guess")]
    for _, _, guess, hint in lines:
        b, c = naive_hint(guess, "CAKE")
        assert hint == f"{b}A{c}B"
    proc = subprocess.run([TREEGEN, "play", "--tree", str(out), "--secret", "cakf"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_tree_bytes_round_trip():
    game = parse_word_list("\n".join(TINY), "tiny", "tiny")
    tree = build_tree(game, "minimax").tree
    assert tree_to_bytes(tree_from_bytes(tree_to_bytes(tree))) == tree_to_bytes(tree)


@pytest.mark.parametrize("command", [["static"], ["value"]])
def test_static_and_value_refuse_a_list_game(tmp_path, command):
    """The static game and the value of the game rest on the symmetry of every arrangement of the symbols;
    a list game has none, so they refuse it in one line rather than give a wrong figure."""
    path = tmp_path / "list.txt"
    path.write_text("\n".join(TINY) + "\n")
    proc = subprocess.run([TREEGEN, *command, "--game", f"words:{path}"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "list of words" in proc.stderr, proc.stderr


@pytest.mark.parametrize("game", ["word-mastermind", "jotto", "black-pegs"])
def test_live_play_sends_list_and_rule_games_to_a_tree(game):
    proc = subprocess.run([TREEGEN, "play", "--game", game, "--strategy", "entropy", "--secret", "1234"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert f"treegen build --game {game} --strategy entropy -o T.json, then treegen play --tree T.json" in proc.stderr


def test_hint_and_candidates_take_word_games():
    proc = subprocess.run([TREEGEN, "hint", "--game", "jotto", "peach", "other"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == "0A2B  (2 in common)\n"
    proc = subprocess.run([TREEGEN, "candidates", "--game", "word-mastermind", "SATE=4A0B"], capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout == "1 possible secret\nSATE\n"


# -- guesses that are never the secret (--guess-list) -------------------------------------------------------------
def test_other_guesses_match_brute_force():
    """Secrets from one list, guesses from it and a second: the exact search and its certificate give the least
    total of plain recursion over every guess of both lists, which here is below the least with the secrets' own
    words alone (so the other guesses are used, not just allowed)."""
    secrets = ["BAKE", "CAKE", "LAKE", "MAKE", "RAKE", "TAKE", "WAKE", "FAKE"]
    others = ["BLOC", "CLAM", "MRTW", "TWFB"]
    game = parse_word_list("\n".join(secrets), "secrets", "secrets", guesses="\n".join(others))
    assert game.secret_count == 8 and game.size == 12 and game.words[:8] == tuple(sorted(secrets))
    best, _ = optimum(secrets + others, naive_hint, (4, 0))
    want = best(frozenset(secrets))
    assert want < least_total(secrets)
    tree = solve_game(game)
    assert tree.stats.total == verify_tree(tree).total == want
    assert tree.root.guess in others
    proof = check_certificate(certificate_from_bytes(json.dumps(certify_tree(tree)).encode()))
    assert proof.least_cost == want
    heuristic = build_tree(game, "expected-size").tree
    assert verify_tree(heuristic).secrets == 8


def test_other_guesses_travel_with_the_tree_and_are_checked(tmp_path):
    secrets = TINY[:6]
    with_more = parse_word_list("\n".join(secrets), "s", "s", guesses="CLAM\nBLOC\n")
    plain = parse_word_list("\n".join(secrets), "s", "s")
    assert not with_more.same_rules(plain)
    again = game_from_dict(json.loads(json.dumps(game_to_dict(with_more))))
    assert again.same_rules(with_more) and again.guesses == ("BLOC", "CLAM")
    d = game_to_dict(with_more)
    d["guesses"] = ["BLOC", "CLAW"]
    with pytest.raises(Exception, match="guesses do not match its guesses_sha256"):
        game_from_dict(d)
    path = tmp_path / "t.json"
    save_tree(solve_game(with_more), path)
    (tmp_path / "s.txt").write_text("\n".join(secrets) + "\n")
    (tmp_path / "g.txt").write_text("CLAM\nBLOC\n")
    ok = subprocess.run([TREEGEN, "verify", str(path), "--game", f"words:{tmp_path / 's.txt'}", "--guess-list",
                         str(tmp_path / "g.txt")], capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    other = subprocess.run([TREEGEN, "verify", str(path), "--game", f"words:{tmp_path / 's.txt'}"],
                           capture_output=True, text=True, check=False)
    assert other.returncode == 2 and "is a tree for" in other.stderr and other.stderr.count("\n") == 1
    never = subprocess.run([TREEGEN, "play", "--tree", str(path), "--secret", "CLAM"], capture_output=True, text=True, check=False)
    assert never.returncode == 2 and "is never the secret" in never.stderr


@pytest.mark.parametrize("args, words", [
    (["--game", "bulls-cows", "--guess-list", "all"], "--guess-list takes a list game"),
    (["--game", "words:{s}", "--guess-list", "all"], "make 358,800 codes; at most 20,000"),
    (["--game", "words:{s}", "--guess-list", "{bad}"], "g.txt, line 2: 'CLAMS' has 5 letters, but the secrets' words have 4"),
])
def test_bad_guess_lists_are_refused_in_one_line(tmp_path, args, words):
    (tmp_path / "s.txt").write_text("\n".join(TINY) + "\n")
    (tmp_path / "g.txt").write_text("BLOC\nCLAMS\n")
    args = [a.format(s=tmp_path / "s.txt", bad=tmp_path / "g.txt") for a in args]
    done = subprocess.run([TREEGEN, "build", "--strategy", "entropy", "-o", str(tmp_path / "t.json"), *args],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "t.json").exists()


def test_every_code_as_a_guess():
    """--guess-list all: every arrangement of the alphabet may be guessed (a list of digits, small enough)."""
    secrets = ["012", "120", "201", "345", "453"]
    game = parse_word_list("\n".join(secrets), "d", "d", "per-position", guesses="all")
    assert game.size == 720 and game.secret_count == 5
    tree = solve_game(game)
    assert verify_tree(tree).total == tree.stats.total


@pytest.mark.parametrize("fmt", ["paths", "irving", "arfst23", "arfst23-yml"])
def test_other_guesses_survive_export_and_import(fmt):
    """The formats that replay a tree over the secrets take the secrets alone, not the other guesses."""
    from treegen import formats as F

    game = parse_word_list("\n".join(TINY[:6]), "s", "s", guesses="BLOC\nCLAM\n")
    tree = solve_game(game)
    text = F.export_tree(fmt, tree)
    source = "solution-4-26-6" + (".yml" if fmt.endswith("yml") else "") if fmt.startswith("arfst23") else "t"
    back, _ = F.import_tree(fmt, text.encode(), source, game)
    assert back.root == tree.root and back.stats == tree.stats


def test_a_checkpoint_folder_tells_the_lists_rules_and_guesses_apart(tmp_path):
    """The same file as words:, jotto: and with --guess-list is three searches: a checkpoint folder made by one is
    refused to the others rather than reused."""
    from treegen.rules import TreegenError

    words = "\n".join(TINY)
    games = [parse_word_list(words, "w", "w"), parse_word_list(words, "w", "w", "jotto"),
             parse_word_list(words, "w", "w", guesses="BLOC\n")]
    for k, game in enumerate(games):
        solve_game(game, checkpoint=str(tmp_path / f"ck{k}"))
        for j, other in enumerate(games):
            if j != k:
                with pytest.raises(TreegenError, match="another search|other search|was made for"):
                    solve_game(other, checkpoint=str(tmp_path / f"ck{k}"))


def test_the_server_refuses_two_games_of_one_name(tmp_path):
    from treegen.rules import GameError
    from treegen.serve import CoachSlot

    words = "\n".join(TINY)
    for rule in ("bulls-cows", "jotto"):
        save_tree(build_tree(parse_word_list(words, "w", "w", rule), "entropy").tree, tmp_path / f"w-{rule}.json")
    with pytest.raises(GameError, match="are of different games"):
        CoachSlot(tmp_path).game("w")


def test_long_lists_are_split_between_workers(monkeypatch):
    """A list game has no symmetry, so a long list is searched by the workers (not in one process, as a small
    game of every arrangement is), with the same bytes as one process gives."""
    from treegen.exact import executors, plan_workers

    long_list = parse_word_list((WORDS / "word-mastermind-1000.txt").read_text(), "l", "l")
    assert plan_workers(long_list, 2)[0] == min(2, os.cpu_count() or 1)
    assert plan_workers(resolve_game("bc:4:7"), 2)[0] == 1  # 840 codes with symmetry: quick in one process
    game = parse_word_list("\n".join(sorted(random.Random(5).sample(resolve_game("jotto").words, 120))), "j", "j", "jotto")
    monkeypatch.setattr(executors, "INLINE_MAX_WORDS", 0)
    assert plan_workers(game, 2)[0] == min(2, os.cpu_count() or 1)
    assert tree_to_bytes(solve_game(game, workers=2)) == tree_to_bytes(solve_game(game, workers=1))
