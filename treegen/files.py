"""Files that treegen writes: checked before any work starts, then written atomically.

Every command that writes (a tree, a checkpoint folder) checks its destination up front, so that a long
search never ends with "cannot write", and words each refusal the same way. Standard library only.

Symlinks: an output path that is a symlink is written through to its target (as ``cp`` and most tools
do): the link stays, the file it points to is replaced atomically. A link to a missing file is refused.
"""

from __future__ import annotations

import errno
import io
import mmap
import os
import stat
import sys
from collections.abc import Iterable

from .rules import TreegenError


class OutputError(TreegenError):
    """An output path that cannot (or must not) be written."""


def _describe(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode):
        return "a file"
    return "not a regular file"


def _probe(folder: str, what: str, path: str) -> None:
    """Create and remove a file in ``folder``: the only sure test that writing there works."""
    probe = os.path.join(folder, f".treegen-probe.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc} in folder {folder}") from None
    os.close(fd)
    os.unlink(probe)


# Inputs larger than this are refused: the biggest tree files treegen writes are a few MB, and a bigger
# read (a device such as /dev/zero, a runaway file) would only eat memory before failing.
INPUT_LIMIT = 256 * 1024 * 1024


class InputError(TreegenError):
    """An input path that cannot (or must not) be read: a folder, a FIFO, a device, a file too large."""


def read_input(path: str, what: str = "input file", limit: int = INPUT_LIMIT) -> bytes:
    """The bytes of the input ``path`` (``-``: standard input), after checking what it is.

    Refused with :class:`InputError`: anything but a regular file (a folder; a FIFO, which would block
    until something writes to it; a device such as ``/dev/zero``, which never ends), a file or standard
    input of more than ``limit`` bytes, and any read error. A symlink is followed to its target, which is
    checked the same way.
    """
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise InputError("standard input is closed; give a file name, or pipe the input in")
        try:
            data = sys.stdin.buffer.read(limit + 1)
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from None
        if len(data) > limit:
            raise InputError(f"standard input holds more than {limit // 2**20} MB; treegen reads at most that")
        return data
    with _open_regular(path, what) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise InputError(f"cannot read {what} {path}: it holds {size} bytes, more than the {limit // 2**20} MB "
                             "treegen reads")
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"cannot read {what} {path}: it holds more than the {limit // 2**20} MB treegen reads")
    return data


def map_input(path: str, what: str = "input file"):
    """The contents of an input that may be far larger than memory (a certificate: mm:5:7's is 457 MB
    compressed), mapped rather than read, so that the page cache holds what is being read and this process
    does not: a read-only ``mmap`` (sliced like bytes), or ``b""`` for an empty file. Standard input (``-``)
    is read as :func:`read_input` reads it. Refused as read_input refuses, except for size."""
    if path == "-":
        return read_input(path, what)
    with _open_regular(path, what) as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""  # mmap refuses an empty file
        try:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as exc:
            raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None


def _open_regular(path: str, what: str):
    """``path`` opened for reading (binary), refused (InputError) if empty, missing or not a regular file."""
    if not path:
        raise InputError(f"the {what} path is empty; give a file name (or - for standard input)")
    try:
        st = os.stat(path)
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"cannot read {what} {path}: it is {_describe(st.st_mode)}, not a regular file")
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it does not hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        f = os.fdopen(fd, "rb")
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
        f.close()
        raise InputError(f"cannot read {what} {path}: it is not a regular file")
    return f


def default_name(game, what: str) -> str:
    """The one default file name of what treegen writes for ``game``: ``GAME-WHAT.json``, the game's colons
    as dashes (``bulls-cows-entropy.json``, ``mm-4-7-optimal-average.json``, ``mastermind-static.json``)."""
    return f"{game.name.replace(':', '-')}-{what}.json"


def output_file(path: str, what: str = "output file") -> str:
    """Check that ``path`` can be written as a regular file, before any work; return the path to write.

    Refused: an empty path, an existing path that is not a regular file (a folder, a FIFO, a device), a
    symlink to a missing file, a missing or unwritable parent folder. A symlink to a regular file
    resolves to its target, which is what gets replaced.
    """
    if not path:
        raise OutputError(f"the {what} path is empty; give a file name")
    target = path
    if os.path.islink(path):
        target = os.path.realpath(path)
        if not os.path.exists(target):
            raise OutputError(f"cannot write {what} {path}: it is a symlink to {target}, which does not exist")
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None  # a new file; its folder is checked below
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"cannot write {what} {path}: it is {_describe(st.st_mode)}, not a regular file")
    folder = os.path.dirname(os.path.abspath(target)) or "."
    if not os.path.isdir(folder):
        why = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise OutputError(f"cannot write {what} {path}: folder {folder} {why}")
    _probe(folder, what, path)
    return target


