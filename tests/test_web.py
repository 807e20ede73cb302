"""treegen serve and the browser page (treegen/web/): the server over HTTP, then the page in headless Chromium.

The server tests talk HTTP to a real ``treegen serve --port 0`` process. The browser tests drive the page
through Playwright with Debian's Chromium (browser downloads are not available, so Playwright is pointed at
/usr/bin/chromium); they are skipped, with the reason, only when Playwright or Chromium is missing. Hints
the tests give are computed by a naive scorer written here from the definition; the tree's own moves come
from ``treegen.play.moves_for``.

Set TREEGEN_SCREENSHOTS=DIR to also write the README's screenshots into DIR (docs/).
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from clitools import TREEGEN

from treegen.play import moves_for
from treegen.rules import resolve_game, score_codes
from treegen.tree import load_tree

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "trees"
WEB = REPO / "treegen" / "web"
BC = "bulls-cows-optimal-average.json"
MM = "mastermind-optimal-average.json"
NB = "numbers-baseball-optimal-average.json"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


# -- independent references -----------------------------------------------------------------------


def naive_hint(guess: str, secret: str) -> tuple[int, int]:
    """(bulls, cows): bulls agree in place; cows are the common symbols (with multiplicity) minus bulls."""
    bulls = sum(1 for a, b in zip(guess, secret) if a == b)
    common = sum(min(guess.count(x), secret.count(x)) for x in set(guess))
    return bulls, common - bulls


def naive_codes(game) -> list[str]:
    pick = itertools.product if game.repeats else itertools.permutations
    args = {"repeat": game.positions} if game.repeats else {"r": game.positions}
    return ["".join(c) for c in pick(game.alphabet, **args)]


def consistent(codes: list[str], history: list[tuple[str, tuple[int, int]]]) -> list[str]:
    return [s for s in codes if all(naive_hint(g, s) == h for g, h in history)]


# -- the server as a process ------------------------------------------------------------------------


def start_server(*args: str, cwd=None):
    """``treegen serve --port 0 ARGS``; returns (process, URL) once it prints its URL (30 s at most)."""
    proc = subprocess.Popen(
        [TREEGEN, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    ready = sel.select(timeout=30)
    sel.close()
    line = proc.stdout.readline() if ready else ""
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"treegen serve printed no URL: {line!r} {out!r} {err!r}")
    return proc, m.group(0)


def stop_server(proc) -> tuple[int, str]:
    """Ctrl-C the server; its exit status and stderr."""
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def get(url: str, path: str, method: str = "GET") -> tuple[int, str, bytes]:
    """(status, content type, body) of a raw request: the path goes out exactly as given."""
    m = re.match(r"http://([\d.]+):(\d+)/", url)
    conn = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=30)
    try:
        conn.request(method, path)
        res = conn.getresponse()
        return res.status, res.getheader("Content-Type") or "", res.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def trees_dir(tmp_path_factory) -> Path:
    """A trees folder: three shipped trees, a corrupt file, a JSON file that is no tree, and a secret
    file next to the folder (which must stay unreachable)."""
    base = tmp_path_factory.mktemp("serve")
    folder = base / "trees"
    folder.mkdir()
    for name in (BC, MM, NB):
        shutil.copy(SHIPPED / name, folder / name)
    (folder / "broken.json").write_text('{"format": "treegen-tree", "version": 1, "game": ')
    (folder / "other.json").write_text('{"hello": "world"}')
    (folder / "notes.txt").write_text("not listed")
    (base / "secret.txt").write_text("outside the trees folder")
    (folder / "link.json").symlink_to(base / "secret.txt")
    return folder


@pytest.fixture(scope="module")
def server(trees_dir):
    proc, url = start_server("--trees", str(trees_dir))
    yield url
    if proc.poll() is None:
        stop_server(proc)


# -- the server -----------------------------------------------------------------------------------


def test_listing_reads_each_file(server, trees_dir):
    status, ctype, body = get(server, "/api/trees")
    assert status == 200 and ctype.startswith("application/json")
    data = json.loads(body)
    assert data["folder"] == str(trees_dir.resolve())
    entries = {e["file"]: e for e in data["trees"]}
    # *.json files only, and not link.json, whose target lies outside the folder
    assert sorted(entries) == sorted(["broken.json", "other.json", BC, MM, NB])
    for name in (BC, MM, NB):
        tree = load_tree(SHIPPED / name)
        want = {
            "file": name, "game": tree.game.name, "strategy": tree.strategy,
            "objective": tree.provenance["objective"], "cap": tree.provenance["max_guesses"],
            "secrets": tree.stats.secrets, "total": tree.stats.total,
            "average": round(tree.stats.total / tree.stats.secrets, 4), "max": tree.stats.max_guesses,
            "hard": tree.provenance.get("consistent_only") is True, "at_worst": tree.provenance.get("at_worst"),
        }
        assert entries[name] == want
    assert entries[BC]["total"] == 26274 and entries[MM]["total"] == 5625  # REFERENCE figures
    assert entries["broken.json"] == {"file": "broken.json", "error": "not JSON"}
    assert entries["other.json"] == {"file": "other.json", "error": "not a treegen tree file"}


def test_value_files_are_left_out_of_the_listing(tmp_path):
    from treegen.serve import listing

    shutil.copy(SHIPPED / MM, tmp_path / MM)
    shutil.copy(SHIPPED / "mastermind-value.json", tmp_path / "mastermind-value.json")
    assert [e["file"] for e in listing(tmp_path)] == [MM]


def test_tree_files_and_page_are_served(server, trees_dir):
    status, ctype, body = get(server, f"/trees/{MM}")
    assert (status, ctype) == (200, "application/json") and body == (trees_dir / MM).read_bytes()
    for path, name, kind in (("/", "index.html", "text/html"), ("/app.js", "app.js", "text/javascript"),
                             ("/style.css", "style.css", "text/css")):
        status, ctype, body = get(server, path)
        assert status == 200 and ctype.startswith(kind) and body == (WEB / name).read_bytes()
    status, _, body = get(server, f"/trees/{MM}", method="HEAD")
    assert status == 200 and body == b""


@pytest.mark.parametrize("path", [
    "/trees/../secret.txt", "/trees/%2e%2e/secret.txt", "/trees/..%2fsecret.txt", "/trees/link.json",
    "/trees//etc/passwd", "/trees/%2Fetc%2Fpasswd", "/trees/../../../../etc/passwd",
])
def test_paths_outside_the_folder_are_refused(server, path):
    status, _, body = get(server, path)
    assert status == 403, (path, status)
    assert body.endswith(b" is outside the trees folder\n"), body


@pytest.mark.parametrize("path", ["/trees/missing.json", "/trees/", "/nothing.html", "/api/other", "/web/app.js",
                                  "/serve.py", "/../pyproject.toml"])
def test_unknown_paths_are_404(server, path):
    status, _, _ = get(server, path)
    assert status == 404, (path, status)


def test_default_folder_is_the_repository_trees(tmp_path):
    proc, url = start_server(cwd=tmp_path)
    try:
        files = [e["file"] for e in json.loads(get(url, "/api/trees")[2])["trees"]]
    finally:
        code, err = stop_server(proc)
    assert files == sorted(p.name for p in SHIPPED.glob("*.json") if not p.name.endswith("-value.json") and p.name != "openings.json")
    assert code == 130 and "Traceback" not in err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signals_stop_the_server_cleanly(trees_dir, sig):
    """Ctrl-C exits 130 and SIGTERM 143, as every treegen command does, with one line and no traceback."""
    proc, _ = start_server("--trees", str(trees_dir))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == (130 if sig == signal.SIGINT else 143)
    assert err == "treegen serve: stopped\n"


def test_bad_starts_are_one_line_errors(tmp_path):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        cases = [
            (["serve", "--port", str(port), "--trees", str(tmp_path)], f"port {port} on 127.0.0.1 is in use"),
            (["serve", "--port", "0", "--trees", str(tmp_path / "nope")], "does not exist"),
            (["serve", "--port", "0", "--trees", str(Path(__file__))], "is not a folder"),
            (["serve", "--port", "70000"], "argument --port/-p: the value must be from 0 to 65535, not 70000"),
        ]
        for argv, words in cases:
            proc = subprocess.run([TREEGEN, *argv], capture_output=True, text=True, timeout=60)
            assert proc.returncode == 2, (argv, proc.stderr)
            assert proc.stderr.count("\n") == 1 and words in proc.stderr and proc.stdout == "", (argv, proc.stderr)
    finally:
        busy.close()


# -- the page in a real browser ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]' installs it"
    )
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed: apt-get install -y chromium (as .ci/run does)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A fresh page; any JavaScript error on it fails the test."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.base = server
    yield pg
    context.close()
    assert errors == []


def open_tree(page, name: str) -> None:
    page.goto(page.base)
    page.click(f'#shipped tr[data-file="{name}"]')
    page.wait_for_selector(f'body[data-loaded="{name}"]')


def count_of(page, selector: str) -> int:
    return int(re.match(r"[\d,]+", page.text_content(selector)).group(0).replace(",", ""))


GAMES_TO_SCORE = ["bulls-cows", "mastermind", "numbers-baseball", "mastermind-digits", "smash-the-code", "royale",
                  "bc:3:6", "mm:5:3", "mm:6:4", "bc:6:8", "mm:1:2", "bc:2:36", "mm:8:3", "black-pegs", "jotto",
                  "word-mastermind"]


def test_javascript_scores_as_python(page):
    """Random pairs of every preset and some specs, scored by the page's JavaScript and by treegen.rules
    (and by the naive scorer above); the hints each game can give, listed by both."""
    page.goto(page.base)
    rng = random.Random(14)
    jobs, want, hint_games = [], [], []
    for name in GAMES_TO_SCORE:
        game = resolve_game(name)
        pairs = [(rng.randrange(game.size), rng.randrange(game.size)) for _ in range(2000)]
        pairs += [(k, k) for k in range(0, game.size, max(1, game.size // 50))]  # some all-bulls pairs
        text = [["".join(game.alphabet[s] for s in game.codes[g]), "".join(game.alphabet[s] for s in game.codes[s])]
                for g, s in pairs]
        from treegen.rules import game_to_dict

        gdict = game_to_dict(game)  # with the list of words and the rule, for those games
        jobs.append([gdict, text])
        py = [score_codes(game, g, s) for g, s in pairs]
        naive = [(lambda b, c: b * (game.positions + 1) + c)(*naive_hint(g, s)) for g, s in text]
        if game.rule == "bulls-cows":  # the other rules' definitions are checked in test_hint_rules.py
            assert py == naive, name
        want.append(py)
        if game.size <= 20000:
            hint_games.append((gdict, sorted(game.possible_hints)))
    # One JSON string each way: Playwright serialises nested arrays value by value, which took seconds.
    js = json.loads(page.evaluate(
        "(jobs) => JSON.stringify(JSON.parse(jobs).map(([g, pairs]) => window.treegen.scorePairs(g, pairs)))",
        json.dumps(jobs),
    ))
    for name, got, py in zip(GAMES_TO_SCORE, js, want):
        assert got == py, name
    assert sum(map(len, want)) > 24000
    hints = page.evaluate("(games) => games.map((g) => window.treegen.possibleHints(g))", [g for g, _ in hint_games])
    assert hints == [h for _, h in hint_games]


def test_every_shipped_tree_checks_in_the_browser(page):
    """The page's own check (every secret replayed) accepts each shipped tree, with treegen verify's figures."""
    from treegen.verify import verify_tree

    page.goto(page.base)
    files = sorted(p for p in SHIPPED.glob("*.json") if not p.name.endswith("-value.json") and p.name != "openings.json")  # trees only
    got = page.evaluate("(texts) => texts.map((t) => window.treegen.readTree(t).stats)", [p.read_text() for p in files])
    for path, stats in zip(files, got):
        want = verify_tree(load_tree(path))
        assert (stats["secrets"], stats["total"], stats["max_guesses"], stats["histogram"]) == (
            want.secrets, want.total, want.max_guesses, list(want.histogram)), path.name


def _click_hint(page, game, bulls: int, cows: int) -> None:
    """Answer with the buttons: bulls/cows, black/white pegs, or strikes/balls (ball counts strikes)."""
    second = bulls + cows if game.notation == "baseball" else cows
    page.click(f'#g-answer .count[data-row="0"][data-value="{bulls}"]')
    page.click(f'#g-answer .count[data-row="1"][data-value="{second}"]')
    page.click("#g-submit")


@pytest.mark.parametrize("name, seed", [(BC, 1), (MM, 2), (NB, 3)])
def test_computer_guesses_your_secret(page, name, seed):
    tree = load_tree(SHIPPED / name)
    game = tree.game
    codes = naive_codes(game)
    secret = random.Random(seed).choice(codes)
    open_tree(page, name)
    assert count_of(page, "#g-count") == len(codes)
    history = []
    while page.is_hidden("#g-done"):
        guess = page.get_attribute("#g-guess .code", "data-code")
        hint = naive_hint(guess, secret)
        history.append((guess, hint))
        _click_hint(page, game, *hint)
        assert page.is_hidden("#g-message"), page.text_content("#g-message")
        if hint[0] != game.positions:
            assert count_of(page, "#g-count") == len(consistent(codes, history))
        assert len(history) <= tree.stats.max_guesses
    assert [g for g, _ in history] == [g for g, _ in moves_for(tree, secret)]
    assert page.get_attribute("#g-done .code", "data-code") == secret
    assert f"took {len(history)} guess" in page.text_content("#g-done")
    assert page.locator("#g-history li").count() == len(history)


def test_impossible_and_inconsistent_answers_are_refused(page):
    tree = load_tree(SHIPPED / BC)
    game = tree.game
    codes = naive_codes(game)
    open_tree(page, BC)
    first = page.get_attribute("#g-guess .code", "data-code")
    _click_hint(page, game, 3, 1)  # cannot occur: the fourth symbol would have to be misplaced
    assert "cannot occur in bulls-cows" in page.text_content("#g-message")
    _click_hint(page, game, 2, 3)  # five symbols in four positions
    assert "counts 5 symbols" in page.text_content("#g-message")
    assert page.locator("#g-history li").count() == 0 and count_of(page, "#g-count") == 5040
    _click_hint(page, game, 0, 4)
    assert page.is_hidden("#g-message")
    second = page.get_attribute("#g-guess .code", "data-code")
    left = consistent(codes, [(first, (0, 4))])
    assert count_of(page, "#g-count") == len(left)
    given = {naive_hint(second, s) for s in left}
    bad = next((b, c) for b in range(5) for c in range(5 - b) if (b, c) not in given and (b, c) != (3, 1))
    _click_hint(page, game, *bad)
    message = page.text_content("#g-message")
    assert "That cannot be right" in message and f"{second} → {bad[0]}A{bad[1]}B" in message, message
    assert page.locator("#g-history li").count() == 1 and count_of(page, "#g-count") == len(left)
    page.click("#g-undo")
    assert page.locator("#g-history li").count() == 0 and count_of(page, "#g-count") == 5040
    # "You found it" for a guess that cannot be the secret any more is refused too.
    hint, child = next((h, c) for h, c in tree.root.next
                       if c.guess not in consistent(codes, [(first, (int(h[0]), int(h[2])))]))
    _click_hint(page, game, int(hint[0]), int(hint[2]))
    assert page.get_attribute("#g-guess .code", "data-code") == child.guess
    _click_hint(page, game, 4, 0)
    assert "That cannot be right" in page.text_content("#g-message") and page.is_hidden("#g-done")


def test_baseball_strikes_cannot_exceed_balls(page):
    open_tree(page, NB)
    page.click('#g-answer .count[data-row="0"][data-value="2"]')
    page.click('#g-answer .count[data-row="1"][data-value="1"]')
    page.click("#g-submit")
    assert "ball counts the strikes too" in page.text_content("#g-message")


@pytest.mark.parametrize("name", [BC, MM])
def test_you_guess_with_the_trees_advice(page, name):
    tree = load_tree(SHIPPED / name)
    game = tree.game
    codes = naive_codes(game)
    open_tree(page, name)
    page.click('#tabs button[data-tab="host"]')
    # A malformed guess is refused with the rule, and a guess off the tree's path leaves it without advice.
    page.fill("#h-input", "12")
    page.press("#h-input", "Enter")
    assert f"codes have {game.positions} symbols from {game.alphabet}" in page.text_content("#h-message")
    assert page.locator("#h-history tr").count() == 0
    off = next(c for c in codes if c != tree.root.guess)
    page.fill("#h-input", off)
    page.click('#h-form button[type="submit"]')
    if page.is_visible("#h-done"):  # the random secret happened to be that guess
        return
    page.click("#h-advice")
    assert f"it plays {tree.root.guess} there, you played {off}" in page.text_content("#h-message")
    page.click("#h-giveup")
    secret = page.get_attribute("#h-done .big .code", "data-code")
    assert "You gave up after 1 guess" in page.text_content("#h-verdict")
    # A new game, played by the tree's advice alone: it must follow the tree's path for the secret.
    page.click("#h-done button")
    moves = []
    while page.is_hidden("#h-done"):
        page.click("#h-advice")
        advice = page.input_value("#h-input")
        assert f"The tree plays {advice} here" in page.text_content("#h-message")
        page.click('#h-form button[type="submit"]')
        moves.append(advice)
        assert len(moves) <= tree.stats.max_guesses
    secret = page.get_attribute("#h-done .big .code", "data-code")
    path = moves_for(tree, secret)
    assert moves == [g for g, _ in path]
    assert "You matched the tree" in page.text_content("#h-verdict")
    rows = page.locator("#h-history tr")
    for k, (guess, _) in enumerate(path):
        cells = rows.nth(k).locator("td")
        assert cells.nth(2).locator(".hint").get_attribute("data-hint") == "{}A{}B".format(*naive_hint(guess, secret))
        left = len(consistent(codes, [(g, naive_hint(g, secret)) for g, _ in path[: k + 1]]))
        assert cells.nth(3).text_content() == ("found" if guess == secret else f"{left:,} secret{'s' if left != 1 else ''} left")


def test_explore_finds_a_secrets_path(page):
    tree = load_tree(SHIPPED / MM)
    open_tree(page, MM)
    page.click('#tabs button[data-tab="explore"]')
    bars = page.locator("#histogram svg .bar .count").all_text_contents()
    assert [int(b.replace(",", "")) for b in bars] == list(tree.stats.histogram[1:])
    # The first level: one row per hint of the root, with the size of its class.
    game = tree.game
    codes = naive_codes(game)
    rows = page.locator('#x-tree li[data-path=""] > ul > li > .row')
    assert rows.count() == len(tree.root.next)
    for k, (hint, child) in enumerate(tree.root.next):
        b, c = int(hint[0]), int(hint[2])
        size = len(consistent(codes, [(tree.root.guess, (b, c))]))
        row = rows.nth(k)
        assert row.locator(".hint").get_attribute("data-hint") == hint
        assert row.locator(".size").text_content() == f"{size:,} secret{'s' if size != 1 else ''}"
        assert row.locator(".code").get_attribute("data-code") == child.guess
    secret = "6543"
    page.fill("#x-search", secret)
    page.press("#x-search", "Enter")
    path = moves_for(tree, secret)
    shown = page.locator("#x-result .step")
    assert shown.count() == len(path)
    for k, (guess, hint) in enumerate(path):
        assert shown.nth(k).locator(".code").get_attribute("data-code") == guess
        assert shown.nth(k).locator(".hint").get_attribute("data-hint") == hint
    assert page.locator("#x-tree li.on-path").count() == len(path)
    assert page.get_attribute("#histogram .bar.mark", "data-guesses") == str(len(path))
    page.fill("#x-search", "7777")
    page.press("#x-search", "Enter")
    assert "uses 7; codes use only the symbols 123456" in page.text_content("#x-result")


def _corrupt(tmp_path: Path) -> list[tuple[str, bytes, str]]:
    """(file name, contents, words the page must show) for files that are not valid trees; the words of the
    invalid trees are treegen verify's own message for the same file."""
    from treegen.tree import tree_from_bytes
    from treegen.verify import verify_tree

    good = json.loads((SHIPPED / MM).read_bytes())
    missing = json.loads(json.dumps(good))
    del missing["root"]["next"]["0A2B"]["next"]["0A1B"]
    dead = json.loads(json.dumps(good))
    node = dead["root"]["next"]["1A0B"]["next"]["1A0B"]  # a node that some hint of mastermind does not reach
    extra = next(f"{b}A{c}B" for b in range(4) for c in range(5 - b)
                 if (b, c) != (3, 1) and f"{b}A{c}B" not in node["next"])
    node["next"][extra] = {"guess": "1111"}
    node["next"] = dict(sorted(node["next"].items(), key=lambda kv: (int(kv[0][0]), int(kv[0][2]))))  # in order
    stats = json.loads(json.dumps(good))
    stats["stats"]["total"] += 1
    out = [("empty.json", b"", "it is empty"), ("truncated.json", (SHIPPED / MM).read_bytes()[:5000], "invalid JSON"),
           ("picture.json", b"\x89PNG\r\n", "invalid JSON"),
           ("other.json", b'{"format": "something-else"}', 'its format is "something-else"')]
    # Structure, checked before any secret is played (docs/tree-format.md: only 'guess' and 'next', keys
    # of 'next' ordered by hint).
    unordered = json.loads(json.dumps(good))
    unordered["root"]["next"] = dict(reversed(list(unordered["root"]["next"].items())))
    extra_key = json.loads(json.dumps(good))
    extra_key["root"]["next"]["0A0B"]["size"] = 256
    out += [("unordered.json", json.dumps(unordered).encode(), "'next' keys at the root are out of order: 3A0B comes before 0A0B"),
            ("extra-key.json", json.dumps(extra_key).encode(), "the node at 1123 0A0B has unknown key 'size'")]
    for label, obj in (("missing", missing), ("dead", dead), ("stats", stats)):
        data = json.dumps(obj).encode()
        try:
            verify_tree(tree_from_bytes(data))
        except ValueError as exc:
            out.append((f"{label}.json", data, str(exc)))
        else:
            raise AssertionError(f"the {label} tree passed treegen verify")
    return out


