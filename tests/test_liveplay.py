"""Strategies played without a tree (treegen.liveplay): against built trees, brute force and statistics."""

from __future__ import annotations

import io
import math
import os
import re
import resource
import statistics
import subprocess
import sys

import numpy as np
import pytest

from clitools import run, run_main
from treegen.liveplay import LiveError, Player, Sample, code_rank, code_symbols, evaluate, play_guesser
from treegen.play import MAX_LINE
from treegen.rules import TreegenError, format_code, resolve_game
from treegen.strategies import applicable, build_tree


@pytest.mark.parametrize("spec", ["bc:3:5", "mm:3:4", "mm:4:3"])
def test_exhaustive_play_is_the_built_tree(spec):
    game = resolve_game(spec)
    for name in applicable(game):
        if name in ("digit-sweep", "random-consistent"):
            continue  # build_tree draws random choices in walk order; liveplay from the history
        played = evaluate(Player.make(game, name), game.size)
        assert played.exact
        built = build_tree(game, name).tree.stats
        assert played.histogram == built.histogram, name


def test_each_secret_takes_what_the_tree_says():
    game = resolve_game("bulls-cows")
    tree = build_tree(game, "minimax").tree
    player = Player.make(game, "minimax")
    rng = np.random.default_rng(2)
    for secret in rng.integers(0, game.size, size=30).tolist():
        moves = player.solve(secret)
        node, path = tree.root, []
        for guess, hint in moves:  # the same guesses as the tree, hint by hint
            assert node.guess == format_code(game, guess), path
            path.append(node.guess)
            node = node.child(f"{hint // 5}A{hint % 5}B") if hint != game.win_hint else None
        assert format_code(game, moves[-1][0]) == format_code(game, secret)


def test_sampled_interval_contains_the_exact_average():
    game = resolve_game("bulls-cows")
    exact = build_tree(game, "expected-size").tree.stats
    player = Player.make(game, "expected-size")
    hits = 0
    for seed in range(4):
        sample = evaluate(player, 250, seed)
        lo, hi = sample.interval
        hits += lo <= exact.average <= hi
        assert sample.max_guesses <= exact.max_guesses  # the sample's max is a lower bound
        assert sample.secrets == 250 and sum(sample.histogram) == 250
    assert hits >= 3  # a 95% interval: all four here (fixed seeds), at least three allowed by design


def test_hybrid_sample_against_its_exhaustive_play():
    game = resolve_game("mm:4:7")  # 2401 codes: hybrid scores a sample of guesses below the threshold
    player = Player.make(game, "hybrid", threshold=500, guess_sample=300)
    exact = evaluate(player, game.size)
    assert exact.exact and exact.interval == (exact.mean, exact.mean)
    sample = evaluate(player, 300, seed=1)
    lo, hi = sample.interval
    assert lo <= exact.mean <= hi
    assert evaluate(player, 300, seed=1).histogram == sample.histogram  # deterministic


def test_sample_statistics_by_hand():
    s = Sample(secrets=5, population=100, histogram=(0, 1, 0, 2, 1, 1), seconds=0.0)
    guesses = [1, 3, 3, 4, 5]
    assert s.total == 16 and s.mean == statistics.mean(guesses) and s.max_guesses == 5
    assert math.isclose(s.std, statistics.stdev(guesses))
    half = 1.96 * statistics.stdev(guesses) / math.sqrt(5) * math.sqrt(95 / 99)
    assert all(math.isclose(a, b) for a, b in zip(s.interval, (3.2 - half, 3.2 + half)))


def test_random_consistent_plays_every_secret_reproducibly():
    game = resolve_game("mm:3:4")
    a = evaluate(Player.make(game, "random-consistent", seed=4), game.size)
    b = evaluate(Player.make(game, "random-consistent", seed=4), game.size)
    assert a.histogram == b.histogram and sum(a.histogram) == game.size


