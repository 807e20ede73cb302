"""Certificates in parts (treegen/exact/parts.py) and ``treegen certify``: accepted by the independent
checker for the true optimum of tiny games (an exhaustive oracle) and of mastermind's least-total trees,
refused one above it, the same bytes for any number of workers and from a parts folder, and a damaged
part searched again."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import orjson
import pytest
from clitools import run, run_main
from test_search import Brute

from treegen.certificate import (
    certificate_from_bytes,
    certificate_to_bytes,
    check_certificate,
)
from treegen.exact.certify import Prover, ProvingSolver
from treegen.exact.checkpoint import CheckpointError, CheckpointStore, _digest
from treegen.exact.executors import ProcessExecutor
from treegen.exact.options import Options
from treegen.exact.parts import (
    NotLeast,
    certify_in_parts,
    parts_key,
    run_part,
)
from treegen.files import InputError
from treegen.rules import resolve_game, score_codes
from treegen.tree import load_tree

TINY = ["mm:2:3", "bc:2:4", "mm:3:2", "bc:3:4", "mm:2:4"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def joined(*args, **kwargs) -> tuple[bytes, dict]:
    """certify_in_parts with its certificate's chunks joined (the command writes them to a file as they come)."""
    chunks, figures = certify_in_parts(*args, **kwargs)
    return b"".join(chunks), figures


@pytest.mark.parametrize("spec", TINY)
@pytest.mark.parametrize("hard", [False, True])
def test_tiny_games_certify_exactly_the_brute_optimum_in_parts(spec, hard, naive):
    game = resolve_game(spec)
    brute = Brute(game, naive)
    best = int(brute.cost(brute.everything, None, hard))
    data, figures = joined(game, None, best, hard)
    proof = checked(data)
    assert (proof.least_cost, proof.cap, proof.consistent_only) == (best, None, hard)
    assert figures["parts"] == figures["searched"]  # none kept: every part searched in this run
    with pytest.raises(NotLeast, match=f"less than {best + 1}"):
        joined(game, None, best + 1, hard)


@pytest.mark.parametrize("spec", TINY)
def test_tiny_games_certify_the_least_total_within_the_least_worst_case(spec, naive):
    game = resolve_game(spec)
    brute = Brute(game, naive)
    worst = brute.least_worst()
    total = int(brute.cost(brute.everything, worst))
    proof = checked(joined(game, worst, total)[0])
    assert (proof.least_cost, proof.cap) == (total, worst)
    with pytest.raises(NotLeast):
        joined(game, worst, total + 1)


@pytest.mark.parametrize("name,cap,hard,total", [
    ("mastermind-optimal-average.json", None, False, 5625),
    ("mastermind-optimal-average-max5.json", 5, False, 5626),
    ("mastermind-optimal-average-hard.json", None, True, 5660),
])
def test_mastermind_least_totals_certified_in_parts(name, cap, hard, total):
    prov = orjson.loads(Path(ROOT, "trees", name).read_bytes())["provenance"]
    assert (prov["optimal_total"], prov["max_guesses"], bool(prov.get("consistent_only"))) == (total, cap, hard)
    game = resolve_game("mastermind")
    proof = checked(joined(game, cap, total, hard)[0])
    assert (proof.least_cost, proof.cap, proof.consistent_only) == (total, cap, hard)
    with pytest.raises(NotLeast):
        joined(game, cap, total + 1, hard)


def checked(data: bytes):
    """The checker's proof of a certificate file's bytes."""
    return check_certificate(certificate_from_bytes(data))


def mastermind_tree(name: str = "mastermind-optimal-average.json") -> list:
    return load_tree(os.path.join(ROOT, "trees", name)).root.to_wire(resolve_game("mastermind"))


@pytest.mark.parametrize("split", [None, 200])
def test_the_same_certificate_for_any_number_of_workers(split):
    game = resolve_game("mastermind")
    tree = mastermind_tree()
    inline = joined(game, None, 5625, tree=tree, split=split)[0]
    executor = ProcessExecutor(2)
    try:
        data, figures = joined(game, None, 5625, submit=executor.submit, tree=tree, split=split)
    finally:
        executor.close()
    assert data == inline
    assert figures["searched"] == figures["parts"]


