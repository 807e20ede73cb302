"""``treegen serve``: a small local web server for the browser page and the tree files of a folder.

Standard library only. It answers only requests whose ``Host`` is the address it serves
(``127.0.0.1:PORT``, ``localhost:PORT``, ``[::1]:PORT``); any other Host gets 403 on every path, so a web
page cannot reach the server through DNS rebinding. It serves three kinds of paths, and nothing else:

- ``/`` (and ``/index.html``, ``/style.css``, ``/app.js``): the page in ``treegen/web/``;
- ``/api/trees``: a strict JSON list of the tree files directly inside the trees folder, with the figures
  read from each file (game, strategy, objective, secrets, total, average, max); a file that is not a
  readable tree (not JSON, nested too deep, NaN, a FIFO, too large, a link loop) is listed with an
  ``error`` instead;
- ``/trees/NAME``: the bytes of one tree file: a ``NAME.json`` directly in the folder, not a dotfile; a
  symbolic link only if it leads to such a file of the same folder. Anything else gets 403 (a path
  leading out of the folder) or 404 (no such tree file: a subfolder, another suffix, a trailing slash).
- ``/api/analyze?game=G&moves=GUESS=HINT,...``: the coach's analysis of a game so far (``analysis``), and
  ``/api/evil?game=G&moves=...&guess=CODE``: the evil host's reply to a guess. They compute; they read no
  file but the folder's least-total tree of the game (the coach's values). A malformed query gets 400
  with the reason. numpy and the search are loaded on the first such request, not before.

The page itself checks every tree it loads (it replays every secret, as ``treegen verify`` does), so the
listing only reads the figures a file claims. A request that fails for any other reason ends in a 500
and one line on standard error, never a traceback; each connection is closed after ``Handler.timeout``
seconds of silence.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from .files import INPUT_LIMIT, InputError, read_input
from .rules import LIST_PREFIXES, TreegenError

# What ``treegen serve --help`` says is served (kept here, next to the code that decides it).
SERVES = (
    "Serves the page (/), the listing of trees (/api/trees) and the *.json tree files directly in the\n"
    "trees folder (/trees/NAME.json; no dotfiles, no subfolders, a link only to such a file of the folder),\n"
    "the coach's answers (/api/analyze, /api/evil: computed, from the folder's least-total trees),\n"
    "nothing else, and only to requests for http://127.0.0.1:PORT/ or http://localhost:PORT/."
)

WEB_DIR = Path(__file__).resolve().parent / "web"
# The page's own files: name -> content type. Only these are served from WEB_DIR.
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
}
LISTING = "/api/trees"
ANALYZE = "/api/analyze"
EVIL = "/api/evil"
TREES = "/trees/"
QUERY_LIMIT = 4096  # characters of a query string: a game of a few dozen moves
MOVES_LIMIT = 40
SUFFIX = ".json"
# Seconds a connection may stay silent before it is closed: an idle or half-open socket would otherwise
# hold a thread forever.
READ_TIMEOUT = 30
# Names under which the server is reached from this machine (the port is appended).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class ServeError(TreegenError):
    """A server that cannot start: a missing or empty folder, a busy port, a bad address."""


class NotServed(ServeError):
    """A request for a tree file that is not served: ``status`` (403 or 404) and a one-line reason."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


class _NotStrict(ValueError):
    """JSON that only Python reads: NaN, Infinity, or a number beyond a double."""


def default_trees_dir() -> Path:
    """The repository's ``trees/`` folder when treegen runs from a checkout, else the current folder.

    An installed (non-editable) package has no ``trees/`` next to it, so the current folder is the only
    sensible guess there.
    """
    shipped = Path(__file__).resolve().parent.parent / "trees"
    return shipped if shipped.is_dir() else Path.cwd()


def is_tree_name(name: str) -> bool:
    """Whether ``name`` may name a served file: ``*.json``, one component, not a dotfile."""
    return name.endswith(SUFFIX) and not name.startswith(".") and "/" not in name and "\0" not in name


def _outside(root: str, path: str) -> bool:
    return os.path.commonpath([root, path]) != root


