"""The certificate checker (treegen/certificate.py) and the certificates the search writes
(treegen/exact/certify.py): accepted exactly for the true optimum of tiny games (an exhaustive oracle),
for every objective of mastermind, and refused, naming the claim, when tampered with."""

from __future__ import annotations

import ast
import copy
import functools
import gzip
import json
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from clitools import TREEGEN, run
from test_search import Brute

from treegen.certificate import (
    INF,
    CertificateError,
    Checker,
    certificate_claims_to_bytes,
    certificate_from_bytes,
    certificate_to_bytes,
    check_certificate,
    check_certificate_bytes,
    counting_row,
    score_table,
)
from treegen.exact.certify import certify, certify_secrets, certify_tree, certify_weighted
from treegen.exact.contracts import SearchBug
from treegen.exact.objectives import crush_price
from treegen.exact.solve import solve_game
from treegen.feedback import feedback_table
from treegen.rules import resolve_game, score_codes
from treegen.tree import load_tree
from treegen.verify import NotCertified, certified, verify_tree

ROOT = Path(__file__).resolve().parent.parent

# -- the checker's own pieces against independent references -------------------------------------------


@pytest.mark.parametrize("spec", ["mastermind", "bc:3:5", "mm:2:4"])
def test_score_table_matches_the_feedback_table_and_the_rules(spec):
    game = resolve_game(spec)
    table = score_table(game)
    assert np.array_equal(table, feedback_table(game))
    rng = np.random.default_rng(7)
    for g, s in rng.integers(0, game.size, size=(200, 2)):
        assert table[g, s] == score_codes(game, int(g), int(s))


def test_counting_row_by_hand():
    # b = 13 (bulls-cows): 1 secret at level 1, 13 at level 2, 169 at level 3
    row = counting_row(13, 200, None, 0)
    assert row[:4].tolist() == [0, 1, 3, 5]
    assert row[14] == 1 + 2 * 13 and row[15] == 1 + 2 * 13 + 3
    assert row[183] == 1 + 2 * 13 + 3 * 169 and row[184] == row[183] + 4
    capped = counting_row(13, 200, 2, 0)
    assert capped[14] == 27 and capped[15] == INF
    crush = counting_row(13, 200, 2, 100)  # the second level costs 100 more per secret
    assert crush[1] == 1 and crush[2] == 1 + 102 and crush[14] == 1 + 13 * 102


# -- tiny games: exactly the optimum ----------------------------------------------------------------------

TINY = ["mm:2:3", "bc:2:4", "mm:3:2", "bc:3:4", "mm:2:4"]


@pytest.mark.parametrize("spec", ["mm:5:3", "bc:4:6"])
def test_a_game_without_a_one_hot_table_certifies_its_optimum(spec, monkeypatch):
    """A game too big for a one-hot table takes its classes' own key bounds from shifted hints (see
    search_kernels.cached_key_bound): its certificate proves the optimum the search finds with the table
    (20 and 14 hints)."""
    from treegen.exact import tables
    from treegen.exact.solver import Solver

    game = resolve_game(spec)
    best = Solver(game).solve(np.arange(game.size, dtype=np.int32), INF)
    tables._search_tables.cache_clear()
    monkeypatch.setattr(tables, "ONEHOT_MAX_BYTES", 0)
    try:
        assert tables.search_tables(game).onehot.shape == (0, 0)
        proof = check_certificate(certify(game, None, best, None, False))
        assert proof.least_cost == best
    finally:
        tables._search_tables.cache_clear()


@pytest.mark.parametrize("spec", TINY)
@pytest.mark.parametrize("hard", [False, True])
def test_tiny_games_certify_exactly_the_brute_optimum(spec, hard, naive):
    game = resolve_game(spec)
    brute = Brute(game, naive)
    best = int(brute.cost(brute.everything, None, hard))
    proof = check_certificate(certify(game, None, best, None, hard))
    assert (proof.least_cost, proof.cap, proof.consistent_only) == (best, None, hard)
    with pytest.raises(SearchBug):
        certify(game, None, best + 1, None, hard)  # the proving pass finds the better tree
    # one more than the optimum: the root claim fails its own check
    doc = certify(game, None, best, None, hard)
    doc["claims"][doc["roots"]["least_cost"]][2] = best + 1
    with pytest.raises(CertificateError, match=f"claim {doc['roots']['least_cost']}"):
        check_certificate(doc)


@pytest.mark.parametrize("spec", TINY)
def test_tiny_games_certify_the_least_worst_case_and_totals_within_it(spec, naive):
    game = resolve_game(spec)
    brute = Brute(game, naive)
    worst = brute.least_worst()
    total = int(brute.cost(brute.everything, worst))
    proof = check_certificate(certify(game, worst, total, worst - 1))
    assert (proof.least_cost, proof.cap, proof.impossible_within) == (total, worst, worst - 1)
    with pytest.raises(SearchBug):
        certify(game, worst, None, worst)  # a strategy fits within the least worst case


# -- mastermind: every objective -----------------------------------------------------------------------------

MASTERMIND = [  # objective, cap, hard, total
    ("average", None, False, 5625),
    ("average", 5, False, 5626),
    ("worst", None, False, 5626),
    ("crush", None, False, 5627),
    ("average", None, True, 5660),
]


@pytest.fixture(scope="module")
def mastermind_trees():
    return {(o, c, h): solve_game("mastermind", o, c, consistent_only=h) for o, c, h, _t in MASTERMIND}


@pytest.fixture(scope="module")
def mastermind_certificates(mastermind_trees):
    return {key: certify_tree(tree) for key, tree in mastermind_trees.items()}


