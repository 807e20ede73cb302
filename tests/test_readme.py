"""The README's examples, run as written.

- Every ```pycon block is a doctest, the blocks run in order in one namespace from the repository's root
  (so ``trees/...`` paths resolve), with no option flags: the output must match exactly.
- Every ```console block is a list of ``$ treegen ...`` commands, each followed by its output: each is
  run from the repository's root, and its standard output must be the README's lines exactly, with exit
  status 0 and nothing on standard error.
- Every ``treegen`` command line in a ```sh block (the setup commands included) must parse with today's
  command line: the same parser ``treegen`` runs, stopped after parsing (these are the long runs,
  interactive games and servers, so they are not run here).
- Every relative link in README.md and docs/*.md leads to a file, and a ``#fragment`` into a Markdown
  file to one of its headings.

A fenced block of any other language fails the test rather than being passed over. The whole module
takes a few seconds.
"""

from __future__ import annotations

import argparse
import doctest
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from clitools import TREEGEN

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CHECKED_LANGUAGES = {"pycon", "console", "sh"}


def fenced_blocks(path: Path) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of a Markdown file: (language, line number of the opening fence, lines)."""
    blocks: list[tuple[str, int, list[str]]] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            language, start, body = lines[i][3:].strip(), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            assert i < len(lines), f"{path.name}:{start}: a fenced block that is never closed"
            blocks.append((language, start, body))
        i += 1
    return blocks


BLOCKS = fenced_blocks(README)


def test_every_block_is_checked():
    unchecked = [f"README.md:{line}: ```{language}" for language, line, _ in BLOCKS
                 if language not in CHECKED_LANGUAGES]
    assert not unchecked, f"blocks in a language this test does not check: {unchecked}"
    assert {language for language, _, _ in BLOCKS} == CHECKED_LANGUAGES


# -- ```pycon: doctests ------------------------------------------------------------------------------

def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=0)
    globs: dict = {"__name__": "README"}
    report: list[str] = []
    examples = 0
    for language, line, body in BLOCKS:
        if language != "pycon":
            continue
        test = parser.get_doctest("\n".join(body) + "\n", globs, f"README.md:{line}", str(README), line)
        assert test.examples, f"README.md:{line}: a pycon block with no >>> example"
        examples += len(test.examples)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # a DocTest runs in a copy of the namespace it is given: carry it on
    assert examples >= 5
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)


# -- ```console: commands and their output -----------------------------------------------------------

def console_examples() -> list[tuple[str, str, str]]:
    """(where, command, expected standard output) for every ``$`` line of every console block."""
    examples = []
    for language, line, body in BLOCKS:
        if language != "console":
            continue
        assert body and body[0].startswith("$ "), f"README.md:{line}: a console block must start with '$ '"
        for offset, text in enumerate(body):
            if text.startswith("$ "):
                examples.append([f"README.md:{line + 1 + offset}", text[2:], []])
            else:
                examples[-1][2].append(text)
    return [(where, command, "".join(out + "\n" for out in output)) for where, command, output in examples]


CONSOLE = console_examples()
SECONDS = re.compile(r"\b\d+(\.\d+)? s\b")


def test_console_examples_exist():
    assert len(CONSOLE) >= 5


@pytest.mark.parametrize("where,command,expected", CONSOLE, ids=[c[1] for c in CONSOLE])
def test_console_example(where, command, expected):
    args = shlex.split(command)
    assert args[0] == "treegen", f"{where}: only treegen commands are run here: {command}"
    proc = subprocess.run([TREEGEN, *args[1:]], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (proc.returncode, proc.stderr) == (0, ""), f"{where}: {command}\n{proc.stderr}"
    # A duration ("checked in 1.3 s") is the one figure that differs run to run: compared as a shape.
    assert SECONDS.sub("N s", proc.stdout) == SECONDS.sub("N s", expected), \
        f"{where}: {command}: the output differs from the README's"


# -- ```sh: every treegen command parses -------------------------------------------------------------

def sh_commands() -> list[tuple[str, list[str]]]:
    """(where, argv) of every treegen command in the sh blocks: each line split as the shell would
    (comments dropped), then cut at ``&&``, ``|``, ``;`` and redirections."""
    commands = []
    for language, line, body in BLOCKS:
        if language != "sh":
            continue
        for offset, text in enumerate(body):
            lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            words: list[str] = []
            for token in [*lexer, "&&"]:
                if token and set(token) <= set("();<>|&"):
                    if words and words[0] == "treegen":
                        commands.append((f"README.md:{line + 1 + offset}", words[1:]))
                    words = []
                else:
                    words.append(token)
    return commands


SH = sh_commands()


class _Parsed(BaseException):
    """Raised right after the command line parsed, so that the command itself never runs."""


def test_sh_commands_exist():
    assert len(SH) >= 20
    # the setup command's own treegen commands are among them
    assert ["solve", "-o", "bulls-cows.json"] in [argv for _, argv in SH]


@pytest.mark.parametrize("where,argv", SH, ids=[" ".join(a) for _, a in SH])
def test_sh_command_parses(where, argv, monkeypatch, capsys):
    from treegen import cli

    parse_known_args = argparse.ArgumentParser.parse_known_args
    depth = []

    def parse_only(self, args=None, namespace=None):
        # The command's own subparser parses inside the top parser's call: stop after the outermost one.
        depth.append(self)
        try:
            parsed = parse_known_args(self, args, namespace)
        finally:
            depth.pop()
        if depth:
            return parsed
        if parsed[1]:
            self.error(f"unrecognized arguments: {' '.join(parsed[1])}")
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", parse_only)
    with pytest.raises(_Parsed):
        try:
            cli.main(argv)
        except SystemExit:
            pytest.fail(f"{where}: treegen {shlex.join(argv)}: {capsys.readouterr().err.strip()}")


# -- links ------------------------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def slugs(path: Path) -> set[str]:
    """The fragments GitHub gives a Markdown file's headings (and explicit ``<a id=...>`` anchors)."""
    seen: dict[str, int] = {}
    found = set(re.findall(r'<a (?:id|name)="([^"]+)"', path.read_text(encoding="utf-8")))
    fence = False
    for text in path.read_text(encoding="utf-8").split("\n"):
        if text.startswith("```"):
            fence = not fence
        if fence or not re.match(r"#{1,6} ", text):
            continue
        slug = re.sub(r"[^\w\- ]", "", text.lstrip("#").strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def documents() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links(doc):
    broken = []
    fence = False
    for number, text in enumerate(doc.read_text(encoding="utf-8").split("\n"), 1):
        if text.startswith("```"):
            fence = not fence
        if fence:
            continue
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            file, _, fragment = target.partition("#")
            dest = (doc.parent / file).resolve() if file else doc
            if not dest.exists():
                broken.append(f"{doc.name}:{number}: {target}: no such file")
            elif fragment and dest.suffix == ".md" and fragment not in slugs(dest):
                broken.append(f"{doc.name}:{number}: {target}: no such heading")
    assert not broken, "\n".join(broken)


def test_main_and_test_commands_follow_their_markers():
    """.ci/run reads the line after the line after `<!-- test-command -->`; the README opens with the
    two setup commands, each alone on the line after its marker's fence."""
    lines = README.read_text(encoding="utf-8").split("\n")
    for marker, start in (("<!-- main-command -->", "python3 -m venv .venv && "),
                          ("<!-- test-command -->", "python3 -m venv .venv && ")):
        at = lines.index(marker)
        assert lines[at + 1] == "```sh" and lines[at + 2].startswith(start) and lines[at + 3] == "```"
    assert lines.index("<!-- main-command -->") < 15
    test_line = lines[lines.index("<!-- test-command -->") + 2]
    assert test_line.endswith("python -m pytest -q -n 2")