def test_corrupt_files_get_a_clear_message(page, tmp_path):
    open_tree(page, BC)
    for name, data, words in _corrupt(tmp_path):
        path = tmp_path / name
        path.write_bytes(data)
        page.set_input_files("#file", str(path))
        page.wait_for_selector("#load-error:not([hidden])")
        message = page.text_content("#load-error")
        assert message.startswith(f"{name} is not a valid tree file."), message
        assert words.lower() in message.lower(), (words, message)
        assert page.is_visible("#workspace") and page.get_attribute("body", "data-loaded") == BC  # still usable
        page.evaluate("document.querySelector('#load-error').hidden = true")
    page.set_input_files("#file", str(SHIPPED / MM))
    page.wait_for_selector(f'body[data-loaded="{MM}"]')
    assert page.is_hidden("#load-error")
    assert page.locator("#shipped tr.active").count() == 0  # a file from disk, not the listed one


def test_page_opened_from_disk(browser):
    """index.html from file://, with a tree file chosen by the user: loads, checks and plays."""
    context = browser.new_context()
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto((WEB / "index.html").as_uri())
        assert "opened from disk" in pg.text_content("#shipped")
        pg.set_input_files("#file", str(SHIPPED / MM))
        pg.wait_for_selector(f'body[data-loaded="{MM}"]')
        assert "all 1,296 secrets replayed" in pg.text_content("#sum-proof")
        assert pg.get_attribute("#g-guess .code", "data-code") == load_tree(SHIPPED / MM).root.guess
    finally:
        context.close()
    assert errors == []


