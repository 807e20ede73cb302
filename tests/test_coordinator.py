"""solve_game as a library and the command around it (issue #40): its arguments, worker processes started
from a script without a main guard, and Ctrl-C while the kernels compile on a first run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest
from clitools import TREEGEN

from treegen.exact import Infeasible, executors, solve_game
from treegen.rules import GameError, NumberError, TreegenError, resolve_game
from treegen.rules import ArgumentTypeError

# -- the arguments of solve_game (class 17) ---------------------------------------------------------------

SMALL = resolve_game("bc:3:5")  # a Game, so that each test below checks only its own argument


def test_a_game_may_be_named():
    assert solve_game("bc:3:5") == solve_game(resolve_game("bc:3:5"))
    with pytest.raises(GameError):
        solve_game("no-such-game")


@pytest.mark.parametrize("game", [5, None, b"mastermind"])
def test_a_game_of_another_type_is_a_type_error(game):
    with pytest.raises(ArgumentTypeError, match=r"^solve_game: game must be a Game or a game name such as "
                                                r"'mastermind' or 'bc:4:10', not \w+$") as caught:
        solve_game(game)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, TreegenError)


@pytest.mark.parametrize("workers", [0, -2])
def test_workers_below_one_are_refused_as_the_command_does(workers):
    with pytest.raises(NumberError, match=f"^workers must be at least 1, not {workers}$"):
        solve_game(SMALL, workers=workers)


@pytest.mark.parametrize("name,value", [("workers", 2.0), ("workers", True), ("workers", "2"), ("max_guesses", "5")])
def test_numbers_of_another_type_are_type_errors(name, value):
    with pytest.raises(ArgumentTypeError, match=f"^solve_game: {name} must be an int, not {type(value).__name__}$"):
        solve_game(SMALL, **{name: value})


def test_a_cap_below_one_is_refused_and_an_unknown_objective_too():
    with pytest.raises(NumberError, match="^max_guesses must be at least 1, not 0$"):
        solve_game(SMALL, max_guesses=0)
    with pytest.raises(TreegenError, match="^unknown objective 'best'; use one of average, worst, crush$"):
        solve_game(SMALL, "best")


def test_infeasible_is_a_treegen_error_and_the_command_still_exits_1(tmp_path):
    with pytest.raises(Infeasible) as caught:
        solve_game(resolve_game("mastermind"), max_guesses=4)
    assert isinstance(caught.value, TreegenError)
    assert str(caught.value) == "no strategy solves every secret of mastermind within 4 guesses"
    res = subprocess.run([TREEGEN, "solve", "--game", "mastermind", "--max-guesses", "4", "-q", "-o",
                          str(tmp_path / "t.json")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 1
    assert res.stderr == "treegen: no strategy solves every secret of mastermind within 4 guesses\n"


# -- worker processes from a script without a main guard (class 10) ------------------------------------------

_SCRIPT = """
from treegen.exact import executors, solve
from treegen.rules import resolve_game

executors.INLINE_MAX_CODES = 0  # so that a game solved in a moment still starts worker processes
game = resolve_game("mm:3:4")
assert executors.plan_workers(game, 2) == (2, None)
print("total", solve.solve_game(game, workers=2).stats.total)
"""


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="two worker processes need two cores")
@pytest.mark.parametrize("how", ["python -", "a script without a guard"])
def test_worker_processes_from_a_script_without_a_main_guard(tmp_path, how):
    """Spawned workers imported the script again, which started its search again (or, from standard input,
    found no file): BrokenProcessPool and tracebacks. Forked workers import nothing."""
    total = solve_game(resolve_game("mm:3:4")).stats.total
    if how == "python -":
        cmd, given = [sys.executable, "-"], _SCRIPT
    else:
        script = tmp_path / "unguarded.py"
        script.write_text(_SCRIPT)
        cmd, given = [sys.executable, str(script)], None
    res = subprocess.run(cmd, input=given, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert (res.returncode, res.stdout, res.stderr) == (0, f"total {total}\n", "")


def test_closing_worker_processes_waits_for_the_pools_own_thread():
    """A pool thread still running at the interpreter's exit can lose a race with Python 3.11's exit hook
    and print an "Exception ignored ... Bad file descriptor" traceback (the test above saw it once in CI):
    close() ends with that thread gone, even while a task was running."""
    pool = executors.ProcessExecutor(2)
    running = pool.submit(time.sleep, 30)
    thread = pool.pool._executor_manager_thread
    pool.close()
    assert running.done() and not thread.is_alive()


# -- Ctrl-C while the kernels compile on a first run (class 7) -----------------------------------------------

# The interrupt where it used to print a traceback: inside a callback from LLVM into Python (numba's object
# cache hook, called through ctypes) as the main process compiles its first function. ctypes cannot pass an
# exception on from there, so it printed "Exception ignored on calling ctypes callback function" and the
# traceback, and dropped the interrupt. A real SIGINT, sent from where the hook runs, to be deterministic.
_INTERRUPTED_IN_A_CALLBACK = """
import os, signal, sys
from numba.core import codegen

hook = codegen.JITCodeLibrary._object_compiled_hook.__func__
main = os.getpid()
sent = []

def interrupted(cls, ll_module, buf):
    if os.getpid() == main and not sent:
        sent.append(True)
        os.kill(main, signal.SIGINT)
        for _ in range(100):  # the handler runs at the first backward jump: here, inside the callback
            pass
    return hook(cls, ll_module, buf)

codegen.JITCodeLibrary._object_compiled_hook = classmethod(interrupted)
from treegen import cli
status = cli.main(sys.argv[1:])
print("sent" if sent else "never sent", file=sys.stderr)
sys.exit(status)
"""


def test_an_interrupt_inside_an_llvm_callback_prints_one_line(tmp_path):
    out = tmp_path / "t.json"
    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(dir=tmp_path))  # empty: the first run
    res = subprocess.run([sys.executable, "-c", _INTERRUPTED_IN_A_CALLBACK, "solve", "--game", "mastermind", "-o",
                          str(out)], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 130, res.stderr
    lines = res.stderr.splitlines()
    assert lines[-1] == "sent"
    assert lines[-2] == "treegen: interrupted; no tree written"
    assert set(lines[:-2]) <= {"treegen: compiling the search's kernels (first run only)"}, res.stderr
    assert not out.exists()


@pytest.mark.parametrize("delay", [1.0, 2.0])
def test_ctrl_c_during_the_first_compile_stops_both_processes_quietly(tmp_path, delay):
    """Ctrl-C at the terminal (SIGINT to the whole process group) while the main process and its helper
    compile: exit 130, the one line, no traceback from either process, and no process left behind."""
    out = tmp_path / "t.json"
    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(dir=tmp_path))
    proc = subprocess.Popen([TREEGEN, "solve", "--game", "mastermind", "-o", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.listdir(env["NUMBA_CACHE_DIR"]) and proc.poll() is None:
            time.sleep(0.01)  # until numba starts writing its cache: compiling
        time.sleep(delay)
        assert proc.poll() is None, "the solve ended before the interrupt"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "treegen: interrupted; no tree written"
    assert "Traceback" not in err and "Exception" not in err, err
    assert not out.exists()
    time.sleep(0.5)  # the helper is ended, not left compiling
    left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert left == [], f"processes left in the group: {left}"
