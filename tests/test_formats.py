"""Interchange formats: import/export round trips, hand-written fixtures, real published trees, errors.

References are written here, separately from treegen.formats: a naive scorer and a naive player that
walks each secret through a tree, so that exports and imports are checked against plain code.
"""

from __future__ import annotations

import io
import itertools
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegen import formats as F
from treegen.cli import main
from treegen.rules import Game, resolve_game
from treegen.tree import InvalidTree, Node, load_tree, save_tree, tree_to_bytes
from treegen.verify import make_tree

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


# -- naive references ------------------------------------------------------------------------------


def naive_hint(guess: str, secret: str) -> str:
    bulls = sum(a == b for a, b in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return f"{bulls}A{common - bulls}B"


def naive_codes(alphabet: str, positions: int, repeats: bool) -> list[str]:
    if repeats:
        return ["".join(t) for t in itertools.product(alphabet, repeat=positions)]
    return ["".join(t) for t in itertools.permutations(alphabet, positions)]


def naive_play(root: Node, secret: str) -> list[tuple[str, str]]:
    """The (guess, hint) pairs the tree plays against ``secret``, ending with the all-bulls hint."""
    out, node = [], root
    while True:
        hint = naive_hint(node.guess, secret)
        out.append((node.guess, hint))
        if node.guess == secret:
            return out
        node = dict(node.next)[hint]


def naive_total(tree) -> int:
    g = tree.game
    return sum(len(naive_play(tree.root, s)) for s in naive_codes(g.alphabet, g.positions, g.repeats))


def random_tree(game, rng: random.Random) -> Node:
    """A random complete strategy: each guess is a possible secret or a code that splits the class."""

    def build(secrets: list[str]) -> Node:
        if len(secrets) == 1 and rng.random() < 0.8:
            return Node(secrets[0])
        codes = naive_codes(game.alphabet, game.positions, game.repeats)
        while True:
            guess = rng.choice(secrets if rng.random() < 0.5 else codes)
            groups: dict[str, list[str]] = {}
            for s in secrets:
                groups.setdefault(naive_hint(guess, s), []).append(s)
            win = f"{game.positions}A0B"
            groups.pop(win, None)
            if guess in secrets or len(groups) > 1:
                break
        if not groups:
            return Node(guess)
        return Node.build(guess, {h: build(c) for h, c in groups.items()})

    return build(naive_codes(game.alphabet, game.positions, game.repeats))


# -- round trips -----------------------------------------------------------------------------------

# The shipped trees whose round trips take about two seconds or less each; the rest (bulls-cows worst,
# numbers-baseball: the same code, only slower) were checked once by hand with the same code.
SMALL_TREES = [
    "mastermind-optimal-average.json",
    "mastermind-optimal-average-max5.json",
    "mastermind-optimal-worst.json",
    "mm-4-7-optimal-average.json",
    "royale-optimal-average.json",
    "smash-the-code-optimal-average.json",
    "bulls-cows-optimal-average.json",
    "mm-4-8-optimal-average.json",
]


@pytest.mark.parametrize("name", SMALL_TREES)
@pytest.mark.parametrize("fmt", ["paths", "irving"])
def test_round_trip_of_shipped_trees_is_byte_exact(name, fmt):
    original = (ROOT / "trees" / name).read_bytes()
    tree = load_tree(ROOT / "trees" / name)
    text = F.export_tree(fmt, tree)
    back, parsed = F.import_tree(fmt, text.encode(), f"{name}.{fmt}")
    assert tree_to_bytes(back) == original
    assert parsed.notes == ()  # the header names the game: nothing had to be assumed


@pytest.mark.parametrize("name", SMALL_TREES[:2])
@pytest.mark.parametrize("fmt", ["arfst23", "arfst23-yml"])
def test_arfst23_round_trip_keeps_the_tree(name, fmt):
    tree = load_tree(ROOT / "trees" / name)
    text = F.export_tree(fmt, tree)
    back, _ = F.import_tree(fmt, text.encode(), "solution-4-6-6" + (".yml" if fmt.endswith("yml") else ""))
    assert back.root == tree.root and back.stats == tree.stats
    assert back.strategy == f"imported:{fmt}"  # arfst23's formats have no room for treegen's header


@pytest.mark.parametrize("fmt", ["paths", "irving", "arfst23", "arfst23-yml"])
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(["mm:2:2", "bc:2:3", "mm:2:4", "mm:3:3", "bc:3:5"]))
@settings(max_examples=25, deadline=None)
def test_round_trip_of_random_tiny_trees(fmt, seed, spec):
    game = resolve_game(spec)
    tree = make_tree(game, "random", random_tree(game, random.Random(seed)), {"seed": seed})
    text = F.export_tree(fmt, tree)
    back, _ = F.import_tree(fmt, text.encode(), "t.yml" if fmt == "arfst23-yml" else "t", game=game)
    assert back.root == tree.root
    if fmt in ("paths", "irving"):
        assert tree_to_bytes(back) == tree_to_bytes(tree)