@pytest.mark.parametrize("objective,cap,hard,total", MASTERMIND)
def test_mastermind_certificates_certify_every_objective(objective, cap, hard, total, mastermind_trees,
                                                          mastermind_certificates):
    tree = mastermind_trees[(objective, cap, hard)]
    doc = mastermind_certificates[(objective, cap, hard)]
    proof = check_certificate(certificate_from_bytes(certificate_to_bytes(doc)))
    stats = verify_tree(tree)
    lines = certified(tree, stats, proof)
    assert stats.total == total
    if objective == "average":
        assert proof.impossible_within is None and proof.least_cost == total and proof.cap == cap
        assert len(lines) == 1
    else:
        assert proof.impossible_within == 4 and proof.cap == 5
        assert proof.least_cost == total + crush_price(objective, 5, 1296) * tree.provenance.get("at_worst", 0)
        assert len(lines) == 2 and "within 4 guesses" in lines[0]


def test_a_valid_certificate_does_not_certify_a_worse_tree(mastermind_trees, mastermind_certificates):
    proof = check_certificate(mastermind_certificates[("average", None, False)])
    worse = mastermind_trees[("worst", None, False)]  # 5626 within 5 guesses
    with pytest.raises(NotCertified, match="total below 5625.*total 5626"):
        certified(worse, verify_tree(worse), proof)
    # a true but weaker bound (the optimum minus one) certifies no optimum either
    doc = copy.deepcopy(mastermind_certificates[("average", None, False)])
    doc["claims"][doc["roots"]["least_cost"]][2] = 5624
    tree = mastermind_trees[("average", None, False)]
    with pytest.raises(NotCertified, match="below 5624.*total 5625"):
        certified(tree, verify_tree(tree), check_certificate(doc))


def test_a_certificate_of_the_worst_case_alone_says_what_it_proves_beside_a_least_total_tree(mastermind_trees):
    """An impossibility certificate (what build_trees --within-cap writes) beside a least-total tree certifies no
    total; the refusal says what the checked certificate does prove."""
    proof = check_certificate(certify(resolve_game("mastermind"), None, None, 4))
    tree = mastermind_trees[("average", None, False)]  # 5625, needs 6 guesses
    with pytest.raises(NotCertified, match=r"lower bound 5625; the certificate proves no total \(it proves only that "
                                           r"no strategy solves every secret within 4 guesses\)"):
        certified(tree, verify_tree(tree), proof)


def test_a_hard_mode_certificate_does_not_certify_an_ordinary_tree(mastermind_trees, mastermind_certificates):
    proof = check_certificate(mastermind_certificates[("average", None, True)])
    tree = mastermind_trees[("average", None, False)]
    with pytest.raises(NotCertified, match="hard-mode"):
        certified(tree, verify_tree(tree), proof)


# -- tampering ------------------------------------------------------------------------------------------------


@pytest.fixture()
def doc(mastermind_certificates):
    return copy.deepcopy(mastermind_certificates[("average", None, False)])


def with_refs(doc) -> int:
    """A claim (after the first few) that refers to an earlier claim, its first reference being one."""
    for i, c in enumerate(doc["claims"]):
        if i > 10 and c[3]:
            refs = [r for r in c[4] if r[2] >= 0]
            if refs:
                c[4] = refs + [r for r in c[4] if r[2] < 0]  # the same references, those to claims first
                return i
    raise AssertionError("no claim refers to another")


def refused(doc, claim: int, match: str = "") -> None:
    with pytest.raises(CertificateError, match=f"claim {claim}\\b.*{match}"):
        check_certificate(doc)


def test_tamper_raised_bound(doc):
    i = with_refs(doc)
    doc["claims"][i][2] += 1
    refused(doc, i, "bounded only by")


def test_tamper_lowered_bound_breaks_a_claim_that_needs_it(doc):
    # a claim whose bound its referrer needs in full: lowered by one, it is still true of its own set,
    # but the claim referring to it no longer holds
    for i, c in enumerate(doc["claims"]):
        for ref in c[4]:
            if ref[2] < 0:
                continue
            trial = copy.deepcopy(doc)
            trial["claims"][ref[2]][2] -= 1
            try:
                check_certificate(trial)
            except CertificateError as exc:
                assert f"claim {i}" in str(exc) and "bounded only by" in str(exc)
                return
    raise AssertionError("every reference had room to spare")


def test_tamper_dropped_claim(doc):
    i = with_refs(doc)
    j = doc["claims"][i][4][0][2]
    del doc["claims"][j]
    for c in doc["claims"][j:]:  # indices after it shift, as a file without it would have them
        for ref in c[4]:
            ref[2] -= ref[2] > j
    doc["roots"]["least_cost"] -= 1
    with pytest.raises(CertificateError, match="claim"):
        check_certificate(doc)


def test_tamper_reference_to_the_wrong_claim(doc):
    i = with_refs(doc)
    ref = doc["claims"][i][4][0]
    ref[2] = ref[2] - 1 if ref[2] > 0 else ref[2] + 1
    refused(doc, i, "not that class")


def test_tamper_reference_to_a_later_claim(doc):
    i = with_refs(doc)
    doc["claims"][i][4][0][2] = i
    refused(doc, i, "only earlier claims")


def test_tamper_a_class_bound_its_keys_do_not_give(doc):
    # a reference that bounds a class by its own keys (claim -1), stating more than they give
    i, k = next((i, k) for i, c in enumerate(doc["claims"]) for k, r in enumerate(c[4]) if r[2] == -1)
    doc["claims"][i][4][k][3] += 1000
    refused(doc, i, "has a key above")


