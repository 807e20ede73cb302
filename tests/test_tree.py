"""Tree files: building, writing, reading and walking trees (treegen.tree).

The reference trees come from a naive first-consistent builder written here from the definitions, with
its own scorer and its own JSON writer, so that the file format is checked independently of treegen.
test_verify.py and test_play.py import the builder from this module.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from treegen import tree as T
from treegen.rules import Game, HintError, TreegenError, resolve_game
from treegen.verify import compute_stats, make_tree

TINY_GAMES = ["bc:2:3", "bc:2:4", "bc:3:4", "mm:2:3", "mm:3:3", "mm:3:2", "bc:1:5"]


# -- the naive reference builder ------------------------------------------------------------------


def naive_hint(guess: str, secret: str) -> str:
    """The canonical xAyB hint of ``guess`` against ``secret``, from the definition."""
    bulls = sum(1 for g, s in zip(guess, secret) if g == s)
    common = sum(min(guess.count(x), secret.count(x)) for x in set(guess))
    return f"{bulls}A{common - bulls}B"


def naive_codes(game) -> list[str]:
    if game.repeats:
        it = itertools.product(game.alphabet, repeat=game.positions)
    else:
        it = itertools.permutations(game.alphabet, game.positions)
    return ["".join(c) for c in it]


def _hint_order(key: str):
    return int(key[0]), int(key[2])


def first_consistent(game, secrets: list[str] | None = None) -> dict:
    """A tree (nested dicts of the file format) that always guesses the first secret still possible."""
    secrets = naive_codes(game) if secrets is None else secrets
    win = f"{game.positions}A0B"
    guess = secrets[0]
    groups: dict[str, list[str]] = {}
    for s in secrets:
        h = naive_hint(guess, s)
        if h != win:
            groups.setdefault(h, []).append(s)
    node = {"guess": guess}
    if groups:
        node["next"] = {h: first_consistent(game, groups[h]) for h in sorted(groups, key=_hint_order)}
    return node


def naive_histogram(game, root: dict) -> list[int]:
    hist = [0]

    def walk(node, secrets, depth):
        win = f"{game.positions}A0B"
        groups: dict[str, list[str]] = {}
        for s in secrets:
            groups.setdefault(naive_hint(node["guess"], s), []).append(s)
        if win in groups:
            hist.extend([0] * (depth + 1 - len(hist)))
            hist[depth] += 1
        for h, child in node.get("next", {}).items():
            walk(child, groups.get(h, []), depth + 1)

    walk(root, naive_codes(game), 1)
    return hist


def file_obj(game, root: dict, strategy="heuristic:first-consistent", provenance=None) -> dict:
    hist = naive_histogram(game, root)
    obj = {
        "format": "treegen-tree",
        "version": 1,
        "game": {"name": game.name, "positions": game.positions, "alphabet": game.alphabet, "repeats": game.repeats},
        "strategy": strategy,
        "stats": {
            "secrets": sum(hist),
            "total": sum(k * n for k, n in enumerate(hist)),
            "max_guesses": len(hist) - 1,
            "histogram": hist,
        },
    }
    if provenance is not None:
        obj["provenance"] = provenance
    obj["root"] = root
    return obj


def file_bytes(obj) -> bytes:
    """Compact JSON plus a newline, written with the standard library."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def naive_file(game, **kw) -> bytes:
    return file_bytes(file_obj(game, first_consistent(game), **kw))


def dict_to_node(d: dict) -> T.Node:
    """A Node built through the builder API from nested dicts (children given in reverse order)."""
    kids = {h: dict_to_node(c) for h, c in reversed(list(d.get("next", {}).items()))}
    return T.Node.build(d["guess"], kids or None)


@pytest.fixture(scope="session")
def bc_file(tmp_path_factory) -> str:
    """A first-consistent bulls-cows tree file (5040 secrets)."""
    path = tmp_path_factory.mktemp("trees") / "bc-first.json"
    path.write_bytes(naive_file(resolve_game("bulls-cows"), provenance={"builder": "naive"}))
    return str(path)


