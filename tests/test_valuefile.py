"""Value files: orbits, exact checks, and every kind of tampering refused."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from clitools import run
from treegen.valuefile import (FalseValue, certified_value, check_value, game_orbits, orbit_totals, setter_weights,
                               value_from_bytes, value_to_bytes)
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


# -- certificates of the lower side ---------------------------------------------------------------------


def test_a_certificate_over_the_codes_the_setter_draws_proves_the_value_from_below(mm33):
    from dataclasses import replace

    from treegen.certificate import check_certificate
    from treegen.exact.certify import certify, certify_secrets, certify_weighted
    from treegen.exact.contracts import INF
    from treegen.exact.solver import Solver
    from treegen.verify import NotCertified
    from treegen.weighted import WeightedSolver

    vf = load(mm33)
    game = vf.game
    assert setter_weights(vf) == (list(range(27)), [1] * 27)  # mm:3:3's setter draws every code alike
    assert certified_value(vf, check_certificate(certify(game, None, 73, None))) == [
        "no tree averages below 73/27 against the setter: no strategy's total over its 27 codes is below 73"]
    # a setter drawing alike from the 24 codes that are not one symbol three times (orbits 000, 001, 012)
    drawn = [c for c, code in enumerate(game.codes) if len(set(code)) > 1]
    least = Solver(game).solve(np.array(drawn, dtype=np.int32), INF)
    v24 = replace(vf, setter=(Fraction(0), Fraction(18, 24), Fraction(6, 24)), value=Fraction(least, 24))
    assert setter_weights(v24) == (drawn, [1] * 24)
    proof = check_certificate(certify_secrets(game, drawn, least))
    assert certified_value(v24, proof) == [f"no tree averages below {Fraction(least, 24)} against the setter: no "
                                           f"strategy's total over its 24 codes is below {least}"]
    # and one that draws the 18 codes of orbit 001 twice as often as the 6 of 012: weights 2 and 1 of 42
    weights = np.array([2 if code[0] == code[1] or code[1] == code[2] or code[0] == code[2] else 1
                        for code in (game.codes[c] for c in drawn)])
    per_code = np.zeros(game.size, dtype=np.int64)
    per_code[drawn] = weights
    heavy = WeightedSolver(game, per_code).solve(np.array(drawn, dtype=np.int32))
    v42 = replace(vf, setter=(Fraction(0), Fraction(36, 42), Fraction(6, 42)), value=Fraction(heavy, 42))
    assert setter_weights(v42) == (drawn, weights.tolist())
    weighted = check_certificate(certify_weighted(game, drawn, weights, heavy))
    assert weighted.weights == tuple(weights.tolist())
    assert certified_value(v42, weighted) == [
        f"no tree averages below {Fraction(heavy, 42)} against the setter: no strategy's total weighted by the "
        f"setter's probabilities (1, 2 of 42) over its 24 codes is below {heavy}"]
    for other, message in [
        (replace(v24, value=v24.value + Fraction(1, 24)), "not the claimed value"),
        (replace(v24, setter=(Fraction(0), Fraction(1, 2), Fraction(1, 2))), "weighs code 001 1 of 24"),
        (vf, "about 24 secrets, not the 27 codes the setter draws from"),
    ]:
        with pytest.raises(NotCertified, match=message):
            certified_value(other, proof)
    with pytest.raises(NotCertified, match="weighs code"):
        certified_value(v24, weighted)  # the weighted certificate for the setter that draws alike
    for doc, message in [(certify(game, 3, 73, None), "no cap"), (certify(game, None, 73, None, True), "no cap"),
                         (certify(resolve_game("mm:2:3"), None, 21, None), "is for")]:
        with pytest.raises(NotCertified, match=message):
            certified_value(vf, check_certificate(doc))


# -- the shipped value files ---------------------------------------------------------------------------

SHIPPED = sorted((__import__("pathlib").Path(__file__).parent.parent / "trees").glob("*-value.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_value_files_check(path):
    vf = value_from_bytes(path.read_bytes(), str(path))
    check_value(vf)
    assert vf.provenance["proved"] is True and Fraction(vf.provenance["lower_bound"]) == vf.value


# The values whose lower side has no published figure (mm:4:7's, royale's) and the published one (mastermind's),
# certified by their shipped certificates: the suite checks them with the checker that shares no code with the
# search (about 10 s; the one-orbit games' certificates are their least-total trees', byte for byte).
@pytest.mark.parametrize("name", ["mastermind-value.json", "mm-4-7-value.json", "royale-value.json"])
def test_shipped_value_certificates_prove_the_values(name):
    import hashlib

    from treegen.certificate import check_certificate_bytes

    trees = __import__("pathlib").Path(__file__).parent.parent / "trees"
    vf = value_from_bytes((trees / name).read_bytes())
    named = vf.provenance["certificate"]
    data = (trees / named["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == named["sha256"]
    check_value(vf)
    lines = certified_value(vf, check_certificate_bytes(data))
    assert len(lines) == 1 and lines[0].startswith(f"no tree averages below {vf.value} against the setter")


def test_one_orbit_values_are_the_shipped_optima():
    from treegen.tree import load_tree

    trees = __import__("pathlib").Path(__file__).parent.parent / "trees"
    for game in ("bulls-cows", "smash-the-code"):
        vf = value_from_bytes((trees / f"{game}-value.json").read_bytes())
        tree = load_tree(trees / f"{game}-optimal-average.json")
        assert vf.value == Fraction(tree.stats.total, tree.stats.secrets)
    assert vf.value * 3024 == 14914
    assert value_from_bytes((trees / "bulls-cows-value.json").read_bytes()).value == Fraction(26274, 5040)
