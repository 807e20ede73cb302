"""The games, hint and candidates commands, in-process and through the installed ``treegen`` script."""

from __future__ import annotations

import pytest
from clitools import TREEGEN, run, run_main

from treegen.rules import PRESETS


def naive_candidates(history):
    """Bulls-cows secrets consistent with (guess, bulls, cows) triples, by brute force over strings."""
    from itertools import permutations

    out = []
    for p in permutations("0123456789", 4):
        secret = "".join(p)
        ok = True
        for guess, bulls, cows in history:
            b = sum(g == s for g, s in zip(guess, secret))
            c = sum(min(guess.count(x), secret.count(x)) for x in set(guess)) - b
            if (b, c) != (bulls, cows):
                ok = False
                break
        if ok:
            out.append(secret)
    return out


# -- happy paths -----------------------------------------------------------------------------------


def test_games_lists_presets_with_secret_counts():
    res = run("games")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    lines = res.stdout.splitlines()
    for name, game in PRESETS.items():
        line = next(line for line in lines if line.split() and line.split()[0] == name)
        assert str(game.size) in line.split()
    assert "5040" in res.stdout and "10000" in res.stdout and "3125" in res.stdout


def test_hint_bulls_cows():
    res = run("hint", "5346", "5234")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "1A2B"


def test_hint_numbers_baseball(capsys):
    status, out, err = run_main(capsys, "hint", "--game", "numbers-baseball", "5382", "3092")
    assert status == 0, err
    assert out.strip() == "1A1B  (ball=2 strike=1)"
    assert "ball=2 strike=1" in out


@pytest.mark.parametrize(
    "args,want",
    [
        (["hint", "--game", "mastermind-digits", "5255", "5543"], "1A1B"),
        (["hint", "-g", "mastermind", "1122", "1213"], "1A2B"),
        (["hint", "--game", "bc:3:6", "012", "012"], "3A0B"),
        (["hint", "--game", "mm:4:12", "ab01", "BA01"], "2A2B"),
    ],
)
def test_hint_other_games(capsys, args, want):
    status, out, err = run_main(capsys, *args)
    assert status == 0, err
    assert out.split()[0] == want


def test_candidates_count_and_listing():
    res = run("candidates", "0123=1A2B", "4567=0A1B")
    assert res.returncode == 0, res.stderr
    want = naive_candidates([("0123", 1, 2), ("4567", 0, 1)])
    lines = res.stdout.splitlines()
    assert lines[0] == f"{len(want)} possible secrets"
    shown = lines[1].split()
    if shown[-1] == "...":
        shown = shown[:-1]
    assert 0 < len(shown) <= 20
    assert shown == want[: len(shown)]


def test_candidates_limit_zero_lists_all(capsys):
    status, out, err = run_main(capsys, "candidates", "--limit", "0", "0123=1A2B", "4567=0A1B")
    assert status == 0, err
    lines = out.splitlines()
    want = naive_candidates([("0123", 1, 2), ("4567", 0, 1)])
    assert lines[0] == f"{len(want)} possible secrets"
    assert lines[1].split() == want


def test_candidates_single_and_native_notation(capsys):
    status, out, err = run_main(capsys, "candidates", "0123=4A0B")
    assert status == 0, err
    assert out.splitlines() == ["1 possible secret", "0123"]
    status, out, err = run_main(capsys, "candidates", "--game", "mastermind", "1122=BW", "3456=W")
    assert status == 0, err
    assert out.splitlines()[0].endswith("possible secrets")
    status, out, err = run_main(capsys, "candidates", "--game", "numbers-baseball", "5382=ball=2 strike=1")
    assert status == 0, err
    assert out.splitlines()[0].endswith("possible secrets")


# -- bad input: one line on stderr, status 2, no traceback -----------------------------------------

BAD = {
    "wrong length": ["hint", "534", "5234"],
    "unknown symbol": ["hint", "53X6", "5234"],
    "repeated symbol": ["hint", "5346", "5534"],
    "candidates wrong length": ["candidates", "01234=1A2B"],
    "candidates repeated symbol": ["candidates", "0023=1A2B"],
    "impossible hint": ["candidates", "0123=3A1B"],
    "too many bulls": ["candidates", "0123=5A0B"],
    "unknown game": ["hint", "--game", "chess", "0123", "4567"],
    "bad spec": ["candidates", "--game", "mm:9:10", "0123=1A2B"],
    "inconsistent hints": ["candidates", "0123=4A0B", "4567=0A1B"],
    "malformed GUESS=HINT": ["candidates", "0123-1A2B"],
    "unreadable hint": ["candidates", "0123=xyz"],
    "missing secret": ["hint", "5346"],
    "missing command": [],
    "unknown command": ["frobnicate"],
    "missing option value": ["hint", "5346", "5234", "--game"],
    "bad limit": ["candidates", "--limit", "many", "0123=1A2B"],
    "orbits both ways": ["solve", "--game", "bc:2:4", "--orbits", "--no-orbits", "-o", "never-written.json"],
}