def test_tamper_witness_that_does_not_map_the_set_onto_itself(doc):
    # a swap of the symbols 1 and 2, added to the first claim whose set it does not map onto itself
    doc["witnesses"].append([[0, 1, 2, 3], [1, 0, 2, 3, 4, 5]])
    checker = Checker(copy.deepcopy(doc))
    swap = checker.code_map(len(doc["witnesses"]) - 1, 0)
    i = next(k for k, c in enumerate(doc["claims"])
             if not np.array_equal(np.sort(swap[s := checker.rebuild(k, c[0])]), s))
    doc["claims"][i][3] = doc["claims"][i][3] + [len(doc["witnesses"]) - 1]
    refused(doc, i, "does not map the claim's set onto itself")


def test_tamper_witness_that_is_not_a_permutation(doc):
    i = next(k for k, c in enumerate(doc["claims"]) if c[3])
    for bad in ([[[0], 1, 2, 3], [0, 1, 2, 3, 4, 5]], [[0, 1, 2, 3], [0, 1, 2, 3, 4, 4]], [[0, 1, 2, 3]], "x"):
        trial = copy.deepcopy(doc)
        trial["witnesses"][trial["claims"][i][3][0]] = bad
        refused(trial, i, "is not a permutation")


def test_tamper_guess_left_out(doc):
    i = with_refs(doc)
    guess = doc["claims"][i][4][0][0]
    doc["claims"][i][4] = [r for r in doc["claims"][i][4] if r[0] != guess]
    refused(doc, i, "bounded only by")


def test_tamper_key_references_left_out(doc):
    # the checker's own bounds alone do not refute every guess: the references were needed
    i = next(i for i, c in enumerate(doc["claims"]) if any(r[2] == -1 for r in c[4]))
    doc["claims"][i][4] = [r for r in doc["claims"][i][4] if r[2] != -1]
    refused(doc, i, "bounded only by")


def test_tamper_class_bound_the_counting_bound_does_not_give(doc):
    # a claim justified by the checker's own bounds alone (no references), raised by one
    i = next(k for k, c in enumerate(doc["claims"]) if not c[4] and c[2] is not None and len(c[0]) >= 4)
    doc["claims"][i][2] += 1
    refused(doc, i, "bounded only by")


def test_tamper_an_ordinary_certificate_skipping_guesses_outside_the_candidates(mastermind_certificates):
    hard = copy.deepcopy(mastermind_certificates[("average", None, True)])
    Checker(copy.deepcopy(hard)).run()
    hard["consistent_only"] = False  # the same claims, now for the ordinary game
    with pytest.raises(CertificateError, match="bounded only by"):
        check_certificate(hard)


def test_malformed_certificates_are_refused_in_one_line():
    for data, match in [(b"", "not a certificate"), (b"[]", "not a certificate"),
                        (gzip.compress(b"{"), "not a certificate"), (b"\x1f\x8bxx", "gzip")]:
        with pytest.raises(CertificateError, match=match):
            certificate_from_bytes(data, "c")
    # 1100 MB of spaces, packed without packing them: after a full flush a deflate stream starts afresh, so
    # every further megabyte packs to the same bytes (the trailer's check sum, never reached, is left wrong)
    pack = zlib.compressobj(9, zlib.DEFLATED, 31)
    mb = b" " * (1 << 20)
    head = pack.compress(mb) + pack.flush(zlib.Z_FULL_FLUSH)
    again = pack.compress(mb) + pack.flush(zlib.Z_FULL_FLUSH)
    bomb = head + again * 1099 + pack.flush()
    assert len(zlib.decompressobj(wbits=31).decompress(bomb[: len(head) + 3 * len(again)])) == 4 << 20
    with pytest.raises(CertificateError, match="unpacks to more than"):
        certificate_from_bytes(bomb, "c")


def _reordered(doc: dict, first: str) -> bytes:
    """``doc`` as plain JSON with its member ``first`` written first (json.dumps keeps a dict's order)."""
    return json.dumps({first: doc[first], **{k: v for k, v in doc.items() if k != first}}, indent=1).encode()


def test_a_certificate_read_in_chunks_is_the_document_json_reads(mastermind_certificates, monkeypatch):
    """The reader unpacks and parses a few characters at a time: claims, names and numbers cut at every
    chunk's edge, gzip-compressed or plain, pretty-printed or compact, claims first or last."""
    from treegen import certificate

    doc = mastermind_certificates[("average", None, False)]
    for chunk in (1, 2, 3, 7, 64):
        monkeypatch.setattr(certificate, "_CHUNK", chunk)
        for data in (certificate_to_bytes(doc), _reordered(doc, "claims"), gzip.compress(_reordered(doc, "roots"))):
            got = certificate_from_bytes(data)
            assert got == json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    # A member that is a number which decodes short when cut ("1." and "2e" as 1 and 2), or characters of two
    # to four bytes, moved across the chunks' edges by a padding of every length.
    monkeypatch.setattr(certificate, "_CHUNK", 8)
    rest = json.dumps(doc)[1:]
    for pad in range(32):
        for value in ("1.5", "2e3", "-0.25", "1.5e-7", "123456789012345678901234567890", '"é😀中"'):
            text = '{"pad": "' + "a" * pad + '", "x": ' + value + ", " + rest
            assert certificate_from_bytes(text.encode()) == json.loads(text)