def test_screenshot(page, tmp_path):
    """The README's screenshots: the shipped trees (the server's default folder), a Mastermind game under
    way, and a secret's path in the explorer; written to $TREEGEN_SCREENSHOTS when set (docs/), else to a
    scratch folder."""
    out = Path(os.environ.get("TREEGEN_SCREENSHOTS") or tmp_path)
    tree = load_tree(SHIPPED / MM)
    proc, page.base = start_server(cwd=tmp_path)
    try:
        open_tree(page, MM)
        _screenshots(page, tree, out)
    finally:
        stop_server(proc)
    for name, least in (("screenshot.png", (1100, 900)), ("screenshot-explore.png", (800, 400)),
                        ("screenshot-coach.png", (1000, 400)), ("screenshot-coach-phone.png", (360, 600))):
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert width >= least[0] and height >= least[1], (name, width, height)


def _screenshots(page, tree, out: Path) -> None:
    secret = "3641"
    for guess, hint in moves_for(tree, secret)[:2]:
        assert page.get_attribute("#g-guess .code", "data-code") == guess
        _click_hint(page, tree.game, int(hint[0]), int(hint[2]))
    page.screenshot(path=str(out / "screenshot.png"), full_page=True)
    page.click('#tabs button[data-tab="explore"]')
    page.fill("#x-search", secret)
    page.press("#x-search", "Enter")
    page.locator("#explore").screenshot(path=str(out / "screenshot-explore.png"))
    # A game scored by the coach, on a desktop and on a phone: the same moves, ending in the summary.
    for viewport, name in (((1100, 900), "screenshot-coach.png"), ((390, 844), "screenshot-coach-phone.png")):
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        page.click('#tabs button[data-tab="host"]')
        page.evaluate(f"window.treegen.host.secret = {tree.game.code_index[tuple(tree.game.alphabet.index(c) for c in secret)]}")
        for k, guess in enumerate(["1234", "3456", "2641", secret]):
            page.fill("#h-input", guess)
            page.press("#h-input", "Enter")
            page.wait_for_function("(n) => document.querySelectorAll('#h-history tr').length === n && !window.treegen.host.scoring",
                                   arg=k + 1, timeout=60000)
        page.locator("#h-history tr").nth(1).locator("details summary").click()
        page.locator("#host").screenshot(path=str(out / name))
        page.click("#h-done button")