def test_bare_export_records_where_the_tree_came_from(tmp_path):
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-worst.json")
    text = F.export_tree("irving", tree, header=False)
    assert not text.startswith("#")
    back, parsed = F.import_tree("irving", text.encode(), "dir/mm.txt")
    assert back.root == tree.root
    assert back.strategy == "imported:irving"
    import hashlib

    assert back.provenance == {"source": "mm.txt", "sha256": hashlib.sha256(text.encode()).hexdigest(), "format": "irving"}
    assert parsed.notes and "from the root class of 1296" in parsed.notes[0]


# -- exports against naive references --------------------------------------------------------------


@pytest.mark.parametrize("name", ["mastermind-optimal-average.json", "royale-optimal-average.json"])
def test_paths_export_is_what_each_secret_plays(name):
    tree = load_tree(ROOT / "trees" / name)
    g = tree.game
    want = [
        f"{s}: {' '.join(guess for guess, _ in naive_play(tree.root, s))}"
        for s in naive_codes(g.alphabet, g.positions, g.repeats)
    ]
    assert F.format_paths(tree, header=False).splitlines() == want


def test_csv_has_one_row_per_node_with_the_class_size():
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-average-max5.json")
    g = tree.game
    sizes: dict[tuple[str, ...], int] = {}
    guess_at: dict[tuple[str, ...], str] = {}
    for s in naive_codes(g.alphabet, g.positions, g.repeats):
        history: tuple[str, ...] = ()
        for guess, hint in naive_play(tree.root, s):
            sizes[history] = sizes.get(history, 0) + 1
            guess_at[history] = guess
            history += (guess, hint)
    lines = F.format_csv(tree).splitlines()
    assert lines[0] == "history,guess,secrets"
    rows = {}
    for line in lines[1:]:
        history, guess, n = line.split(",")
        rows[tuple(history.split())] = (guess, int(n))
    assert len(rows) == len(lines) - 1 == tree.root.nodes()
    assert rows == {h: (guess_at[h], sizes[h]) for h in sizes}


def test_dot_depth_cuts_the_drawing():
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-average.json")
    full = F.format_dot(tree)
    two = F.format_dot(tree, depth=2)
    assert full.count("[label=") == tree.root.nodes() + tree.root.nodes() - 1  # boxes and edges
    root_kids = len(tree.root.next)
    assert two.count(" -> ") == root_kids
    assert two.count("subtree cut") == sum(1 for _, c in tree.root.next if c.next)
    assert 'n0 [label="1123\\n1296 secrets"]' in two or 'n0 [label="' + tree.root.guess in two
    with pytest.raises(F.FormatError):
        F.format_dot(tree, depth=0)


# -- hand-written fixtures (mm:2:2: codes 00 01 10 11) ---------------------------------------------

# Guess 00: 11 gives 0A0B; 01 and 10 give 1A0B, then 01 is guessed (10 gives 0A2B).
TINY = Node.build("00", {"0A0B": Node("11"), "1A0B": Node.build("01", {"0A2B": Node("10")})})
TINY_IRVING = "4 (00: 0, 0, 1; 2; 1)\n"  # the class of 2 left bare: the lower code is guessed first
TINY_CARD = (
    "         -- O- OO X- XX\n"
    "000 1 00 11 -- -- >001 00\n"
    "001 2 01 -- -- 10 -- 01\n"
)
TINY_YML = "---\n- 00\n- --: 11\n  X-:\n    - 01\n    - OO: 10\n      XX: 01\n  XX: 00\n"