# -- building --------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", TINY_GAMES)
def test_builder_api_matches_the_independent_writer(spec, tmp_path):
    game = resolve_game(spec)
    root = first_consistent(game)
    prov = {"builder": "naive", "seconds": 0.5, "params": [1, 2]}
    tree = make_tree(game, "heuristic:first-consistent", dict_to_node(root), provenance=prov)
    expect = file_bytes(file_obj(game, root, provenance=prov))
    assert T.tree_to_bytes(tree) == expect
    hist = naive_histogram(game, root)
    assert tree.stats == T.Stats(game.size, sum(k * n for k, n in enumerate(hist)), len(hist) - 1, tuple(hist))
    path = tmp_path / "t.json"
    T.save_tree(tree, path)
    assert path.read_bytes() == expect
    assert os.listdir(tmp_path) == ["t.json"]


def test_module_docstring_example(tmp_path):
    game = resolve_game("bc:2:3")
    root = T.Node.build("01", {
        "0A1B": T.Node.build("12", {"0A1B": T.Node.build("20")}),
        "0A2B": T.Node.build("10"),
        "1A0B": T.Node.build("02", {"0A1B": T.Node.build("21")}),
    })
    tree = make_tree(game, "heuristic:first-consistent", root, provenance={"seconds": 0.01})
    assert tree.stats == T.Stats(6, 13, 3, (0, 1, 3, 2))
    assert tree.stats.average == pytest.approx(13 / 6)
    T.save_tree(tree, tmp_path / "bc23.json")
    assert T.load_tree(tmp_path / "bc23.json") == tree


def test_node_build_orders_and_checks_keys():
    leaf = T.Node.build("21")
    node = T.Node.build("01", {"1A0B": leaf, "0A2B": leaf, "0A1B": leaf})
    assert [k for k, _ in node.next] == ["0A1B", "0A2B", "1A0B"]
    assert node.child("0A2B") is leaf and node.child("2A0B") is None
    assert node.children == {"0A1B": leaf, "0A2B": leaf, "1A0B": leaf}
    assert T.Node.build("01", {}) == T.Node.build("01") == T.Node("01")
    assert node.nodes() == 4
    with pytest.raises(T.TreeError, match="canonical"):
        T.Node.build("01", {"1a2b": leaf})
    with pytest.raises(TypeError):
        T.Node.build("01", {"1A0B": {"guess": "21"}})
    with pytest.raises(TypeError):
        T.Node.build(12)
    with pytest.raises(Exception):
        node.guess = "02"  # frozen


def test_make_tree_rejects_a_broken_tree():
    game = resolve_game("bc:2:3")
    root = T.Node.build("01", {"0A2B": T.Node.build("10"), "1A0B": T.Node.build("02", {"0A1B": T.Node.build("21")})})
    with pytest.raises(T.InvalidTree, match=r"at the root 01|at 01: no branch for hint 0A1B") as info:
        make_tree(game, "x", root)
    assert info.value.path == ("01",)
    assert isinstance(info.value, T.TreeError)


def test_compute_stats_of_bulls_cows(bc_file):
    tree = T.load_tree(bc_file)
    assert compute_stats(tree.game, tree.root) == tree.stats


# -- round trips and reading -----------------------------------------------------------------------


@pytest.mark.parametrize("spec", TINY_GAMES + ["mastermind"])
def test_round_trip_is_byte_identical(spec, tmp_path):
    data = naive_file(resolve_game(spec), provenance={"z": 1, "a": {"nested": [True, None, "é"]}})
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_bytes(data)
    tree = T.load_tree(a)
    T.save_tree(tree, b)
    assert b.read_bytes() == data
    assert T.load_tree(b) == tree
    T.save_tree(T.load_tree(b), b)  # overwrite in place
    assert b.read_bytes() == data