# -- the page as a player meets it (issue: defects found by playing) --------------------------------


def _in_view(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight; }",
        selector)


@pytest.mark.parametrize("viewport", [(1100, 900), (390, 844)])
def test_picking_a_tree_brings_the_game_into_view(browser, server, viewport):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    try:
        page.goto(server)
        page.click(f'#shipped tr[data-file="{NB}"]')
        page.wait_for_selector(f'body[data-loaded="{NB}"]')
        assert _in_view(page, "#workspace")
        assert page.evaluate("document.querySelector('#workspace').contains(document.activeElement)")
        assert page.evaluate("location.hash") == f"#tree={NB}"
        # the link opens the same tree
        page.goto(server + f"#tree={MM}")
        page.reload()
        page.wait_for_selector(f'body[data-loaded="{MM}"]')
    finally:
        context.close()


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - innerWidth")


@pytest.mark.parametrize("width", [320, 390, 768])
def test_no_horizontal_overflow_on_small_screens(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())  # "the game under way will be lost": yes
    try:
        page.goto(server)
        page.wait_for_selector("table.trees")
        assert _overflow(page) <= 0
        # the list of trees fits without scrolling sideways
        assert page.evaluate("(() => { const t = document.querySelector('table.trees'); return t.scrollWidth <= t.parentElement.clientWidth; })()")
        for name in (NB, MM):
            page.click(f'#shipped tr[data-file="{name}"]')
            page.wait_for_selector(f'body[data-loaded="{name}"]')
            for tab in ("guesser", "host", "explore"):
                page.click(f'#tabs button[data-tab="{tab}"]')
                if tab == "host":
                    page.fill("#h-input", load_tree(SHIPPED / name).root.guess)
                    page.press("#h-input", "Enter")
                    page.wait_for_selector("#h-history tr")
                if tab == "explore":
                    page.fill("#x-search", "1234")
                    page.press("#x-search", "Enter")
                assert _overflow(page) <= 0, (width, name, tab)
    finally:
        context.close()