def test_tiny_fixtures_read_as_the_same_tree():
    game = resolve_game("mm:2:2")
    assert F.parse_irving(TINY_IRVING, game).root == TINY
    assert F.parse_irving(TINY_IRVING).game.spec == "mm:2:2"  # 4 two-symbol codes: mm:2:2
    assert F.parse_arfst23(TINY_CARD, source="solution-2-2-3").root == TINY
    assert F.parse_arfst23_yml(TINY_YML, source="solution-2-2-3.yml").root == TINY
    paths = "00: 00\n01: 00 01\n10: 00 01 10\n11: 00 11\n"
    assert F.parse_paths(paths, game).root == TINY
    tree = make_tree(game, "hand", TINY)
    assert naive_total(tree) == tree.stats.total == 1 + 2 + 3 + 2
    assert F.format_paths(tree, header=False) == paths
    assert F.format_arfst23(tree) == TINY_CARD
    assert F.format_arfst23_yml(tree) == TINY_YML
    assert F.format_irving(tree, header=False) == "4 (00: 0, 0, 1; 2 (01); 1)\n\n"


def test_irving_knuth_layout_and_marks():
    game = resolve_game("mm:2:2")
    # Knuth writes the impossible (P-1 bulls, 1 cow) entry as an explicit 0; 'x' marks a guess that
    # leaves classes of at most two secrets.
    parsed = F.parse_irving("4(00: 0,0,1;0,2(01x);1)", game)
    assert parsed.root == TINY
    assert any("Knuth" in n for n in parsed.notes)
    # bc:2:3 (01 02 10 12 20 21): after 01, 12 and 20 give 0A1B; 21 (not possible: '*') splits them.
    bc = resolve_game("bc:2:3")
    want = Node.build("01", {
        "0A1B": Node.build("21", {"0A2B": Node("12"), "1A0B": Node("20")}),
        "0A2B": Node("10"),
        "1A0B": Node.build("02", {"0A1B": Node("21")}),  # 02 v 21: no bull, one cow
    })
    starred = F.parse_irving("6 (01: 1, 2 (21*), 0; 2; 1)", bc)
    assert starred.root == want and starred.notes == ()
    unmarked = F.parse_irving("6 (01: 1, 2 (21), 0; 2; 1)", bc)
    assert unmarked.root == want
    assert unmarked.notes == (
        "1 guess mark does not hold (ignored, as mmstrat does): 1 x ')': the guess is possible and every "
        "class it leaves is one secret; first at line 1 column 14 (21)",
    )
    assert F.format_irving(make_tree(bc, "x", want), header=False) == "6 (01: 1, 2 (21*), 0; 2 (02); 1)\n\n"


def test_alphabet_is_detected_or_given():
    game = resolve_game("mastermind")  # symbols 1-6
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-average.json")
    zero_based = F.format_paths(tree, header=False).translate(str.maketrans("123456", "012345"))
    parsed = F.parse_paths(zero_based, game)
    assert parsed.root == tree.root
    assert parsed.alphabet == "012345=123456"
    assert any("--alphabet 012345=123456" in n for n in parsed.notes)
    # The same file with the map given: nothing assumed.
    given_ = F.parse_paths(zero_based, game, alphabet="012345=123456")
    assert given_.root == tree.root and given_.notes == ()
    # Letters for colours, mapped by hand.
    letters = F.format_paths(tree, header=False).translate(str.maketrans("123456", "RGBYOW"))
    assert F.parse_paths(letters, game, alphabet="RGBYOW=123456").root == tree.root
    with pytest.raises(F.FormatError, match="one-to-one"):
        F.parse_alphabet_map("0123=123")
    with pytest.raises(F.FormatError, match="does not use"):
        F.parse_paths(zero_based, game, alphabet="012345=012345")


