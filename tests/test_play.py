"""treegen play: solving given secrets, guessing the user's secret from typed hints, hosting a game."""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import time

import pytest
from test_tree import bc_file, dict_to_node, first_consistent, naive_codes, naive_file, naive_hint  # noqa: F401

from treegen import tree as T
from treegen.cli import main
from treegen.play import solve
from treegen.rules import CodeError, resolve_game


def _cli(*argv, stdin: str = "", timeout: float = 60):
    proc = subprocess.run(
        [sys.executable, "-m", "treegen.cli", *argv], input=stdin, capture_output=True, text=True, timeout=timeout
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """Tree files of tiny games, plus mastermind (pegs) and numbers-baseball (ball/strike)."""
    out = {}
    folder = tmp_path_factory.mktemp("play")
    for spec in ("bc:2:3", "bc:3:4", "mm:3:3", "mm:2:3", "mastermind", "numbers-baseball"):
        path = folder / f"{spec.replace(':', '-')}.json"
        path.write_bytes(naive_file(resolve_game(spec)))
        out[spec] = str(path)
    return out


def _moves(path: str, secret: str) -> list[tuple[str, str]]:
    return solve(T.load_tree(path), secret)


# -- --secret ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["bc:2:3", "bc:3:4", "mm:3:3", "mm:2:3", "mastermind"])
def test_solve_every_secret(spec, trees):
    tree = T.load_tree(trees[spec])
    game = tree.game
    lengths = collections.Counter()
    win = f"{game.positions}A0B"
    for secret in naive_codes(game):
        moves = solve(tree, secret)
        assert moves[-1] == (secret, win)
        assert all(naive_hint(g, secret) == h for g, h in moves)
        for k in range(len(moves)):
            assert T.next_guess(tree, moves[:k]) == moves[k][0]
        lengths[len(moves)] += 1
    assert [lengths[k] for k in range(len(tree.stats.histogram))] == list(tree.stats.histogram)


def test_solve_every_bulls_cows_secret(bc_file):
    tree = T.load_tree(bc_file)
    lengths = collections.Counter(len(solve(tree, s)) for s in naive_codes(tree.game))
    assert [lengths[k] for k in range(len(tree.stats.histogram))] == list(tree.stats.histogram)


def test_solve_errors(trees):
    tree = T.load_tree(trees["bc:3:4"])
    with pytest.raises(CodeError):
        solve(tree, "011")
    broken = T.Tree(tree.game, "x", T.Node.build("012"), tree.stats)
    with pytest.raises(T.TreeError, match="does not solve 013"):
        solve(broken, "013")
    broken = T.Tree(tree.game, "x", T.Node.build("0122"), tree.stats)
    with pytest.raises(T.TreeError, match="not a legal code"):
        solve(broken, "013")


def test_secret_cli(bc_file, capsys):
    rc, out, err = _cli("play", "--tree", bc_file, "--secret", "5346")
    moves = _moves(bc_file, "5346")
    assert rc == 0 and err == ""
    assert out.splitlines() == [f"guess {n}: {g}  {h}" for n, (g, h) in enumerate(moves, 1)] + [
        f"solved in {len(moves)} guesses"
    ]
    assert _cli("play", "--tree", bc_file, "--secret", "0123")[1] == "guess 1: 0123  4A0B\nsolved in 1 guess\n"
    rc, out, err = _cli("play", "--tree", bc_file, "--secret", "5335")
    assert rc == 2 and out == "" and err.startswith("treegen: error: code '5335' repeats a symbol")
    # in-process, with the game's own notation shown
    assert main(["play", "--tree", bc_file, "-s", " 5 3 4 6"]) == 0
    assert capsys.readouterr().out.endswith(f"solved in {len(moves)} guesses\n")


def test_secret_cli_shows_pegs(trees, capsys):
    assert main(["play", "--tree", trees["mastermind"], "--secret", "6543"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].endswith("4A0B  (BBBB)") and lines[-1].startswith("solved in ")
    assert main(["play", "--tree", trees["mastermind"], "--secret", "6543", "--game", "bulls-cows"]) == 2
    assert "is a tree for mastermind" in capsys.readouterr().err


def test_secret_is_fast(bc_file):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        rc, out, err = _cli("play", "--tree", bc_file, "--secret", "9876")
        times.append(time.perf_counter() - start)
        assert rc == 0
    assert sorted(times)[1] < 1.0  # ~0.08 s on an idle machine; loose for loaded CI


# -- interactive: the tree guesses the user's secret ------------------------------------------------


def _consistent(game, history) -> list[str]:
    return [s for s in naive_codes(game) if all(naive_hint(g, s) == h for g, h in history)]


def _contradiction(game, history, guess) -> str:
    """A hint that can occur in the game but that no secret consistent with ``history`` gives ``guess``."""
    given = {naive_hint(guess, s) for s in _consistent(game, history)}
    possible = sorted({naive_hint(guess, s) for s in naive_codes(game)} - given - {f"{game.positions}A0B"})
    return possible[0]


def test_interactive_session_with_mixed_notations(bc_file):
    game = resolve_game("bulls-cows")
    secret = "5346"
    moves = _moves(bc_file, secret)
    assert len(moves) >= 4
    notations = [lambda b, c: f"{b}A{c}B", lambda b, c: f"{b}a{c}b", lambda b, c: f"{b} {c}", lambda b, c: f" {b} A {c} B "]
    lines = []
    for n, (guess, hint) in enumerate(moves):
        b, c = int(hint[0]), int(hint[2])
        if n == 1:
            lines += ["garbage", "", "5A0B", "?"]
        if n == 2:
            bad = _contradiction(game, moves[:n], guess)
            lines.append(bad)
        lines.append(notations[n % len(notations)](b, c))
    rc, out, err = _cli("play", "--tree", bc_file, stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    for n, (guess, _) in enumerate(moves, 1):
        assert f"guess {n}: {guess}\n" in out
    assert "cannot read hint 'garbage'" in out
    assert "hint '5A0B' counts 5 symbols" in out
    said = ", ".join(f"{g}={h}" for g, h in moves[:2])
    assert f"no secret of bulls-cows gives these hints: {said}, {moves[2][0]}={bad}; type the hint for {moves[2][0]} again" in out
    assert out.endswith(f"solved in {len(moves)} guesses\n")


def test_interactive_pegs(trees):
    for spec in ("mastermind", "mm:3:3"):
        game = resolve_game(spec)
        secret = naive_codes(game)[-3]
        moves = _moves(trees[spec], secret)
        hints = []
        for n, (_, hint) in enumerate(moves):
            b, c = int(hint[0]), int(hint[2])
            hints.append(("B" * b + "W" * c or "-") if n % 2 == 0 else ("w" * c + "b" * b or f"{b} {c}"))
        rc, out, err = _cli("play", "--tree", trees[spec], stdin="\n".join(["BBBBBBBBB"] + hints) + "\n")
        assert rc == 0, err
        assert f"solved in {len(moves)} guesses" in out
        assert "codes have only" in out  # nine pegs refused, then the game goes on


def test_interactive_baseball(trees):
    game = resolve_game("numbers-baseball")
    secret = "3092"
    moves = _moves(trees["numbers-baseball"], secret)
    forms = [lambda s, b: f"ball={b} strike={s}", lambda s, b: f"b{b}s{s}", lambda s, b: f"strike={s} ball={b}", lambda s, b: f"{s}A{b - s}B"]
    hints = []
    for n, (_, hint) in enumerate(moves):
        strikes, balls = int(hint[0]), int(hint[0]) + int(hint[2])
        hints.append(forms[n % len(forms)](strikes, balls))
    start = time.perf_counter()
    rc, out, err = _cli("play", "--tree", trees["numbers-baseball"], stdin="ball=1 strike=2\n" + "\n".join(hints) + "\n")
    assert time.perf_counter() - start < 10
    assert rc == 0, err
    assert "strikes (2) cannot exceed balls (1)" in out
    assert out.endswith(f"solved in {len(moves)} guesses\n")
    assert game.size == 10000


def test_interactive_eof_and_start_up_time(bc_file):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        rc, out, err = _cli("play", "--tree", bc_file)
        times.append(time.perf_counter() - start)
        assert (rc, err) == (0, "")
        assert "guess 1: 0123\nhint? \nbye\n" in out
    assert sorted(times)[1] < 1.0  # ~0.08 s on an idle machine; loose for loaded CI
    rc, out, err = _cli("play", "--tree", bc_file, stdin="1A1B\n0 2")  # no newline at the end
    assert rc == 0 and out.count("guess ") == 3 and out.endswith("bye\n")


def test_interactive_contradiction_on_the_last_guess(trees):
    # after the tree's final guess, any hint but all bulls is a contradiction
    game = resolve_game("bc:2:3")
    moves = _moves(trees["bc:2:3"], "20")
    lines = [h for _, h in moves[:-1]] + ["0A2B", "2 0"]
    rc, out, err = _cli("play", "--tree", trees["bc:2:3"], stdin="\n".join(lines) + "\n")
    assert rc == 0 and "no secret of bc:2:3 gives these hints" in out and out.endswith(f"solved in {len(moves)} guesses\n")
    assert game.size == 6


def test_interactive_ctrl_c(bc_file):
    proc = subprocess.Popen(
        [sys.executable, "-m", "treegen.cli", "play", "--tree", bc_file],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        seen = b""
        deadline = time.monotonic() + 20
        while b"hint? " not in seen and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 1024)
            if not chunk:
                break
            seen += chunk
        assert b"hint? " in seen
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=20)
        err = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert rc == 130 and "Traceback" not in err


# -- --host: the computer picks a secret ----------------------------------------------------------------


def _host_secret(path, seed) -> str:
    rc, out, err = _cli("play", "--tree", path, "--host", "--seed", str(seed))
    assert rc == 0 and err == ""
    return out.rsplit("the secret was ", 1)[1].strip()


def test_host_with_advice(bc_file):
    secret = _host_secret(bc_file, 5)
    assert _host_secret(bc_file, 5) == secret
    moves = _moves(bc_file, secret)
    lines = ["?", "12", "0123x", "1123"]
    for guess, _ in moves:
        lines += ["?", guess]
    rc, out, err = _cli("play", "--tree", bc_file, "--host", "--seed", "5", stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    for guess, hint in moves:
        assert f"the tree suggests {guess}\n" in out
        assert f"{guess}  {hint}\n" in out
    assert "code '12' has 2 symbols" in out and "code '1123' repeats a symbol" in out
    assert out.endswith(f"solved in {len(moves)} guesses\n")


def test_host_off_the_tree(bc_file):
    secret = _host_secret(bc_file, 11)
    other = "9876" if secret != "9876" else "6789"
    lines = [other, "?", "0123", "?", secret]
    rc, out, err = _cli("play", "--tree", bc_file, "--host", "--seed", "11", stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    assert out.count("the tree has no advice for this history: the tree guesses 0123 first, not 9876") == 2
    assert out.endswith("solved in 3 guesses\n")


def test_host_pegs_and_bad_options(trees, capsys):
    secret = _host_secret(trees["mastermind"], 1)
    rc, out, err = _cli("play", "--tree", trees["mastermind"], "--host", "--seed", "1", stdin=f"{secret}\n")
    assert rc == 0 and f"{secret}  4A0B  (BBBB)\nsolved in 1 guess\n" in out
    assert main(["play", "--tree", trees["mastermind"], "--host", "--secret", secret]) == 2
    assert "do not go together" in capsys.readouterr().err
    assert main(["play", "--tree", trees["mastermind"], "--seed", "3"]) == 2
    assert "--seed applies only with --host" in capsys.readouterr().err