def check_bad(status, out, err):
    assert status == 2, (status, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("treegen"), err


@pytest.mark.parametrize("args", list(BAD.values()), ids=list(BAD))
def test_bad_input_in_process(capsys, args):
    check_bad(*run_main(capsys, *args))


@pytest.mark.parametrize(
    "case",
    ["wrong length", "unknown symbol", "repeated symbol", "impossible hint", "unknown game",
     "inconsistent hints", "malformed GUESS=HINT", "missing secret", "missing command"],
)  # fmt: skip
def test_bad_input_through_the_script(case):
    res = run(*BAD[case])
    check_bad(res.returncode, res.stdout, res.stderr)


def test_help_shows_examples():
    res = run("--help")
    assert res.returncode == 0
    assert "examples" in res.stdout
    assert "Traceback" not in res.stderr


@pytest.mark.parametrize("command", ["games", "hint", "candidates"])
def test_subcommand_help_shows_examples(capsys, command):
    status, out, _ = run_main(capsys, command, "--help")
    assert status == 0
    assert "examples" in out


# -- trust: statuses, help, internal errors, memory, workers -----------------------------------------------

COMMANDS = ["games", "hint", "candidates", "verify", "play", "show", "build", "eval", "solve", "import", "export",
            "serve", "static", "certify"]


def test_version(capsys):
    import treegen

    status, out, err = run_main(capsys, "--version")
    assert status == 0 and out.strip() == f"treegen {treegen.__version__}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_lists_examples_and_exit_statuses(capsys, command):
    status, out, err = run_main(capsys, command, "--help")
    assert status == 0
    assert "examples:" in out and f"treegen {command}" in out.split("examples:", 1)[1]
    statuses = out.split("exit status:", 1)[1]
    for code in ("0", "1", "2", "3", "130"):
        assert f"\n  {code} " in statuses


def test_an_internal_error_is_one_line_and_exit_3(monkeypatch, capsys):
    from treegen.cli import games

    def broken(args):
        raise RuntimeError("something impossible happened")

    monkeypatch.setattr(games, "cmd_games", broken)
    status, out, err = run_main(capsys, "games")
    assert status == 3
    assert err == ("treegen: internal error: RuntimeError: something impossible happened "
                   "(please report it; TREEGEN_DEBUG=1 shows the traceback)\n")


def test_an_interrupt_inside_a_kernels_return_is_an_interrupt(monkeypatch, capsys):
    """Ctrl-C that lands while numba boxes a kernel's results surfaces as SystemError chained (through
    other SystemErrors) from the KeyboardInterrupt: exit 130 as for any Ctrl-C, not an internal error."""
    from treegen.cli import games

    def interrupted(args):
        try:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as exc:
                raise SystemError("<function _numba_unpickle> returned a result with an exception set") from exc
        except SystemError as exc:
            raise SystemError("CPUDispatcher(next_open_guess) returned a result with an exception set") from exc

    monkeypatch.setattr(games, "cmd_games", interrupted)
    assert run_main(capsys, "games") == (130, "", "\n")


def test_output_that_cannot_be_written_is_one_line(monkeypatch, capsys):
    """`treegen games > /dev/full`, without touching a device: stdout's flush fails with ENOSPC."""
    import io
    import sys

    class Full(io.StringIO):
        def flush(self):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    status, out, err = run_main(capsys, "games")
    assert status == 2
    assert err == "treegen: error: cannot write the output: No space left on device\n"


def test_a_game_too_big_for_memory_is_refused_up_front():
    res = run("solve", "--game", "bc:6:10", "-q", "-o", "/tmp/never-written.json", timeout=60)
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("treegen: error: bc:6:10 has 151200 codes: the search's hint tables need 45.7 GB")
    assert res.stderr.count("\n") == 1


def test_workers_beyond_the_game_or_the_cores_are_said(tmp_path, capsys):
    import os

    from treegen.exact import plan_workers
    from treegen.rules import resolve_game

    status, out, err = run_main(capsys, "solve", "--game", "bc:2:4", "--workers", "5", "-q", "-o", str(tmp_path / "t.json"))
    assert status == 0, err
    assert "bc:2:4 is small (12 codes): searching it in one process" in err
    assert "with 1 worker\n" in out
    cores = os.cpu_count() or 1
    assert plan_workers(resolve_game("mm:4:8"), cores + 3) == (cores, f"--workers {cores + 3} is more than the {cores} cores here: using {cores}")
    assert plan_workers(resolve_game("mm:4:8"), cores) == (cores, None)


def _children(pid: int) -> list[int]:
    import os

    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_exit_when_their_parent_is_killed(tmp_path):
    """SIGKILL the parent of a two-worker solve: no worker survives it by 10 s."""
    import os
    import signal
    import subprocess
    import time

    from clitools import TREEGEN

    ckpt = tmp_path / "ck"
    workers: list[int] = []
    proc = subprocess.Popen([TREEGEN, "solve", "--game", "mm:4:8", "--workers", "2", "-q", "--checkpoint", str(ckpt),
                             "-o", str(tmp_path / "t.json")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # The workers are at work once the first task's checkpoint is on disk.
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline and len(list(ckpt.glob("*.json"))) < 2:
            time.sleep(0.01)
        assert proc.poll() is None, "the solve ended before any task finished"
        workers = [p for p in _children(proc.pid) if _alive(p)]
        assert len(workers) >= 2, workers
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.05)
        assert not [p for p in workers if _alive(p)], "worker processes outlived their parent by 10 s"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in workers:  # whatever the outcome, leave no process behind
            if _alive(p):
                os.kill(p, signal.SIGKILL)


# -- bad values refused up front (issue #40: seeds, empty values, nan, Unicode digits) ---------------

@pytest.mark.parametrize("argv,words", [
    (["build", "-s", "random-consistent", "--seed", "-1"], "argument --seed: the value must be from 0 to 18446744073709551615, not -1"),
    (["build", "-s", "random-consistent", "--seed", str(2**64)], "argument --seed: the value must be from 0 to 18446744073709551615, not 18446744073709551616"),
    (["play", "--host", "--seed", "\uff17", "--tree", "x.json"], "argument --seed: the value must be a whole number in ASCII digits"),
    (["static", "--game", "mm:2:3", "--seed", str(2**31)], "argument --seed: the value must be from 0 to 2147483647"),
    (["static", "--game", "mm:2:3", "--guesses", ""], "argument --guesses: the value is empty"),
    (["static", "--game", "mm:2:3", "--guesses", "  "], "argument --guesses: the value is empty"),
    (["serve", "--trees", ""], "argument --trees: the value is empty"),
    (["solve", "--game", ""], "argument --game/-g: the value is empty"),
    (["static", "--game", "mm:2:3", "--time-limit", "nan"], "argument --time-limit: the value must be a positive number of seconds"),
    (["static", "--game", "mm:2:3", "--time-limit", "-5"], "argument --time-limit: the value must be a positive number of seconds"),
    (["candidates", "--limit", "9" * 5000], "argument --limit: the value must be from 0 to 1000000000, not a number of 5000 digits"),
])
def test_bad_values_are_refused_before_any_work(capsys, argv, words):
    status, out, err = run_main(capsys, *argv)
    assert status == 2 and out == "", err
    assert err.count("\n") == 1 and words in err, err


def test_python_dash_m_treegen_runs_the_command():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "treegen", "hint", "5346", "5234"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1A2B\n", "")


def test_output_in_an_encoding_without_the_characters_is_replaced(tmp_path):
    """A strategy name latin-1 (or ASCII) cannot hold prints as '?' instead of failing with exit 3."""
    import json
    import os
    import subprocess

    tree = json.loads(open(os.path.join(os.path.dirname(__file__), "..", "trees", "mastermind-optimal-average.json")).read())
    tree["strategy"] = "最优-✓"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tree), encoding="utf-8")
    for encoding in ("latin-1", "ascii"):
        env = dict(os.environ, PYTHONIOENCODING=encoding)
        done = subprocess.run([TREEGEN, "show", str(path), "--depth", "0"], capture_output=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        assert b"strategy" in done.stdout and b"?" in done.stdout and done.stderr == b""


@pytest.mark.parametrize("argv", [
    ["build", "-s", "entropy", "--game", "bc:6:10", "--memory", "1G", "-o", "{tmp}/b.json"],  # minutes
    ["static", "--game", "bulls-cows", "-q", "-o", "{tmp}/s.json"],
    ["play", "--tree", "trees/mastermind-optimal-average.json"],
])
def test_sigterm_ends_every_command_with_one_line_and_143(tmp_path, argv):
    import os
    import signal
    import subprocess
    import time

    root = os.path.join(os.path.dirname(__file__), "..")
    argv = [a.format(tmp=tmp_path) for a in argv]
    proc = subprocess.Popen([TREEGEN, *argv], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # The event to wait for: the command has installed its SIGTERM handler (bit 15 of the caught-signals
    # mask in /proc; a signal before that would end it without a word). The signal then comes as early as
    # it can be handled, while the command starts up (each would then work for minutes, or wait for a
    # hint); one that lands mid-compile is the callback test below.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        with open(f"/proc/{proc.pid}/status") as f:
            caught = int(next(line for line in f if line.startswith("SigCgt:")).split()[1], 16)
        if caught >> (signal.SIGTERM - 1) & 1:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the command ended before the signal"
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # never leave a search running behind a failed test
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "treegen: terminated" and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_the_readme_output_file_is_ignored_by_git():
    import os
    import subprocess

    root = os.path.join(os.path.dirname(__file__), "..")
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=root, capture_output=True, text=True)
    if inside.stdout.strip() != "true":
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "check-ignore", "-q", "bulls-cows.json"], cwd=root)
    assert done.returncode == 0