def test_a_win_entered_by_mistake_can_be_undone(page):
    tree = load_tree(SHIPPED / BC)
    open_tree(page, BC)
    _click_hint(page, tree.game, 4, 0)
    assert page.is_visible("#g-done")
    assert page.evaluate("document.activeElement.id") == "g-done"  # focus follows the end panel
    page.click("#g-undo-found")
    assert page.is_hidden("#g-done") and page.locator("#g-history li").count() == 0
    assert page.get_attribute("#g-guess .code", "data-code") == tree.root.guess
    _click_hint(page, tree.game, 0, 1)  # and the game goes on
    assert page.locator("#g-history li").count() == 1


def _culprits(codes, said):
    """The earlier answers (indices) without which the rest, the last one included, agree with some secret."""
    def fits(skip):
        return any(all(i == skip or naive_hint(g, s) == h for i, (g, h) in enumerate(said)) for s in codes)
    return [i for i in range(len(said) - 1) if fits(i)]


def test_contradicting_answers_name_the_culprit(page):
    """A wrong answer at guess 2 that some secret could still give, then true answers: when they contradict,
    the page says so at once, names guess 2, and one Undo goes back to before it."""
    tree = load_tree(SHIPPED / BC)
    game = tree.game
    codes = naive_codes(game)
    rng = random.Random(21)
    while True:  # a secret and a wrong second answer whose only earlier culprit is guess 2
        secret = rng.choice(codes)
        path, node, said = [], tree.root, []
        first = (node.guess, naive_hint(node.guess, secret))
        node = node.child("{}A{}B".format(*first[1]))
        if node is None or first[1] == (4, 0):
            continue
        truth = naive_hint(node.guess, secret)
        left = consistent(codes, [first])
        wrong = [h for h in {naive_hint(node.guess, s) for s in left} if h != truth and h != (4, 0)]
        if not wrong:
            continue
        said = [first, (node.guess, rng.choice(sorted(wrong)))]
        node = node.child("{}A{}B".format(*said[1][1]))
        while node is not None and consistent(codes, said + [(node.guess, naive_hint(node.guess, secret))]):
            said.append((node.guess, naive_hint(node.guess, secret)))
            if said[-1][1] == (4, 0):
                node = None
                break
            node = node.child("{}A{}B".format(*said[-1][1]))
        if node is None:
            continue
        last = (node.guess, naive_hint(node.guess, secret))
        if _culprits(codes, said + [last]) == [1]:
            break
    open_tree(page, BC)
    for guess, hint in said:
        assert page.get_attribute("#g-guess .code", "data-code") == guess
        _click_hint(page, game, *hint)
    _click_hint(page, game, *last[1])
    message = page.text_content("#g-message")
    assert "That cannot be right" in message and "guess 2 (" in message and "Undo goes back to before guess 2" in message
    assert page.locator("#g-history li").count() == len(said)
    page.click("#g-undo")
    assert page.locator("#g-history li").count() == 1 and page.is_hidden("#g-message")
    assert page.get_attribute("#g-guess .code", "data-code") == said[1][0]


def test_picking_a_tree_during_a_game_asks_first(page):
    tree = load_tree(SHIPPED / BC)
    open_tree(page, BC)
    _click_hint(page, tree.game, 0, 1)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click(f'#shipped tr[data-file="{BC}"]')  # even the tree in use
    assert asked and "will be lost" in asked[0]
    assert page.locator("#g-history li").count() == 1
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click(f'#shipped tr[data-file="{MM}"]')
    page.wait_for_selector(f'body[data-loaded="{MM}"]')
    assert len(asked) == 2 and page.locator("#g-history li").count() == 0