def test_a_guess_whole_pass_searches_a_class_at_a_time_and_stops_at_one_that_fails():
    """After a guess's shares pass, its classes are searched one at a time (the guess has no other part
    running when one starts), and once one of those fails (its value reaches its beta) the guess is refuted
    and none of its classes is searched again. The parts run on a thread of their own, first come first
    served, so that a part is still running while others start; the certificate is the same as inline."""
    import queue
    import threading
    from collections import Counter
    from concurrent.futures import Future

    game = resolve_game("mastermind")
    tree = mastermind_tree()
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    running: Counter = Counter()  # guess (its node's path and the guess) -> its parts started, not yet ended
    ended: Counter = Counter()
    refuted: set = set()
    alone = wrong = 0

    def submit(fn, *args):
        nonlocal alone, wrong
        path, beta = args[-2], args[-1]
        guess = tuple(path[:-1])
        if ended[guess]:  # a part after the shares pass: the whole pass, one class at a time
            alone += 1
            wrong += running[guess] > 0 or guess in refuted
        running[guess] += 1
        fut: Future = Future()
        tasks.put((fn, args, guess, beta, fut, ended[guess] > 0))
        return fut

    def serve():
        while (task := tasks.get()) is not None:
            fn, args, guess, beta, fut, whole = task
            result = fn(*args)
            running[guess] -= 1
            ended[guess] += 1
            if whole and result.value >= beta:
                refuted.add(guess)
            fut.set_result(result)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        data = joined(game, None, 5625, submit=submit, tree=tree, split=200)[0]
    finally:
        tasks.put(None)
        server.join(60)
    assert alone > 100 and wrong == 0 and refuted
    assert data == joined(game, None, 5625, tree=tree, split=200)[0]
    assert checked(data).least_cost == 5625


@pytest.mark.parametrize("name,cap,hard,total,split", [
    ("mastermind-optimal-average.json", None, False, 5625, 200),
    ("mastermind-optimal-average-max5.json", 5, False, 5626, 200),
    ("mastermind-optimal-average-hard.json", None, True, 5660, 50),  # nodes below nodes
])
def test_big_classes_the_tree_leads_to_are_split_into_nodes(name, cap, hard, total, split):
    """A class of at least ``split`` secrets under the tree's guess is a node: its claim at the tree's total
    for it, its guesses raised by parts one guess further down (and so on down the tree)."""
    game = resolve_game("mastermind")
    tree = mastermind_tree(name)
    data, figures = joined(game, cap, total, hard, tree=tree, split=split)
    doc = certificate_from_bytes(data)
    proof = check_certificate(doc)
    # written a claim at a time, the same bytes as the whole document written at once
    assert data == certificate_to_bytes(doc) and figures["claims"] == len(doc["claims"])
    assert (proof.least_cost, proof.cap, proof.consistent_only) == (total, cap, hard)
    assert figures["nodes_split"] >= 3
    # every set of at least split secrets the tree leads to has a claim at the tree's total for it
    figures_by_history = {tuple(c[0]): c[2] for c in doc["claims"]}
    expected = {}
    stack = [((), tree, list(range(game.size)))]
    while stack:
        history, wire, secrets = stack.pop()
        for hint, child in wire[1]:
            cls = [s for s in secrets if score_codes(game, wire[0], s) == hint]
            if len(cls) >= split:
                expected[history + (wire[0], hint)] = brute_total(game, child, cls)
                stack.append((history + (wire[0], hint), child, cls))
    assert expected and all(figures_by_history.get(h) == v for h, v in expected.items())
    assert len(expected) == figures["nodes_split"]
    if split == 50:
        assert max(len(h) for h in expected) >= 4  # nodes below nodes
        with pytest.raises(NotLeast, match=f"less than {total + 1}"):
            joined(game, cap, total + 1, hard, tree=tree, split=split)


def brute_total(game, wire, secrets) -> int:
    """A wire tree's total over ``secrets``, each secret's guesses counted one by one (rules.score_codes)."""
    total = 0
    for s in secrets:
        node, guesses = wire, 1
        while node[0] != s:
            node = {h: c for h, c in node[1]}[score_codes(game, node[0], s)]
            guesses += 1
        total += guesses
    return total