def same_path(a: str, b: str) -> bool:
    """Whether two paths name the same file or folder, existing or not (through links, ``./``, ``..``, or
    another hard link): two outputs of one command must not, and an output must not be its own input."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def output_folder(path: str, what: str = "checkpoint folder") -> bool:
    """Check that ``path`` is (or can be created as) a writable folder; create it if missing.

    Only the last component is created: a missing parent is an error, never created silently.
    Returns True when the folder was created.
    """
    if not path:
        raise OutputError(f"the {what} path is empty; give a folder name")
    if os.path.islink(path) and not os.path.exists(path):
        raise OutputError(f"cannot use {what} {path}: it is a symlink to {os.path.realpath(path)}, which does not exist")
    if os.path.exists(path):
        st = os.stat(path)
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"cannot use {what} {path}: it is {_describe(st.st_mode)}, not a folder")
        _probe(path, what, path)
        return False
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        why = "is not a folder" if os.path.exists(parent) else "does not exist"
        raise OutputError(f"cannot create {what} {path}: its parent {parent} {why} (create it first)")
    try:
        os.mkdir(path)
    except OSError as exc:
        raise OutputError(f"cannot create {what} {path}: {exc.strerror or exc}") from None
    _probe(path, what, path)
    return True


def write_atomic(path: str, data: bytes | Iterable[bytes], what: str = "output file", durable: bool = True) -> int:
    """Write ``data`` (bytes, or chunks of bytes written in order as they come) to ``path`` atomically: a
    temporary file in the same folder, then a rename. Returns the bytes written.

    On any error (a short write included, or one raised while the chunks are made) no partial file is left
    and an existing file at ``path`` is untouched. A symlink is written through to its target. The file
    replaced keeps its permission bits and its owner (a private 600 file stays private; a rename would
    otherwise give the new file the default mode). ``durable`` also fsyncs before the rename.
    """
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        old = os.stat(target)
    except OSError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        # A rename would replace the folder entry of a FIFO or device: never clobber one.
        raise OutputError(f"cannot write {what} {path}: it is {_describe(old.st_mode)}, not a regular file")
    directory, name = os.path.split(target)
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        # A file being replaced: create the temporary file private (0600), so its contents are never
        # readable by more people than the old file allowed, then give it the old mode and owner.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if old is None else 0o600)
    except OSError as exc:
        raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    try:
        try:
            size = 0
            for chunk in (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data:
                write_all(fd, chunk)
                size += memoryview(chunk).nbytes
            if old is not None:
                if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.fchown(fd, old.st_uid, old.st_gid)
                    except PermissionError:
                        pass  # only root may give a file away; the mode below still holds
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
        raise
    return size


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Write every byte of ``data`` to ``fd`` or raise OSError: a short write is retried, and a write that
    makes no progress is an error (ENOSPC), never a silently truncated file."""
    view = memoryview(data).cast("B")
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[n:]


class _CheckedStdout(io.RawIOBase):
    """Standard output as a raw stream that writes everything or reports why not, once.

    Python's own text stdout can drop the tail of a large write that the disk only partly takes (the
    kernel reports a short write, then ENOSPC) and still exit 0. Here a failure raises
    :class:`OutputError` ("cannot write the output: ...") the first time; a closed pipe stays a
    BrokenPipeError (the reader, say ``head``, wanted no more). After either, further output is
    dropped, so the interpreter's last flush at exit has nothing left to fail on.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def close(self) -> None:  # the descriptor belongs to the process, not to this object
        super().close()

    def write(self, data) -> int:
        size = memoryview(data).nbytes
        if self._failed:
            return size
        try:
            write_all(self._fd, data)
        except BrokenPipeError:
            self._failed = True
            raise
        except OSError as exc:
            self._failed = True
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None
        return size


def checked_stdout(stream=None) -> io.TextIOWrapper:
    """A replacement for ``sys.stdout`` (``stream``, by default) that detects short writes and write errors
    (see :class:`_CheckedStdout`) and replaces characters its encoding cannot hold (a non-ASCII strategy
    name on a latin-1 or C-locale terminal prints as ``?`` rather than failing)."""
    stream = sys.stdout if stream is None else stream
    stream.flush()
    buffered = io.BufferedWriter(_CheckedStdout(stream.fileno()))
    return io.TextIOWrapper(buffered, encoding=stream.encoding, errors="replace",
                            line_buffering=stream.line_buffering)


class _ClosedStdout(io.TextIOBase):
    """Standard output when the process started with it closed (``>&-``): the first write says so, as
    :class:`_CheckedStdout` says a full disk, and later ones are dropped."""

    def __init__(self) -> None:
        super().__init__()
        self._told = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not self._told:
            self._told = True
            raise OutputError("cannot write the output: standard output is closed")
        return len(text)


def standard_streams() -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` safe for a command: stdout writes every byte or says why not
    (:func:`checked_stdout`); a stdout the process started without is an error on first write; a stderr it
    started without goes to the null device. Python sets a closed stream to None, and ``print(file=None)``
    then writes to stdout, so an error message would land in the data; the null device also takes the
    lowest free descriptor, so no file opened later becomes descriptor 1 or 2 by accident."""
    for fd in (1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_WRONLY)  # takes fd, the lowest free descriptor
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()
        return
    try:
        sys.stdout = checked_stdout()
    except (AttributeError, OSError, ValueError):
        pass  # not a file (an embedding program's stream): keep it


def read_word_list(path: str, rule: str = "bulls-cows", guesses: str | None = None):
    """The list game of the word file at ``path`` (``--game words:PATH``, or another of ``rules.LIST_PREFIXES``),
    named after the file (``rules.parse_word_list`` says what a list may hold); ``guesses``: the file of more
    words to guess with (``--guess-list``), or ``"all"``."""
    from pathlib import Path

    from .rules import GameError, parse_word_list

    if not path:
        raise GameError("words: needs a file, as in --game words:my-words.txt (one word per line)")
    text = _ascii_words(read_input(path, "word list"), path)
    more = None if guesses in (None, "all") else _ascii_words(read_input(guesses, "guess list"), guesses)
    return parse_word_list(text, path, Path(path).stem, rule, "all" if guesses == "all" else more, guesses or "")


def _ascii_words(data: bytes, path: str) -> str:
    """A word file's text; a GameError naming the line of a character that is not ASCII."""
    from .rules import GameError

    try:
        return data.decode("ascii")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GameError(f"{path}, line {line}: a character that is not ASCII; words are of the letters A-Z") from None

