"""treegen verify and treegen show: valid trees pass, every kind of broken tree is rejected."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest
from test_tree import TINY_GAMES, bc_file, file_bytes, file_obj, first_consistent, naive_codes, naive_hint  # noqa: F401

from treegen import tree as T
from treegen.cli import main
from treegen.rules import resolve_game
from treegen.report import format_stats, outline
from treegen.verify import check_root, verify_tree


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def naive_valid(obj) -> bool:
    """An independent check of a tree file object: every secret solved, no dead branch, right stats."""
    game = resolve_game(obj["game"]["name"])
    codes = naive_codes(game)
    legal = set(codes)
    win = f"{game.positions}A0B"
    hist = [0]

    def walk(node, secrets, depth) -> bool:
        guess = node["guess"]
        if guess not in legal:
            return False
        groups: dict[str, list[str]] = {}
        for s in secrets:
            groups.setdefault(naive_hint(guess, s), []).append(s)
        if groups.pop(win, None):
            hist.extend([0] * (depth + 1 - len(hist)))
            hist[depth] += 1
        nxt = node.get("next", {})
        if set(nxt) != set(groups):
            return False
        return all(walk(nxt[h], groups[h], depth + 1) for h in nxt)

    if not walk(obj["root"], codes, 1):
        return False
    stats = obj["stats"]
    return (stats["secrets"], stats["total"], stats["max_guesses"], stats["histogram"]) == (
        sum(hist), sum(k * n for k, n in enumerate(hist)), len(hist) - 1, hist,
    )


# -- valid trees -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", TINY_GAMES + ["mastermind"])
def test_verify_accepts_valid_trees(spec, tmp_path, capsys):
    game = resolve_game(spec)
    obj = file_obj(game, first_consistent(game))
    assert naive_valid(obj)
    path = tmp_path / "t.json"
    path.write_bytes(file_bytes(obj))
    rc, out, err = run_cli(capsys, "verify", str(path))
    assert (rc, err) == (0, "")
    hist = obj["stats"]["histogram"]
    assert f"secrets  {game.size}\n" in out
    assert f"total    {obj['stats']['total']}\n" in out
    assert f"average  {obj['stats']['total'] / game.size:.3f}\n" in out
    assert f"max      {len(hist) - 1}\n" in out
    table = out.splitlines()[-2:]
    assert table[0].split() == ["guesses:"] + [str(k) for k in range(1, len(hist))]
    assert table[1].split() == ["secrets:"] + [str(n) for n in hist[1:]]
    # within the tree's own maximum: valid; one fewer: invalid
    m = len(hist) - 1
    assert run_cli(capsys, "verify", str(path), "--max-guesses", str(m))[0] == 0
    if m > 1:
        rc, out, err = run_cli(capsys, "verify", str(path), "--max-guesses", str(m - 1))
        assert rc == 1 and f"not solved within {m - 1} guesses" in err and err.count("\n") == 1


def test_format_stats_table():
    stats = T.Stats.from_histogram([0, 1, 7, 63, 512, 0, 0])
    assert stats == T.Stats(583, 1 + 14 + 189 + 2048, 4, (0, 1, 7, 63, 512))
    assert format_stats(stats).splitlines() == [
        "secrets  583",
        "total    2252",
        "average  3.863",
        "max      4",
        "guesses:   1   2   3   4",
        "secrets:   1   7  63 512",
    ]


def test_verify_bulls_cows(bc_file, capsys):
    rc, out, err = run_cli(capsys, "verify", bc_file)
    assert rc == 0 and "secrets  5040" in out and "average  5.560" in out
    rc, out, err = run_cli(capsys, "verify", bc_file, "--max-guesses", "8")
    assert rc == 1 and err.startswith(f"treegen: {bc_file} is not a valid tree: at 0123 ")
    assert "not solved within 8 guesses" in err


def test_verify_bulls_cows_whole_process_without_numpy(bc_file):
    """verify starts instantly: the whole command runs without importing numpy or numba."""
    code = ("import sys; from treegen.cli import main; status = main(['verify', sys.argv[1]]); "
            "assert 'numpy' not in sys.modules and 'numba' not in sys.modules, 'heavy import'; sys.exit(status)")
    proc = subprocess.run([sys.executable, "-c", code, bc_file], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


# -- specific problems and their messages ----------------------------------------------------------


def _problem(game, obj) -> str:
    tree = T.tree_from_bytes(file_bytes(obj))
    with pytest.raises(T.InvalidTree) as info:
        verify_tree(tree)
    msg = str(info.value)
    assert "\n" not in msg
    return msg


def test_messages_name_the_path():
    game = resolve_game("bc:3:4")
    good = file_obj(game, first_consistent(game))
    root = good["root"]
    assert root["guess"] == "012" and list(root["next"]) == ["0A2B", "0A3B", "1A1B", "1A2B", "2A0B"]
    sub = root["next"]["1A1B"]

    obj = copy.deepcopy(good)
    del obj["root"]["next"]["1A1B"]
    assert _problem(game, obj).startswith("at 012: no branch for hint 1A1B, which 6 secrets give (")

    obj = copy.deepcopy(good)
    obj["root"]["next"]["1A1B"]["guess"] = "0123"
    assert _problem(game, obj).startswith("at 012 1A1B: guess '0123' is not a legal code: ")

    obj = copy.deepcopy(good)
    obj["root"]["next"]["1A1B"]["guess"] = " " + sub["guess"]
    assert "is not written canonically: write " + sub["guess"] in _problem(game, obj)

    obj = copy.deepcopy(good)
    obj["root"]["next"]["1a1b"] = obj["root"]["next"].pop("1A1B")
    assert _problem(game, obj) == "at 012: hint key '1a1b' is not a canonical hint; write hints as xAyB, e.g. 1A2B"

    obj = copy.deepcopy(good)
    node = obj["root"]["next"]["0A2B"]
    absent = [k for k in ("0A2B", "0A3B", "1A1B", "1A2B", "2A0B") if k not in node["next"]]
    node["next"][absent[0]] = {"guess": "123"}
    in_hint_order(node)
    assert _problem(game, obj) == f"at 012 0A2B {node['guess']}: dead branch {absent[0]}: no secret gives {absent[0]} here"

    obj = copy.deepcopy(good)
    obj["root"]["next"]["0A1B"] = {"guess": "123"}  # no two codes of bc:3:4 share fewer than 2 symbols
    in_hint_order(obj["root"])
    assert _problem(game, obj) == "at 012: branch 0A1B is a hint that cannot occur in bc:3:4"

    obj = copy.deepcopy(good)
    obj["root"]["next"]["2A1B"] = {"guess": "123"}
    assert _problem(game, obj) == "at 012: branch 2A1B is a hint that cannot occur in bc:3:4"

    obj = copy.deepcopy(good)
    obj["root"]["next"]["4A0B"] = {"guess": "123"}
    assert _problem(game, obj) == "at 012: branch 4A0B is a hint that cannot occur in bc:3:4"

    obj = copy.deepcopy(good)
    obj["root"]["next"]["3A0B"] = {"guess": "123"}
    assert "follows the all-bulls hint" in _problem(game, obj)

    # a leaf with a "next": the leaf for 1A1B -> ... -> last secret
    obj = copy.deepcopy(good)
    node, path = obj["root"], []
    while "next" in node:
        key = list(node["next"])[-1]
        path += [node["guess"], key]
        node = node["next"][key]
    node["next"] = {"0A3B": {"guess": "321"}}
    assert _problem(game, obj) == (
        f"at {' '.join(path)}: guess {node['guess']} is the only secret left, so the node must have no 'next' (it has 1)"
    )

    obj = copy.deepcopy(good)
    obj["stats"]["total"] += 1
    assert _problem(game, obj) == f"at the root: stats: total is {good['stats']['total'] + 1} in the file but the tree gives {good['stats']['total']}"

    obj = copy.deepcopy(good)
    obj["stats"]["histogram"].append(0)
    assert "stats: histogram is" in _problem(game, obj)


def test_check_root_stops_at_the_first_problem_in_order():
    game = resolve_game("bc:3:4")
    obj = file_obj(game, first_consistent(game))
    del obj["root"]["next"]["2A0B"]["next"]  # a problem deep in the last branch
    obj["root"]["next"]["0A2B"]["guess"] = "9"  # and one in the first branch
    tree = T.tree_from_bytes(file_bytes(obj))
    with pytest.raises(T.InvalidTree) as info:
        check_root(game, tree.root)
    assert info.value.path == ("012", "0A2B")


# -- mutations: every single mutation of a valid tree is rejected ----------------------------------


def _nodes(root):
    """(node, parent, key, ancestors) for every node; ancestors is a set of ids."""
    out = []

    def walk(node, parent, key, ancestors):
        out.append((node, parent, key, ancestors))
        for k, child in node.get("next", {}).items():
            walk(child, node, k, ancestors | {id(node)})

    walk(root, None, None, frozenset())
    return out


def _all_keys(game):
    p = game.positions
    return [f"{b}A{c}B" for b in range(p + 1) for c in range(p + 1 - b)]


KINDS = [
    "guess-illegal", "guess-leaf", "guess-internal", "delete-branch", "rename-key", "swap-subtrees",
    "add-branch", "stats", "stats-type", "truncate", "header", "other-game", "misorder", "claim",
]


def in_hint_order(node: dict) -> None:
    """Put a node's branches back in the format's order (keys that are not canonical hints go last)."""
    node["next"] = dict(sorted(node["next"].items(), key=lambda kv: T.hint_key_order(kv[0])))


def mutate(game, good: dict, rng: random.Random, kind: str | None = None):
    """One random mutation of ``good``: (kind, file bytes, expected exit status or None for 'ask naive')."""
    obj = copy.deepcopy(good)
    nodes = _nodes(obj["root"])
    codes = naive_codes(game)
    kind = kind or rng.choice(KINDS)
    expect = 1
    if kind == "guess-illegal":
        node = rng.choice(nodes)[0]
        g = node["guess"]
        choices = [g[:-1], g + g[0], "#" + g[1:], " " + g, g + " ", g.lower() if g.lower() != g else "x" + g[1:], ""]
        if not game.repeats and game.positions > 1:
            choices.append(g[0] * game.positions)
        node["guess"] = rng.choice(choices)
    elif kind == "guess-leaf":
        node = rng.choice([n for n, *_ in nodes if "next" not in n])
        node["guess"] = rng.choice([c for c in codes if c != node["guess"]])
    elif kind == "guess-internal":
        internal = [n for n, *_ in nodes if "next" in n]
        if not internal:
            return mutate(game, good, rng)
        node = rng.choice(internal)
        node["guess"] = rng.choice([c for c in codes if c != node["guess"]])
        expect = None  # another guess may split the same way: the naive checker decides
    elif kind == "delete-branch":
        node = rng.choice([n for n, *_ in nodes if "next" in n])
        del node["next"][rng.choice(list(node["next"]))]
        if not node["next"]:
            del node["next"]
    elif kind == "rename-key":
        node = rng.choice([n for n, *_ in nodes if "next" in n])
        key = rng.choice(list(node["next"]))
        others = [k for k in _all_keys(game) + [f"{game.positions + 1}A0B", "9A9B"] if k not in node["next"]]
        new = rng.choice(others + [key.lower(), " " + key, key + " ", "0" + key, key[:3], key[2] + "B" + key[0] + "A", key.replace("A", "a")])
        node["next"] = {(new if k == key else k): v for k, v in node["next"].items()}
        in_hint_order(node)
    elif kind == "swap-subtrees":
        candidates = [(n, p, k, a) for n, p, k, a in nodes if p is not None]
        for _ in range(100):
            (n1, p1, k1, a1), (n2, p2, k2, a2) = rng.sample(candidates, 2)
            if id(n1) not in a2 and id(n2) not in a1:
                p1["next"][k1], p2["next"][k2] = n2, n1
                break
        else:
            return mutate(game, good, rng)
    elif kind == "add-branch":
        node = rng.choice(nodes)[0]
        absent = [k for k in _all_keys(game) if k not in node.get("next", {})]
        node.setdefault("next", {})[rng.choice(absent)] = {"guess": rng.choice(codes)}
        in_hint_order(node)
    elif kind == "misorder":
        internal = [n for n, *_ in nodes if len(n.get("next", {})) >= 2]
        node = rng.choice(internal)
        node["next"] = dict(reversed(list(node["next"].items())))
        expect = 2
    elif kind == "claim":
        # figures the provenance claims that the tree does not achieve
        total = obj["stats"]["total"]
        claims = rng.choice([
            {"optimal_total": total + rng.choice([-1, 1])},
            {"optimal_total": total, "lower_bound": total + 1},
            {"optimal_total": total, "lower_bound": total - 1},
            {"worst_case": obj["stats"]["max_guesses"] - 1},
            {"max_guesses": obj["stats"]["max_guesses"] - 1},
            {"objective": "worst"},
            {"optimal_total": float(total)},
        ])
        obj["provenance"] = claims
    elif kind == "stats":
        stats = obj["stats"]
        field = rng.choice(["secrets", "total", "max_guesses", "histogram"])
        if field == "histogram":
            hist = stats["histogram"]
            op = rng.choice(["bump", "append", "drop", "shift"])
            if op == "bump":
                k = rng.randrange(len(hist))
                hist[k] += rng.choice([-1, 1])
            elif op == "append":
                hist.append(rng.choice([0, 1]))
            elif op == "drop":
                hist.pop()
            else:
                stats["histogram"] = hist[1:] + [0]
        else:
            stats[field] += rng.choice([-1, 1, 10])
    elif kind == "stats-type":
        obj["stats"][rng.choice(["secrets", "total", "max_guesses"])] = rng.choice(["1", None, 1.5, [1]])
        expect = 2
    elif kind == "truncate":
        data = file_bytes(good)
        return kind, data[: rng.randrange(len(data) - 1)], 2
    elif kind == "header":
        expect = 2
        what = rng.choice(["format", "version", "drop-root", "drop-game", "game-mismatch", "root-list"])
        if what == "format":
            obj["format"] = rng.choice(["treegen-trees", "", None, 1])
        elif what == "version":
            obj["version"] = rng.choice([0, 2, "1", 1.0 + 1, None])
        elif what == "drop-root":
            del obj["root"]
        elif what == "drop-game":
            del obj["game"]
        elif what == "game-mismatch":
            obj["game"]["repeats"] = not obj["game"]["repeats"]
        else:
            obj["root"] = [obj["root"]]
    elif kind == "other-game":
        # the same tree claimed for a bigger game of the same kind: secrets it never solves
        bigger = f"{'mm' if game.repeats else 'bc'}:{game.positions}:{len(game.alphabet) + 1}"
        g2 = resolve_game(bigger)
        obj["game"] = {"name": g2.name, "positions": g2.positions, "alphabet": g2.alphabet, "repeats": g2.repeats}
    return kind, file_bytes(obj), expect


@pytest.mark.parametrize("spec,count", [("bc:3:4", 300), ("mm:3:3", 300), ("bc:2:4", 150), ("mm:2:3", 150)])
def test_every_mutation_is_rejected(spec, count, tmp_path, capsys):
    game = resolve_game(spec)
    good = file_obj(game, first_consistent(game))
    rng = random.Random(spec)
    path = tmp_path / "m.json"
    seen: dict[str, int] = {}
    still_valid = 0
    for _ in range(count):
        kind, data, expect = mutate(game, good, rng)
        if expect is None:
            expect = 0 if naive_valid(json.loads(data)) else 1
            still_valid += expect == 0
        elif expect == 1 and kind != "claim":
            assert not naive_valid(json.loads(data)), kind
        path.write_bytes(data)
        rc, out, err = run_cli(capsys, "verify", str(path))
        assert rc == expect, (kind, data, out, err)
        if rc == 1:
            assert err.startswith(f"treegen: {path} is not a valid tree: at ") and err.count("\n") == 1, err
        elif rc == 2:
            assert err.startswith("treegen: error: ") and err.count("\n") == 1 and not out, err
        seen[kind] = seen.get(kind, 0) + 1
    assert len(seen) == len(KINDS), seen  # every kind of mutation was tried
    assert still_valid < count / 20


def test_mutations_of_a_bulls_cows_tree(bc_file, tmp_path, capsys):
    game = resolve_game("bulls-cows")
    good = json.loads(open(bc_file, "rb").read())
    rng = random.Random(7)
    path = tmp_path / "m.json"
    for kind in ("delete-branch", "guess-leaf", "swap-subtrees", "stats"):
        k, data, expect = mutate(game, good, rng, kind)
        path.write_bytes(data)
        rc, out, err = run_cli(capsys, "verify", str(path))
        assert rc == expect == 1, (kind, err)
        assert err.startswith(f"treegen: {path} is not a valid tree: at ")


# -- unreadable files through the whole command ----------------------------------------------------


def _cli(*argv):
    proc = subprocess.run([sys.executable, "-m", "treegen.cli", *argv], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_unreadable_files_exit_2(tmp_path, capsys):
    game = resolve_game("bc:2:3")
    data = file_bytes(file_obj(game, first_consistent(game)))
    cases = {
        "truncated.json": data[:40],
        "empty.json": b"",
        "corrupt.json": b"\x89PNG\r\n\x1a\n",
        "list.json": b"[]\n",
        "other.json": b'{"format": "something-else"}',
        "version.json": data.replace(b'"version":1', b'"version":7'),
        "unknown-game.json": data.replace(b'"alphabet":"012"', b'"alphabet":"0"'),
        "preset-mismatch.json": data.replace(b'"name":"bc:2:3"', b'"name":"bulls-cows"'),
        "mismatched-game.json": data.replace(b'"repeats":false', b'"repeats":true'),
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
    for name in [*cases, "missing.json"]:
        rc, out, err = _cli("verify", str(tmp_path / name))
        assert rc == 2 and out == "", (name, out, err)
        assert err.startswith("treegen: error: ") and err.count("\n") == 1 and "Traceback" not in err, (name, err)
        for argv in (["show", str(tmp_path / name)], ["play", "--tree", str(tmp_path / name), "--secret", "01"]):
            rc, out, err2 = run_cli(capsys, *argv)
            assert (rc, out) == (2, "") and err2 == err, (name, argv, out, err2)
    rc, out, err = _cli("verify", "--game", "mastermind", str(tmp_path / "truncated.json"))
    assert rc == 2
    (tmp_path / "good.json").write_bytes(data)
    rc, out, err = _cli("verify", "--game", "mastermind", str(tmp_path / "good.json"))
    assert rc == 2 and "is a tree for bc:2:3" in err and "not for mastermind" in err
    rc, out, err = _cli("verify", "--max-guesses", "0", str(tmp_path / "good.json"))
    assert rc == 2 and "--max-guesses" in err
    rc, out, err = _cli("verify")
    assert rc == 2 and err.count("\n") <= 2


def test_help_has_examples():
    for cmd in ("verify", "play", "show"):
        rc, out, err = _cli(cmd, "--help")
        assert rc == 0 and "examples:" in out and f"treegen {cmd}" in out


# -- show ------------------------------------------------------------------------------------------


def test_show_outline(tmp_path, capsys):
    game = resolve_game("bc:3:4")
    obj = file_obj(game, first_consistent(game))
    path = tmp_path / "t.json"
    path.write_bytes(file_bytes(obj))
    rc, out, err = run_cli(capsys, "show", str(path), "--depth", "1")
    assert rc == 0 and err == ""
    assert "average" in out and "guesses:" in out
    lines = out.split("\n\n", 1)[1].splitlines()
    assert lines[0] == "012  (24 secrets)"
    assert lines[1:] == [
        "  0A2B   9  -> 103",
        "  0A3B   2  -> 120",
        "  1A1B   6  -> 023",
        "  1A2B   3  -> 021",
        "  2A0B   3  -> 013",
        "  3A0B   1  solved",
    ]
    assert sum(int(line.split()[1]) for line in lines[1:]) == 24
    assert all(line.startswith("  ") and not line.startswith("   ") for line in lines[1:])

    rc, out, err = run_cli(capsys, "show", str(path))  # depth 2
    lines = out.split("\n\n", 1)[1].splitlines()
    assert any(line.startswith("    ") for line in lines)
    assert not any(line.startswith("      ") for line in lines)

    rc, out, err = run_cli(capsys, "show", str(path), "--depth", "0")
    assert out.split("\n\n", 1)[1] == "012  (24 secrets)\n"
    assert run_cli(capsys, "show", str(path), "--depth", "-1")[0] == 2


def test_show_marks_problems():
    game = resolve_game("bc:3:4")
    obj = file_obj(game, first_consistent(game))
    del obj["root"]["next"]["1A1B"]
    obj["root"]["next"]["0A1B"] = {"guess": "123"}
    in_hint_order(obj["root"])
    lines = outline(T.tree_from_bytes(file_bytes(obj)), 1)
    assert "  1A1B   6  (no branch)" in lines
    assert "  0A1B   0  -> 123  (dead branch: no secret gets here)" in lines


# -- several files, standard input, show's verdict -----------------------------------------------------------


def _three(tmp_path):
    game = resolve_game("bc:3:4")
    good = file_obj(game, first_consistent(game))
    bad = copy.deepcopy(good)
    bad["provenance"] = {"optimal_total": good["stats"]["total"] - 1}
    paths = {"good": tmp_path / "good.json", "bad": tmp_path / "bad.json", "junk": tmp_path / "junk.json"}
    paths["good"].write_bytes(file_bytes(good))
    paths["bad"].write_bytes(file_bytes(bad))
    paths["junk"].write_bytes(b"{not json")
    return paths


def test_verify_several_files_summarises(tmp_path, capsys):
    p = _three(tmp_path)
    rc, out, err = run_cli(capsys, "verify", str(p["good"]), str(p["bad"]))
    assert rc == 1
    assert f"{p['good']}: valid tree" in out and out.rstrip().endswith("2 files: 1 valid, 1 invalid")
    assert f"treegen: {p['bad']} is not a valid tree: at the root: provenance claim optimal_total" in err
    rc, out, err = run_cli(capsys, "verify", str(p["good"]), str(p["junk"]), str(p["bad"]))
    assert rc == 2
    assert out.rstrip().endswith("3 files: 1 valid, 1 invalid, 1 unreadable")
    assert err.count("\n") == 2 and f"{p['junk']} is not a tree file" in err
    rc, out, err = run_cli(capsys, "verify", str(p["good"]), str(p["good"]))
    assert rc == 0 and out.rstrip().endswith("2 files: 2 valid")


def test_verify_and_show_read_standard_input(tmp_path):
    p = _three(tmp_path)
    data = p["good"].read_bytes()
    for command in (["verify", "-"], ["show", "-", "--depth", "1"]):
        res = subprocess.run([sys.executable, "-m", "treegen.cli", *command], input=data, capture_output=True, timeout=60)
        assert res.returncode == 0, res.stderr
        assert b"verified yes" in res.stdout or b"<stdin>: valid tree" in res.stdout
    res = subprocess.run([sys.executable, "-m", "treegen.cli", "verify", "-", "-"], input=data, capture_output=True, timeout=60)
    assert res.returncode == 2 and b"standard input ('-') can be read only once" in res.stderr


def test_show_says_when_a_file_does_not_verify(tmp_path, capsys):
    p = _three(tmp_path)
    rc, out, err = run_cli(capsys, "show", str(p["good"]))
    assert rc == 0 and "verified yes" in out and err == ""
    rc, out, err = run_cli(capsys, "show", str(p["bad"]))
    assert rc == 1
    assert "verified NO: at the root: provenance claim optimal_total" in out
    assert err.startswith(f"treegen: {p['bad']} does not verify: ") and err.count("\n") == 1


def test_verify_refuses_file_games_with_unfit_symbols_in_one_line(tmp_path, capsys):
    """Issue #40: symbols with a space, a line break or one letter in both cases (codes are read in any
    case, and written to text formats split at spaces) are a game error, exit 2, not a tree to check."""
    from types import SimpleNamespace

    for k, alphabet in enumerate(("0 1", "0\n1", "aA1", "\u00df01")):
        game = SimpleNamespace(name="custom", positions=2, alphabet=alphabet, repeats=False)  # no Game takes it
        obj = file_obj(game, first_consistent(game))  # a tree that plays those symbols, checked naively
        path = tmp_path / f"g{k}.json"
        path.write_bytes(file_bytes(obj))
        rc, out, err = run_cli(capsys, "verify", str(path))
        assert (rc, out) == (2, "") and err.count("\n") == 1, (alphabet, err)
        assert "unknown game" in err and "printable ASCII" in err, err
    # A byte-order mark before the JSON is skipped, as by every JSON reader that allows one.
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + file_bytes(file_obj(resolve_game("bc:2:3"), first_consistent(resolve_game("bc:2:3")))))
    rc, out, err = run_cli(capsys, "verify", str(path))
    assert rc == 0 and err == "" and "valid tree" in out