def tree_path(folder: Path, name: str) -> Path:
    """The file ``/trees/NAME`` reads: ``folder / name`` if that is a served tree file, else NotServed.

    The name is checked as text first (no file is touched for ``..``, a slash or a dotfile), then with
    ``lstat``, so that a link is followed only after checking that it leads to a tree file of the same
    folder. Whether the file is regular and small enough is left to the read (:func:`read_file`).
    """
    root = os.path.realpath(folder)  # so that a link's target compares with it
    if "\0" not in name and _outside(root, os.path.normpath(os.path.join(root, name))):
        raise NotServed(HTTPStatus.FORBIDDEN, f"{name!r} is outside the trees folder")
    if not is_tree_name(name):
        raise NotServed(HTTPStatus.NOT_FOUND, f"no tree file {name!r} (only *.json files directly in the folder)")
    path = os.path.join(root, name)
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):  # missing, a name too long for the file system
        raise NotServed(HTTPStatus.NOT_FOUND, f"no tree file {name!r}") from None
    if stat.S_ISLNK(mode):
        # realpath does not raise on a loop; the read then fails with ELOOP, which the listing reports.
        target = os.path.realpath(path)
        if _outside(root, target):
            raise NotServed(HTTPStatus.FORBIDDEN, f"{name!r} is outside the trees folder")
        if os.path.dirname(target) != root or not is_tree_name(os.path.basename(target)):
            raise NotServed(HTTPStatus.FORBIDDEN, f"{name!r} is a link to a file that is not served "
                                                  "(only *.json files directly in the folder are)")
    if os.path.isdir(path):  # a folder named *.json (or a link to one) is no file, as in a file manager
        raise NotServed(HTTPStatus.NOT_FOUND, f"no tree file {name!r} (it is a folder)")
    return Path(path)


def read_file(path: Path) -> bytes:
    """The bytes of a tree file, refusing a FIFO, a device or a file over INPUT_LIMIT (InputError)."""
    return read_input(str(path), "tree file", INPUT_LIMIT)


def _refuse_constant(name: str):
    raise _NotStrict("not strict JSON (NaN/Infinity)")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrict(f"not strict JSON (a number too large: {text[:20]})")
    return value