def test_code_rank_and_symbols_follow_the_code_list():
    for spec in ("bc:3:5", "mm:3:3", "bc:4:6", "mm:2:7"):
        game = resolve_game(spec)
        for i, symbols in enumerate(game.codes):
            assert code_rank(game, symbols) == i
            assert code_symbols(game, i) == symbols
    big = resolve_game("bc:10:10", large=True)
    assert code_symbols(big, 0) == tuple(range(10))
    assert code_symbols(big, big.size - 1) == tuple(range(9, -1, -1))
    assert code_rank(big, (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)) == 3628799


def test_bad_options_and_games():
    game = resolve_game("bulls-cows")
    for kwargs in ({"threshold": 1}, {"guess_sample": -1}):
        with pytest.raises(LiveError):
            Player.make(game, "hybrid", **kwargs)
    with pytest.raises(LiveError):
        Player.make(game, "entropy", threshold=100)
    with pytest.raises(LiveError):
        Player.make(game, "minimax", seed=3)
    with pytest.raises(TreegenError):
        Player.make(game, "nope")
    with pytest.raises(LiveError, match="over 200000 codes"):
        Player.make(resolve_game("bc:10:10", large=True), "entropy")
    with pytest.raises(LiveError, match="over the memory budget"):
        Player.make(resolve_game("bc:10:10", large=True), "hybrid", memory=10**6)


# -- the command line ------------------------------------------------------------------------------


def test_cli_play_a_given_secret_of_a_ten_position_game(capsys):
    status, out, err = run_main(capsys, "play", "--game", "bc:10:10", "--strategy", "hybrid", "--secret", "9876543210")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "guess 1: 0123456789  0A10B" and lines[-2].startswith("guess ")
    assert lines[-2].endswith("9876543210  10A0B") and lines[-1] == f"solved in {len(lines) - 1} guesses"


def _hints_for(game, secret: str, guesses: list[str]) -> list[str]:
    from treegen.rules import format_hint, parse_code, score_codes

    return [format_hint(game, score_codes(game, parse_code(game, g), parse_code(game, secret))) for g in guesses]


