"""Outputs: refused before any work when they cannot or must not be written, written atomically, and
through symlinks; the same wording from every command. Runs as any user: no real device is touched
(a FIFO of our own stands for every special file)."""

from __future__ import annotations

import os

import pytest
from clitools import run_main

from treegen import files
from treegen.exact import solve as exact_solve
from treegen.files import OutputError


@pytest.fixture
def places(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    target = tmp_path / "target.json"
    target.write_text("old")
    (tmp_path / "link.json").symlink_to(target)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "plain").write_text("a file, not a folder")
    return tmp_path


@pytest.mark.parametrize("name,why", [
    ("fifo", "it is a named pipe, not a regular file"),
    ("folder", "it is a folder, not a regular file"),
    ("dangling.json", "it is a symlink to"),
    ("plain/t.json", "is not a folder"),
    ("missing/t.json", "does not exist"),
])
def test_output_file_refusals(places, name, why):
    with pytest.raises(OutputError, match=why):
        files.output_file(str(places / name), "tree file")


def test_empty_paths_are_errors():
    with pytest.raises(OutputError, match="path is empty"):
        files.output_file("")
    with pytest.raises(OutputError, match="path is empty"):
        files.output_folder("")


def test_symlinks_are_written_through(places):
    link = places / "link.json"
    assert files.output_file(str(link)) == str(places / "target.json")
    files.write_atomic(str(link), b"new\n")
    assert link.is_symlink() and (places / "target.json").read_text() == "new\n"
    assert sorted(p.name for p in places.iterdir()) == ["dangling.json", "fifo", "folder", "link.json", "plain", "target.json"]


def test_output_folder_creates_only_the_last_component(places):
    assert files.output_folder(str(places / "new")) is True
    assert files.output_folder(str(places / "new")) is False
    with pytest.raises(OutputError, match="its parent .* does not exist"):
        files.output_folder(str(places / "deep" / "er"))
    assert not (places / "deep").exists()
    with pytest.raises(OutputError, match="it is a named pipe, not a folder"):
        files.output_folder(str(places / "fifo"))
    with pytest.raises(OutputError, match="it is a regular file|not a folder"):
        files.output_folder(str(places / "plain"))


# -- the commands refuse before any work -------------------------------------------------------------


@pytest.fixture
def no_search(monkeypatch):
    """A solve that reaches the search fails the test: every refusal must come first."""

    def boom(*args, **kwargs):
        raise AssertionError("the search started before the output was checked")

    monkeypatch.setattr(exact_solve, "solve_game", boom)


@pytest.mark.parametrize("args,message", [
    (["-o", "{fifo}"], "cannot write tree file {fifo}: it is a named pipe, not a regular file"),
    (["-o", "{folder}"], "cannot write tree file {folder}: it is a folder, not a regular file"),
    (["-o", ""], "the tree file path is empty; give a file name"),
    (["-o", "{plain}/t.json"], "is not a folder"),
    (["--checkpoint", ""], "the checkpoint folder path is empty; give a folder name"),
    (["--checkpoint", "{plain}"], "cannot use checkpoint folder {plain}: it is a file, not a folder"),
    (["--checkpoint", "{fifo}"], "cannot use checkpoint folder {fifo}: it is a named pipe, not a folder"),
    (["--checkpoint", "{tmp}/a/b/c"], "cannot create checkpoint folder {tmp}/a/b/c: its parent {tmp}/a/b does not exist"),
])
def test_solve_refuses_outputs_before_searching(places, no_search, capsys, args, message):
    fill = {"fifo": places / "fifo", "folder": places / "folder", "plain": places / "plain", "tmp": places}
    argv = [a.format(**fill) for a in args]
    if "-o" not in argv:
        argv += ["-o", str(places / "out.json")]
    before = sorted(p.name for p in places.iterdir())
    status, out, err = run_main(capsys, "solve", "--game", "mm:4:8", "-q", *argv)
    assert status == 2, (out, err)
    assert err.startswith("treegen: error: ") and message.format(**fill) in err, err
    assert err.count("\n") == 1 and out == ""
    assert sorted(p.name for p in places.iterdir()) == before


def test_checkpoint_folder_creation_is_said(tmp_path, capsys):
    status, out, err = run_main(capsys, "solve", "--game", "bc:2:4", "-q", "--checkpoint", str(tmp_path / "ck"),
                                "-o", str(tmp_path / "t.json"))
    assert status == 0, err
    assert f"created checkpoint folder {tmp_path / 'ck'}" in err


def test_solve_writes_through_a_symlink(places, capsys):
    status, out, err = run_main(capsys, "solve", "--game", "bc:2:4", "-q", "-o", str(places / "link.json"))
    assert status == 0, err
    assert (places / "link.json").is_symlink()
    assert (places / "target.json").read_bytes().startswith(b'{"format":"treegen-tree"')


def test_build_refuses_special_outputs_too(places, capsys):
    status, out, err = run_main(capsys, "build", "--game", "bc:2:4", "--strategy", "minimax", "-o", str(places / "fifo"))
    assert status == 2 and "it is a named pipe, not a regular file" in err and err.count("\n") == 1, err


# -- short writes, full disks, inputs that are not files, permissions kept ----------------------------

