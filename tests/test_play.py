"""treegen play: solving given secrets, guessing the user's secret from typed hints, hosting a game."""

from __future__ import annotations

import collections
import io
import os
import re
import resource
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

import pytest
from test_tree import (  # noqa: F401
    bc_file, dict_to_node, file_bytes, file_obj, first_consistent, naive_codes, naive_file, naive_hint,
)

from treegen import play
from treegen import tree as T
from treegen.cli import main
from treegen.play import moves_for, suggest
from treegen.rules import CodeError, accepted_hint_forms, format_code, parse_code, resolve_game


TREEGEN = [sys.executable, "-m", "treegen.cli"]


def _default_sigint() -> None:
    """In the child before exec: SIGINT back to its default, so that Python installs its handler even
    when this test run was started with SIGINT ignored (a background job of a non-interactive shell)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(*argv, stdin: str = "", timeout: float = 60):
    proc = subprocess.run([*TREEGEN, *argv], input=stdin, capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def _cpu_cli(*argv, stdin: str = ""):
    """_cli and the CPU seconds (user + system) the child used: unlike wall time, it does not grow when
    other processes load the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = _cli(*argv, stdin=stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return got, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _tty(*argv, lines: list[str | bytes], timeout: float = 60, env: dict | None = None, canonical: bool = True):
    """treegen with a terminal as stdin (a pty; stdout and stderr are pipes): the interactive session.

    The lines are typed up front, then Ctrl-D; the terminal hands the child one line per read, as a
    person typing. Echo is off, so nothing needs to read the terminal's side. ``canonical=False`` turns
    the terminal's line editing off (no Ctrl-D, and no 4095-byte limit on a line).
    """
    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO
    if not canonical:
        attrs[3] &= ~termios.ICANON
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    try:
        proc = subprocess.Popen([*TREEGEN, *argv], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=None if env is None else {**os.environ, **env})
        os.close(slave)
        slave = -1
        typed = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)
        typed += b"\x04" if canonical else b""
        while typed:  # a pty takes a long line in parts, as the child reads it
            typed = typed[os.write(master, typed):]
        out, err = proc.communicate(timeout=timeout)
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert "Traceback" not in err, err
    return proc.returncode, out, err


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
    return moves_for(T.load_tree(path), secret)


# -- --secret ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["bc:2:3", "bc:3:4", "mm:3:3", "mm:2:3", "mastermind"])
def test_solve_every_secret(spec, trees):
    tree = T.load_tree(trees[spec])
    game = tree.game
    lengths = collections.Counter()
    win = f"{game.positions}A0B"
    for secret in naive_codes(game):
        moves = moves_for(tree, secret)
        assert moves[-1] == (secret, win)
        assert all(naive_hint(g, secret) == h for g, h in moves)
        for k in range(len(moves)):
            assert T.next_guess(tree, moves[:k]) == moves[k][0]
        lengths[len(moves)] += 1
    assert [lengths[k] for k in range(len(tree.stats.histogram))] == list(tree.stats.histogram)


def test_solve_every_bulls_cows_secret(bc_file):
    tree = T.load_tree(bc_file)
    lengths = collections.Counter(len(moves_for(tree, s)) for s in naive_codes(tree.game))
    assert [lengths[k] for k in range(len(tree.stats.histogram))] == list(tree.stats.histogram)


def test_solve_errors(trees):
    tree = T.load_tree(trees["bc:3:4"])
    with pytest.raises(CodeError):
        moves_for(tree, "011")
    broken = T.Tree(tree.game, "x", T.Node.build("012"), tree.stats)
    with pytest.raises(T.TreeError, match="does not solve 013"):
        moves_for(broken, "013")
    broken = T.Tree(tree.game, "x", T.Node.build("0122"), tree.stats)
    with pytest.raises(T.TreeError, match="not a legal code"):
        moves_for(broken, "013")


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


def test_hint_text_is_one_formatter_for_every_game():
    # the console's one display form of a hint (play --secret, --host, and liveplay's --secret)
    for spec, bulls, cows, want in (("bulls-cows", 1, 2, "1A2B"), ("mastermind", 2, 1, "2A1B  (BBW)"),
                                    ("mastermind", 0, 0, "0A0B  (-)"), ("numbers-baseball", 1, 2, "1A2B  (ball=3 strike=1)"),
                                    ("bc:10:10", 10, 0, "10A0B"), ("mm:10:10", 3, 7, "3A7B  (BBBWWWWWWW)")):
        game = resolve_game(spec, large=True)
        assert play.hint_text(game, game.hint(bulls, cows)) == want


