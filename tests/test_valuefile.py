"""Value files: orbits, exact checks, and every kind of tampering refused."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from clitools import run
from treegen.valuefile import FalseValue, check_value, game_orbits, orbit_totals, value_from_bytes, value_to_bytes
from treegen.rules import resolve_game
from treegen.symmetry import class_of
from treegen.tree import InvalidTree, TreeError
from treegen.value import game_value


@pytest.mark.parametrize("name", ["mastermind", "bulls-cows", "royale", "mm:3:4", "numbers-baseball", "smash-the-code"])
def test_orbits_are_the_symmetry_groups(name):
    game = resolve_game(name)
    reps, sizes = np.unique(class_of(game), return_counts=True)
    assert game_orbits(game) == [(int(r), int(s)) for r, s in zip(reps, sizes)]


def test_mastermind_has_the_five_orbits_of_the_issue():
    game = resolve_game("mastermind")
    assert [("".join(game.alphabet[x] for x in game.codes[r]), s) for r, s in game_orbits(game)] == [
        ("1111", 6), ("1112", 120), ("1122", 90), ("1123", 720), ("1234", 360)]


@pytest.fixture(scope="module")
def mm33():
    return json.loads(value_to_bytes(game_value(resolve_game("mm:3:3")).to_file()))


def load(obj):
    return value_from_bytes(json.dumps(obj).encode())


def test_a_true_file_checks(mm33):
    check_value(load(mm33))
    vf = load(mm33)
    for m in vf.guesser:
        assert list(m.totals) == orbit_totals(vf.game, m.root)


def tamper(obj, how):
    obj = json.loads(json.dumps(obj))
    how(obj)
    return obj


@pytest.mark.parametrize("how, message", [
    (lambda o: o.update(value=str(Fraction(o["value"]) - Fraction(1, 1000))), "holds every secret to"),
    (lambda o: o["orbits"][0].update(setter="1/2"), "sum to 1"),
    (lambda o: o["guesser"][0].update(weight="1"), "sum to 1"),
    (lambda o: o["guesser"][0]["orbit_totals"].__setitem__(0, o["guesser"][0]["orbit_totals"][0] - 1), "plays"),
    (lambda o: o["orbits"].reverse(), "the orbits must be the game's"),
])
def test_tampering_is_caught(mm33, how, message):
    with pytest.raises(FalseValue, match=message):
        check_value(load(tamper(mm33, how)))


def test_a_setter_that_does_not_hold_a_listed_tree_is_caught(mm33):
    # Move all the setter's weight to the orbit the first tree plays best: it averages below the value.
    vf = load(mm33)
    first = vf.guesser[0]
    best = min(range(len(vf.orbits)), key=lambda o: Fraction(first.totals[o], vf.orbits[o][1]))

    def shift(o):
        for k, orbit in enumerate(o["orbits"]):
            orbit["setter"] = "1" if k == best else "0"

    with pytest.raises(FalseValue, match="below the claimed value"):
        check_value(load(tamper(mm33, shift)))


def test_a_broken_tree_in_the_mixture_is_caught(mm33):
    def cut(o):
        o["guesser"][0]["root"]["next"].popitem()

    with pytest.raises(InvalidTree, match="guesser tree 1"):
        check_value(load(tamper(mm33, cut)))


@pytest.mark.parametrize("how, message", [
    (lambda o: o.update(value="4.5"), "exact"),
    (lambda o: o.update(value=4), "fraction"),
    (lambda o: o.update(version=9), "version"),
    (lambda o: o.pop("guesser"), "lacks 'guesser'"),
    (lambda o: o["guesser"][0].update(extra=1), "weight"),
])
def test_malformed_files_are_unreadable(mm33, how, message):
    with pytest.raises(TreeError, match=message):
        load(tamper(mm33, how))


def test_verify_names_the_false_claim_and_exits_1(mm33, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(mm33))
    r = run("verify", str(good))
    assert r.returncode == 0 and "valid value file" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tamper(mm33, lambda o: o.update(value="2"))))
    r = run("verify", str(bad))
    assert r.returncode == 1 and "not to the claimed value 2" in r.stderr
    r = run("show", str(good))
    assert r.returncode == 2 and "value file" in r.stderr and len(r.stderr.strip().splitlines()) == 1


# -- the shipped value files ---------------------------------------------------------------------------

SHIPPED = sorted((__import__("pathlib").Path(__file__).parent.parent / "trees").glob("*-value.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_value_files_check(path):
    vf = value_from_bytes(path.read_bytes(), str(path))
    check_value(vf)
    assert vf.provenance["proved"] is True and Fraction(vf.provenance["lower_bound"]) == vf.value


def test_one_orbit_values_are_the_shipped_optima():
    from treegen.tree import load_tree

    trees = __import__("pathlib").Path(__file__).parent.parent / "trees"
    for game in ("bulls-cows", "smash-the-code"):
        vf = value_from_bytes((trees / f"{game}-value.json").read_bytes())
        tree = load_tree(trees / f"{game}-optimal-average.json")
        assert vf.value == Fraction(tree.stats.total, tree.stats.secrets)
    assert vf.value * 3024 == 14914
    assert value_from_bytes((trees / "bulls-cows-value.json").read_bytes()).value == Fraction(26274, 5040)