def test_export_in_other_symbols_round_trips_by_itself():
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-average-max5.json")
    for fmt in ("paths", "irving"):
        text = F.export_tree(fmt, tree, alphabet="012345=123456")
        body = text.split("\n", 1)[1]
        shifted_root = tree.root.guess.translate(str.maketrans("123456", "012345"))
        assert body.startswith(f"0000: {shifted_root} " if fmt == "paths" else f"1296 ({shifted_root}:")
        if fmt == "paths":
            assert "6" not in body and "0" in body  # colours written 0-5
        back, parsed = F.import_tree(fmt, text.encode(), "x")
        assert tree_to_bytes(back) == tree_to_bytes(tree) and parsed.notes == ()
    # Punch card in 0-5 against the same card written by hand from the 1-6 one.
    card = F.export_tree("arfst23", tree)
    shifted = F.export_tree("arfst23", tree, alphabet="012345=123456")
    header, *rows = card.splitlines(True)
    shift = str.maketrans("123456", "012345")
    want = header
    for r in rows:
        number, depth, *codes = r.split()
        want += " ".join([number, depth] + [c if c.startswith((">", "-")) else c.translate(shift) for c in codes]) + "\n"
    assert shifted == want
    with pytest.raises(F.FormatError, match="does not say how to write 6"):
        F.export_tree("paths", tree, alphabet="01234=12345")
    with pytest.raises(F.FormatError, match="--alphabet applies to"):
        F.export_tree("csv", tree, alphabet="012345=123456")
    with pytest.raises(F.FormatError, match="--bare applies to"):
        F.export_tree("dot", tree, header=False)


# -- real published trees (fancidev/mastermind, MIT licence; see tests/data/README.md) -------------


@pytest.mark.parametrize(
    "name, total, histogram",
    [
        # Knuth (1976): the published minimax tree, 5801 guesses (REFERENCE.md).
        ("p4c6r-knuth.txt", 5801, (0, 1, 6, 62, 533, 694)),
        # Koyama and Lai (1993): an optimal tree, 5625 guesses (REFERENCE.md), one secret needs 6.
        ("p4c6r-koyama-1.txt", 5625, None),
    ],
)
def test_published_irving_trees_verify(name, total, histogram):
    data = (DATA / name).read_bytes()
    tree, parsed = F.import_tree("irving", data, str(DATA / name))
    assert tree.game.name == "mastermind"
    assert tree.stats.total == naive_total(tree) == total
    if histogram:
        assert tree.stats.histogram == histogram
    assert tree.provenance["source"] == name


# -- errors: malformed input (exit 2) and faulty strategies (exit 1) -------------------------------


@pytest.mark.parametrize(
    "fmt, text, source, match",
    [
        ("paths", "00 00\n", "p", r"p:1:1: no ':'"),
        ("paths", "00: 00\n01: 0x\n", "p", r"p:2:5: code '0x'"),
        ("paths", "00:\n", "p", r"p:1:4: no guesses"),
        ("irving", "4 (00: 0, 0, 1; 2; 1", "i", r"i:1:21: expected '\)' after the entry for 2 bulls and 0 cows, found the end"),
        ("irving", "4 (00: 0, 0, 1, 2; 1)", "i", r"i:1:15: expected ';'"),
        ("irving", "4 (00: 0, 0, 1; 2A; 1)", "i", r"sub-tree A is used but never defined"),
        ("irving", "4 (00: 0, 0, 1; 2; 1)\nB = (01: 0, 0, 0; 0; 1)", "i", r"i:2:5: sub-tree B is defined but never used"),
        ("irving", "no tree here", "i", "no guess found"),
        ("arfst23", "         -- O- OO X- XX\n000 1 00 11 -- --\n", "solution-2-2-3", r":2:1: a row is ROW DEPTH GUESS and 5 cells"),
        ("arfst23", "         -- O- OO X- XX\n000 1 00 11 -- -- >007 00\n", "solution-2-2-3", r"row 7 is referenced but does not exist"),
        ("arfst23", "         -- O- OO Q- XX\n", "solution-2-2-3", r":1:19: header column 'Q-'"),
        ("arfst23-yml", "- 00\n- --: 11\n   X-: 01\n", "solution-2-2-3.yml", r":3:4: unexpected"),
    ],
)
def test_malformed_input_names_line_and_column(fmt, text, source, match):
    with pytest.raises(F.FormatError, match=match):
        F.import_tree(fmt, text.encode(), source, game=resolve_game("mm:2:2"))