def _contrast(c1: str, c2: str) -> float:
    def lum(c):
        r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", c)[:3])
        f = lambda v: v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4  # noqa: E731
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    a, b = sorted((lum(c1), lum(c2)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_keyboard_focus_names_and_contrast(page):
    open_tree(page, MM)
    # tree rows are buttons with a name that reads as words
    names = page.eval_on_selector_all("#shipped button.pick", "bs => bs.map((b) => b.getAttribute('aria-label'))")
    assert any(n.startswith("Play with mastermind, least total") and "(file mastermind-optimal-average.json)" in n for n in names)
    assert page.text_content(f'#shipped tr[data-file="{MM}"] button.pick') == f"mastermind {MM}"
    # the tabs: one tab stop, arrow keys move between them
    page.focus("#tab-guesser")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-host" and page.is_visible("#host")
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.id") == "tab-explore" and page.is_visible("#explore")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-guesser"
    assert page.eval_on_selector_all("#tabs button", "bs => bs.map((b) => b.tabIndex)") == [0, -1, -1]
    # live regions announce the computer's next guess and the end panels
    assert page.get_attribute("#g-current .guess-line", "aria-live") == "polite"
    assert page.get_attribute("#g-done", "aria-live") == "polite" and page.get_attribute("#h-done", "aria-live") == "polite"
    # focus after "Give up" moves to the end panel
    page.click('#tabs button[data-tab="host"]')
    page.click("#h-giveup")
    assert page.evaluate("document.activeElement.id") == "h-done"
    # the focus ring against white, and the digits on every peg colour
    ring = page.evaluate("getComputedStyle(document.querySelector('#h-done button')).getPropertyValue('--accent')")
    page.focus("#h-done button")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert _contrast(outline, "rgb(255, 255, 255)") >= 3, (outline, ring)
    pegs = page.evaluate("""() => { const out = []; for (let k = 0; k < 10; k++) {
        const s = document.createElement('span'); s.className = 'sym c' + k; const c = document.createElement('span');
        c.className = 'code colours'; c.append(s); document.body.append(c); const st = getComputedStyle(s);
        out.push([st.color, st.backgroundColor]); c.remove(); } return out; }""")
    for k, (fg, bg) in enumerate(pegs):
        assert _contrast(fg, bg) >= 4.5, (k, fg, bg)


def test_mastermind_takes_colour_letters(page):
    open_tree(page, MM)
    page.click('#tabs button[data-tab="host"]')
    page.evaluate("window.treegen.host.secret = 0")  # 1111, so that RGBY does not win
    page.fill("#h-input", "rgby")
    page.press("#h-input", "Enter")
    page.wait_for_selector("#h-history tr")
    assert page.get_attribute("#h-history tr .code", "data-code") == "1234"
    page.fill("#h-input", "RGBX")
    page.press("#h-input", "Enter")
    assert "the colour letters RGBYPC (R red, G green" in page.text_content("#h-message")
    page.click('#tabs button[data-tab="explore"]')
    page.fill("#x-search", "CCPP")
    page.press("#x-search", "Enter")
    assert page.locator("#x-result .step").last.locator(".code").get_attribute("data-code") == "6655"


def test_placeholder_fits_and_baseball_reads_balls_first(page):
    open_tree(page, NB)
    labels = page.locator("#g-answer .count-label strong").all_text_contents()
    assert labels == ["Balls", "Strikes"]  # as its hints are written: ball=3 strike=1
    page.click('#tabs button[data-tab="explore"]')
    fits = page.evaluate("""() => { const i = document.querySelector('#x-search'), st = getComputedStyle(i);
        const ctx = document.createElement('canvas').getContext('2d'); ctx.font = st.font;
        const text = i.placeholder.toUpperCase();
        const w = ctx.measureText(text).width + parseFloat(st.letterSpacing || 0) * text.length;
        return w <= i.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight); }""")
    assert fits


# -- the coach on the page ---------------------------------------------------------------------------


def _analyze(game, moves):
    argv = [f"{g}={'{}A{}B'.format(*h)}" for g, h in moves]
    proc = subprocess.run([TREEGEN, "analyze", "--game", game.name, "--json", "--budget", "30", *argv],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name, seed", [(MM, 7), (BC, 8)])
def test_the_page_scores_moves_as_treegen_analyze_does(page, name, seed):
    """Games played in "You guess" against the server: each row's loss is treegen analyze's, exactly."""
    tree = load_tree(SHIPPED / name)
    game = tree.game
    codes = naive_codes(game)
    rng = random.Random(seed)
    open_tree(page, name)
    page.click('#tabs button[data-tab="host"]')
    for _ in range(2):
        secret = rng.randrange(len(codes))
        page.evaluate(f"window.treegen.host.secret = {secret}")
        moves = []
        while page.is_hidden("#h-done") and len(moves) < 8:
            alive = consistent(codes, moves)
            guess = rng.choice(alive if rng.random() < 0.7 else codes)  # now and then a code that cannot win
            page.fill("#h-input", guess)
            page.press("#h-input", "Enter")
            moves.append((guess, naive_hint(guess, codes[secret])))
            page.wait_for_function("(n) => document.querySelectorAll('#h-history tr').length === n && "
                                   "!window.treegen.host.scoring", arg=len(moves), timeout=60000)
        want = _analyze(game, moves)
        got = page.eval_on_selector_all("#h-history td.score", "tds => tds.map((t) => t.dataset.loss)")
        assert got == [m["loss"]["fraction"] for m in want["moves"]], (moves, got)
        if page.is_visible("#h-done"):
            assert page.text_content("#h-summary") == want["summary"]["text"]
            page.click("#h-done button")
        else:
            page.click("#h-giveup")
            page.click("#h-done button")


def test_advice_off_the_path_comes_from_the_relabelled_tree(page):
    """Opening bulls-cows with 9876 instead of the tree's 0123: the tree is found by relabelling, its move
    offered in the player's labels, and that move scores as optimal."""
    open_tree(page, BC)
    page.click('#tabs button[data-tab="host"]')
    page.evaluate("window.treegen.host.secret = 5039")  # 9876
    page.fill("#h-input", "8765")
    page.press("#h-input", "Enter")
    page.click("#h-advice")
    assert "under a relabelling" in page.text_content("#h-message")
    advice = page.input_value("#h-input")
    page.press("#h-input", "Enter")
    page.wait_for_function("() => document.querySelectorAll('#h-history tr').length === 2 && !window.treegen.host.scoring")
    assert page.locator("#h-history td.score").nth(0).text_content() == "optimal"  # every opening is alike
    assert page.locator("#h-history td.score").nth(1).text_content() == "optimal", advice


def test_the_evil_host_answers_as_treegen_play_does(page):
    from treegen.adversary import EvilHost
    from treegen.rules import format_hint, parse_code

    game = resolve_game("mastermind")
    host = EvilHost(game)
    open_tree(page, MM)
    page.click('#tabs button[data-tab="host"]')
    page.check("#h-evil")
    assert "evil host holds no secret" in page.text_content("#h-intro")
    for k, guess in enumerate(["1122", "3344", "5566", "1356", "2345"]):
        if page.is_visible("#h-done"):
            break
        page.fill("#h-input", guess)
        page.press("#h-input", "Enter")
        page.wait_for_selector(f"#h-history tr:nth-child({k + 1})")
        want = format_hint(game, host.answer(parse_code(game, guess)).hint)
        assert page.locator("#h-history tr").nth(k).locator(".hint").get_attribute("data-hint") == want


def test_the_page_from_disk_scores_the_trees_own_moves(browser):
    context = browser.new_context()
    pg = context.new_page()
    try:
        pg.goto((WEB / "index.html").as_uri())
        pg.set_input_files("#file", str(SHIPPED / MM))
        pg.wait_for_selector(f'body[data-loaded="{MM}"]')
        pg.click('#tabs button[data-tab="host"]')
        tree = load_tree(SHIPPED / MM)
        pg.evaluate("window.treegen.host.secret = 1295")  # 6666
        pg.click("#h-advice")
        pg.press("#h-input", "Enter")
        pg.fill("#h-input", "1111")  # off the tree
        pg.press("#h-input", "Enter")
        scores = pg.locator("#h-history td.score").all_text_contents()
        assert scores == ["optimal", "not scored"]
        assert "serve" in pg.get_attribute("#h-history tr:nth-child(2) td.score", "title")
        assert pg.locator("#h-history tr").nth(0).locator("td:nth-child(2) .code").get_attribute("data-code") == tree.root.guess
    finally:
        context.close()


AXE = REPO / "tests" / "node_modules" / "axe-core" / "axe.min.js"


def _axe(page) -> list[str]:
    """axe-core's WCAG 2 A and AA violations on the page as it is (rule, then the first offending node)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }))
        .violations.map((v) => v.id + ': ' + v.help + ' at ' + v.nodes[0].target.join(' ') + ' (' + v.nodes.length + ')')""")
    return found


def test_the_page_passes_axe(page):
    """axe-core (npm, installed by the README's test command) finds no WCAG 2.1 A/AA violation in each state
    a player meets: the list, a game under way and finished in both roles, the explorer."""
    assert AXE.is_file(), "axe-core is missing: npm ci --prefix tests (the README's test command runs it)"
    page.goto(page.base)
    page.wait_for_selector("table.trees")
    states = {"the list": _axe(page)}
    tree = load_tree(SHIPPED / MM)
    open_tree(page, MM)
    _click_hint(page, tree.game, 1, 0)
    states["computer guesses"] = _axe(page)
    _click_hint(page, tree.game, 4, 0)
    states["computer found it"] = _axe(page)
    page.click('#tabs button[data-tab="host"]')
    page.evaluate("window.treegen.host.secret = 0")
    page.fill("#h-input", "1234")
    page.press("#h-input", "Enter")
    page.wait_for_function("() => !window.treegen.host.scoring && document.querySelectorAll('#h-history tr').length === 1")
    page.click("#h-advice")
    states["you guess"] = _axe(page)
    page.click("#h-giveup")
    states["you gave up"] = _axe(page)
    page.click('#tabs button[data-tab="explore"]')
    page.fill("#x-search", "6543")
    page.press("#x-search", "Enter")
    states["explore"] = _axe(page)
    assert {k: v for k, v in states.items() if v} == {}


def test_compare_two_trees_in_the_page(page, trees_dir):
    """The explorer's comparison lists the positions treegen.compare finds, in its order, with its figures."""
    from treegen.compare import compare_trees

    crush = "bulls-cows-optimal-crush.json"
    shutil.copy(SHIPPED / crush, trees_dir / crush)
    try:
        open_tree(page, BC)
        page.click('#tabs button[data-tab="explore"]')
        page.click("#x-compare summary")
        page.select_option("#x-other", crush)
        page.wait_for_selector("#x-compare-result ol.differences li")
        want = compare_trees(load_tree(SHIPPED / BC), load_tree(SHIPPED / crush))
        paths = page.eval_on_selector_all("#x-compare-result ol.differences li", "ls => ls.map((l) => l.dataset.path)")
        assert paths == [" ".join(d.path) for d in want.differences[:10]]
        first = page.text_content("#x-compare-result ol.differences li")
        d = want.differences[0]
        assert f"{d.subtrees[0].total / d.subtrees[0].secrets:.4f} on average" in first
        cells = page.locator("#x-compare-result table tbody tr").first.locator("td").all_text_contents()
        assert cells == ["26,274", "26,450"]
        # a tree of another game is refused in one line
        page.set_input_files("#x-other-file", str(SHIPPED / MM))
        page.wait_for_selector("#x-compare-result p.error")
        assert "is a tree for mastermind, not bulls-cows" in page.text_content("#x-compare-result")
    finally:
        (trees_dir / crush).unlink()


# -- the coach's API ------------------------------------------------------------------------------------


def test_api_analyze_answers_as_treegen_analyze(server):
    moves = "1234=0A3B,3456=1A2B,2641=3A0B,3641=4A0B"
    status, ctype, body = get(server, f"/api/analyze?game=mastermind&moves={moves}")
    assert status == 200 and ctype.startswith("application/json")
    got = json.loads(body)
    proc = subprocess.run([TREEGEN, "analyze", "--game", "mastermind", "--json", *moves.split(",")],
                          capture_output=True, text=True, timeout=120)
    want = json.loads(proc.stdout)
    for d in (got, want):
        del d["seconds"]
    assert got == want
    assert [m["loss"]["fraction"] for m in got["moves"]] == ["1/27", "0", "5/16", "0"]


@pytest.mark.parametrize("query, words", [
    ("/api/analyze?game=mastermind", "takes exactly these parameters, once each: game, moves"),
    ("/api/analyze?game=mastermind&moves=&x=1", "takes exactly these parameters"),
    ("/api/analyze?game=nope&moves=", "unknown game 'nope'"),
    ("/api/analyze?game=mastermind&moves=1234", "is not GUESS=HINT"),
    ("/api/analyze?game=mastermind&moves=1234=9A9B", "9A9B"),
    ("/api/analyze?game=mastermind&moves=1111=0A0B,1112=2A0B", "no secret of mastermind gives every hint"),
    ("/api/analyze?game=bc:5:10&moves=", "the coach analyses games of at most"),
    ("/api/analyze?game=mastermind&moves=" + ",".join(["1234=0A0B"] * 41), "at most 40 are analysed"),
    ("/api/evil?game=mastermind&moves=", "game, moves, guess"),
    ("/api/evil?game=mastermind&moves=&guess=7777", "uses '7'"),
])
def test_api_bad_queries_are_400_in_one_line(server, query, words):
    status, ctype, body = get(server, query)
    assert status == 400 and ctype.startswith("text/plain"), (query, status, body)
    text = body.decode()
    assert text.count("\n") == 1 and words in text, (query, text)


def test_api_needs_the_servers_own_host(server):
    m = re.match(r"http://([\d.]+):(\d+)/", server)
    conn = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=30)
    try:
        conn.request("GET", "/api/analyze?game=mastermind&moves=", headers={"Host": "evil.example"})
        res = conn.getresponse()
        assert res.status == 403
    finally:
        conn.close()


def test_why_the_first_guess(page, trees_dir):
    """The explorer's table of openings is trees/openings.json's, the tree's own opening marked."""
    shutil.copy(SHIPPED / "openings.json", trees_dir / "openings.json")
    try:
        want = json.loads((SHIPPED / "openings.json").read_text())["games"]["mastermind"]["openings"]
        open_tree(page, MM)
        page.click('#tabs button[data-tab="explore"]')
        page.wait_for_selector("#x-openings table.openings tbody tr")
        rows = page.locator("#x-openings table.openings tbody tr")
        assert rows.count() == len(want)
        got = page.eval_on_selector_all("#x-openings table.openings tbody tr", "rs => rs.map((r) => r.dataset.guess)")
        assert got == [o["guess"] for o in want]
        assert page.get_attribute("#x-openings tr.own", "data-guess") == load_tree(SHIPPED / MM).root.guess
        assert "openings.json" not in [e["file"] for e in json.loads(get(page.base, "/api/trees")[2])["trees"]]
    finally:
        (trees_dir / "openings.json").unlink()


def test_api_reads_no_file_named_in_a_query(server):
    status, _, body = get(server, "/api/analyze?game=words:/etc/passwd&moves=")
    assert status == 400 and b"root" not in body and b"not by a file" in body


@contextlib.contextmanager
def _serving(browser, tmp_path, tree, name: str):
    """A page in Chromium on a fresh server of a folder holding ``tree`` as ``name``, with the tree picked;
    JavaScript errors fail the test."""
    from treegen.tree import save_tree

    folder = tmp_path / "served"
    folder.mkdir()
    save_tree(tree, folder / name)
    proc, url = start_server("--trees", str(folder))
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        page.click(f'#shipped tr[data-file="{name}"]')
        page.wait_for_selector(f'body[data-loaded="{name}"]')
        yield page
    finally:
        context.close()
        stop_server(proc)
    assert errors == []


def test_a_word_game_plays_in_the_page(browser, tmp_path):
    """Word Mastermind (a list game): the page reads the list from the tree file, checks the tree against it,
    guesses a secret word from the hints, and takes words (any case) but nothing off the list."""
    from treegen.strategies import build_tree

    tree = build_tree(resolve_game("word-mastermind"), "entropy").tree
    with _serving(browser, tmp_path, tree, "wm.json") as page:
        assert "all 1,979 secrets replayed" in page.text_content("#sum-proof")
        secret = "CAKE"
        history = []
        while page.is_hidden("#g-done"):
            guess = page.get_attribute("#g-guess .code", "data-code")
            hint = naive_hint(guess, secret)
            history.append((guess, hint))
            _click_hint(page, tree.game, *hint)
        assert [g for g, _ in history] == [g for g, _ in moves_for(tree, secret)]
        page.click('#tabs button[data-tab="host"]')
        page.fill("#h-input", "cake")
        page.press("#h-input", "Enter")
        page.wait_for_selector("#h-history tr")
        assert page.get_attribute("#h-history tr td:nth-child(2) .code", "data-code") == "CAKE"
        page.fill("#h-input", "cakf")
        page.press("#h-input", "Enter")
        assert "is not a word of word-mastermind's list of 1,979 words" in page.text_content("#h-message")


def test_jotto_plays_in_the_page(browser, tmp_path):
    """Jotto (a rule other than bulls and cows): the page answers with the letters in common, or the word."""
    from collections import Counter

    from treegen.strategies import build_tree

    tree = build_tree(resolve_game("jotto"), "entropy").tree
    with _serving(browser, tmp_path, tree, "jotto.json") as page:
        secret, played = "HOUSE", []
        while page.is_hidden("#g-done"):
            guess = page.get_attribute("#g-guess .code", "data-code")
            played.append(guess)
            if guess == secret:
                page.click('#g-answer .count[data-row="0"]')
            else:
                page.click(f'#g-answer .count[data-row="1"][data-value="{sum((Counter(guess) & Counter(secret)).values())}"]')
            page.click("#g-submit")
            assert page.is_hidden("#g-message"), page.text_content("#g-message")
        assert played == [g for g, _ in moves_for(tree, secret)]
        assert page.locator("#g-history li .hint.jotto").first.text_content().endswith("in common")


def test_the_per_position_rule_plays_in_the_page(browser, tmp_path):
    """Per-position hints (a list the user supplies): the page asks for a mark per letter of its guess, scores
    your guesses as rules.score_codes does, draws the marks, and passes axe with the marks' buttons showing."""
    from treegen.rules import format_hint, parse_word_list, score_codes
    from treegen.strategies import build_tree

    words = sorted(random.Random(6).sample(resolve_game("jotto").words, 300))
    game = parse_word_list("\n".join(words), "sample", "sample", "per-position")
    tree = build_tree(game, "entropy").tree
    marks = {"-": "0", "Y": "1", "G": "2"}
    with _serving(browser, tmp_path, tree, "pp.json") as page:
        assert "all 300 secrets replayed" in page.text_content("#sum-proof")
        assert _axe(page) == []
        secret, played = words[17], []
        while page.is_hidden("#g-done"):
            guess = page.get_attribute("#g-guess .code", "data-code")
            played.append(guess)
            hint = format_hint(game, score_codes(game, game.words.index(guess), game.words.index(secret)))
            for k, m in enumerate(hint):
                page.click(f'#g-answer .count[data-row="{k}"][data-value="{marks[m]}"]')
            page.click("#g-submit")
            assert page.is_hidden("#g-message"), page.text_content("#g-message")
        assert played == [g for g, _ in moves_for(tree, secret)]
        page.click('#tabs button[data-tab="host"]')
        for guess in (words[0], words[1]):
            page.fill("#h-input", guess)
            page.press("#h-input", "Enter")
        drawn = page.locator("#h-history .hint.marks").all()
        assert len(drawn) == 2
        # the host's secret is unknown here: each drawn hint must be the hint of its guess on some secret, and
        # its marks are drawn one per letter
        for box in drawn:
            assert len(box.get_attribute("data-hint")) == game.positions
            assert box.locator(".mark").count() == game.positions


def test_a_list_with_other_guesses_plays_in_the_page(browser, tmp_path):
    """A list game whose guesses include words that are never the secret: the page replays the secrets alone,
    plays the tree's guesses (one of them not a secret), and takes such a word as a guess of yours."""
    from treegen.exact import solve_game
    from treegen.rules import parse_word_list

    secrets = ["BAKE", "CAKE", "LAKE", "MAKE", "RAKE", "TAKE", "WAKE", "FAKE"]
    game = parse_word_list("\n".join(secrets), "s", "s", guesses="BLOC\nCLAM\nMRTW\nTWFB")
    tree = solve_game(game)
    with _serving(browser, tmp_path, tree, "guesses.json") as page:
        assert "all 8 secrets replayed" in page.text_content("#sum-proof")
        played = []
        while page.is_hidden("#g-done"):
            guess = page.get_attribute("#g-guess .code", "data-code")
            played.append(guess)
            _click_hint(page, game, *naive_hint(guess, "WAKE"))
            assert page.is_hidden("#g-message"), page.text_content("#g-message")
        assert played == [g for g, _ in moves_for(tree, "WAKE")] and played[0] not in secrets
        page.click('#tabs button[data-tab="host"]')
        page.fill("#h-input", "clam")
        page.press("#h-input", "Enter")
        page.wait_for_selector("#h-history tr")
        assert page.get_attribute("#h-history tr td:nth-child(2) .code", "data-code") == "CLAM"


def test_the_coach_scores_a_word_game(tmp_path):
    """A list game is known to the server by its trees: /api/analyze of the shipped 400-word Word Mastermind
    tree's game answers as treegen analyze does with the same tree and list."""
    name = "word-mastermind-400-optimal-average.json"
    folder = tmp_path / "words"
    folder.mkdir()
    shutil.copy(SHIPPED / name, folder / name)
    tree = load_tree(SHIPPED / name)
    game = tree.game
    secret = game.words[123]
    moves = []
    for guess, hint in moves_for(tree, secret)[:2]:
        moves.append(f"{guess}={hint}")
    moves.append(f"{game.words[7]}=" + "{}A{}B".format(*naive_hint(game.words[7], secret)))
    proc, url = start_server("--trees", str(folder))
    try:
        status, _, body = get(url, f"/api/analyze?game={game.name}&moves={','.join(moves)}")
    finally:
        stop_server(proc)
    assert status == 200, body
    got = json.loads(body)
    words = REPO / "treegen" / "words" / "word-mastermind-400.txt"
    cli = subprocess.run([TREEGEN, "analyze", "--game", f"words:{words}", "--tree", str(SHIPPED / name), "--json", *moves],
                         capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    want = json.loads(cli.stdout)
    for d in (got, want):
        del d["seconds"]
    assert got == want
    assert [m["optimal"] for m in got["moves"][:2]] == [True, True]  # the tree's own moves