# -- the command line's own structure (treegen/cli/) ----------------------------------------------


def test_the_choices_the_command_line_offers_are_the_librarys():
    """cli.common keeps one copy of each list the library defines (the library's modules import numpy or
    cost tens of milliseconds, and the parser is built before every command): each copy is the library's."""
    from treegen import formats, liveplay, static, strategies, verify
    from treegen.cli import common
    from treegen.exact import executors, objectives

    assert common.OBJECTIVES == tuple(objectives.OBJECTIVES) == tuple(verify.OBJECTIVES)
    assert common.EXECUTORS == tuple(executors.EXECUTORS)
    assert common.TIES == tuple(strategies.TIES)
    assert common.STRATEGIES == tuple(strategies.STRATEGIES)
    assert set(liveplay.LIVE_STRATEGIES) <= set(common.STRATEGIES) | {"hybrid"}
    assert common.STATIC_OBJECTIVES == tuple(static.OBJECTIVES)
    assert common.STATIC_METHODS == tuple(static.METHODS)
    assert common.IMPORT_FORMATS == tuple(formats.IMPORT_FORMATS)
    assert common.EXPORT_FORMATS == tuple(formats.EXPORT_FORMATS)


def test_the_exit_statuses_help_is_made_from_the_enum():
    from treegen.cli.common import EXIT_MEANINGS, EXIT_STATUSES, Exit

    assert EXIT_STATUSES.startswith("exit status:\n")
    for status in Exit:
        if status is Exit.STOPPED:  # static's own, said in its help
            assert f"\n  {status.value} " not in EXIT_STATUSES
        elif status is Exit.SIGTERM:  # on the line of the other signal
            assert f"; {status.value}: {EXIT_MEANINGS[status]}\n" in EXIT_STATUSES
        else:
            assert f"\n  {status.value:<4} {EXIT_MEANINGS[status]}" in EXIT_STATUSES


