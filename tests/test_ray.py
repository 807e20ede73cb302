"""The search on Ray: a real local Ray (2 CPUs, on loopback, no dashboard) gives the same bytes as local
worker processes. Skipped only when ray is not installed (the README's test command installs it)."""

from __future__ import annotations

import sys

import pytest
from clitools import run_main

from treegen.exact import executors, solve
from treegen.rules import resolve_game
from treegen.exact.options import Options
from treegen.tree import tree_to_bytes

ray = pytest.importorskip("ray", reason="ray is not installed: pip install -e '.[ray]'")

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


@pytest.fixture(scope="module")
def local_ray(monkeypatch_module):
    # as RayExecutor does for a local Ray: workers at normal priority (Ray's default niceness is 15, which
    # starves them on a loaded machine)
    monkeypatch_module.setenv("RAY_worker_niceness", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


@pytest.mark.parametrize("spec,objective", [("mastermind", "average"), ("mm:3:4", "worst")])
def test_ray_gives_the_same_bytes_as_processes(local_ray, monkeypatch, tmp_path, spec, objective):
    game = resolve_game(spec)
    monkeypatch.setattr(executors, "INLINE_MAX_CODES", 0)  # real worker processes for the reference
    processes = solve.solve_game(game, objective, workers=2)
    on_ray = solve.solve_game(game, objective, workers=2, executor="ray", checkpoint=str(tmp_path / "ck"))
    assert tree_to_bytes(on_ray) == tree_to_bytes(processes)
    # the driver wrote the checkpoints: a rerun from the folder gives the same bytes again
    again = solve.solve_game(game, objective, workers=2, executor="ray", checkpoint=str(tmp_path / "ck"))
    assert tree_to_bytes(again) == tree_to_bytes(processes)


def test_eager_on_ray_gives_the_same_bytes_as_eager_processes(local_ray, monkeypatch):
    game = resolve_game("mastermind")
    monkeypatch.setattr(executors, "INLINE_MAX_CODES", 0)
    every = Options(orbits=True)  # the memo by orbit too, which mastermind leaves off by default
    processes = solve.solve_game(game, "average", workers=2, eager=True, options=every)
    on_ray = solve.solve_game(game, "average", workers=2, executor="ray", eager=True, options=every)
    assert processes.provenance["eager"] is True
    assert tree_to_bytes(on_ray) == tree_to_bytes(processes)


def test_split_on_ray_gives_the_same_bytes_as_split_processes(local_ray, monkeypatch):
    """Split's tasks (later waves' scans and tasks of guesses, besides subproblems) run on Ray too."""
    game = resolve_game("mastermind")
    monkeypatch.setattr(executors, "INLINE_MAX_CODES", 0)
    processes = solve.solve_game(game, "average", workers=2, split=30)
    on_ray = solve.solve_game(game, "average", workers=2, executor="ray", split=30)
    assert processes.provenance["split"] == 30
    assert tree_to_bytes(on_ray) == tree_to_bytes(processes)


def test_the_command_on_ray(local_ray, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run_main(capsys, "solve", "--game", "bc:3:6", "-q", "-o", str(a))[0] == 0
    status, out, err = run_main(capsys, "solve", "--game", "bc:3:6", "-q", "--executor", "ray", "-o", str(b))
    assert status == 0, err
    assert a.read_bytes() == b.read_bytes()


def test_address_needs_the_ray_executor(capsys, tmp_path):
    status, out, err = run_main(capsys, "solve", "--game", "bc:2:4", "--address", "auto", "-o", str(tmp_path / "t.json"))
    assert status == 2 and err == "treegen: error: --address applies only with --executor ray\n"


def test_without_ray_the_executor_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    status, out, err = run_main(capsys, "solve", "--game", "bc:2:4", "--executor", "ray", "-q", "-o", str(tmp_path / "t.json"))
    assert status == 2
    assert err == ("treegen: error: --executor ray needs Ray, which is not installed: "
                   "pip install -e '.[ray]' (or pip install ray)\n")
    assert not (tmp_path / "t.json").exists()


def test_an_address_where_nothing_answers_is_one_line(tmp_path):
    """A host:port where nothing listens is refused at once, in one line: Ray itself would retry it without
    end. In a process of its own, as this module's Ray is already initialised in this one."""
    import socket
    import subprocess

    with socket.socket() as probe:  # a port of this machine that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    out = tmp_path / "t.json"
    run = subprocess.run([sys.executable, "-m", "treegen.cli", "solve", "--game", "bc:2:4", "--executor", "ray",
                          "--address", address, "-q", "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(f"treegen: error: cannot start or join the Ray cluster at {address}: "
                                 "nothing answers there (Connection refused)"), run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert not out.exists()