def test_round_trip_bulls_cows(bc_file, tmp_path):
    tree = T.load_tree(bc_file)
    assert tree.game == resolve_game("bulls-cows") and tree.provenance == {"builder": "naive"}
    T.save_tree(tree, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == open(bc_file, "rb").read()


def test_reader_ignores_unknown_top_level_keys(tmp_path):
    game = resolve_game("bc:2:3")
    obj = file_obj(game, first_consistent(game))
    canonical = file_bytes(obj)
    obj = {"comment": "hi", **obj, "extra": [1, 2]}
    tree = T.tree_from_bytes(file_bytes(obj))
    assert T.tree_to_bytes(tree) == canonical


def test_reader_is_strict_about_the_format():
    """Each fault of the documented format is refused by a message that names that fault."""
    game = resolve_game("bc:2:3")
    good = file_obj(game, first_consistent(game))
    assert list(good["root"]["next"]) == ["0A1B", "0A2B", "1A0B"]

    misordered = copy.deepcopy(good)
    misordered["root"]["next"] = dict(reversed(list(good["root"]["next"].items())))
    assert "'next' keys at the root are out of order: 1A0B comes before 0A1B" in _bad(misordered)

    unknown = copy.deepcopy(good)
    unknown["root"]["next"]["0A2B"]["why"] = "x"
    assert "the node at 01 0A2B has unknown key 'why'" in _bad(unknown)

    text = file_bytes(good).decode()
    dup = text.replace('"strategy":', '"strategy":"a","strategy":', 1).encode()
    assert "duplicate key 'strategy'" in _bad(dup)
    dup_branch = text.replace('"next":{"0A1B":', '"next":{"0A1B":{"guess":"10"},"0A1B":', 1).encode()
    assert "duplicate key '0A1B'" in _bad(dup_branch)

    for field, value in [("total", 13.0), ("secrets", 6.0), ("max_guesses", 3.0)]:
        assert f"'stats' {field} is {value!r}, not an integer" in _bad({**good, "stats": {**good["stats"], field: value}})
    assert "'stats' histogram[2] is 3.0, not an integer" in _bad(
        {**good, "stats": {**good["stats"], "histogram": [0, 1, 3.0, 2]}})
    assert "positions is 2.0, not an integer" in _bad({**good, "game": {**good["game"], "positions": 2.0}})
    assert "NaN is not JSON" in _bad(text.replace('"total":13', '"total":NaN').encode())
    for name in ("", "  ", None, 7):
        assert "the game's name must be a non-empty string" in _bad({**good, "game": {**good["game"], "name": name}})


def test_provenance_is_optional(tmp_path):
    game = resolve_game("mm:2:3")
    data = naive_file(game)
    assert b"provenance" not in data
    tree = T.tree_from_bytes(data)
    assert tree.provenance is None
    assert T.tree_to_bytes(tree) == data


def _one_line(exc) -> str:
    msg = str(exc)
    assert "\n" not in msg and msg
    return msg


def _bad(obj_or_bytes) -> str:
    data = obj_or_bytes if isinstance(obj_or_bytes, bytes) else file_bytes(obj_or_bytes)
    with pytest.raises(T.TreeError) as info:
        T.tree_from_bytes(data, "f.json")
    return _one_line(info.value)


def test_unreadable_files_are_tree_errors(tmp_path):
    game = resolve_game("bc:2:3")
    good = file_obj(game, first_consistent(game))
    data = file_bytes(good)
    assert "empty" in _bad(b"")
    assert "invalid JSON" in _bad(data[: len(data) // 2])
    assert "invalid JSON" in _bad(b"\x00\xff garbage")
    assert "not a tree file" in _bad(b"[1, 2]")
    assert "not a tree file" in _bad(b'{"a": 1}')
    assert "'treegen-forest'" in _bad({**good, "format": "treegen-forest"})
    for version in (2, "1", True, None, 1.0):
        assert "version" in _bad({**good, "version": version})
    for key in ("game", "strategy", "stats", "root"):
        assert repr(key) in _bad({k: v for k, v in good.items() if k != key})
    assert "unknown game" in _bad({**good, "game": {"name": "bc:2:3", "positions": 2, "alphabet": "012", "repeats": True}})
    assert "unknown game" in _bad({**good, "game": {"name": "bulls-cows"}})
    assert "unknown game" in _bad({**good, "game": {"name": "x", "positions": "two", "alphabet": "012", "repeats": False}})
    assert "unknown game" in _bad({**good, "game": {"name": "x", "positions": 2, "alphabet": "00", "repeats": False}})
    assert "at most" in _bad({**good, "game": {"name": "huge", "positions": 8, "alphabet": "0123456789", "repeats": True}})
    assert "'game'" in _bad({**good, "game": "bulls-cows"})
    assert "'strategy'" in _bad({**good, "strategy": 3})
    assert "'provenance'" in _bad({**good, "provenance": [1]})
    for stats in ({}, {**good["stats"], "total": "13"}, {**good["stats"], "histogram": 3},
                  {**good["stats"], "histogram": [0, 1.5]}, {**good["stats"], "secrets": True}):
        assert "'stats'" in _bad({**good, "stats": stats})
    assert "the root" in _bad({**good, "root": {"guess": 12}})
    assert "the root" in _bad({**good, "root": ["01"]})
    assert "'next' at the root" in _bad({**good, "root": {"guess": "01", "next": {}}})
    assert "'next' at the root" in _bad({**good, "root": {"guess": "01", "next": ["0A1B"]}})
    bad_child = json.loads(json.dumps(good))
    bad_child["root"]["next"]["0A1B"] = {"guess": None}
    assert "at 01 0A1B" in _bad(bad_child)


def test_load_tree_file_errors(tmp_path):
    with pytest.raises(T.TreeError, match="cannot read .*missing.json"):
        T.load_tree(tmp_path / "missing.json")
    with pytest.raises(T.TreeError, match="cannot read"):
        T.load_tree(tmp_path)
    game = resolve_game("bc:2:3")
    (tmp_path / "t.json").write_bytes(naive_file(game))
    assert T.load_tree(tmp_path / "t.json", game).game == game
    with pytest.raises(T.TreeError, match="is a tree for bc:2:3.*not for mastermind") as info:
        T.load_tree(tmp_path / "t.json", resolve_game("mastermind"))
    _one_line(info.value)


def test_deep_files_are_refused_cleanly():
    game = resolve_game("bc:2:3")
    head = file_bytes(file_obj(game, {"guess": "01"})).rstrip()[: -len('{"guess":"01"}}')]

    def deep(depth):
        return head + b'{"guess":"01","next":{"0A0B":' * depth + b'{"guess":"01"}' + b"}}" * depth + b"}\n"

    tree = T.tree_from_bytes(deep(400))  # readable, but too deep for orjson to write back
    with pytest.raises(T.TreeError, match="cannot write the tree as JSON"):
        T.tree_to_bytes(tree)
    assert "f.json" in _bad(deep(2000))  # beyond orjson's nesting limit


# -- saving is atomic ------------------------------------------------------------------------------


def _tree(spec="bc:2:3", provenance=None):
    game = resolve_game(spec)
    return make_tree(game, "s", dict_to_node(first_consistent(game)), provenance)


def test_save_leaves_nothing_behind_on_errors(tmp_path, monkeypatch):
    target = tmp_path / "t.json"
    target.write_bytes(b"old contents")
    with pytest.raises(T.TreeError, match="cannot write the tree as JSON"):
        T.save_tree(_tree(provenance={"bad": object()}), target)
    assert target.read_bytes() == b"old contents" and os.listdir(tmp_path) == ["t.json"]

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(T.os, "replace", failing_replace)
    with pytest.raises(TreegenError, match="cannot write .*No space left"):
        T.save_tree(_tree(), target)
    assert target.read_bytes() == b"old contents" and os.listdir(tmp_path) == ["t.json"]
    monkeypatch.undo()

    with pytest.raises(TreegenError, match="cannot write"):
        T.save_tree(_tree(), tmp_path / "no" / "such" / "dir.json")
    assert os.listdir(tmp_path) == ["t.json"]
    T.save_tree(_tree(), target)
    assert T.load_tree(target) == _tree() and os.listdir(tmp_path) == ["t.json"]


def test_save_respects_umask(tmp_path):
    old = os.umask(0o022)
    try:
        T.save_tree(_tree(), tmp_path / "t.json")
    finally:
        os.umask(old)
    assert (os.stat(tmp_path / "t.json").st_mode & 0o777) == 0o644


# -- next_guess ------------------------------------------------------------------------------------


def test_next_guess_follows_the_tree():
    tree = _tree("mm:3:3")
    assert T.next_guess(tree, []) == "000"
    node = tree.root
    history = []
    while node.next:
        hint, child = node.next[-1]
        history.append((node.guess, hint))
        assert T.next_guess(tree, history) == child.guess
        node = child
    # hints in other notations, codes with stray spaces
    b, c = int(tree.root.next[0][0][0]), int(tree.root.next[0][0][2])
    pegs = "B" * b + "W" * c or "-"
    for hint in (tree.root.next[0][0], f"{b} {c}", f"{b}a{c}b", pegs):
        assert T.next_guess(tree, [(" 0 00", hint)]) == tree.root.next[0][1].guess


def test_next_guess_errors():
    tree = _tree("bc:3:4")
    with pytest.raises(T.NotInTree, match="guesses 012 first, not 321"):
        T.next_guess(tree, [("321", "0A1B")])
    with pytest.raises(T.NotInTree, match="no branch"):
        T.next_guess(tree, [("012", "0A0B")])  # no 3-symbol code of 0-3 misses all of 0, 1, 2
    with pytest.raises(T.TreeError, match="already found"):
        T.next_guess(tree, [("012", "3A0B")])
    with pytest.raises(T.TreeError, match="already found"):
        T.next_guess(tree, [("012", "3A0B"), ("013", "1A0B")])
    with pytest.raises(HintError):
        T.next_guess(tree, [("012", "nonsense")])



# -- byte-order marks, game symbols and non-ASCII codes (issue #40) ---------------------------------


def test_tree_file_with_a_byte_order_mark_reads_as_without():
    # Windows editors save UTF-8 with a BOM; json.loads refused the whole file for it ("invalid JSON").
    game = resolve_game("bc:2:3")
    data = file_bytes(file_obj(game, first_consistent(game)))
    assert T.tree_from_bytes(b"\xef\xbb\xbf" + data, "f.json") == T.tree_from_bytes(data, "f.json")
    assert "invalid JSON" in _bad(b"\xef\xbb\xbf\xef\xbb\xbf" + data)  # one mark only, then JSON


def test_file_games_with_unfit_symbols_are_refused_in_one_line():
    game = resolve_game("bc:2:3")
    good = file_obj(game, first_consistent(game))
    for alphabet, why in (("0 1", "has a space"), ("0\n1", "has a line break"), ("aA1", "both 'a' and 'A'"),
                          ("01\u00df", "non-ASCII")):
        odd = SimpleNamespace(name="custom", positions=2, alphabet=alphabet, repeats=False)  # no Game takes it
        msg = _bad(file_obj(odd, first_consistent(odd)))  # a tree that plays those symbols
        assert why in msg and "printable ASCII" in msg, msg
    # A spec-shaped name is the spec: out of range or with odd digits it is refused, not a game of its own.
    for name in ("bc:9:10", "bc:２:3", "bc:" + "9" * 5000 + ":3"):
        msg = _bad({**good, "game": {**good["game"], "name": name}})
        assert "game spec" in msg and len(msg) < 400, msg
    msg = _bad({**good, "game": {"name": "two\nlines", "positions": 2, "alphabet": "012", "repeats": False}})
    assert "one line" in msg, msg  # messages quote the name as it is
    # A custom game with punctuation and lower-case letters reads, and its codes are read in either case.
    custom = Game("custom", 2, "a,=", False)
    obj = file_obj(custom, first_consistent(custom))
    tree = T.tree_from_bytes(file_bytes(obj), "f.json")
    assert compute_stats(tree.game, tree.root) == tree.stats
    assert T.next_guess(tree, [(tree.root.guess.upper(), "0A1B")]) == tree.root.child("0A1B").guess
    # 'ß' is no symbol: not 'SS' after upper-casing, which named a different code in the message.
    with pytest.raises(T.NotInTree, match="not ß"):
        T.next_guess(tree, [("ß", "0A1B")])


# -- partitioning and walking ----------------------------------------------------------------------


@pytest.mark.parametrize("spec", TINY_GAMES)
def test_partition_is_the_naive_grouping_by_hint(spec):
    game = resolve_game(spec)
    codes = naive_codes(game)
    text = {sym: "".join(game.alphabet[s] for s in sym) for sym in game.codes}
    for guess in game.codes[:: max(1, len(game.codes) // 7)]:
        classes = T.partition(game, guess, game.codes)
        want: dict[str, list[str]] = {}
        for s in codes:
            want.setdefault(naive_hint(text[guess], s), []).append(s)
        # Every secret once, in the order given, under the hint the guess gives it.
        assert {f"{h // (game.positions + 1)}A{h % (game.positions + 1)}B": [text[s] for s in c]
                for h, c in classes.items()} == want
        assert list(T.partition(game, guess, reversed(game.codes))[game.win_hint]) == [guess]


@pytest.mark.parametrize("spec", TINY_GAMES)
def test_walk_gives_each_node_the_partition_of_the_secrets_reaching_it(spec):
    game = resolve_game(spec)
    tree = T.tree_from_bytes(file_bytes(file_obj(game, first_consistent(game))))
    seen = 0
    for visit in T.walk(game, tree.root):
        reaching = [s for s in game.codes if all(
            naive_hint(g, "".join(game.alphabet[x] for x in s)) == h
            for g, h in zip(visit.path[0::2], visit.path[1::2]))]
        assert visit.partition == T.partition(game, game.codes[visit.code], reaching)
        seen += 1
    assert seen == tree.root.nodes()


# -- imports stay light ----------------------------------------------------------------------------


def test_tree_modules_do_not_import_numpy():
    code = (
        "import sys, treegen, treegen.tree, treegen.verify, treegen.play, treegen.cli\n"
        "from treegen import Tree, Node, load_tree, save_tree, verify_tree, compute_stats, next_guess\n"
        "bad = [m for m in ('numpy', 'numba', 'treegen.feedback', 'treegen.kernels') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_wire_form_round_trips_and_refuses_what_is_not_the_games():
    game = resolve_game("mastermind")
    root = T.load_tree(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "trees",
                                    "mastermind-optimal-average.json")).root
    wire = root.to_wire(game)
    assert root.guess == "1123" and wire[0] == game.codes.index((0, 0, 1, 2))  # symbols counted from 0
    assert [h for h, _ in wire[1]] == sorted(h for h, _ in wire[1])
    assert T.Node.from_wire(game, wire) == root
    with pytest.raises(T.TreeError, match="not a code of mastermind"):
        T.Node.build("1127").to_wire(game)
    with pytest.raises(T.TreeError, match="not a hint of mastermind"):
        T.Node.build("1122", {"5A0B": T.Node.build("1123")}).to_wire(game)