def _scalar(value):
    """A listed provenance figure: a JSON scalar (finite by parsing), else TypeError (not a tree file)."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError


def describe_file(path: Path) -> dict | None:
    """The listing entry of one file: the figures it records, or ``error`` if it is not a readable tree;
    None for a value file (``treegen value``), which holds mixed strategies the page does not play, and for
    the table of openings (``scripts/build_trees.py --openings``)."""
    entry: dict = {"file": path.name}
    try:
        # Strict JSON only: the listing is sent with allow_nan=False, and the page's JSON.parse would
        # refuse NaN anyway.
        obj = json.loads(read_file(path), parse_constant=_refuse_constant, parse_float=_finite)
    except InputError as exc:
        entry["error"] = str(exc)
        return entry
    except _NotStrict as exc:
        entry["error"] = str(exc)
        return entry
    except RecursionError:
        entry["error"] = "not JSON treegen reads (nested too deep)"
        return entry
    except ValueError:  # JSONDecodeError, UnicodeDecodeError, an integer of too many digits
        entry["error"] = "not JSON"
        return entry
    if isinstance(obj, dict) and obj.get("format") in ("treegen-value", "treegen-openings"):
        return None  # a value file, or the table of openings (the page reads it as trees/openings.json)
    try:
        if obj.get("format") != "treegen-tree":
            raise KeyError("format")
        stats = obj["stats"]
        secrets, total, most = stats["secrets"], stats["total"], stats["max_guesses"]
        if not all(type(v) is int for v in (secrets, total, most)) or secrets <= 0:
            raise TypeError
        game, strategy = obj["game"]["name"], obj["strategy"]
        if not (isinstance(game, str) and isinstance(strategy, str)):
            raise TypeError
        provenance = obj.get("provenance") if isinstance(obj.get("provenance"), dict) else {}
        entry.update(
            game=game,
            strategy=strategy,
            objective=_scalar(provenance.get("objective")),
            cap=_scalar(provenance.get("max_guesses")),
            hard=provenance.get("consistent_only") is True,
            at_worst=_scalar(provenance.get("at_worst")),
            secrets=secrets,
            total=total,
            average=round(total / secrets, 4),
            max=most,
        )
    except (AttributeError, KeyError, TypeError, OverflowError):
        entry = {"file": path.name, "error": "not a treegen tree file"}
    return entry


def listing(folder: Path) -> list[dict]:
    """The listing of every tree file :func:`tree_path` serves from ``folder`` (links leading out and value
    files left out), sorted by file name; a file that cannot be read is listed with its ``error``."""
    root = Path(os.path.realpath(folder))
    entries = []
    for name in sorted(os.listdir(root)):
        if not is_tree_name(name):
            continue
        try:
            path = tree_path(root, name)
        except NotServed:
            continue
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            # The page could not ask for it (a URL is UTF-8), so say why instead of listing a dead row.
            shown = os.fsencode(name).decode("utf-8", "replace")
            entries.append({"file": shown, "error": "its name is not UTF-8; rename it to serve it"})
            continue
        entry = describe_file(path)
        if entry is not None:
            entries.append(entry)
    return entries


OPENINGS = "openings.json"  # the table of openings (scripts/build_trees.py --openings), if the folder has it


def listing_body(folder: Path) -> bytes:
    """``/api/trees``: the folder, its listing, and whether it holds the table of openings, as strict JSON
    (no NaN or Infinity)."""
    try:
        openings = tree_path(folder, OPENINGS).is_file()
    except NotServed:
        openings = False
    return json.dumps({"folder": str(folder), "trees": listing(folder), "openings": openings}, allow_nan=False).encode()


def _quiet(exc: BaseException) -> bool:
    """A client that went away or stayed silent: nothing to answer and nothing to report."""
    return isinstance(exc, (ConnectionError, TimeoutError))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


class Handler(BaseHTTPRequestHandler):
    """Serves the page, the listing and the tree files of ``self.trees`` (GET and HEAD only), to requests
    whose Host is one of ``self.hosts``."""

    server_version = "treegen"
    trees: Path = Path(".")
    hosts: frozenset = frozenset()
    url = ""  # the address the server prints, named in a refusal
    timeout = READ_TIMEOUT  # socketserver applies it to the connection's socket
    # The standard handler takes a request line without a valid version for HTTP/0.9 and then answers it
    # with a bare body, no status line: every answer here is HTTP/1.0 at least, so every one has a status.
    default_request_version = "HTTP/1.0"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - BaseHTTPRequestHandler API
        pass  # one line per request would bury the URL the user needs

    def handle(self) -> None:
        """One connection; an error reading or writing it (a reset, a timeout) is not the user's concern."""
        try:
            super().handle()
        except Exception as exc:  # noqa: BLE001 - a request must never print a traceback
            if not _quiet(exc):
                print(f"treegen serve: {_one_line(exc)}", file=sys.stderr, flush=True)

    def parse_request(self) -> bool:
        if not self.raw_requestline.strip():  # a blank request line: the standard handler closes silently
            self.command, self.path, self.requestline = None, "", ""  # what send_error's logging reads
            self.request_version = self.default_request_version
            self.close_connection = True
            self.send_error(HTTPStatus.BAD_REQUEST, "empty request line")
            return False
        return super().parse_request()

    def do_HEAD(self) -> None:  # noqa: N802 - BaseHTTPRequestHandler API
        self._answer(head=True)

    def do_GET(self) -> None:  # noqa: N802 - BaseHTTPRequestHandler API
        self._answer(head=False)

    def _answer(self, head: bool) -> None:
        self._started = False
        try:
            self._respond(head)
        except Exception as exc:  # noqa: BLE001 - any failure answers 500 in one line
            if _quiet(exc):
                raise  # handle() drops the connection without a word
            print(f"treegen serve: {self.command} {self.path[:200]}: {_one_line(exc)}", file=sys.stderr, flush=True)
            if self._started:
                self.close_connection = True  # too late for a status: cut the response short
            else:
                self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {_one_line(exc)}", head)

    def _path(self) -> str | None:
        """The request's path, percent-decoded; None if the request is not for this server.

        A page of another site that reaches this server through DNS rebinding still sends its own host
        name, as Host or in an absolute URL (``GET http://evil.example/...``): both must name this server.
        """
        given = self.headers.get_all("Host") or []
        if len(given) != 1 or given[0].strip().lower() not in self.hosts:
            return None
        raw = self.path
        if not raw.startswith("/"):
            try:
                parts = urlsplit(raw)
            except ValueError:  # a malformed URL ("http://[x/")
                return None
            if parts.scheme.lower() != "http" or parts.netloc.lower() not in self.hosts:
                return None
            raw = parts.path or "/"
        # A path of the form //x is a path here, not a host (urlsplit would read x as one).
        raw = raw.split("#", 1)[0]
        self._query = raw.split("?", 1)[1] if "?" in raw else ""
        return unquote(raw.split("?", 1)[0])

    def _respond(self, head: bool) -> None:
        path = self._path()
        if path is None:
            given = ", ".join(repr(h[:100]) for h in self.headers.get_all("Host") or []) or "none"
            return self._error(HTTPStatus.FORBIDDEN, f"this server answers only requests for {self.url} "
                                                     f"(or localhost); the request was for host {given}", head)
        if path == "/":
            path = "/index.html"
        if path == LISTING:
            try:
                body = listing_body(self.trees)
            except OSError as exc:
                return self._error(HTTPStatus.INTERNAL_SERVER_ERROR,
                                   f"cannot list the trees folder {self.trees}: {exc.strerror or exc}", head)
            return self._send(HTTPStatus.OK, "application/json", body, head)
        if path in (ANALYZE, EVIL):
            try:
                body = json.dumps(self._compute(path), allow_nan=False).encode()
            except TreegenError as exc:
                return self._error(HTTPStatus.BAD_REQUEST, str(exc), head)
            return self._send(HTTPStatus.OK, "application/json", body, head)
        if path.startswith(TREES):
            name = path[len(TREES):]
            if not name:
                return self._error(HTTPStatus.NOT_FOUND, "no tree file named; the list is at " + LISTING, head)
            try:
                body = read_file(tree_path(self.trees, name))
            except NotServed as exc:
                return self._error(exc.status, str(exc), head)
            except InputError as exc:  # a FIFO, a device, a file too large, a link loop
                return self._error(HTTPStatus.FORBIDDEN, str(exc), head)
            return self._send(HTTPStatus.OK, "application/json", body, head)
        name = path.lstrip("/")
        if name in STATIC:
            return self._send(HTTPStatus.OK, STATIC[name], (WEB_DIR / name).read_bytes(), head)
        return self._error(HTTPStatus.NOT_FOUND, f"no page {path!r}", head)

    def _compute(self, path: str) -> dict:
        """The answer of /api/analyze or /api/evil, from the query; TreegenError for a bad one."""
        from .rules import parse_code, parse_history

        if len(self._query) > QUERY_LIMIT:
            raise TreegenError(f"the query is over {QUERY_LIMIT} characters")
        try:
            query = parse_qs(self._query, keep_blank_values=True, strict_parsing=False, max_num_fields=8)
        except ValueError as exc:
            raise TreegenError(f"the query cannot be read: {exc}") from None
        want = ("game", "moves", "guess") if path == EVIL else ("game", "moves")
        unknown = sorted(set(query) - set(want))
        if unknown or any(len(query.get(k, [])) != 1 for k in want):
            raise TreegenError(f"{path} takes exactly these parameters, once each: {', '.join(want)} "
                               "(moves: GUESS=HINT pairs separated by commas, or empty)")
        name = query["game"][0]
        if name.strip().lower().startswith(tuple(LIST_PREFIXES)):
            # The command line's way to read a word list from a file: the server reads no file but its
            # folder's trees, and knows a list game by them.
            raise TreegenError("a word list is named by a tree of the folder, not by a file (words:...)")
        game = self.coach.game(name)
        history = parse_history(game, filter(None, query["moves"][0].split(",")))
        if len(history) > MOVES_LIMIT:
            raise TreegenError(f"a game of {len(history)} moves; at most {MOVES_LIMIT} are analysed")
        coach = self.coach.get()
        if path == EVIL:
            return coach.evil(game, history, parse_code(game, query["guess"][0]))
        return coach.analyze(game, history)

    def _error(self, status: HTTPStatus, message: str, head: bool) -> None:
        self._send(status, "text/plain; charset=utf-8", (message + "\n").encode(), head)

    def _send(self, status: HTTPStatus, ctype: str, body: bytes, head: bool) -> None:
        self._started = True
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a rebuilt tree shows up on reload
        self.end_headers()
        if not head:
            self.wfile.write(body)


