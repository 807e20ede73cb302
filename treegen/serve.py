"""``treegen serve``: a small local web server for the browser page and the tree files of a folder.

Standard library only. It serves three kinds of paths, and nothing else:

- ``/`` (and ``/index.html``, ``/style.css``, ``/app.js``): the page in ``treegen/web/``;
- ``/api/trees``: a JSON list of the tree files (``*.json``) directly inside the trees folder, with the
  figures read from each file (game, strategy, objective, secrets, total, average, max); a file that is
  not a readable tree is listed with an ``error`` instead;
- ``/trees/NAME``: the bytes of one file inside the trees folder. A path that resolves outside the folder
  (``..``, an absolute path, a symbolic link leading out) gets 403; a missing file 404.

The page itself checks every tree it loads (it replays every secret, as ``treegen verify`` does), so the
listing only reads the figures a file claims.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .rules import TreegenError

WEB_DIR = Path(__file__).resolve().parent / "web"
# The page's own files: name -> content type. Only these are served from WEB_DIR.
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
}
LISTING = "/api/trees"
TREES = "/trees/"


class ServeError(TreegenError):
    """A server that cannot start: a missing folder, a busy port, a bad address."""


def default_trees_dir() -> Path:
    """The repository's ``trees/`` folder when treegen runs from a checkout, else the current folder.

    An installed (non-editable) package has no ``trees/`` next to it, so the current folder is the only
    sensible guess there.
    """
    shipped = Path(__file__).resolve().parent.parent / "trees"
    return shipped if shipped.is_dir() else Path.cwd()


def describe_file(path: Path) -> dict | None:
    """The listing entry of one file: the figures it records, or ``error`` if it is not a readable tree;
    None for a value file (``treegen value``), which holds mixed strategies the page does not play."""
    entry: dict = {"file": path.name}
    try:
        obj = json.loads(path.read_bytes())
    except OSError as exc:
        entry["error"] = f"cannot read it: {exc.strerror or exc}"
        return entry
    except (ValueError, UnicodeDecodeError):
        entry["error"] = "not JSON"
        return entry
    if isinstance(obj, dict) and obj.get("format") == "treegen-value":
        return None
    try:
        if obj.get("format") != "treegen-tree":
            raise KeyError("format")
        stats = obj["stats"]
        secrets, total, most = stats["secrets"], stats["total"], stats["max_guesses"]
        if not all(type(v) is int for v in (secrets, total, most)) or secrets <= 0:
            raise TypeError
        provenance = obj.get("provenance") if isinstance(obj.get("provenance"), dict) else {}
        entry.update(
            game=str(obj["game"]["name"]),
            strategy=str(obj["strategy"]),
            objective=provenance.get("objective"),
            cap=provenance.get("max_guesses"),
            hard=provenance.get("consistent_only") is True,
            at_worst=provenance.get("at_worst"),
            secrets=secrets,
            total=total,
            average=round(total / secrets, 4),
            max=most,
        )
    except (AttributeError, KeyError, TypeError):
        entry = {"file": path.name, "error": "not a treegen tree file"}
    return entry


def listing(folder: Path) -> list[dict]:
    """The listing of every ``*.json`` file directly inside ``folder`` (links leading out of it left out,
    value files too), sorted by file name."""
    entries = (describe_file(p) for p in sorted(folder.glob("*.json")) if p.is_file() and resolve_inside(folder, p.name))
    return [e for e in entries if e is not None]


def resolve_inside(folder: Path, name: str) -> Path | None:
    """``folder / name`` with links resolved, or None if that lies outside ``folder``."""
    root = folder.resolve()
    target = (root / name).resolve()
    return target if target == root or root in target.parents else None


class Handler(BaseHTTPRequestHandler):
    """Serves the page, the listing and the tree files of ``self.trees`` (GET and HEAD only)."""

    server_version = "treegen"
    trees: Path = Path(".")

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - BaseHTTPRequestHandler API
        pass  # one line per request would bury the URL the user needs

    def do_HEAD(self) -> None:  # noqa: N802 - BaseHTTPRequestHandler API
        self._respond(head=True)

    def do_GET(self) -> None:  # noqa: N802 - BaseHTTPRequestHandler API
        self._respond(head=False)

    def _respond(self, head: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        if path == "/":
            path = "/index.html"
        if path == LISTING:
            body = json.dumps({"folder": str(self.trees), "trees": listing(self.trees)}).encode()
            return self._send(HTTPStatus.OK, "application/json", body, head)
        if path.startswith(TREES):
            name = path[len(TREES):]
            if not name:
                return self._error(HTTPStatus.NOT_FOUND, "no tree file named; the list is at " + LISTING, head)
            target = resolve_inside(self.trees, name) if "\0" not in name else None
            if target is None:
                return self._error(HTTPStatus.FORBIDDEN, f"{name!r} is outside the trees folder", head)
            if not target.is_file():
                return self._error(HTTPStatus.NOT_FOUND, f"no tree file {name!r}", head)
            try:
                body = target.read_bytes()
            except OSError as exc:
                return self._error(HTTPStatus.FORBIDDEN, f"cannot read {name!r}: {exc.strerror}", head)
            return self._send(HTTPStatus.OK, "application/json", body, head)
        name = path.lstrip("/")
        if name in STATIC:
            return self._send(HTTPStatus.OK, STATIC[name], (WEB_DIR / name).read_bytes(), head)
        return self._error(HTTPStatus.NOT_FOUND, f"no page {path!r}", head)

    def _error(self, status: HTTPStatus, message: str, head: bool) -> None:
        self._send(status, "text/plain; charset=utf-8", (message + "\n").encode(), head)

    def _send(self, status: HTTPStatus, ctype: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a rebuilt tree shows up on reload
        self.end_headers()
        if not head:
            self.wfile.write(body)


def make_server(trees: str | os.PathLike | None, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A bound (not yet serving) server for the page and the tree files of ``trees``.

    Raises :class:`ServeError` for a missing folder, a port out of range or in use.
    """
    folder = Path(trees) if trees is not None else default_trees_dir()
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ServeError(f"trees folder {folder} {what}; give a folder of tree files with --trees DIR")
    if not 0 <= port <= 65535:
        raise ServeError(f"--port must be 0 to 65535 (0 picks a free port), not {port}")
    handler = type("TreesHandler", (Handler,), {"trees": folder.resolve()})
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {host} is in use; pick another with --port N, or --port 0 for a free one") from None
        if exc.errno == errno.EACCES:
            raise ServeError(f"no permission to listen on port {port}; use a port above 1023, or --port 0") from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def run(trees: str | None, port: int, open_browser: bool = False) -> int:
    """``treegen serve``: print the URL, serve until Ctrl-C (exit 130) or SIGTERM (exit 143)."""
    import signal

    server = make_server(trees, port)
    signals: list[int] = []

    def terminate(signum, frame):
        signals.append(signum)
        raise KeyboardInterrupt  # stop as after Ctrl-C

    signal.signal(signal.SIGTERM, terminate)
    try:
        host, bound = server.server_address[:2]
        url = f"http://{host}:{bound}/"
        folder = server.RequestHandlerClass.trees
        print(f"treegen serve: {url}  (trees from {folder}; Ctrl-C stops)", flush=True)
        if open_browser:
            import webbrowser

            if not webbrowser.open(url):
                print("treegen serve: found no web browser to open; open the URL above yourself", file=sys.stderr)
        server.serve_forever()
    except KeyboardInterrupt:
        print("treegen serve: stopped", file=sys.stderr)
        return 143 if signals else 130
    finally:
        server.server_close()
    return 0


__all__ = ["ServeError", "default_trees_dir", "describe_file", "listing", "make_server", "resolve_inside", "run"]