def test_cli_scripted_play_to_the_end():
    game = resolve_game("mastermind")
    secret = "3156"
    # Feed hints one at a time, as a player would, reading each guess from the process's output.
    p = subprocess.Popen(
        [sys.executable, "-m", "treegen.cli", "play", "--game", "mastermind", "--strategy", "expected-size"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    guesses = []
    while True:
        line = p.stdout.readline()
        assert line, p.stderr.read()
        if line.startswith("guess "):
            guess = line.split()[-1]
            guesses.append(guess)
            p.stdin.write(_hints_for(game, secret, [guess])[0] + "\n")
            p.stdin.flush()
        if line.startswith("solved in") or "hint? solved in" in line:
            break
    p.stdin.close()
    assert p.wait(timeout=60) == 0
    assert guesses[0] == "1123" and guesses[-1] == secret  # expected-size's own opening
    built = build_tree(game, "expected-size").tree
    assert len(guesses) == _depths_of(built, game, secret)


def _depths_of(tree, game, secret):
    from treegen.play import moves_for

    return len(moves_for(tree, secret))


@pytest.mark.parametrize(
    "stdin, want",
    [
        ("2A1B\n", "cannot occur"),  # impossible in the game
        ("0A0B\n0A0B\n", "no secret of bc:3:7 gives these hints: 012=0A0B, 345=0A0B"),
        ("0A1B\n", "input ended before the secret was found"),
    ],
)
def test_cli_scripted_play_errors_exit_2(stdin, want):
    p = subprocess.run(
        [sys.executable, "-m", "treegen.cli", "play", "--game", "bc:3:7", "--strategy", "first-consistent"],
        input=stdin, capture_output=True, text=True, timeout=60,
    )
    assert p.returncode == 2, p.stdout
    assert want in p.stderr and p.stderr.count("\n") == 1 and p.stderr.startswith("treegen: error:")


def test_first_guess_needs_no_numba():
    # The first guess of bc:10:10 appears before numba (the slow import) is loaded.
    code = (
        "import io, sys\n"
        "from treegen.liveplay import Player, play_guesser\n"
        "from treegen.rules import resolve_game\n"
        "p = Player.make(resolve_game('bc:10:10', large=True), 'hybrid')\n"
        "real = sys.stdout\n"
        "class Out(io.StringIO):\n"
        "    def write(self, s):\n"
        "        if s.startswith('guess 1:'):\n"
        "            real.write(s + ' numba=' + str('numba' in sys.modules) + '\\n')\n"
        "        return len(s)\n"
        "sys.stdout = Out()\n"
        "play_guesser(p, io.StringIO('quit\\n'))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "guess 1: 0123456789 numba=False" in p.stdout, p.stderr


@pytest.mark.parametrize(
    "argv, want",
    [
        (["play", "--game", "bulls-cows"], "--strategy"),
        (["play", "--tree", "x.json", "--strategy", "hybrid"], "either --tree or --strategy"),
        (["play", "--strategy", "hybrid", "--host"], "--host plays with a tree file"),
        (["play", "--game", "mm:10:10", "--strategy", "hybrid"], "over the memory budget"),
        (["play", "--game", "bc:11:12", "--strategy", "hybrid"], "positions 1-10"),
        (["play", "--game", "bc:10:10", "--strategy", "entropy"], "over 200000 codes"),
        (["play", "--game", "bc:10:10", "--strategy", "hybrid", "--memory", "lots"], "is not a size"),
        (["eval", "--game", "bc:7:10"], "at most 200000"),
        (["eval", "--game", "bc:10:10", "--sample", "0", "--strategy", "hybrid"], "at least 1"),
        (["eval", "--sample", "5", "--first", "0123"], "not to --sample"),
        (["eval", "--threshold", "5"], "with --sample"),
        (["solve", "--game", "bc:6:10", "-q", "-o", "x.json"], "bc:6:10 has 151200 codes"),
    ],
)
def test_cli_refusals_are_one_line(argv, want, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run_main(capsys, *argv)
    assert status == 2
    assert want in err and err.count("\n") == 1 and err.startswith("treegen: error:"), err
    assert list(tmp_path.iterdir()) == []


def test_cli_eval_sample_of_a_large_game(capsys):
    status, out, err = run_main(
        capsys, "eval", "--game", "bc:10:10", "--sample", "4", "--strategy", "hybrid", "--seed", "2"
    )
    assert status == 0, err
    assert "hybrid: 4 random secrets of 3628800" in out and "95% interval" in out and "lower bound" in out


def test_cli_eval_sample_of_every_secret_is_exact(capsys):
    status, out, err = run_main(capsys, "eval", "--game", "mm:3:3", "--sample", "100", "--strategy", "entropy")
    assert status == 0, err
    total = build_tree(resolve_game("mm:3:3"), "entropy").tree.stats.total
    assert "every one of the 27 secrets played (exact)" in out and f"total    {total}" in out


def test_cli_build_without_a_table(tmp_path, capsys):
    out = tmp_path / "t.json"
    status, text, err = run_main(capsys, "build", "--game", "mastermind", "--strategy", "entropy", "--memory", "1k", "-o", str(out))
    assert status == 0, err
    assert "5722" in text
    assert run("verify", str(out)).returncode == 0


# -- long lines, bytes that are not text ------------------------------------------------------------

LIVE = ["play", "--game", "bc:3:7", "--strategy", "first-consistent"]


def _bytes_run(stdin: bytes, env: dict | None = None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, "-m", "treegen.cli", *LIVE], input=stdin, capture_output=True, timeout=120,
                       env=None if env is None else {**os.environ, **env})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return p.returncode, p.stdout.decode("utf-8", "replace"), err, cpu


def test_a_huge_line_is_refused_without_echoing_it():
    # 48 MB on one line used to be held whole, echoed to stdout and quoted whole on stderr (96 MB of output)
    rc, out, err, cpu = _bytes_run(b"x" * (48 << 20) + b"\n0A0B\n")
    assert rc == 2
    assert err == f"treegen: error: the line is too long (over {MAX_LINE} bytes): '{'x' * 37}...'\n"
    assert len(out) < 2000 and out.endswith(f"hint? {'x' * 37}...\n")
    assert cpu < 10  # ~0.5 s, most of it importing numpy; CPU time, so a loaded machine does not fail it
    # garbage under the limit: the message quotes 40 characters of it
    rc, out, err, cpu = _bytes_run(b"y" * 4000 + b"\n")
    assert rc == 2 and f"cannot read hint '{'y' * 37}...'" in err and len(err) < 300


@pytest.mark.parametrize("line", [b"\xff\xfe1A2B", b"1A\x002B", b"\xc3"], ids=["latin1", "nul", "cut-utf8"])
def test_bytes_that_are_not_text_are_a_bad_hint(line):
    # stdin's errors are strict in a UTF-8 locale: this was an internal error (exit 3), now one line, exit 2
    for env in (None, {"PYTHONIOENCODING": "utf-8:strict"}):
        rc, out, err, _ = _bytes_run(line + b"\n", env)
        assert rc == 2 and err.startswith("treegen: error: cannot read hint ") and err.count("\n") == 1, err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_a_long_line_is_asked_again(capsys):
    player = Player.make(resolve_game("bc:3:7"), "first-consistent")
    assert play_guesser(player, _Terminal("z" * 10000 + "\n" + "w" * 5000 + "\nquit\n")) == 0
    out, err = capsys.readouterr()
    assert out.count(f"the line is too long (over {MAX_LINE} characters): '") == 2
    assert out.endswith("hint? bye\n") and len(out) < 2000 and err == ""
    # from a stream that is not a terminal, the first such line ends the game (exit 2)
    assert play_guesser(player, io.StringIO("z" * 10000 + "\nquit\n")) == 2
    out, err = capsys.readouterr()
    assert err == f"treegen: error: the line is too long (over {MAX_LINE} characters): '{'z' * 37}...'\n"


# -- one console loop: a tree and a live strategy play by the same rules ----------------------------


def _same_guesses():
    """bc:3:7 played by first-consistent: as a built tree and live (the same guesses), and the hints
    that lead each to the secret 653."""
    from treegen.rules import format_hint

    game = resolve_game("bc:3:7")
    tree = build_tree(game, "first-consistent").tree
    player = Player.make(game, "first-consistent")
    hints = [format_hint(game, h) for _, h in player.solve(code_rank(game, (6, 5, 3)))]
    assert len(hints) >= 3
    return tree, player, hints


def _both(tree, player, stdin: str, terminal: bool = False):
    """The session ``stdin`` with the tree and live, each (status, stdout, stderr), read the same way."""
    import contextlib

    from treegen.play import guess_session

    got = []
    for play in (lambda s: guess_session(tree, s), lambda s: play_guesser(player, s)):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = play(_Terminal(stdin) if terminal else io.StringIO(stdin))
        got.append((status, out.getvalue(), err.getvalue()))
    return got


@pytest.mark.parametrize(
    "lines, status, message",
    [
        (["help", "?", "0"], 2, "cannot read hint '0'"),  # help is no mistake; the first bad line is
        (["{0}", "undo", "{0}", "{1}", "undo", "undo", "undo"], 2, "nothing to undo: no hint given yet"),
        (["{0}", "garbage", "{1}"], 2, "cannot read hint 'garbage'"),
        (["4A0B"], 2, "hint '4A0B' counts 4 symbols"),
        (["{0}", "{1}", "0A0B"], 2, "no secret of bc:3:7 gives these hints: "),
        (["{0}", "{1}"], 2, "input ended before the secret was found (after 2 hints)"),
        ([], 2, "input ended before the secret was found (after 0 hints)"),
        (["{0}", "", "q", "{1}"], 0, ""),
        (["{0}", "undo", "{0}", "{1}", "{2}", "{3}", "{4}"], 0, ""),
    ],
    ids=["help", "undo", "garbage", "impossible", "inconsistent", "ended", "empty", "quit", "solved"],
)
def test_a_tree_and_a_live_strategy_play_by_the_same_rules(lines, status, message):
    tree, player, hints = _same_guesses()
    hints += [""] * 5
    stdin = "".join(line.format(*hints) + "\n" for line in lines)
    (tree_rc, tree_out, tree_err), (live_rc, live_out, live_err) = _both(tree, player, stdin)
    assert tree_rc == live_rc == status
    # the same transcript, but for how the guesses are made (the greeting) ...
    assert live_out.replace("I guess with first-consistent;", "I guess;") == tree_out
    assert "'help' lists the commands" in live_out and live_out.count("guess 1: 012\n") >= 1
    # ... and the same one line on stderr, without the line number as this command always printed it
    if status == 2:
        assert live_err.startswith(f"treegen: error: {message}") and live_err.count("\n") == 1
        if "input ended" in message:
            assert tree_err == live_err
        else:
            assert re.fullmatch(r"treegen: error: line [0-9]+: .*\n", tree_err)
            assert re.sub(r"^treegen: error: line [0-9]+: ", "treegen: error: ", tree_err) == live_err
    else:
        assert tree_err == live_err == ""
    if "undo" in lines and status == 0:
        assert f"took back 012={hints[0]}\n" in live_out and live_out.endswith(f"solved in {len(hints) - 5} guesses\n")


def test_a_tree_and_a_live_strategy_at_a_terminal():
    tree, player, hints = _same_guesses()
    stdin = "".join(x + "\n" for x in ["garbage", hints[0], "0A0B", "undo", "help", hints[0], *hints[1:]])
    (tree_rc, tree_out, tree_err), (live_rc, live_out, live_err) = _both(tree, player, stdin, terminal=True)
    assert tree_rc == live_rc == 0
    # mistakes asked again, the same ones; live prints them on stdout (as it always did), the tree on stderr
    assert tree_err.count("\n") == 2 and tree_err.startswith("cannot read hint 'garbage'")
    assert "no secret of bc:3:7 gives these hints: 012=" in tree_err and tree_err.endswith("again, or undo\n")
    assert live_err == ""
    # (no echo at a terminal: a message on stdout follows its prompt, "hint? cannot read hint ...")
    for mistake in tree_err.splitlines():
        assert f"hint? {mistake}\n" in live_out
        live_out = live_out.replace(f"{mistake}\n", "", 1)
    assert live_out.replace("I guess with first-consistent;", "I guess;") == tree_out
    assert tree_out.endswith(f"solved in {len(hints)} guesses\n") and "took back 012=" in tree_out
    # Ctrl-D at a terminal is a goodbye for both
    (tree_rc, tree_out, _), (live_rc, live_out, _) = _both(tree, player, hints[0] + "\n", terminal=True)
    assert tree_rc == live_rc == 0 and tree_out.endswith("bye (after 1 hint)\n") and live_out.endswith("bye (after 1 hint)\n")


@pytest.mark.parametrize("argv", [["--tree", "{tree}"], ["--strategy", "first-consistent", "--game", "bc:3:7"]],
                         ids=["tree", "live"])
def test_cli_the_same_exit_statuses(argv, tmp_path):
    tree, player, hints = _same_guesses()
    path = tmp_path / "t.json"
    from treegen.tree import save_tree

    save_tree(tree, str(path))
    argv = [a.format(tree=path) for a in argv]
    for stdin, status in ((f"{hints[0]}\nundo\nhelp\nquit\n", 0), ("".join(h + "\n" for h in hints), 0),
                          ("undo\n", 2), ("garbage\n", 2), (hints[0] + "\n", 2)):
        p = subprocess.run([sys.executable, "-m", "treegen.cli", "play", *argv], input=stdin,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == status, (stdin, p.stderr)
        assert p.stderr.count("\n") == (status != 0) and "Traceback" not in p.stderr


def test_cli_ctrl_c_at_the_prompt():
    # the live strategy reads a pipe as play does (play._PipeLines, which no signal can slip past):
    # SIGINT right after the prompt ends the session with exit 130, as test_play checks for a tree
    import signal

    from test_play import _default_sigint, _read_until

    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "treegen.cli", *LIVE], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)
        try:
            _read_until(proc, b"hint? ")
            proc.send_signal(signal.SIGINT)
            rc = proc.wait(timeout=60)
            err = proc.stderr.read().decode()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for f in (proc.stdin, proc.stdout, proc.stderr):
                f.close()
        assert rc == 130 and "Traceback" not in err