@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KB tmpfs, full after one bulls-cows export; root only (skipped otherwise), unmounted after."""
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "tiny"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


BC_TREE = os.path.join(os.path.dirname(__file__), "..", "trees", "bulls-cows-optimal-average.json")


def test_short_write_to_stdout_is_an_error(tiny_disk):
    """Python's own stdout drops the tail of a write the disk only partly takes and exits 0; treegen
    reports it (one line, exit 2), for standard output redirected to a full disk and for /dev/full."""
    import subprocess

    from clitools import TREEGEN

    out = tiny_disk / "paths.txt"
    with open(out, "wb") as f:
        done = subprocess.run([TREEGEN, "export", "paths", BC_TREE], stdout=f, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == ["treegen: error: cannot write the output: No space left on device"]
    with open("/dev/full", "wb") as f:
        done = subprocess.run([TREEGEN, "games"], stdout=f, stderr=subprocess.PIPE, text=True)
    assert (done.returncode, done.stderr) == (2, "treegen: error: cannot write the output: No space left on device\n")


def test_short_write_to_a_file_leaves_nothing(tiny_disk, capsys):
    out = tiny_disk / "paths.txt"
    status, _, err = run_main(capsys, "export", "paths", BC_TREE, "-o", str(out))
    assert status == 2 and "No space left on device" in err
    assert os.listdir(tiny_disk) == []  # neither a partial file nor a temporary one


def test_chunks_are_written_in_order_and_a_failure_while_making_them_leaves_the_old_file(tmp_path):
    out = tmp_path / "certificate.gz"
    assert files.write_atomic(str(out), iter([b"ab", b"", bytearray(b"cd"), memoryview(b"e")])) == 5
    assert out.read_bytes() == b"abcde"

    def failing():
        yield b"new text"
        raise files.InputError("a part changed")

    with pytest.raises(files.InputError, match="a part changed"):
        files.write_atomic(str(out), failing())
    assert out.read_bytes() == b"abcde" and os.listdir(tmp_path) == ["certificate.gz"]  # no temporary file left


def test_write_all_retries_short_writes(tmp_path):
    r, w = os.pipe()
    os.set_blocking(w, True)
    data = os.urandom(1 << 20)  # more than a pipe holds: the writes come back short
    import threading

    got = bytearray()

    def drain():
        while chunk := os.read(r, 1 << 16):
            got.extend(chunk)

    t = threading.Thread(target=drain)
    t.start()
    files.write_all(w, data)
    os.close(w)
    t.join()
    os.close(r)
    assert bytes(got) == data


def make_input(path, make: str, start: bytes = b"") -> None:
    """At ``path``: a FIFO, a symlink to /dev/zero, a folder, or ("huge") a file of ``start`` padded past
    INPUT_LIMIT, sparse so that it uses no disk."""
    if make == "fifo":
        os.mkfifo(path)
    elif make == "device":
        path.symlink_to("/dev/zero")
    elif make == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as f:
            f.write(start)
            f.truncate(files.INPUT_LIMIT + 1)


@pytest.mark.parametrize("make", ["fifo", "device", "folder", "huge"])
def test_inputs_that_are_not_regular_files_are_refused(tmp_path, capsys, make):
    """verify and import refuse (exit 2, at once) what would hang (a FIFO), never end (/dev/zero) or eat
    memory; standard input stays accepted."""
    path = tmp_path / "in.json"
    make_input(path, make)
    for argv in (["verify", str(path)], ["import", "paths", str(path), "-o", str(tmp_path / "o.json")],
                 ["show", str(path)], ["export", "paths", str(path)]):
        status, out, err = run_main(capsys, *argv)
        assert status == 2, (argv, err)
        assert err.count("\n") == 1 and ("not a regular file" in err or "more than" in err), err
    assert not (tmp_path / "o.json").exists()


@pytest.mark.parametrize("make", ["fifo", "device", "folder", "huge"])
def test_a_certificate_is_mapped_whatever_its_size_and_special_files_are_refused(tmp_path, capsys, make):
    """verify --certificate maps the file rather than reading it (mm:5:7's certificate is 457 MB compressed,
    past INPUT_LIMIT): a file past the limit is read, and refused for what it holds, not its size; a FIFO, a
    device and a folder are refused as inputs are, in one line with exit 2."""
    path = tmp_path / "c.cert.json.gz"
    make_input(path, make, b"[")
    status, _out, err = run_main(capsys, "verify", BC_TREE, "--certificate", str(path), "-q")
    assert err.count("\n") == 1 and "Traceback" not in err, err
    if make == "huge":
        assert status == 1 and "not a certificate" in err and "MB" not in err, err
    else:
        assert status == 2 and "not a regular file" in err, err


def test_map_input_gives_what_read_input_gives(tmp_path):
    path = tmp_path / "f.bin"
    for data in (b"", b"x", bytes(range(256)) * 1000):
        path.write_bytes(data)
        mapped = files.map_input(str(path), "test file")
        assert mapped[:] == files.read_input(str(path), "test file") == data


def test_standard_input_is_still_read(capsys, monkeypatch):
    import io
    import sys

    with open(BC_TREE, "rb") as f:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f.read())))
    status, out, err = run_main(capsys, "verify", "-")
    assert status == 0 and "valid tree" in out, err


def test_replacing_a_file_keeps_its_mode_and_owner(tmp_path, capsys):
    private = tmp_path / "private.json"
    private.write_text("old")
    os.chmod(private, 0o600)
    if os.geteuid() == 0:
        os.chown(private, 65534, 65534)  # nobody: root may give a file away, and must keep it given
    link = tmp_path / "link.json"
    link.symlink_to(private)
    for out in (private, link):
        status, _, err = run_main(capsys, "export", "paths", BC_TREE, "-o", str(out))
        assert status == 0, err
        st = os.stat(private)
        assert oct(st.st_mode & 0o777) == oct(0o600)
        if os.geteuid() == 0:
            assert (st.st_uid, st.st_gid) == (65534, 65534)
    assert os.path.islink(link) and private.read_text().startswith("# treegen:")