class CoachSlot:
    """The server's coach (``analysis.Coach``), made on first use: importing it loads numpy and the search,
    which the page and the tree files never need. Its values come from the folder's least-total trees."""

    def __init__(self, folder: Path) -> None:
        import threading

        self.folder = folder
        self._coach = None
        self._lock = threading.Lock()

    def get(self):
        with self._lock:
            if self._coach is None:
                from .analysis import Coach

                self._coach = Coach(self.reference)
            return self._coach

    def game(self, name: str):
        """The game ``name`` names: a preset or spec (``rules.resolve_game``), else the game of a tree of the
        folder by that name (a list game of the user's words is known only from its trees)."""
        from .rules import GameError, resolve_game

        try:
            return resolve_game(name)
        except GameError:
            from .tree import load_tree

            games = [load_tree(self.folder / entry["file"]).game for entry in listing(self.folder)
                     if entry.get("game") == name]
            if not games:
                raise
            if any(not g.same_rules(games[0]) for g in games):
                # A list game is named after its file: two lists (or rules) of one name cannot be told apart here.
                raise GameError(f"the folder's trees named {name!r} are of different games (other words, guesses or "
                                "hint rule); give each game a name of its own") from None
            return games[0]

    def reference(self, game) -> str | None:
        """The first tree of the folder (by name) that says it is the least total of ``game``, no cap, not
        hard mode; the coach checks its provenance again before using it."""
        for entry in listing(self.folder):
            if (entry.get("game") == game.name and entry.get("objective") == "average" and entry.get("cap") is None
                    and not entry.get("hard")):
                return str(self.folder / entry["file"])
        return None