def test_a_certificate_is_checked_a_claim_at_a_time_whatever_its_size(mastermind_certificates, monkeypatch):
    """check_certificate_bytes proves what the whole document proves, with its claims first or last, and is
    not bound by the limit that guards a reader holding the whole text; a reader holding it is."""
    from treegen import certificate

    doc = mastermind_certificates[("average", None, False)]
    whole = check_certificate(copy.deepcopy(doc))
    for data in (certificate_to_bytes(doc), _reordered(doc, "claims")):
        proof = check_certificate_bytes(data, "c")
        assert (proof.least_cost, proof.claims, proof.cap) == (whole.least_cost, whole.claims, whole.cap) == (5625, 78, None)
    monkeypatch.setattr(certificate, "HELD", 1)  # every witness's map and orbits made again when dropped
    assert check_certificate_bytes(certificate_to_bytes(doc), "c").least_cost == 5625
    padded = _reordered(doc, "claims").replace(b"],", b"]," + b" " * 40_000)  # some 3 MB of white space
    monkeypatch.setattr(certificate, "UNPACKED_LIMIT", 1 << 20)
    with pytest.raises(CertificateError, match="unpacks to more than 1 MB"):
        certificate_from_bytes(gzip.compress(padded), "c")
    assert check_certificate_bytes(gzip.compress(padded), "c").least_cost == 5625
    # one claim is still held whole, so one too long is refused
    monkeypatch.setattr(certificate, "VALUE_LIMIT", 1000)
    with pytest.raises(CertificateError, match="^c: a member or claim takes more than 1,000 characters"):
        check_certificate_bytes(certificate_to_bytes(doc), "c")


