"""treegen serve, in-process: what it serves, to whom, and how it survives bad files and bad clients.

Each test starts a real server (``make_server(folder, 0)`` on 127.0.0.1, in a thread) over real files,
symbolic links and FIFOs in ``tmp_path``, and talks HTTP to it over loopback with raw sockets, so that the
Host header, a reset or a silent client are exactly as written. The server's standard error is captured:
a request must never leave a traceback there.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import threading
import time
from pathlib import Path

import pytest
from clitools import run_main

from treegen import serve as served_module
from treegen.serve import ServeError, listing, make_server

REPO = Path(__file__).resolve().parent.parent
GOOD = "mastermind-optimal-average-hard.json"  # the smallest shipped tree (35 kB)


# -- a real server in a thread -------------------------------------------------------------------------


class Served:
    """A running server: its port, and raw HTTP requests to it."""

    def __init__(self, server):
        self.server = server
        self.port = server.server_address[1]
        self.host = f"127.0.0.1:{self.port}"

    def request(self, path: str, host=..., method: str = "GET", extra: str = "") -> tuple[int, dict, bytes]:
        """(status, headers, body) of one request sent byte for byte; ``host`` by default 127.0.0.1:PORT,
        None for no Host header at all."""
        host = self.host if host is ... else host
        head = f"{method} {path} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "") + extra
        raw = self.raw((head + "Connection: close\r\n\r\n").encode())
        assert raw, f"{path[:60]!r}: the connection closed without an HTTP response"
        top, _, body = raw.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        return status, headers, body

    def raw(self, data: bytes, timeout: float = 10) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(data)
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks)


def settle(deadline: float = 10) -> None:
    """Wait until the server has finished every request (its handler threads are gone)."""
    end = time.monotonic() + deadline
    while any("process_request" in t.name for t in threading.enumerate()):
        assert time.monotonic() < end, "a request is still being handled"
        time.sleep(0.02)


@pytest.fixture
def serve(capsys):
    """serve(folder) -> Served; the server stops at the end of the test, and its stderr must then be empty
    (no traceback, no line) unless the test read it first."""
    servers = []

    def start(folder) -> Served:
        server = make_server(folder, 0)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return Served(server)

    yield start
    settle()
    for server in servers:
        server.shutdown()
        server.server_close()
    assert capsys.readouterr().err == ""


def tree_text(**provenance) -> str:
    """A small file with the figures the listing reads (the page checks the rest)."""
    return json.dumps({
        "format": "treegen-tree", "version": 1, "game": {"name": "tiny"}, "strategy": "optimal",
        "provenance": {"objective": "average", "max_guesses": None, **provenance},
        "stats": {"secrets": 2, "total": 3, "max_guesses": 2, "histogram": [0, 1, 1]},
    })


@pytest.fixture
def home(tmp_path) -> Path:
    """A folder as a home folder looks when ``treegen serve`` runs there: a tree among private files."""
    folder = tmp_path / "home"
    folder.mkdir()
    shutil.copy(REPO / "trees" / GOOD, folder / GOOD)
    (folder / "small.json").write_text(tree_text())
    (folder / ".env").write_text("API_KEY=secret\n")
    (folder / ".hidden.json").write_text(tree_text())
    (folder / "notes.txt").write_text("private\n")
    (folder / ".ssh").mkdir()
    (folder / ".ssh" / "id_rsa").write_text("-----BEGIN PRIVATE KEY-----\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "nested.json").write_text(tree_text())
    (folder / "dir.json").mkdir()  # a folder named like a tree file
    (tmp_path / "outside.json").write_text(tree_text())
    (folder / "link-in.json").symlink_to(GOOD)  # a link to a tree file of the folder: served
    (folder / "link-out.json").symlink_to(tmp_path / "outside.json")
    (folder / "link-env.json").symlink_to(".env")
    (folder / "link-txt.json").symlink_to("notes.txt")
    (folder / "link-sub.json").symlink_to("sub/nested.json")
    (folder / "link-dev.json").symlink_to("/dev/zero")
    return folder


# -- what is served -----------------------------------------------------------------------------------


def test_only_the_listed_tree_files_are_served(serve, home):
    srv = serve(home)
    status, _, body = srv.request("/api/trees")
    assert status == 200
    listed = {e["file"] for e in json.loads(body)["trees"]}
    assert listed == {GOOD, "small.json", "link-in.json"}
    for name in listed:
        status, headers, body = srv.request(f"/trees/{name}")
        assert (status, headers["content-type"]) == (200, "application/json"), name
        assert body == (home / name).read_bytes()
    refused = {
        ".env": 404, ".hidden.json": 404, "notes.txt": 404, "sub/nested.json": 404, "sub%2Fnested.json": 404,
        ".ssh/id_rsa": 404, ".ssh%2fid_rsa": 404, "dir.json": 404, "link-out.json": 403, "link-env.json": 403,
        "link-txt.json": 403, "link-sub.json": 403, "link-dev.json": 403, "../outside.json": 403,
        "%2e%2e%2foutside.json": 403, "%252e%252e%252foutside.json": 404, "missing.json": 404,
    }
    for name, want in refused.items():
        status, _, body = srv.request(f"/trees/{name}")
        assert status == want, (name, status, body)
        assert b"secret" not in body and b"PRIVATE" not in body and b"tiny" not in body, name


@pytest.mark.parametrize("path", ["/trees/small.json/", "/trees/./small.json", "/trees/sub/../small.json",
                                  "/trees/small.json%2f", "/trees/small.json/x"])
def test_a_name_with_a_slash_is_404(serve, home, path):
    assert serve(home).request(path)[0] == 404


def test_the_page_head_and_no_store_still_hold(serve, home):
    srv = serve(home)
    for path, name, kind in (("/", "index.html", "text/html"), ("/index.html", "index.html", "text/html"),
                             ("/app.js", "app.js", "text/javascript"), ("/style.css", "style.css", "text/css")):
        status, headers, body = srv.request(path)
        assert status == 200 and headers["content-type"].startswith(kind)
        assert body == (REPO / "treegen" / "web" / name).read_bytes()
        assert headers["cache-control"] == "no-store"
    status, headers, body = srv.request(f"/trees/{GOOD}", method="HEAD")
    assert (status, body) == (200, b"") and int(headers["content-length"]) == (home / GOOD).stat().st_size
    for path in ("/web/app.js", "/serve.py", "/../pyproject.toml", "/api/other", "/trees/"):
        assert srv.request(path)[0] == 404, path


def test_200_concurrent_requests_are_served(serve, home):
    srv = serve(home)
    want = (home / GOOD).read_bytes()
    results = [None] * 200

    def fetch(i):
        results[i] = srv.request(f"/trees/{GOOD}" if i % 2 else "/api/trees")

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r is not None and r[0] == 200 for r in results)
    assert all(r[2] == want for r in results[1::2])


def test_serves_says_what_is_served():
    """The text ``treegen serve --help`` shows."""
    SERVES = getattr(served_module, "SERVES", "")
    lines = SERVES.strip().splitlines()
    assert 2 <= len(lines) <= 4
    for words in ("/api/trees", "*.json", "directly in", "nothing else", "127.0.0.1", "localhost"):
        assert words in SERVES, words


# -- to whom: the Host header -------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/index.html", "/app.js", "/api/trees", f"/trees/{GOOD}", "/nothing"])
def test_a_foreign_host_is_refused_on_every_path(serve, home, path):
    """A page of another site that rebinds its name to 127.0.0.1 sends its own name as Host."""
    srv = serve(home)
    port = srv.port
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}", f"127.0.0.1:{port + 1}",
                 "127.0.0.1", f"localhost:{port}.evil.example", f"0.0.0.0:{port}", "", None):
        status, _, body = srv.request(path, host=host)
        assert status == 403, (path, host, status)
        assert b"tiny" not in body and b"mastermind" not in body.lower() and b"<html" not in body.lower()
    # two Host headers, and an absolute URL naming another host
    assert srv.request(path, extra="Host: evil.example\r\n")[0] == 403
    assert srv.request(f"http://evil.example:{port}{path}")[0] == 403
    assert srv.request(f"http://127.0.0.1:{port}{path}")[0] in (200, 404)


def test_the_served_address_is_answered(serve, home):
    srv = serve(home)
    for host in (f"127.0.0.1:{srv.port}", f"localhost:{srv.port}", f"LocalHost:{srv.port}", f"[::1]:{srv.port}"):
        status, _, body = srv.request("/api/trees", host=host)
        assert status == 200, host
        assert GOOD in {e["file"] for e in json.loads(body)["trees"]}


# -- bad files: each listed with its error, the listing strict JSON, every request answered ------------


def strict(body: bytes):
    def refuse(name):
        raise AssertionError(f"the listing holds {name}")

    return json.loads(body, parse_constant=refuse)


@pytest.fixture
def bad(home) -> Path:
    """The home folder with every kind of bad *.json file next to the good ones."""
    (home / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (home / "deep-ok.json").write_text('{"a":' * 900 + "1" + "}" * 900)  # deep, but no tree
    (home / "nan.json").write_text(tree_text().replace('"objective": "average"', '"objective": NaN'))
    (home / "inf.json").write_text(tree_text().replace('"max_guesses": null', '"max_guesses": -Infinity'))
    (home / "overflow.json").write_text(tree_text().replace('"max_guesses": null', '"max_guesses": 1e400'))
    (home / "nested-figure.json").write_text(tree_text(at_worst={"x": [1, 2]}))
    (home / "huge-total.json").write_text(tree_text().replace('"total": 3', '"total": ' + "9" * 400))
    (home / "broken.json").write_text('{"format": "treegen-tree", "game": ')
    (home / "latin1.json").write_bytes(b'{"game": "\xff"}')
    os.mkfifo(home / "fifo.json")
    (home / "loop1.json").symlink_to("loop2.json")
    (home / "loop2.json").symlink_to("loop1.json")
    (home / "dangling.json").symlink_to("gone.json")
    with open(home / "huge.json", "wb") as f:
        f.truncate(300 * 2**20)  # sparse: larger than treegen reads, without writing 300 MB
    return home


BAD_ERRORS = {
    "deep.json": "nested too deep",
    "nan.json": "not strict JSON (NaN/Infinity)",
    "inf.json": "not strict JSON (NaN/Infinity)",
    "overflow.json": "not strict JSON",
    "nested-figure.json": "not a treegen tree file",
    "huge-total.json": "not a treegen tree file",
    "deep-ok.json": "not a treegen tree file",
    "broken.json": "not JSON",
    "latin1.json": "not JSON",
    "fifo.json": "named pipe",
    "loop1.json": "Too many levels of symbolic links",
    "loop2.json": "Too many levels of symbolic links",
    "dangling.json": "No such file",
    "huge.json": "MB",
}


def test_bad_files_are_listed_beside_the_good(serve, bad):
    srv = serve(bad)
    started = time.monotonic()
    status, headers, body = srv.request("/api/trees")
    assert status == 200 and headers["content-type"] == "application/json"
    data = strict(body)
    json.dumps(data, allow_nan=False)
    entries = {e["file"]: e for e in data["trees"]}
    assert set(entries) == {GOOD, "small.json", "link-in.json", *BAD_ERRORS}
    for name, words in BAD_ERRORS.items():
        assert set(entries[name]) == {"file", "error"} and words in entries[name]["error"], (name, entries[name])
    assert entries["small.json"] == {
        "file": "small.json", "game": "tiny", "strategy": "optimal", "objective": "average", "cap": None,
        "hard": False, "at_worst": None, "secrets": 2, "total": 3, "average": 1.5, "max": 2,
    }
    assert entries[GOOD]["game"] == "mastermind" and "error" not in entries[GOOD]
    assert time.monotonic() - started < 10  # neither the FIFO nor the 300 MB file was read


def test_every_request_for_a_bad_file_gets_a_status(serve, bad):
    srv = serve(bad)
    for name in BAD_ERRORS:
        status, _, body = srv.request(f"/trees/{name}")
        assert status in (200, 403, 404), (name, status)
        if name in ("fifo.json", "loop1.json", "dangling.json", "huge.json"):
            assert status == 403 and BAD_ERRORS[name].encode() in body, (name, body)
    for name in ("a" * 300 + ".json", "%00.json", "x%00/../../etc/passwd", "%C3%A9" * 200 + ".json", "%ff%fe.json"):
        assert srv.request(f"/trees/{name}")[0] in (403, 404), name


@pytest.mark.parametrize("name", ["deep.json", "nan.json", "inf.json", "overflow.json", "fifo.json", "loop1.json"])
def test_one_bad_file_leaves_the_listing_whole(serve, tmp_path, bad, name):
    """Each kind of bad file alone, next to a good tree: the good one is still listed, the bad one with
    its error, in strict JSON."""
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "small.json").write_text(tree_text())
    os.rename(bad / name, folder / name)
    if name == "loop1.json":
        os.rename(bad / "loop2.json", folder / "loop2.json")
    status, _, body = serve(folder).request("/api/trees")
    assert status == 200
    entries = {e["file"]: e for e in strict(body)["trees"]}
    assert entries["small.json"]["total"] == 3
    assert BAD_ERRORS[name] in entries[name]["error"]


@pytest.mark.parametrize("path", ["//[x", "//evil.example/trees/small.json", "/trees/%", "/trees/small.json?x=1#y"])
def test_odd_paths_get_a_status(serve, home, path):
    status, _, body = serve(home).request(path)
    assert status == (200 if "?" in path else 404), (path, status)
    assert (b"tiny" in body) == ("?" in path)


@pytest.mark.parametrize("request_bytes,status", [
    (b"GET / HTTP/9.9\r\nHost: {host}\r\n\r\n", 505),
    (b"GET / HTTP/1.x\r\nHost: {host}\r\n\r\n", 400),
    (b"GET / HTTP/1.1 extra\r\nHost: {host}\r\n\r\n", 400),
    (b"GET /\r\n\r\n", 403),  # no version, so no Host: refused like any request not addressed to us
    (b"\x16\x03\x01\x02\x00" + b"\x00" * 300 + b"\r\n", 400),  # a TLS hello
    (b"\r\n\r\n", 400),
])
def test_malformed_request_lines_get_a_status_line(serve, home, request_bytes, status):
    """Python's server answers a request line without a valid version as HTTP/0.9: a bare body, no status
    line. Every answer here starts with one."""
    srv = serve(home)
    raw = srv.raw(request_bytes.replace(b"{host}", srv.host.encode()))
    assert raw.startswith(b"HTTP/1.0 ") or raw.startswith(b"HTTP/1.1 "), raw[:80]
    assert int(raw.split()[1]) == status, raw[:80]


def test_a_malformed_absolute_url_is_refused(serve, home):
    assert serve(home).request("http://[x/api/trees")[0] == 403


def test_a_name_that_is_not_utf8_is_listed_with_its_error(serve, home):
    with open(os.path.join(os.fsencode(home), b"caf\xe9.json"), "w") as f:
        f.write(tree_text())
    entries = {e["file"]: e for e in strict(serve(home).request("/api/trees")[2])["trees"]}
    assert "not UTF-8" in entries["caf\ufffd.json"]["error"]


def test_a_folder_that_disappears_is_a_500_in_one_line(serve, tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    srv = serve(folder)
    folder.rmdir()
    status, _, body = srv.request("/api/trees")
    assert status == 500 and body.count(b"\n") == 1 and b"cannot list the trees folder" in body
    assert srv.request("/")[0] == 200  # the page still loads


def test_listing_of_a_folder_of_bad_files_is_strict_json(bad):
    json.dumps({"trees": listing(bad)}, allow_nan=False)


# -- bad clients: quiet, and never a held thread --------------------------------------------------------


def reset(sock: socket.socket) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a browser tab killed mid-request does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_a_client_that_resets_is_not_reported(serve, home):
    """The fixture asserts that nothing (no traceback, no line) reached stderr."""
    srv = serve(home)
    big = home / "big.json"
    big.write_text(tree_text(filler="x" * 8_000_000))
    whole = b"GET /trees/big.json HTTP/1.1\r\nHost: %s\r\n\r\n" % srv.host.encode()
    for data in (b"GET /api/trees HTTP/1.1\r\nHo", whole):  # reset while reading, then while writing
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
            sock.sendall(data)
            time.sleep(0.05)  # let the server start answering, then vanish
            reset(sock)
    settle()
    assert srv.request("/api/trees")[0] == 200


def test_an_idle_connection_is_closed(serve, home):
    srv = serve(home)
    handler = srv.server.RequestHandlerClass
    assert handler.timeout is not None and 1 <= handler.timeout <= 60  # every connection has a read timeout
    handler.timeout = 0.5  # instead of waiting that long here
    for data in (b"", b"GET /api/trees HT"):
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
            sock.sendall(data)
            started = time.monotonic()
            try:
                assert sock.recv(1024) == b""  # closed by the server
            except TimeoutError:
                pytest.fail("the server kept an idle connection open for 10 s")
            assert time.monotonic() - started < 5


# -- starting ------------------------------------------------------------------------------------------


def test_an_empty_trees_folder_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what an empty --trees would have served
    for empty in ("", b""):
        with pytest.raises(ServeError, match="the --trees folder is empty; give a folder"):
            make_server(empty, 0)
    status, out, err = run_main(capsys, "serve", "--trees", "", "--port", "0")
    # (the command line may refuse the empty value itself; either way one line, exit 2, nothing served)
    assert status == 2 and out == "" and err.count("\n") == 1 and "empty" in err
    server = make_server(None, 0)  # None: the default folder
    server.server_close()