def test_one_default_output_name():
    from treegen.cli.common import default_output
    from treegen.rules import resolve_game
    from treegen.strategies import default_output as strategy_output

    assert default_output(resolve_game("mm:4:7"), "optimal-average") == "mm-4-7-optimal-average.json"
    assert default_output(resolve_game("bulls-cows"), "static") == "bulls-cows-static.json"
    assert default_output(resolve_game("mastermind"), "entropy") == strategy_output(resolve_game("mastermind"), "entropy")


def test_building_the_parser_imports_no_heavy_module():
    """Every command module is imported and the parser built before any command runs: none may pull in
    numpy, numba, tqdm or the library's heavy modules (play, verify and show start instantly)."""
    import subprocess
    import sys

    code = ("import sys; from treegen.cli import build_parser; build_parser(); "
            "heavy = ('numpy', 'numba', 'tqdm', 'orjson', 'http', 'treegen.formats', 'treegen.static', "
            "'treegen.strategies', 'treegen.exact.coordinator', 'treegen.exact.solve', 'treegen.verify', 'treegen.serve'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in heavy))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_python_dash_m_treegen_cli_is_the_command():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "treegen.cli", "hint", "5346", "5234"], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1A2B\n", "")


# -- found by trying new bad inputs: closed streams, outputs that collide, options that would be ignored --