class Server(ThreadingHTTPServer):
    """The threading server, with a listen queue for a page's burst of requests, and one line instead of
    a traceback for anything a request raises past the handler."""

    request_queue_size = 128  # the default 5 makes a burst of connections wait for SYN retries

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if exc is not None and not _quiet(exc):
            print(f"treegen serve: {_one_line(exc)}", file=sys.stderr, flush=True)


def _allowed_hosts(host: str, port: int) -> frozenset:
    names = {*LOOPBACK_NAMES, f"[{host}]" if ":" in host else host}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:  # a browser leaves the default port out of Host
        hosts |= names
    return frozenset(h.lower() for h in hosts)


def make_server(trees: str | os.PathLike | None, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A bound (not yet serving) server for the page and the tree files of ``trees`` (None: the default
    folder), answering only requests whose Host is ``127.0.0.1``, ``localhost`` or ``[::1]`` with the
    bound port.

    Raises :class:`ServeError` for an empty or missing folder, a port out of range or in use.
    """
    if trees is not None and os.fspath(trees) in ("", b""):
        # Path("") is the current folder: an empty --trees (an unset variable) must not serve it.
        raise ServeError("the --trees folder is empty; give a folder of tree files, or leave --trees out "
                         "for the default")
    folder = Path(trees) if trees is not None else default_trees_dir()
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ServeError(f"trees folder {folder} {what}; give a folder of tree files with --trees DIR")
    if not 0 <= port <= 65535:
        raise ServeError(f"--port must be 0 to 65535 (0 picks a free port), not {port}")
    root = Path(os.path.realpath(folder))
    handler = type("TreesHandler", (Handler,), {"trees": root, "coach": CoachSlot(root)})
    try:
        server = Server((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} on {host} is in use; pick another with --port N, or --port 0 for a free one") from None
        if exc.errno == errno.EACCES:
            raise ServeError(f"no permission to listen on port {port}; use a port above 1023, or --port 0") from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound = server.server_address[1]
    handler.hosts = _allowed_hosts(host, bound)
    handler.url = f"http://{f'[{host}]' if ':' in host else host}:{bound}/"
    return server


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


__all__ = [
    "SERVES", "NotServed", "ServeError", "default_trees_dir", "describe_file", "is_tree_name", "listing",
    "listing_body", "make_server", "read_file", "run", "tree_path",
]