def test_secret_is_fast(bc_file):
    times = []
    for _ in range(3):
        (rc, out, err), cpu = _cpu_cli("play", "--tree", bc_file, "--secret", "9876")
        times.append(cpu)
        assert rc == 0
    assert sorted(times)[1] < 1.0  # ~0.1 s of CPU; CPU time, so that a loaded machine does not fail it


def test_play_imports_no_numpy(bc_file, tmp_path):
    # the play runtime is the standard library and orjson: numpy, numba and tqdm stay out
    hints = tmp_path / "hints.txt"
    hints.write_text("quit\n")
    code = (
        "import sys; from treegen.cli import main; rc = main(sys.argv[1:]); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'numba', 'tqdm', 'llvmlite'})); "
        "sys.exit(rc)"
    )
    for argv in (["--secret", "5346"], [], ["--host", "--seed", "1"]):
        with open(hints) as stdin:
            proc = subprocess.run([sys.executable, "-c", code, "play", "--tree", bc_file, *argv], stdin=stdin,
                                  capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[-1] == "[]", proc.stdout


# -- interactive: the tree guesses the user's secret ------------------------------------------------


def _consistent(game, history) -> list[str]:
    return [s for s in naive_codes(game) if all(naive_hint(g, s) == h for g, h in history)]


def _contradiction(game, history, guess) -> str:
    """A hint that can occur in the game but that no secret consistent with ``history`` gives ``guess``."""
    given = {naive_hint(guess, s) for s in _consistent(game, history)}
    possible = sorted({naive_hint(guess, s) for s in naive_codes(game)} - given - {f"{game.positions}A0B"})
    return possible[0]


def _counts(game, moves) -> list[int]:
    """How many secrets are still possible after each hint of ``moves`` but the last (naive)."""
    return [len(_consistent(game, moves[: k + 1])) for k in range(len(moves) - 1)]


def test_scripted_session_with_mixed_notations(bc_file):
    game = resolve_game("bulls-cows")
    moves = _moves(bc_file, "5346")
    assert len(moves) >= 4
    notations = [lambda b, c: f"{b}A{c}B", lambda b, c: f"{b}a{c}b", lambda b, c: f"{b} {c}", lambda b, c: f" {b} A {c} B "]
    lines = []
    for n, (guess, hint) in enumerate(moves):
        if n == 1:
            lines += ["", "?", "help"]  # blank lines are skipped; help is no mistake
        lines.append(notations[n % len(notations)](int(hint[0]), int(hint[2])))
    rc, out, err = _cli("play", "--tree", bc_file, stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    for n, (guess, _) in enumerate(moves, 1):
        assert f"guess {n}: {guess}\n" in out
    counts = _counts(game, moves)
    assert [int(line.split()[0]) for line in out.splitlines() if line.endswith("still possible")] == counts
    assert out.count("type the hint for ") == 2 and "undo " in out
    assert out.endswith(f"solved in {len(moves)} guesses\n")


def test_scripted_mistakes_stop_with_status_2(bc_file, trees):
    game = resolve_game("bulls-cows")
    moves = _moves(bc_file, "5346")
    first = moves[0][1]
    second = moves[1][1]
    bad = _contradiction(game, moves[:2], moves[2][0])
    cases = {
        "garbage": ([first, "garbage"], "line 2: cannot read hint 'garbage'"),
        "impossible": (["5A0B"], "line 1: hint '5A0B' counts 5 symbols"),
        "inconsistent": ([first, second, bad], f"line 3: no secret of bulls-cows gives these hints: "
                         f"{moves[0][0]}={first}, {moves[1][0]}={second}, {moves[2][0]}={bad}"),
        "undo first": (["undo"], "line 1: nothing to undo"),
        "ended": ([first], "input ended before the secret was found (after 1 hint)"),
        "empty": ([], "input ended before the secret was found (after 0 hints)"),
    }
    for name, (lines, message) in cases.items():
        rc, out, err = _cli("play", "--tree", bc_file, stdin="".join(x + "\n" for x in lines))
        assert rc == 2, name
        assert err.startswith(f"treegen: error: {message}") and len(err.splitlines()) == 1, (name, err)
    # the same mistakes in other games' notations
    rc, out, err = _cli("play", "--tree", trees["numbers-baseball"], stdin="ball=1 strike=2\n")
    assert rc == 2 and "strikes (2) cannot exceed balls (1)" in err
    rc, out, err = _cli("play", "--tree", trees["mastermind"], stdin="BBBBBBBBB\n")
    assert rc == 2 and "codes have only 4" in err
    # a quit on purpose is no mistake, and a hint with no newline at the end still counts
    for word in ("q", "quit", "exit"):
        rc, out, err = _cli("play", "--tree", bc_file, stdin=f"{first}\n{word}")
        assert (rc, err) == (0, "") and out.endswith(f"guess 2: {moves[1][0]}\nhint? {word}\nbye\n")
    rc, out, err = _cli("play", "--tree", bc_file, stdin="1A1B\n0 2")
    assert rc == 2 and out.count("guess ") == 3 and "after 2 hints" in err


def _incomplete_tree(tmp_path):
    """A bc:2:3 tree file without the root's last branch: (its path, the root's guess, the missing hint)."""
    game = resolve_game("bc:2:3")
    root = first_consistent(game)
    lost = sorted(root["next"])[-1]
    del root["next"][lost]
    path = tmp_path / "incomplete.json"
    path.write_bytes(file_bytes(file_obj(game, root)))
    return path, root["guess"], lost


def test_scripted_incomplete_tree_is_status_1(tmp_path):
    path, guess, lost = _incomplete_tree(tmp_path)
    rc, out, err = _cli("play", "--tree", str(path), stdin=f"{lost}\n")
    assert rc == 1
    assert err == f"treegen: the tree has no move after {guess}={lost}: it is incomplete; check it with treegen verify\n"


def test_interactive_pegs(trees):
    for spec in ("mastermind", "mm:3:3"):
        game = resolve_game(spec)
        secret = naive_codes(game)[-3]
        moves = _moves(trees[spec], secret)
        hints = []
        for n, (_, hint) in enumerate(moves):
            b, c = int(hint[0]), int(hint[2])
            hints.append(("B" * b + "W" * c or "-") if n % 2 == 0 else ("w" * c + "b" * b or f"{b} {c}"))
        rc, out, err = _cli("play", "--tree", trees[spec], stdin="\n".join(hints) + "\n")
        assert rc == 0, err
        assert f"solved in {len(moves)} guesses" in out


def test_interactive_baseball(trees):
    game = resolve_game("numbers-baseball")
    moves = _moves(trees["numbers-baseball"], "3092")
    forms = [lambda s, b: f"ball={b} strike={s}", lambda s, b: f"b{b}s{s}", lambda s, b: f"strike={s} ball={b}", lambda s, b: f"{s}A{b - s}B"]
    hints = []
    for n, (_, hint) in enumerate(moves):
        strikes, balls = int(hint[0]), int(hint[0]) + int(hint[2])
        hints.append(forms[n % len(forms)](strikes, balls))
    (rc, out, err), cpu = _cpu_cli("play", "--tree", trees["numbers-baseball"], stdin="\n".join(hints) + "\n")
    assert cpu < 10  # 10000 secrets filtered in pure Python after each hint: about 0.5 s of CPU
    assert rc == 0, err
    assert out.endswith(f"solved in {len(moves)} guesses\n")
    assert game.size == 10000


def test_start_up_time(bc_file):
    times = []
    for _ in range(3):
        (rc, out, err), cpu = _cpu_cli("play", "--tree", bc_file, stdin="quit\n")
        times.append(cpu)
        assert (rc, err) == (0, "")
        assert "guess 1: 0123\nhint? quit\nbye\n" in out
    assert sorted(times)[1] < 1.0  # ~0.1 s of CPU; CPU time, so that a loaded machine does not fail it


def test_tty_session_asks_again_and_takes_back(bc_file):
    game = resolve_game("bulls-cows")
    moves = _moves(bc_file, "5346")
    hints = [h for _, h in moves]
    bad = _contradiction(game, moves[:2], moves[2][0])
    lines = ["garbage", "help", hints[0], "undo", hints[0], hints[1], "", "5A0B", bad, "undo", hints[1], *hints[2:]]
    rc, out, err = _tty("play", "--tree", bc_file, lines=lines)
    assert rc == 0, err
    # at a terminal, input is not echoed by treegen and a mistake is asked again
    assert "garbage" not in out and out.endswith(f"solved in {len(moves)} guesses\n")
    assert err.splitlines() == [
        f"cannot read hint 'garbage'; bulls-cows accepts {accepted_hint_forms(game)}",
        "hint '5A0B' counts 5 symbols; bulls-cows codes have only 4",
        f"no secret of bulls-cows gives these hints: {', '.join(f'{g}={h}' for g, h in moves[:2])}, "
        f"{moves[2][0]}={bad}; type the hint for {moves[2][0]} again, or undo",
    ]
    assert f"took back {moves[0][0]}={hints[0]}\n" in out and f"took back {moves[1][0]}={hints[1]}\n" in out
    counts = _counts(game, moves)
    shown = [int(line.split()[-4]) for line in out.splitlines() if line.endswith("still possible")]
    assert shown == [counts[0], counts[0], counts[1], counts[1], *counts[2:]]
    assert out.count(f"guess 2: {moves[1][0]}\n") == 3  # asked again after each undo
    # Ctrl-D and quit end an interactive session with status 0
    rc, out, err = _tty("play", "--tree", bc_file, lines=[hints[0]])
    assert (rc, err) == (0, "") and out.endswith("bye (after 1 hint)\n")
    rc, out, err = _tty("play", "--tree", bc_file, lines=["exit", hints[0]])
    assert (rc, err) == (0, "") and out.endswith("bye\n") and "still possible" not in out


def test_tty_incomplete_tree_asks_again(tmp_path):
    path, _, lost = _incomplete_tree(tmp_path)
    rc, out, err = _tty("play", "--tree", str(path), lines=[lost, "q"])
    assert rc == 0 and "it is incomplete; check it with treegen verify; check the hint, undo, or quit" in err


def _read_until(proc, marker: bytes, timeout: float = 60) -> bytes:
    """Read the child's stdout until ``marker`` shows (an event, not a sleep); fail after ``timeout``."""
    seen = b""
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} within {timeout} s: {seen!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1024)
            assert chunk, f"the child closed its output before {marker!r}: {seen!r}"
            seen += chunk
    return seen


@pytest.mark.parametrize("argv,prompt", [([], b"hint? "), (["--host", "--seed", "3"], b"guess 1? ")], ids=["guesser", "host"])
def test_interactive_ctrl_c(bc_file, argv, prompt):
    # The prompt is written just before the child waits for input; SIGINT right after it must end the
    # session (exit 130). It used to be lost when it came before the child's read(2) started.
    for _ in range(5):
        proc = subprocess.Popen(
            [*TREEGEN, "play", "--tree", bc_file, *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint,
        )
        try:
            _read_until(proc, prompt)
            proc.send_signal(signal.SIGINT)
            rc = proc.wait(timeout=60)
            err = proc.stderr.read().decode()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdin.close()
            proc.stdout.close()
            proc.stderr.close()
        assert rc == 130 and "Traceback" not in err


# -- --host: the computer picks a secret ----------------------------------------------------------------


def _host_secret(path, seed) -> str:
    rc, out, err = _cli("play", "--tree", path, "--host", "--seed", str(seed), stdin="quit\n")
    assert rc == 0 and err == ""
    return out.rsplit("the secret was ", 1)[1].strip()


def test_host_with_advice(bc_file):
    game = resolve_game("bulls-cows")
    secret = _host_secret(bc_file, 5)
    assert _host_secret(bc_file, 5) == secret
    moves = _moves(bc_file, secret)
    lines = ["?", "help"]
    for guess, _ in moves:
        lines += ["?", guess]
    rc, out, err = _cli("play", "--tree", bc_file, "--host", "--seed", "5", stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    for guess, hint in moves:
        assert f"the tree suggests {guess}\n" in out
        assert f"{guess}  {hint}\n" in out
    counts = _counts(game, moves)
    assert [int(line.split()[0]) for line in out.splitlines() if line.endswith("still possible")] == counts
    assert out.endswith(f"solved in {len(moves)} guesses\n")


def test_host_scripted_mistakes(bc_file):
    secret = _host_secret(bc_file, 5)
    for lines, message in (
        (["12"], "line 1: code '12' has 2 symbols"),
        (["0123", "1123"], "line 2: code '1123' repeats a symbol"),
        (["0123x"], "line 1: code '0123x' has 5 symbols"),
        (["undo"], "line 1: nothing to undo: no guess made yet"),
        (["0123" if secret != "0123" else "4567"], f"input ended before the secret was found (the secret was {secret})"),
    ):
        rc, out, err = _cli("play", "--tree", bc_file, "--host", "--seed", "5", stdin="".join(x + "\n" for x in lines))
        assert rc == 2 and err.startswith(f"treegen: error: {message}") and len(err.splitlines()) == 1, err


def naive_suggestion(alive: list[str], guesses: list[str]) -> str:
    """The guess with the least sum of squared class sizes over ``alive``; ties to the lowest possible
    code, then the lowest code (by brute force over strings)."""
    cost = {g: sum(n * n for n in collections.Counter(naive_hint(g, s) for s in alive).values()) for g in guesses}
    best = min(cost.values())
    ties = [g for g in guesses if cost[g] == best]
    possible = [g for g in ties if g in set(alive)]
    return min(possible or ties)


@pytest.mark.parametrize("spec", ["bc:3:4", "mm:3:3", "mm:2:3", "bc:2:3"])
def test_suggestion_against_brute_force(spec):
    game = resolve_game(spec)
    codes = naive_codes(game)
    for first in codes[:: max(1, len(codes) // 7)]:
        for secret in codes[:: max(1, len(codes) // 5)]:
            alive = _consistent(game, [(first, naive_hint(first, secret))])
            ints = [parse_code(game, s) for s in alive]
            if len(alive) <= 2:
                assert suggest(game, ints)[0] == ints[0]
                continue
            code, how = suggest(game, ints)  # pure Python, among the possible secrets
            assert format_code(game, code) == naive_suggestion(alive, alive) and "possible secrets" in how
            code, how = suggest(game, ints, pure_max=0)  # numpy, over every code
            assert format_code(game, code) == naive_suggestion(alive, codes) and "every code" in how


def test_host_off_the_tree(bc_file):
    game = resolve_game("bulls-cows")
    secret = _host_secret(bc_file, 11)

    def leaves(history, g):
        return _consistent(game, history + [(g, naive_hint(g, secret))])

    # guesses off the tree's path that leave a few dozen to 300 secrets (naive references stay quick)
    other = next(g for g in naive_codes(game)[::-1] if g not in (secret, "0123") and 30 < len(leaves([], g)) <= 300)
    history = [(other, naive_hint(other, secret))]
    alive1 = leaves([], other)
    second = next(g for g in alive1 if g != secret and 3 < len(leaves(history, g)))
    alive2 = leaves(history, second)
    lines = [other, "?", second, "?", "undo", "undo", "?", secret]
    rc, out, err = _cli("play", "--tree", bc_file, "--host", "--seed", "11", stdin="\n".join(lines) + "\n")
    assert (rc, err) == (0, "")
    advice = [line for line in out.splitlines() if "suggest" in line]
    why = f"the tree has no advice for this history: the tree guesses 0123 first, not {other}"
    how = "(the least expected class size among the possible secrets)"
    # Every opening of bulls-cows is the tree's 0123 under a relabelling: the first advice is the tree's
    # reply to 0123's hint, relabelled, and it splits the player's secrets as the tree's guess splits its own
    # set. The second position may be the tree's too; if not, the advice is the heuristic's.
    tree = T.load_tree(bc_file)
    m = re.fullmatch(r"this position is the tree's own under a relabelling of positions and symbols; "
                     r"the tree suggests (\d{4}) \(its (\d{4}), relabelled\)", advice[0])
    assert m, advice[0]
    ours, theirs = m.groups()
    tree_class = _consistent(game, [("0123", naive_hint(other, secret))])
    assert theirs == tree.root.child(naive_hint(other, secret)).guess
    assert sorted(collections.Counter(naive_hint(ours, s) for s in alive1).values()) == \
        sorted(collections.Counter(naive_hint(theirs, s) for s in tree_class).values())
    if "relabelling" not in advice[1]:
        assert advice[1] == f"{why}; heuristic suggestion (not the tree's): {naive_suggestion(alive2, alive2)} {how}"
    assert advice[2] == "the tree suggests 0123"
    assert f"took back {second}" in out and f"took back {other}" in out
    assert out.endswith("solved in 1 guess\n")


def test_host_tty_quit_and_undo(trees):
    game = resolve_game("mastermind")
    secret = _host_secret(trees["mastermind"], 1)
    wrong = "1111" if secret != "1111" else "2222"
    rc, out, err = _tty("play", "--tree", trees["mastermind"], "--host", "--seed", "1",
                        lines=["12", wrong, "undo", "undo", "help", "q"])
    assert rc == 0 and out.endswith(f"the secret was {secret}\n")
    assert err.splitlines() == ["code '12' has 2 symbols; mastermind codes have 4 symbols from 123456",
                                "nothing to undo: no guess made yet"]
    assert f"{len(_consistent(game, [(wrong, naive_hint(wrong, secret))]))} secrets still possible" in out
    rc, out, err = _tty("play", "--tree", trees["mastermind"], "--host", "--seed", "1", lines=[])
    assert rc == 0 and out.endswith(f"bye (the secret was {secret})\n")


def test_host_pegs_and_bad_options(trees, capsys):
    secret = _host_secret(trees["mastermind"], 1)
    rc, out, err = _cli("play", "--tree", trees["mastermind"], "--host", "--seed", "1", stdin=f"{secret}\n")
    assert rc == 0 and f"{secret}  4A0B  (BBBB)\nsolved in 1 guess\n" in out
    for argv, message in (
        (["--host", "--secret", secret], "do not go together"),
        (["--seed", "3"], "--seed applies only with --host"),
        (["--evil"], "--evil applies only with --host"),
        (["--host", "--evil", "--seed", "3"], "--seed and --evil do not go together"),
    ):
        assert main(["play", "--tree", trees["mastermind"], *argv]) == 2
        assert message in capsys.readouterr().err
    assert main(["play", "--host"]) == 2
    assert capsys.readouterr().err == (
        "treegen: error: play needs --tree FILE (or --strategy S, or --host --evil to play without a tree)\n")


# -- long lines, bytes that are not text ----------------------------------------------------------------

MASTERMIND_TREE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "trees",
                               "mastermind-optimal-average.json")
TOO_LONG = f"the line is too long (over {play.MAX_LINE} bytes): '{'x' * 37}...'"


def _bytes_cli(*argv, stdin: bytes, env: dict | None = None, timeout: float = 120):
    """treegen with ``stdin`` as bytes: (status, stdout, stderr, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([*TREEGEN, *argv], input=stdin, capture_output=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return proc.returncode, out, err, cpu


@pytest.mark.parametrize("argv,before", [([], ["1A1B"]), (["--host", "--seed", "2"], ["1122"])], ids=["guesser", "host"])
def test_a_huge_line_is_refused_in_linear_time(argv, before):
    # 48 MB on one line: it used to be gathered by bytes += chunk and searched for its end after every
    # read (quadratic: about 20 s of CPU for 48 MB, 32 s for 64 MB), then echoed and quoted whole. Now
    # it is read in pieces and dropped: a line of the transcript and one of stderr, each short.
    huge = b"x" * (48 << 20)
    stdin = b"".join(line.encode() + b"\n" for line in before) + huge + b"\nquit\n"
    rc, out, err, cpu = _bytes_cli("play", "--tree", MASTERMIND_TREE, *argv, stdin=stdin)
    assert cpu < 5, cpu  # ~0.2 s; CPU time, so that a loaded machine does not fail it
    assert rc == 2  # a scripted session ends at its first bad line, as for any other
    assert err == f"treegen: error: line 2: {TOO_LONG}\n"
    assert len(out) < 2000 and f"? {'x' * 37}...\n" in out


def test_long_lines_within_the_limit_and_over_it(bc_file):
    moves = _moves(bc_file, "5346")
    # a line of exactly MAX_LINE bytes is read (a hint padded with spaces); one byte more is refused
    padded = " " * (play.MAX_LINE - 4) + moves[0][1]
    rc, out, err, _ = _bytes_cli("play", "--tree", bc_file, stdin=f"{padded}\nquit\n".encode())
    assert (rc, err) == (0, "") and f"guess 2: {moves[1][0]}\n" in out
    rc, out, err, _ = _bytes_cli("play", "--tree", bc_file, stdin=f" {padded}\nquit\n".encode())
    assert rc == 2 and err == f"treegen: error: line 1: the line is too long (over {play.MAX_LINE} bytes): '{' ' * 37}...'\n"
    # garbage under the limit: the message quotes 40 characters of it, not 4000
    for argv, word in (([], "hint"), (["--host"], "code")):
        rc, out, err, _ = _bytes_cli("play", "--tree", bc_file, *argv, stdin=b"y" * 4000 + b"\n")
        assert rc == 2 and f"{word} '{'y' * 37}...'" in err and len(err) < 400 and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("argv", [[], ["--host", "--seed", "2"]], ids=["guesser", "host"])
@pytest.mark.parametrize("line", [b"\xff\xfe1A2B", b"1A\x002B", b"\x00", b"\xc3"], ids=["latin1", "nul", "only-nul", "cut-utf8"])
def test_bytes_that_are_not_text_are_a_bad_line(bc_file, argv, line):
    # with stdin's errors strict (a UTF-8 locale) as with surrogateescape (the C locale): one line, exit 2
    for env in (None, {"PYTHONIOENCODING": "utf-8:strict"}):
        rc, out, err, _ = _bytes_cli("play", "--tree", bc_file, *argv, stdin=line + b"\n", env=env)
        assert rc == 2 and err.startswith("treegen: error: line 1: ") and len(err.splitlines()) == 1, err


def test_tty_asks_again_after_a_long_line_or_bytes_that_are_not_text(bc_file):
    moves = _moves(bc_file, "5346")
    hints = [h for _, h in moves]
    # a terminal in canonical mode cuts lines at 4095 bytes; without line editing it does not
    rc, out, err = _tty("play", "--tree", bc_file, lines=["z" * 10000, *hints], canonical=False)
    assert rc == 0 and out.endswith(f"solved in {len(moves)} guesses\n")
    assert err == f"the line is too long (over {play.MAX_LINE} characters): '{'z' * 37}...'\n"
    rc, out, err = _tty("play", "--tree", bc_file, "--host", "--seed", "2", lines=[b"\xff\xfe", "q"],
                        env={"PYTHONIOENCODING": "utf-8:strict"})
    assert rc == 0 and err == "the line is not utf-8 text\n" and "the secret was " in out


def _pipe_lines(data: bytes, piece: int):
    """play._PipeLines over a pipe that a thread fills ``piece`` bytes at a time."""
    import threading

    r, w = os.pipe()

    def feed():
        for k in range(0, len(data), piece):
            os.write(w, data[k:k + piece])
        os.close(w)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return play._PipeLines(r, "utf-8"), r


def test_read_line_from_every_kind_of_stream():
    m = play.MAX_LINE
    data = (b"a b\r\n" + b"y" * m + b"\n" + b"z" * (m + 1) + b"\n\n" + b"\xff\x00c\n"
            + b"w" * (3 << 20) + b"\n" + b"v" * m + b"\nlast")
    want = ["a b", "y" * m, "z", "", "\ufffd\x00c", "w", "v" * m, "last", None]

    def lines(stream, encoding="utf-8"):
        got = []
        while True:
            try:
                line = play.read_line(stream, encoding)
            except play.LineTooLong as exc:
                assert len(exc.head) <= 4 * play.SHOWN and str(exc).endswith("...'")
                line = exc.head[0]
            got.append(line)
            if line is None:
                return got

    assert lines(io.BytesIO(data)) == want
    assert lines(io.BufferedReader(io.BytesIO(data), 1000)) == want
    assert lines(io.StringIO(data.decode("utf-8", "replace"))) == want
    with tempfile.TemporaryFile() as f:  # a regular file: os.read gives 64 KiB at a time
        f.write(data)
        f.seek(0)
        assert lines(play._PipeLines(f.fileno(), "utf-8")) == want
    for piece in (1000, 65536 + 7):  # a pipe read in odd pieces
        pipe, fd = _pipe_lines(data, piece)
        try:
            assert lines(pipe) == want
            assert len(pipe.buf) == 0
        finally:
            os.close(fd)
    # the line over the limit is never held whole: the buffer stays under the limit plus one read
    pipe, fd = _pipe_lines(b"q" * (8 << 20) + b"\nok\n", 65536)
    try:
        peak = 0
        real = pipe._fill

        def fill():
            nonlocal peak
            real()
            peak = max(peak, len(pipe.buf))

        pipe._fill = fill
        with pytest.raises(play.LineTooLong):
            play.read_line(pipe)
        assert play.read_line(pipe) == "ok" and play.read_line(pipe) is None
        assert peak <= 65536 + 65536
    finally:
        os.close(fd)