def test_a_parts_folder_resumes_and_a_damaged_part_is_searched_again(tmp_path):
    game = resolve_game("mastermind")
    key = parts_key(game, 5, False, 5626)
    heard: list[str] = []
    first, figures = joined(game, 5, 5626, store=CheckpointStore(str(tmp_path), key, heard.append),
                                      warn=heard.append)
    assert figures["searched"] == figures["parts"] > 10 and heard == []
    again, figures = joined(game, 5, 5626, store=CheckpointStore(str(tmp_path), key, heard.append),
                                      warn=heard.append)
    assert figures["searched"] == 0 and heard == []
    assert again == first
    # one claims file damaged, one entry's value changed: both are searched again, and said so
    claims = sorted(p for p in tmp_path.iterdir() if p.name.endswith(".claims.json.gz"))
    claims[0].write_bytes(gzip.compress(b'{"claims": [], "witnesses": []}'))
    entry = next(p for p in sorted(tmp_path.iterdir()) if p.name.endswith(".json") and len(p.name) == 37
                 and p.name[:32] != claims[0].name[:32])
    doc = orjson.loads(entry.read_bytes())
    doc["outcome"]["value"] += 1  # and the entry's checksum recomputed, as anyone can: the claim disagrees
    doc["sha256"] = _digest({k: doc[k] for k in ("key", "task", "outcome")})
    entry.write_bytes(orjson.dumps(doc))
    mended, figures = joined(game, 5, 5626, store=CheckpointStore(str(tmp_path), key, heard.append),
                                       warn=heard.append)
    assert figures["searched"] == 2 and len(heard) == 2
    assert any("checksum mismatch" in h and "searching it again" in h for h in heard)
    assert any("its own claim is about" in h and "searching it again" in h for h in heard)
    assert mended == first
    # a folder made for another figure is refused
    with pytest.raises(CheckpointError, match="another search"):
        CheckpointStore(str(tmp_path), parts_key(game, 5, False, 5625), heard.append)


def test_parts_in_a_folder_are_read_from_it_as_the_certificate_is_written(tmp_path):
    # With a folder the run holds no part's claims (bc:5:9's come to GBs): the certificate's chunks are made
    # from the files as they are taken. The same bytes as a run without a folder, searched or resumed, and a
    # part changed after the run read it is refused, never written into the certificate.
    game = resolve_game("mastermind")
    key = parts_key(game, 5, False, 5626)
    held = joined(game, 5, 5626)[0]
    assert joined(game, 5, 5626, store=CheckpointStore(str(tmp_path), key, print))[0] == held
    chunks, figures = certify_in_parts(game, 5, 5626, store=CheckpointStore(str(tmp_path), key, print))
    assert figures["searched"] == 0
    for claims in tmp_path.glob("*.claims.json.gz"):
        claims.write_bytes(gzip.compress(b'{"claims":[],"witnesses":[]}'))
    with pytest.raises(InputError, match="changed after this run read it"):
        b"".join(chunks)


def test_a_part_run_in_this_process_is_kept_before_the_next_starts(tmp_path):
    """With one worker the parts run inline, where the loop that collects them runs only once every guess's
    first pass has started: each must be in the folder as soon as it ends, or a stop would lose them all."""
    from treegen.exact.executors import InlineExecutor

    game = resolve_game("mastermind")
    inline = InlineExecutor()
    kept_before: list[int] = []

    def submit(fn, *args):
        kept_before.append(sum(p.name.endswith(".claims.json.gz") for p in tmp_path.iterdir()))
        return inline.submit(fn, *args)

    joined(game, 5, 5626, submit=submit, store=CheckpointStore(str(tmp_path), parts_key(game, 5, False, 5626),
                                                                        print))
    assert kept_before == list(range(len(kept_before))) and len(kept_before) > 10


def test_a_part_keeps_its_claims_as_json_and_writes_the_bytes_of_the_lists():
    # run_part's prover keeps each claim as JSON text (as_json), to spare its worker's memory; its file must
    # be exactly what the same claims kept as lists are written as. The lists are made here by hand, the way
    # run_part made them before: the whole of mastermind as one part, under a beta above its optimum.
    game = resolve_game("mastermind")
    options = Options().resolved(game)
    part = run_part(game, None, False, options, [], 5626)
    assert (part.value, part.exact) == (5625, True)
    prover = Prover(game, False, 0, options)
    solver = prover.solver = ProvingSolver(game, None, prover.options, consistent_only=False)
    secrets = np.arange(game.secret_count, dtype=np.int32)
    got = solver.solve(secrets, 5626, (), solver.full_depth())
    top = prover.claim(secrets, [], solver.full_depth(), min(got, 5626))
    assert top == part.top and len(prover.claims) == top + 1 > 10
    assert gzip.decompress(part.data) == orjson.dumps({"claims": prover.claims, "witnesses": prover.witnesses})
    assert part.unpack() == (prover.claims, prover.witnesses)