def test_shared_among_processes_a_check_proves_and_fails_as_one_process_does(tmp_path):
    """check_certificate_file: several processes, each checking a share of the claims, give the Proof one
    process gives, and for a tampered certificate the same failure, at the same claim: a claim checked by
    one process and only noted by the others (Checker.note), even when it is malformed and a claim that
    another process checks refers to it."""
    from treegen.certificate import SHARE_BLOCK, check_certificate_file

    data = (ROOT / "trees" / "mastermind-optimal-crush.cert.json.gz").read_bytes()
    doc = certificate_from_bytes(data)
    claims = doc["claims"]
    assert len(claims) > 20 * SHARE_BLOCK

    def both(doc, workers):
        path = tmp_path / "c.cert.json.gz"
        path.write_bytes(certificate_to_bytes(doc))
        got = []
        for check in (lambda d: check_certificate_bytes(d, "c"), lambda d: check_certificate_file(d, str(path), "c", None, workers)):
            try:
                proof = check(path.read_bytes())
                got.append((proof.game, proof.least_cost, proof.impossible_within, proof.cap, proof.extra, proof.claims))
            except CertificateError as exc:
                got.append(str(exc))
        return got

    for workers in (2, 3):
        one, shared = both(doc, workers)
        # the crush certificate: 539 secrets at the fifth guess at least, and four guesses impossible
        assert one == shared and one[1:] == (3498886, 4, 5, 6481, len(claims))
    # a claim's value raised: it fails, in block 1 (checked by the second process of two)
    i = next(i for i in range(SHARE_BLOCK, 2 * SHARE_BLOCK) if claims[i][2] is not None)
    tampered = copy.deepcopy(doc)
    tampered["claims"][i][2] += 10**6
    one, shared = both(tampered, 2)
    assert one == shared and one.startswith(f"certificate claim {i}: ")
    # a claim referred to later, made malformed: a process that only notes it must not report another failure
    refs = [(j, i) for i, c in enumerate(claims) for (_, _, j, _) in c[4] if j >= 0]
    j, i = next((j, i) for j, i in refs if (j // SHARE_BLOCK) % 2 == 1 and (i // SHARE_BLOCK) % 2 == 0)
    broken = copy.deepcopy(doc)
    broken["claims"][j][1] = "x"
    one, shared = both(broken, 2)
    assert one == shared and one.startswith(f"certificate: claim {j}: depth must be an integer")


def test_a_damaged_or_odd_file_is_refused_by_the_claim_by_claim_reader(mastermind_certificates):
    doc = mastermind_certificates[("average", None, False)]
    data = certificate_to_bytes(doc)
    text = json.dumps(doc)
    for bad, match in [(data[: len(data) // 2], "ends early"),
                       (data[:-12] + bytes(12), "gzip"),  # the trailer's check sum
                       (text.replace('"roots"', '"version": 1, "roots"').encode(), "two members named 'version'"),
                       (text.encode() + b" {}", "more text after the object"),
                       (json.dumps({**doc, "claims": {}}).encode(), "claims must be a list"),
                       (json.dumps({k: v for k, v in doc.items() if k != "claims"}).encode(), "has no claims"),
                       (text.replace('"claims": [', '"claims": [}').encode(), "not a certificate"),
                       (b"\xff" + text.encode(), "not a certificate")]:
        for read in (certificate_from_bytes, check_certificate_bytes):
            with pytest.raises(CertificateError, match=match):
                read(bad, "c")


def test_the_root_must_be_about_the_whole_game(doc):
    i = with_refs(doc)
    doc["roots"]["least_cost"] = i
    with pytest.raises(CertificateError, match="not about the whole game"):
        check_certificate(doc)


# -- a root set (the value of the game's lower side) ---------------------------------------------------------


def not_one_symbol(game) -> list[int]:
    """The codes that are not one symbol repeated: a union of orbits, from which the setter of mastermind's
    and mm:4:7's values draws (uniformly)."""
    return [c for c, code in enumerate(game.codes) if len(set(code)) > 1]


@pytest.mark.parametrize("spec", ["mm:2:3", "mm:2:4", "mm:3:3"])
def test_a_root_set_certifies_exactly_the_brute_optimum_over_it(spec, naive):
    game = resolve_game(spec)
    brute = Brute(game, naive)
    root = not_one_symbol(game)
    best = int(brute.cost(root))
    assert best < int(brute.cost(brute.everything))  # fewer secrets: a figure of its own, not the game's
    doc = certify_secrets(game, root, best)
    assert doc["secrets"] == root
    proof = check_certificate(doc)
    assert (proof.least_cost, proof.secrets, proof.cap) == (best, tuple(root), None)
    with pytest.raises(SearchBug):
        certify_secrets(game, root, best + 1)  # the search finds the better strategy
    doc["claims"][doc["roots"]["least_cost"]][2] = best + 1
    with pytest.raises(CertificateError, match=f"claim {doc['roots']['least_cost']}"):
        check_certificate(doc)


def test_a_root_set_of_every_secret_is_the_ordinary_certificate():
    game = resolve_game("mm:3:3")
    cost = solve_game(game).stats.total
    assert certify_secrets(game, list(range(game.size)), cost) == certify(game, None, cost, None)


def test_a_root_set_is_checked(naive):
    game = resolve_game("mm:3:3")
    root = not_one_symbol(game)
    doc = certify_secrets(game, root, int(Brute(game, naive).cost(root)))
    for secrets in ([], [3, 1], [0, 0, 1], [-1, 4], [0, 27], "all", [1.0]):
        bad = {**doc, "secrets": secrets}
        with pytest.raises(CertificateError, match="certificate: secrets must be"):
            check_certificate(bad)
    # a secret more or one fewer: the claims are about other sets (the witnesses no longer map them onto
    # themselves, or the bounds fall short), never proved of them
    for secrets in (root[1:], sorted(root + [0])):
        with pytest.raises(CertificateError, match="claim"):
            check_certificate({**doc, "secrets": secrets})
    # a tree's total is over every secret: a root set's proof certifies no tree
    tree = solve_game(game)
    with pytest.raises(NotCertified, match="over 24 of the 27 secrets"):
        certified(tree, verify_tree(tree), check_certificate(doc))


def weighted_brute(game, weights):
    """best(S): the least weighted total of a strategy for the tuple of codes S, secret s weighing
    weights[s], by plain recursion over every code as the guess (no bounds, no symmetry)."""
    codes = range(game.size)
    hint = [[score_codes(game, g, s) for s in codes] for g in codes]

    @functools.cache
    def best(secrets: tuple) -> int:
        if len(secrets) == 1:
            return int(weights[secrets[0]])
        out = None
        for g in codes:
            classes: dict = {}
            for s in secrets:
                classes.setdefault(hint[g][s], []).append(s)
            classes.pop(game.win_hint, None)
            if len(classes) == 1 and len(next(iter(classes.values()))) == len(secrets):
                continue  # g tells nothing about this set
            cost = sum(int(weights[s]) for s in secrets) + sum(best(tuple(c)) for c in classes.values())
            out = cost if out is None else min(out, cost)
        return out

    return best


WEIGHTED = [("mm:2:3", [3, 1]), ("mm:2:4", [5, 2]), ("mm:3:3", [0, 2, 7]), ("mm:3:3", [4, 1, 3]), ("bc:3:4", [2]),
            ("mm:3:2", [1, 6])]


@pytest.mark.parametrize("spec, per_orbit", WEIGHTED)
def test_weights_certify_exactly_the_brute_weighted_optimum(spec, per_orbit):
    from treegen.valuefile import orbit_labels

    game = resolve_game(spec)
    labels, _ = orbit_labels(game)
    weights = np.array([per_orbit[o] for o in labels])
    root = np.flatnonzero(weights > 0)
    best = weighted_brute(game, weights)(tuple(root.tolist()))
    doc = certify_weighted(game, root, weights[root], best)
    proof = check_certificate(doc)
    assert (proof.least_cost, proof.weights) == (best, tuple(weights[root].tolist()))
    with pytest.raises(SearchBug):
        certify_weighted(game, root, weights[root], best + 1)
    doc["claims"][doc["roots"]["least_cost"]][2] = best + 1
    with pytest.raises(CertificateError, match=f"claim {doc['roots']['least_cost']}"):
        check_certificate(doc)


def test_weights_are_checked():
    game = resolve_game("mm:3:3")
    from treegen.valuefile import orbit_labels

    labels, _ = orbit_labels(game)
    weights = np.array([[4, 1, 3][o] for o in labels])
    doc = certify_weighted(game, np.arange(27), weights, weighted_brute(game, weights)(tuple(range(27))))
    for bad, match in [([1] * 26, "a list of 27 positive integers"), ([0] + [1] * 26, "a list of 27 positive"),
                       ([1.5] * 27, "a list of 27 positive"), ([1 << 30] * 27, "sum to")]:
        with pytest.raises(CertificateError, match=match):
            check_certificate({**doc, "weights": bad})
    # weights that the witnesses do not keep: a code of orbit 001 made heavier than the others
    heavier = weights.tolist()
    heavier[1] += 1
    with pytest.raises(CertificateError, match="does not keep the weights"):
        check_certificate({**doc, "weights": heavier})
    # the lighter weights of an ordinary certificate's claims (one each) do not carry these heavier ones' root
    with pytest.raises(CertificateError, match="claim"):
        check_certificate({**doc, "weights": [1] * 27})
    # a depth, or a class bounded by its keys, is not a weighted claim's
    i = doc["roots"]["least_cost"]
    with pytest.raises(CertificateError, match="no depth"):
        check_certificate(copy.deepcopy(doc) | {"claims": doc["claims"][:i] + [[*doc["claims"][i][:1], 3, *doc["claims"][i][2:]]]})
    # a class bounded by its weighted keys above what they give: 000 against the root, hint 0A0B (the 8 codes
    # of symbols 1 and 2 alone, weight 4 + 3 * 6 = 22 ...), bounded by 3 W(C), which needs every key 0
    claims = copy.deepcopy(doc["claims"])
    member = [c for c in range(27) if score_codes(game, 0, c) == 0]
    claims[i][4].append([0, 0, -1, 3 * int(weights[member].sum())])
    with pytest.raises(CertificateError, match="has a weighted key above 0 over it"):
        check_certificate({**doc, "claims": claims})


# -- independence ------------------------------------------------------------------------------------------


def test_the_checker_shares_no_code_with_the_search():
    source = (ROOT / "treegen" / "certificate.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
    assert imported <= {"__future__", "codecs", "gzip", "itertools", "json", "re", "struct", "time", "zlib", "collections.abc",
                        "dataclasses", "hashlib", "mmap", "multiprocessing", "numpy", ".rules"}, imported
    # and at run time: checking a certificate loads neither numba nor any of treegen's search modules
    code = ("import sys, treegen.certificate as c\n"
            "doc = c.certificate_from_bytes(sys.stdin.buffer.read())\n"
            "c.check_certificate(doc)\n"
            "bad = sorted(m for m in sys.modules if m.startswith(('numba', 'treegen.exact', 'treegen.symmetry',"
            " 'treegen.feedback', 'treegen.scoring')))\n"
            "print(bad)\n")
    data = certificate_to_bytes(certify(resolve_game("mm:2:4"), None, 27, None))
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True)
    assert out.stdout.strip() == b"[]", out.stdout


# -- the shipped certificates ----------------------------------------------------------------------------------

# The shipped optima found nowhere in print, whose certificates check in seconds: the suite re-derives their
# lower bounds by the second method that shares no code with the search (the rest are checked by
# `treegen verify` and `python scripts/build_trees.py`; docs/results.md says which figure has which check).
UNPUBLISHED_QUICK = ["mastermind-optimal-average-hard.json", "smash-the-code-optimal-average-hard.json",
                     "mastermind-optimal-crush.json", "royale-optimal-average.json",
                     "bulls-cows-optimal-average-hard.json",
                     # about 10 s each: mm:4:8's optimum was published only as a tree's total (an upper bound),
                     # and mm:6:4's is #45's (the rest of #45's are too big for the suite: 25 MB and more)
                     "mm-4-8-optimal-average.json", "mm-6-4-optimal-average.json"]


@pytest.mark.parametrize("name", UNPUBLISHED_QUICK)
def test_shipped_certificates_prove_the_unpublished_optima(name):
    tree = load_tree(ROOT / "trees" / name)
    data = (ROOT / "trees" / tree.provenance["certificate"]["file"]).read_bytes()
    proof = check_certificate(certificate_from_bytes(data))
    stats = verify_tree(tree, tree.provenance.get("max_guesses"))
    lines = certified(tree, stats, proof)  # raises NotCertified unless the proof is exactly the tree's figures
    assert proof.least_cost == stats.total + proof.extra * (stats.histogram[proof.cap] if proof.extra else 0)
    assert proof.least_cost is not None and lines


# -- the commands --------------------------------------------------------------------------------------------


def test_solve_writes_a_certificate_that_verify_checks(tmp_path):
    tree, cert = tmp_path / "mm.json", tmp_path / "mm.cert.json.gz"
    r = run("solve", "--game", "mastermind", "-q", "-o", str(tree), "--certificate", str(cert))
    assert r.returncode == 0, r.stderr
    r = run("verify", str(tree), "-q")
    assert r.returncode == 0, r.stderr
    assert "certified no strategy has a total below 5625: this tree (total 5625) is optimal" in r.stdout
    assert "claims checked" in r.stdout
    # the same certificate checked by name; then a damaged one: exit 1, naming the claim
    assert run("verify", str(tree), "-q", "--certificate", str(cert)).returncode == 0
    doc = certificate_from_bytes(cert.read_bytes())
    doc["claims"][-1][2] += 1
    bad = tmp_path / "bad.cert.json.gz"
    bad.write_bytes(certificate_to_bytes(doc))
    r = run("verify", str(tree), "-q", "--certificate", str(bad))
    assert r.returncode == 1 and f"claim {len(doc['claims']) - 1}" in r.stderr and "Traceback" not in r.stderr
    # shared among two processes: the same report, the same failure; --workers 0 refused
    one = run("verify", str(tree), "-q", "--certificate", str(cert))
    two = run("verify", str(tree), "-q", "--certificate", str(cert), "--workers", "2")
    assert two.returncode == 0 and two.stdout.split(" claims checked")[0] == one.stdout.split(" claims checked")[0]
    assert run("verify", str(tree), "-q", "--certificate", str(bad), "--workers", "2").stderr == r.stderr
    with open(cert, "rb") as f:
        piped = subprocess.run([TREEGEN, "verify", str(tree), "-q", "--certificate", "-", "--workers", "2"], stdin=f,
                               capture_output=True, text=True, timeout=120, check=False)
    named = piped.stdout.replace("certificate -:", f"certificate {cert}:")  # the same report, the file named "-"
    assert piped.returncode == 0 and named.split(" claims checked")[0] == one.stdout.split(" claims checked")[0]
    assert piped.stderr == "treegen: --workers 2: a certificate read from standard input is checked in one process\n"
    refused = run("verify", str(tree), "-q", "--workers", "0")
    assert refused.returncode == 2 and refused.stderr == "treegen: error: --workers must be at least 1, not 0\n"
    # the tree names its certificate's digest: another file in its place is refused
    cert.write_bytes(bad.read_bytes())
    r = run("verify", str(tree), "-q")
    assert r.returncode == 1 and "SHA-256" in r.stderr


def test_verify_pairs_the_certificate_with_the_tree(tmp_path, mastermind_certificates):
    tree = tmp_path / "mm5.json"
    assert run("solve", "--game", "mastermind", "-q", "--objective", "worst", "-o", str(tree)).returncode == 0
    cert = tmp_path / "c.json.gz"
    cert.write_bytes(certificate_to_bytes(mastermind_certificates[("average", None, False)]))
    r = run("verify", str(tree), "-q", "--certificate", str(cert))
    assert r.returncode == 1
    assert "5625" in r.stderr and "5626" in r.stderr


def test_a_certified_solve_is_the_plain_solves_tree_and_certify_trees_certificate(tmp_path):
    # one search in one process: the same bytes for any --workers; the strategy the coordinator finds; and the
    # certificate certify_tree writes for that tree, so a rebuild from the tree gives the same file
    args = ["solve", "--game", "mm:3:4", "-q", "--objective", "worst"]
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, two, plain = tmp_path / "one" / "t.json", tmp_path / "two" / "t.json", tmp_path / "p.json"
    assert run(*args, "-o", str(one), "--certificate", str(tmp_path / "one" / "t.cert")).returncode == 0
    assert run(*args, "--workers", "2", "-o", str(two), "--certificate", str(tmp_path / "two" / "t.cert")).returncode == 0
    assert run(*args, "--workers", "2", "-o", str(plain)).returncode == 0
    assert one.read_bytes() == two.read_bytes()
    cert = (tmp_path / "one" / "t.cert").read_bytes()
    assert (tmp_path / "two" / "t.cert").read_bytes() == cert
    certified, solved = load_tree(one), load_tree(plain)
    assert certified.root == solved.root
    assert certified.provenance["optimal_total"] == solved.provenance["optimal_total"]
    assert certificate_to_bytes(certify_tree(solved)) == cert


def test_a_certified_solve_refuses_what_it_cannot_honour(tmp_path):
    ck = tmp_path / "ck"
    for extra in (["--checkpoint", str(ck)], ["--eager"], ["--split", "30"], ["--executor", "ray"]):
        r = run("solve", "--game", "mm:3:4", "-q", "-o", str(tmp_path / "t.json"), "--certificate",
                str(tmp_path / "t.cert"), *extra)
        assert r.returncode == 2 and extra[0] in r.stderr and "--certificate" in r.stderr
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not ck.exists() and not (tmp_path / "t.json").exists() and not (tmp_path / "t.cert").exists()


def test_certificate_output_is_checked_before_the_search(tmp_path):
    r = run("solve", "--game", "mastermind", "-q", "-o", str(tmp_path / "t.json"), "--certificate", str(tmp_path))
    assert r.returncode == 2 and "certificate file" in r.stderr
    r = run("solve", "--game", "mastermind", "-q", "-o", str(tmp_path / "t.json"), "--certificate",
            str(tmp_path / "t.json"))
    assert r.returncode == 2 and "give two files" in r.stderr


def test_sets_answered_by_an_equivalent_set_refer_to_its_claim_through_a_witness():
    # with the memo by orbit on, some classes are proved by an equivalent set's claim, mapped by a witness
    from treegen.exact.options import Options

    doc = certify(resolve_game("mastermind"), None, 5625, None, options=Options(orbits=True))
    assert check_certificate(doc).least_cost == 5625
    i, k = next((i, k) for i, c in enumerate(doc["claims"]) for k, r in enumerate(c[4]) if r[2] >= 0 and r[3] >= 0)
    ref = doc["claims"][i][4][k]
    doc["witnesses"].append([[0, 1, 2, 3], list(range(6))])  # the identity: the other set, not this class
    ref[3] = len(doc["witnesses"]) - 1
    refused(doc, i, "not that class")


@pytest.mark.parametrize("spec, cap, cost", [("mastermind", None, 5625), ("mastermind", 5, 5626), ("bc:3:6", None, None)])
def test_the_compiled_choice_of_classes_is_the_python_one(spec, cap, cost, monkeypatch):
    """search_kernels.claim_picks (the claims walk's inner loop) against Prover._raise, the same choice
    written in Python, at every call the walk makes, for every guess the kernel decided: the same classes,
    needs and references checked in place. (The kernel stops at a guess whose classes the memo and key
    bounds do not cover; the walk then calls _raise itself, which searches them again.)"""
    from treegen.exact import search_kernels
    from treegen.exact.certify import Prover

    game = resolve_game(spec)
    if cost is None:
        cost = solve_game(spec, "average", cap).provenance["optimal_total"]
    compared = []
    picks = Prover._picks

    def checked(self, scan, start, secrets, target, lb, depth):
        out = picks(self, scan, start, secrets, target, lb, depth)
        stop, count, p_guess, p_hint, p_need, p_key, p_from, p_to, members = out
        t = self.solver.tables
        for k in range(start, stop):
            g = int(scan.guesses[k])
            split = search_kernels.split_classes(t.table, g, secrets, t.nh, t.win)
            searches = self._searches
            want = [(h, need, by_key, None if by_key else cls.tolist())
                    for h, cls, need, by_key in self._raise(secrets, [], depth, g, *split, lb, scan.most,
                                                           target - int(scan.bounds[k]))]
            assert self._searches == searches  # covered by the memo and key bounds, as the kernel found
            got = [(int(p_hint[j]), int(p_need[j]), bool(p_key[j]), None if p_key[j] else members[p_from[j] : p_to[j]].tolist())
                   for j in range(count) if p_guess[j] == k]
            assert got == want, (secrets.shape[0], g)
            compared.append(len(got))
        return out

    monkeypatch.setattr(Prover, "_picks", checked)
    doc = certify(game, cap, cost, None)
    assert check_certificate(doc).least_cost == cost
    assert compared and min(compared) >= 1  # every guess the kernel decided raised at least one class


@pytest.mark.parametrize("spec, cap, cost", [("mastermind", None, 5625), ("mastermind", 5, 5626), ("bc:4:6", None, None)])
def test_a_claim_skips_its_scan_only_when_no_code_is_below_its_bound(spec, cap, cost, monkeypatch):
    """Prover._all_refuted spares a claim's scan when search_kernels.least_bound says no guess is short. The
    scan's candidates are codes, so that is sound when every code's lookahead bound, counted here by numpy
    from the table (|S| + the sum over its non-winning classes C of max(lb[|C|], 3|C| - the set's most key,
    a code's non-empty non-winning classes plus 2 if it is a secret)), reaches the claim's target."""
    from treegen.exact.certify import Prover

    game = resolve_game(spec)
    if cost is None:
        cost = solve_game(spec, "average", cap).provenance["optimal_total"]
    skipped = []
    refuted = Prover._all_refuted

    def checked(self, secrets, depth, target):
        out = refuted(self, secrets, depth, target)
        if out:
            t = self.solver.tables
            win = int(t.win)
            rows = t.table[:, secrets].astype(np.int64) + t.nh * np.arange(t.table.shape[0])[:, None]
            counts = np.bincount(rows.ravel(), minlength=t.table.shape[0] * t.nh).reshape(-1, t.nh)
            secret = np.zeros(t.table.shape[0], dtype=bool)
            secret[secrets] = True
            others = np.delete(counts, win, axis=1)
            most = int(((others > 0).sum(axis=1) + 2 * secret).max())
            lb = self.solver.bounds.lb[depth - 1]
            bounds = secrets.shape[0] + np.maximum(lb[others], 3 * others - most).sum(axis=1)
            assert bounds.min() >= target, (secrets.shape[0], int(bounds.min()), target)
            skipped.append(secrets.shape[0])
        return out

    monkeypatch.setattr(Prover, "_all_refuted", checked)
    doc = certify(game, cap, cost, None)
    assert check_certificate(doc).least_cost == cost
    assert skipped and sum(1 for c in doc["claims"] if not c[4]) >= len(skipped)


@pytest.mark.parametrize("spec, cap, cost, hard", [("mastermind", None, 5625, False), ("mastermind", 5, 5626, False),
                                                   ("bc:4:6", None, None, False), ("bulls-cows", None, 26688, True)])
def test_the_compiled_walk_writes_the_bytes_of_the_python_walk(spec, cap, cost, hard, monkeypatch):
    """The whole certificate, written again with the walk's compiled parts turned off: every claim scanned
    and every guess's classes chosen by Prover._raise, one guess at a time (the walk before claim_picks and
    _all_refuted). The same bytes, so the restarts after a search and the skipped scans change nothing.
    (Bulls-cows in hard mode searches 36 classes again in its walk, each followed by a restart.)"""
    from treegen.exact.certify import Prover

    game = resolve_game(spec)
    if cost is None:
        cost = solve_game(spec, "average", cap).provenance["optimal_total"]
    compiled = certificate_to_bytes(certify(game, cap, cost, None, consistent_only=hard))
    none = np.empty(0, dtype=np.int64)
    # no picks, stopped at the first guess: claim() hands each guess in turn to _raise
    monkeypatch.setattr(Prover, "_picks", lambda self, scan, start, *rest: (start, 0, none, none, none, none, none,
                                                                             none, none))
    monkeypatch.setattr(Prover, "_all_refuted", lambda self, secrets, depth, target: False)
    assert certificate_to_bytes(certify(game, cap, cost, None, consistent_only=hard)) == compiled


@pytest.mark.parametrize("name", ["bulls-cows-optimal-average.cert.json.gz", "mastermind-optimal-crush.cert.json.gz"])
def test_a_certificate_written_a_claim_at_a_time_is_the_same_file(name, monkeypatch):
    """certificate_claims_to_bytes writes claims in batches as they come: the bytes of the whole document
    dumped and compressed at once (the shipped files were written so), whatever the batch's size."""
    from treegen import certificate

    data = (Path(__file__).resolve().parents[1] / "trees" / name).read_bytes()
    doc = certificate_from_bytes(data)
    head = {k: v for k, v in doc.items() if k != "claims"}
    assert list(doc)[-1] == "claims"
    assert gzip.compress(json.dumps(doc, separators=(",", ":")).encode(), compresslevel=6, mtime=0) == data
    for batch in (4096, 3, 1):
        monkeypatch.setattr(certificate, "_BATCH", batch)
        assert certificate_claims_to_bytes(head, iter(doc["claims"])) == data
    assert certificate_to_bytes(doc) == data
    assert gzip.decompress(certificate_claims_to_bytes({}, iter([]))) == b'{"claims":[]}'