@pytest.mark.parametrize(
    "fmt, text, source, match",
    [
        ("paths", "00: 00\n01: 00 01\n10: 00 10\n11: 00 11\n", "p",
         r"at 00 1A0B: line 3 guesses 10 after 00 1A0B but line 2 guesses 01"),
        ("paths", "00: 00\n01: 00 01\n10: 00 01 10\n", "p", r"no path for 1 secret \(11\)"),
        ("paths", "00: 00\n01: 00 01\n10: 00 01 10\n11: 00 11\n01: 00 01\n", "p", r"line 5 repeats the secret 01 of line 2"),
        ("paths", "00: 00\n01: 00 01\n10: 00 01\n11: 00 11\n", "p", r"line 3: the path for 10 ends before"),
        ("irving", "4 (00: 0, 0, 1; 3; 0)", "i", r"at 00 1A0B: line 1 column 17: the class is written as 3 secrets but has 2"),
        ("irving", "4 (01: 0, 1, 0; 2; 1)", "i", r"at 01 0A2B: line 1 column 8: the class is written as 0 secrets but has 1"),
        ("arfst23", "         -- O- OO X- XX\n000 1 00 -- -- -- >001 00\n001 2 01 -- -- 10 -- 01\n",
         "solution-2-2-3", r"at 00 0A0B: line 2 column 10: -- says no secret, but 1 secret gives 0A0B \(11\)"),
        ("arfst23", "         -- O- OO X- XX\n000 1 00 11 -- -- >001 00\n001 3 01 -- -- 10 -- 01\n",
         "solution-2-2-3", r"row 1 \(line 3\) says depth 3 but is reached at depth 2"),
        ("arfst23-yml", "- 00\n- --: 11\n  X-: 01\n  XX: 00\n", "solution-2-2-3.yml", r"says the secret is 01, but 2 secrets"),
    ],
)
def test_faulty_strategies_name_the_path(fmt, text, source, match):
    with pytest.raises(InvalidTree, match=match):
        F.import_tree(fmt, text.encode(), source, game=resolve_game("mm:2:2"))


def test_irving_bare_class_of_three_has_no_guess():
    # mm:2:3: after 00, the four codes of 1 and 2 give 0A0B; only classes of 1 or 2 may be left bare.
    with pytest.raises(InvalidTree, match="at 00 0A0B: line 1: a class of 4 secrets has no guess"):
        F.parse_irving("9 (00: 0, 0, 4; 4; 1)", resolve_game("mm:2:3"))


def test_header_stats_must_be_what_the_tree_gives():
    tree = load_tree(ROOT / "trees" / "mastermind-optimal-worst.json")
    text = F.export_tree("paths", tree).replace('"total":5626', '"total":5000', 1)
    with pytest.raises(InvalidTree, match="stats: total is 5000 in the header but the tree gives 5626"):
        F.import_tree("paths", text.encode(), "x")


def test_game_must_be_known():
    with pytest.raises(F.FormatError, match="give --game"):
        F.import_tree("arfst23", TINY_CARD.encode(), "tiny.txt")
    with pytest.raises(F.FormatError, match="give --game"):
        F.import_tree("paths", b"00: 00\n01: 00 01\n10: 00 01 10\n", "p")  # 3 lines: no game has 3 codes


# -- the command line ------------------------------------------------------------------------------


def run(capsys, *args):
    try:
        status = main(list(args))
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_import_export_round_trip(tmp_path, capsys):
    src = ROOT / "trees" / "mastermind-optimal-average.json"
    status, out, err = run(capsys, "export", "irving", str(src), "-o", str(tmp_path / "mm.txt"))
    assert status == 0 and out == "" and err == ""
    status, out, err = run(capsys, "import", "irving", str(tmp_path / "mm.txt"), "-o", str(tmp_path / "back.json"))
    assert status == 0, err
    assert (tmp_path / "back.json").read_bytes() == src.read_bytes()
    assert "total    5625" in out and "verified" in out
    status, out, err = run(capsys, "export", "paths", str(src))
    assert status == 0 and out.startswith("# treegen: ") and out.count("\n") == 1297


def test_cli_import_says_what_it_assumed(tmp_path, capsys):
    (tmp_path / "solution-2-2-3").write_text(TINY_CARD)
    status, out, err = run(capsys, "import", "arfst23", str(tmp_path / "solution-2-2-3"), "-o", str(tmp_path / "t.json"))
    assert status == 0
    assert "game mm:2:2" in err and "from the file name" in err
    assert load_tree(tmp_path / "t.json").root == TINY


def test_cli_import_refuses_a_faulty_tree_with_exit_1(tmp_path, capsys):
    (tmp_path / "bad.txt").write_text("00: 00\n01: 00 01\n10: 00 10\n11: 00 11\n")
    status, out, err = run(capsys, "import", "paths", str(tmp_path / "bad.txt"), "--game", "mm:2:2",
                           "-o", str(tmp_path / "t.json"))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "line 3 guesses 10 after 00 1A0B but line 2 guesses 01" in err
    assert not (tmp_path / "t.json").exists()
    assert os.listdir(tmp_path) == ["bad.txt"]  # no partial or temporary file