# -- the command ---------------------------------------------------------------------------------------------


def test_certify_writes_a_certificate_that_verify_checks(tmp_path):
    tree = os.path.join(ROOT, "trees", "mastermind-optimal-average-hard.json")
    cert = str(tmp_path / "mm.cert.json.gz")
    done = run("certify", tree, "-o", cert, "--parts", str(tmp_path / "parts"), "--workers", "1", "--split", "200")
    assert done.returncode == 0, done.stderr
    assert "no strategy for mastermind in hard mode costs less than 5660" in done.stdout
    assert ", 3 sets split)" in done.stdout
    assert check_certificate(certificate_from_bytes(Path(cert).read_bytes())).least_cost == 5660
    checked = run("verify", tree, "--certificate", cert, "-q")
    assert checked.returncode == 0, checked.stderr
    assert "this tree (total 5660) is optimal" in checked.stdout
    again = run("certify", tree, "-o", str(tmp_path / "again.cert.json.gz"), "--parts", str(tmp_path / "parts"),
                "--split", "200")
    assert again.returncode == 0 and "(0 searched in this run, 3 sets split)" in again.stdout
    assert Path(cert).read_bytes() == (tmp_path / "again.cert.json.gz").read_bytes()


def test_certify_refuses_what_it_cannot_certify_in_one_line(tmp_path, capsys):
    def refused(*args: str, status: int = 2) -> str:
        got, _out, err = run_main(capsys, "certify", *args, "-q")
        assert got == status, err
        assert err.count("\n") == 1 and "Traceback" not in err
        return err

    trees = os.path.join(ROOT, "trees")
    out = str(tmp_path / "c.cert.json.gz")
    heuristic = str(tmp_path / "heuristic.json")
    assert run_main(capsys, "build", "--game", "mastermind", "--strategy", "minimax", "-o", heuristic)[0] == 0
    assert "no optimal_total" in refused(heuristic, "-o", out)
    assert "objective 'worst'" in refused(os.path.join(trees, "mastermind-optimal-worst.json"), "-o", out)
    tree = os.path.join(trees, "mastermind-optimal-average.json")
    assert "over its tree" in refused(tree, "-o", tree)
    assert "into the parts folder" in refused(tree, "-o", str(tmp_path / "c.gz"), "--parts", str(tmp_path))
    # a figure that is not the tree's own total: refused by verify's replay, before any search
    doc = orjson.loads(Path(tree).read_bytes())
    doc["provenance"]["optimal_total"] = doc["provenance"]["lower_bound"] = 5626
    wrong = tmp_path / "wrong.json"
    wrong.write_bytes(orjson.dumps(doc))
    assert "5626 is not the tree's total 5625" in refused(str(wrong), "-o", out)
    # a tree that claims its own total is the least when it is not: a cheaper strategy exists, exit 1, no file
    doc = orjson.loads(Path(heuristic).read_bytes())
    total = doc["stats"]["total"]
    assert total > 5625
    doc["provenance"] = {"objective": "average", "max_guesses": None, "optimal_total": total, "lower_bound": total}
    wrong.write_bytes(orjson.dumps(doc))
    assert f"less than {total}" in refused(str(wrong), "-o", out, status=1)
    assert not os.path.exists(out)


def test_a_stopped_certify_writes_nothing_and_keeps_its_parts(tmp_path):
    import signal
    import subprocess
    import time

    from clitools import TREEGEN

    # 400 words, no symmetry: some 4,000 parts of about a millisecond, the first on disk long before the end
    tree = os.path.join(ROOT, "trees", "word-mastermind-400-optimal-average.json")
    cert, parts = tmp_path / "wm.cert.json.gz", tmp_path / "parts"
    proc = subprocess.Popen([TREEGEN, "certify", tree, "-o", str(cert), "--parts", str(parts), "--workers", "1", "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (parts.is_dir() and any(p.name.endswith(".claims.json.gz")
                                                                     for p in parts.iterdir())):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.endswith(f"treegen: terminated; no certificate written (run it again with --parts {parts} to resume)\n")
    assert not cert.exists()
    assert any(p.name.endswith(".claims.json.gz") for p in parts.iterdir())