@pytest.mark.parametrize("argv,closing,words,status", [
    (["show", "-"], "<&-", "standard input is closed", 2),
    (["export", "paths", "trees/mastermind-optimal-average.json"], ">&-", "standard output is closed", 2),
    (["games"], ">&-", "standard output is closed", 2),
])
def test_a_closed_standard_stream_is_one_line_and_exit_2(argv, closing, words, status):
    import os
    import shlex
    import subprocess

    root = os.path.join(os.path.dirname(__file__), "..")
    done = subprocess.run(f"{shlex.quote(TREEGEN)} {shlex.join(argv)} {closing}", shell=True, cwd=root,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == status and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


def test_a_closed_standard_error_does_not_send_errors_into_the_output(tmp_path):
    import subprocess

    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    out = tmp_path / "out.txt"
    done = subprocess.run(f"{TREEGEN} export paths {bad} 2>&- > {out}", shell=True, timeout=60)
    assert done.returncode == 2 and out.read_text() == ""


@pytest.mark.parametrize("argv,words", [
    (["hint", "0123", "0132", "4567"], "treegen hint: error: unrecognized arguments: 4567 (see 'treegen hint --help')"),
    (["solve", "--game", "mm:2:3", "-q", "--checkpoint", "{tmp}/ck", "-o", "{tmp}/ck"], "would be written into the checkpoint folder"),
    (["static", "--game", "mm:2:3", "-q", "--case-log", "{tmp}/s.json", "-o", "{tmp}/s.json"], "are the same file"),
    (["static", "--game", "mm:2:3", "--guesses", "01 12", "--case-log", "{tmp}/c.json"], "--case-log applies to a search"),
    (["static", "--game", "mm:2:3", "--guesses", "01 12", "--size", "3", "--time-limit", "5"], "--size, --time-limit apply to a search"),
    (["value", "--recheck", "trees/mastermind-value.json", "-o", "{tmp}/v.json"], "-o does not go with --recheck"),
    (["solve", "--game", "mm:2:3", "-q", "--checkpoint", "{tmp}/file", "-o", "{tmp}/t.json"], "it is a file, not a folder"),
    (["solve", "--game", "mm:2:3", "-q", "--checkpoint", "{tmp}/dangling", "-o", "{tmp}/t.json"], "it is a symlink to"),
])
def test_colliding_or_ignored_options_are_refused_before_any_work(capsys, tmp_path, monkeypatch, argv, words):
    import os

    monkeypatch.chdir(os.path.join(os.path.dirname(__file__), ".."))
    (tmp_path / "file").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    status, out, err = run_main(capsys, *[a.format(tmp=tmp_path) for a in argv])
    assert status == 2 and err.count("\n") == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "file"]  # nothing made, nothing searched


# A signal that lands inside a callback from LLVM into Python (numba's object cache hook, through ctypes)
# while a command compiles its first kernels: ctypes can only print the exception and drop it, and the
# command went on (a static search for 13 minutes after SIGTERM). Sent from where the hook runs, so that
# it lands there every time.
_SIGNAL_IN_A_CALLBACK = """
import os, signal, sys
from numba.core import codegen

hook = codegen.JITCodeLibrary._object_compiled_hook.__func__
main = os.getpid()
sent = []
signum = getattr(signal, sys.argv.pop(1))

def signalled(cls, ll_module, buf):
    if os.getpid() == main and not sent:
        sent.append(True)
        os.kill(main, signum)
        for _ in range(100):  # the handler runs at the first backward jump: here, inside the callback
            pass
    return hook(cls, ll_module, buf)

codegen.JITCodeLibrary._object_compiled_hook = classmethod(signalled)
# Ctrl-C at a terminal: Python's own handler. A shell that starts the tests as a background job without job control
# hands its children SIGINT ignored, and Python then keeps ignoring it, so the signal below would never arrive.
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.argv[0] = "treegen"
from treegen import cli
try:
    cli.run()
finally:
    print("sent" if sent else "never sent", file=sys.stderr)
"""


@pytest.mark.parametrize("name,status,last", [("SIGTERM", 143, "treegen: terminated"), ("SIGINT", 130, "")])
def test_a_signal_dropped_by_a_compile_callback_still_ends_the_command(tmp_path, name, status, last):
    import os
    import subprocess
    import sys
    import tempfile

    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(dir=tmp_path))  # empty: the first run compiles
    done = subprocess.run([sys.executable, "-c", _SIGNAL_IN_A_CALLBACK, name, "static", "--game", "bulls-cows", "-q",
                           "-o", str(tmp_path / "s.json")], capture_output=True, text=True, timeout=300, env=env)
    lines = done.stderr.splitlines()
    assert done.returncode == status and lines[-1] == "sent", done.stderr[-2000:]
    assert lines[:-1] == [last], done.stderr[-2000:]  # the one line, no traceback
    assert not (tmp_path / "s.json").exists()