@pytest.mark.parametrize(
    "args, match",
    [
        (["import", "paths", "{src}", "-o", "{dir}"], "is a folder"),
        (["import", "paths", "{src}", "-o", ""], "path is empty"),
        (["import", "paths", "{src}", "-o", "{src}"], "is the file being imported"),
        (["export", "paths", "{tree}", "-o", "{tree}"], "is the tree file being exported"),
        (["import", "paths", "{dir}/missing.txt", "-o", "{dir}/t.json"], "cannot read"),
        (["import", "nosuch", "{src}", "-o", "{dir}/t.json"], "unknown import format"),
        (["import", "paths", "{src}", "--game", "mm:2:2", "--alphabet", "01", "-o", "{dir}/t.json"], "FROM=TO"),
        (["export", "svg", "{tree}"], "unknown export format"),
        (["export", "paths", "{tree}", "--depth", "2"], "dot format only"),
        (["export", "paths", "{tree}", "-o", "{dir}/no/such/x.txt"], "does not exist"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args, match, tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("00: 00\n01: 00 01\n10: 00 01 10\n11: 00 11\n")
    tree = tmp_path / "t.json"
    save_tree(make_tree(resolve_game("mm:2:2"), "hand", TINY), tree)
    before = sorted(os.listdir(tmp_path))
    args = [a.format(src=src, dir=tmp_path, tree=tree) for a in args]
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and match in err, err
    assert sorted(os.listdir(tmp_path)) == before


def test_cli_export_refuses_an_invalid_tree(tmp_path, capsys):
    game = resolve_game("mm:2:2")
    tree = make_tree(game, "hand", TINY)
    from treegen.tree import Tree

    broken = Tree(game, "hand", Node.build("00", {"0A0B": Node("11")}), tree.stats)
    save_tree(broken, tmp_path / "b.json")
    status, out, err = run(capsys, "export", "paths", str(tmp_path / "b.json"))
    assert status == 1 and out == "" and "no branch for hint 1A0B" in err


@pytest.mark.parametrize("fmt", ["paths", "irving", "arfst23", "arfst23-yml"])
def test_mutated_files_are_refused_cleanly_or_are_valid_trees(fmt):
    """Random edits of a valid file: a one-line FormatError, an InvalidTree, or a tree that verifies."""
    rng = random.Random(fmt)
    game = resolve_game("mm:3:3")
    tree = make_tree(game, "random", random_tree(game, rng))
    text = F.export_tree(fmt, tree)
    source = "solution-3-3-9.yml" if fmt == "arfst23-yml" else "solution-3-3-9"
    outcomes = {"format": 0, "invalid": 0, "ok": 0}
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                chars[k] = rng.choice("0123456789ABx*:;,()=- \n>#OX")
            elif op < 0.7:
                del chars[k]
            else:
                chars.insert(k, rng.choice("0123456789ABx*:;,()=- \n>#OX"))
        try:
            back, _ = F.import_tree(fmt, "".join(chars).encode(), source, game=game)
        except F.FormatError as exc:
            assert "\n" not in str(exc)
            outcomes["format"] += 1
        except InvalidTree as exc:
            assert "\n" not in str(exc)
            outcomes["invalid"] += 1
        else:
            assert naive_total(back) == back.stats.total
            outcomes["ok"] += 1
    assert outcomes["format"] > 100  # most random edits break the syntax, and are named as such


# -- hostile numbers, marks and text (issue #40) ---------------------------------------------------

BIG = "9" * 5000  # int() refuses more than 4300 digits with a plain ValueError (exit 3 in the CLI)


def _refused(fmt: str, text: str, source: str = "f") -> str:
    with pytest.raises(F.FormatError) as info:
        F.import_tree(fmt, text.encode(), source, resolve_game("mm:2:2"))
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


def test_numbers_in_imported_files_are_ascii_digits_within_bounds(tmp_path, capsys):
    # Irving class sizes: 5000 digits crashed int(); '４' matched \d and was read as 4.
    assert "not a number of 5000 digits" in _refused("irving", TINY_IRVING.replace("4", BIG, 1))
    assert "expected the number of secrets" in _refused("irving", TINY_IRVING.replace("4", "４", 1))
    # arfst23 rows, depths and >ROW cells: str.isdigit() takes '²' (int() then raises) and '１' (read as 1).
    for card in (TINY_CARD.replace("\n001 ", "\n²01 "), TINY_CARD.replace("\n001 2", "\n001 ２"),
                 TINY_CARD.replace(">001", ">00１"), TINY_CARD.replace(">001", ">" + BIG),
                 TINY_CARD.replace("\n001 ", f"\n{BIG} ")):
        _refused("arfst23", card)
    # The file name solution-P-C-D only hints at the game: odd numbers there say nothing.
    for name in ("solution-2-2-²", "solution-２-2-3", f"solution-{BIG}-2-unique", f"solution-2-2-{BIG}"):
        assert F.arfst23_game(name) == (None, None), name
    assert F.arfst23_game("solution-2-2-3")[1] == 3
    # Through the command line: exit 2 and one line, not "internal error: ValueError" (exit 3).
    (tmp_path / "big.txt").write_text(TINY_IRVING.replace("4", BIG, 1))
    status, out, err = run(capsys, "import", "irving", str(tmp_path / "big.txt"), "-o", str(tmp_path / "t.json"))
    assert (status, out) == (2, "") and err.count("\n") == 1 and "5000 digits" in err, err


def _outside_quotes(dot: str) -> tuple[str, list[str]]:
    """The DOT text outside quoted strings, and the strings (unescaped); fails on an unclosed string,
    a line break inside one, and a backslash escape other than \\\\, \\" and \\n (a label line break)."""
    outside, strings, k = [], [], 0
    while k < len(dot):
        if dot[k] != '"':
            outside.append(dot[k])
            k += 1
            continue
        k += 1
        buf = []
        while dot[k] != '"':  # IndexError: an unclosed string
            assert dot[k] != "\n", "a line break inside a quoted string"
            if dot[k] == "\\":
                k += 1
                assert dot[k] in '\\"n', f"escape \\{dot[k]} in {dot[k - 20:k + 5]!r}"
            buf.append(dot[k])
            k += 1
        strings.append("".join(buf))
        k += 1
    return "".join(outside), strings


def test_dot_and_csv_exports_keep_tree_text_inside_its_quotes():
    import csv

    evil = 'x" URL="javascript:alert(1)'
    tree = make_tree(resolve_game("mm:2:2"), evil, TINY)
    outside, strings = _outside_quotes(F.export_tree("dot", tree))
    assert "URL" not in outside and "javascript" not in outside, outside
    assert any(evil in s for s in strings)
    # A game of the file's own, named and written with DOT's and CSV's special characters.
    game = Game('name "q"\\ \nline', 2, '"\\,', True)
    odd = make_tree(game, "s\r\n\\N", random_tree(game, random.Random(7)))
    outside, strings = _outside_quotes(F.export_tree("dot", odd))
    assert set(outside) <= set("digraph treegen{}labeloc=t;\n nodeshapbxfmsp[],-0123456789>ys"), outside
    assert any("s n\\N" in s for s in strings)  # the backslash of \N stays one (Graphviz: the node's name)
    # CSV: quoted by the csv module, and a cell starting with = + - @ gets a leading apostrophe.
    formula = make_tree(Game("formula", 2, "=@-", True), "s", random_tree(Game("formula", 2, "=@-", True),
                                                                         random.Random(3)))
    for t in (odd, formula):
        rows = list(csv.reader(io.StringIO(F.export_tree("csv", t))))
        assert rows[0] == ["history", "guess", "secrets"] and all(len(r) == 3 for r in rows)
        guesses = []
        for history, guess, secrets in rows[1:]:
            for cell in (history, guess):
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
            guesses.append(guess[1:] if guess.startswith("'") and guess[1:2] in "=+-@" else guess)
            assert int(secrets) > 0
        assert sorted(guesses) == sorted(_guesses(t.root))
        assert int(rows[1][2]) == t.game.size


def _guesses(node: Node) -> list[str]:
    return [node.guess] + [g for _, c in node.next for g in _guesses(c)]


def test_imports_skip_a_byte_order_mark():
    game = resolve_game("mm:2:2")
    tree = make_tree(game, "hand", TINY)
    for fmt in F.IMPORT_FORMATS:
        text = F.export_tree(fmt, tree, header=False) if fmt in ("paths", "irving") else F.export_tree(fmt, tree)
        plain, _ = F.import_tree(fmt, text.encode(), "f", game)
        marked, _ = F.import_tree(fmt, b"\xef\xbb\xbf" + text.encode(), "f", game)
        assert (marked.root, marked.stats) == (plain.root, plain.stats) == (TINY, tree.stats), fmt


def test_alphabet_maps_refuse_unfit_symbols(tmp_path, capsys):
    tree = make_tree(resolve_game("mm:2:2"), "hand", TINY)
    for given, why in (("0 1=01", "FROM has a space"), ("a\nb=01", "FROM has a line break"),
                       ("aA=01", "FROM has both 'a' and 'A'"), ("０1=01", "non-ASCII"), ("ab=0 1", "TO has a space")):
        with pytest.raises(F.FormatError, match=why) as info:
            F.export_tree("paths", tree, alphabet=given)
        assert "printable ASCII" in str(info.value) and "\n" not in str(info.value)
        with pytest.raises(F.FormatError, match=why):
            F.parse_paths("00: 00\n", resolve_game("mm:2:2"), alphabet=given)
    assert F.export_tree("paths", tree, header=False, alphabet="ab=01").startswith("AA: AA\n")
    save_tree(tree, tmp_path / "t.json")
    status, out, err = run(capsys, "export", "paths", str(tmp_path / "t.json"), "--alphabet", "aA=01")
    assert (status, out) == (2, "") and err.count("\n") == 1 and "both 'a' and 'A'" in err, err


# -- the package's layout ------------------------------------------------------------------------------


def test_one_list_of_formats_says_which_import_and_which_export():
    names = [f.name for f in F.FORMATS]
    assert F.EXPORT_FORMATS == tuple(names) == ("paths", "irving", "arfst23", "arfst23-yml", "dot", "csv")
    assert F.IMPORT_FORMATS == tuple(f.name for f in F.FORMATS if f.parse) == ("paths", "irving", "arfst23",
                                                                               "arfst23-yml")
    for f in F.FORMATS:
        module = f.write.__module__.rsplit(".", 1)[1]
        assert module == f.name.replace("-", "_")  # one module per format
        assert f.parse is None or f.parse.__module__ == f.write.__module__


def test_format_modules_import_downward_only():
    """treegen.formats reads rules, tree, verify (and files); its modules read the prelude, never the CLI."""
    import ast

    allowed = {"rules", "tree", "verify", "files"}
    folder = ROOT / "treegen" / "formats"
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                assert node.module in allowed, (path.name, node.module)
            elif isinstance(node, ast.ImportFrom) and node.level == 1:
                # siblings: the prelude, and the punch card for its YAML twin; the list imports them all
                assert path.name == "__init__.py" or node.module == "common" or (
                    path.name, node.module) == ("arfst23_yml.py", "arfst23"), (path.name, node.module)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                assert not any(n.startswith("treegen") for n in names), (path.name, names)


def test_an_export_alphabet_map_to_symbols_the_game_lacks_is_refused(tmp_path):
    """Such a file could not be imported back (the import refuses the same map), so the export refuses it."""
    from treegen.formats import FormatError, export_tree
    from treegen.tree import load_tree

    tree = load_tree(os.path.join(os.path.dirname(__file__), "..", "trees", "mastermind-optimal-average.json"))
    with pytest.raises(FormatError, match=r"maps to 0, which mastermind does not use; its symbols are 123456"):
        export_tree("paths", tree, alphabet="abcdefg=0123456")
    assert "AABC ABDE" in export_tree("paths", tree, alphabet="abcdef=123456")  # 1123 1245 written in letters


def test_error_messages_quote_at_most_a_short_piece_of_a_huge_value(tmp_path, capsys):
    import json

    from clitools import run_main

    src = json.loads(open(os.path.join(os.path.dirname(__file__), "..", "trees", "mastermind-optimal-average.json")).read())
    cases = {"format": dict(src, format="f" * 100000),
             "histogram": dict(src, stats=dict(src["stats"], histogram=[0] * 100000))}
    for name, obj in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(obj))
        status, _, err = run_main(capsys, "verify", str(path))
        assert status in (1, 2) and len(err) < 600, (name, len(err))
