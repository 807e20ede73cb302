"""Import and verify every strategy tree that two public repositories publish; print the table.

Fetches nothing: give the folders of checked-out (or extracted) copies of the repositories.

    git clone https://github.com/arfst23/Mastermind /tmp/arfst23
    git clone https://github.com/fancidev/mastermind /tmp/fancidev
    python scripts/community_trees.py --arfst23 /tmp/arfst23 --fancidev /tmp/fancidev

What is imported:

- arfst23/Mastermind: every ``solution-P-C-D`` punch card and its ``.yml`` twin (format ``arfst23`` and
  ``arfst23-yml``); the game comes from the file name.
- fancidev/mastermind: every ``strats/*.txt`` tree in Irving notation (``Results.txt`` is a table, not
  a tree), and the trees printed in ``book/appendix.tex`` (the blocks after ``{ \\scriptsize``).

Every tree is imported with ``treegen.formats.import_tree``, which plays every secret through it. Two
more checks, independent of that replay, are printed for each file:

- ``same``: the punch card and its ``.yml`` twin give the same tree, and ``treegen export`` of that
  tree, in arfst23's own symbols (0..C-1: ``--alphabet 012345=123456`` for Mastermind), reproduces
  both files byte for byte (the punch card without its ``cpu=`` line).
- ``classes``: arfst23's README criterion 3, the largest average number of guesses over the five
  classes of codes (AAAA, AAAB, AABB, AABC, ABCD), for comparison with its table.

Exit status: 0 when every tree verifies, 1 when some tree has a fault (it is listed with the fault).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from treegen.formats import FormatError, export_tree, import_tree  # noqa: E402
from treegen.tree import InvalidTree, Tree, walk  # noqa: E402


def class_averages(tree: Tree) -> dict[tuple[int, ...], float]:
    """Average guesses per class of codes (the sorted multiplicities of its symbols, e.g. (2, 1, 1))."""
    game = tree.game
    sums: dict[tuple[int, ...], list[int]] = {}
    for visit in walk(game, tree.root):
        for s in visit.partition.get(game.win_hint, ()):  # the secret solved by this node's guess
            shape = tuple(sorted((s.count(x) for x in set(s)), reverse=True))
            acc = sums.setdefault(shape, [0, 0])
            acc[0] += visit.depth
            acc[1] += 1
    return {k: v[0] / v[1] for k, v in sorted(sums.items())}


def appendix_blocks(text: str) -> list[tuple[str, str]]:
    """(title, Irving text) for each tree printed in fancidev's book/appendix.tex.

    A tree starts after a ``{ \\scriptsize`` line and runs to the next (sub)section; LaTeX comment
    lines (``%...``) and lone braces are dropped.
    """
    out = []
    title = ""
    block: list[str] | None = None
    for line in text.splitlines():
        m = re.match(r"\\(sub)?section\{(.*)\}", line)
        if m:
            if block:
                out.append((title, "\n".join(block)))
            block = None
            title = m.group(2)
            continue
        if line.strip().startswith("{ \\scriptsize"):
            block = []
            continue
        if block is not None and not line.lstrip().startswith("%") and line.strip() != "}":
            block.append(line)
    if block:
        out.append((title, "\n".join(block)))
    return [(t, b) for t, b in out if b.strip()]


def row(source: str, name: str, fmt: str, data: bytes, label: str | None = None) -> dict:
    start = time.perf_counter()
    try:
        tree, parsed = import_tree(fmt, data, label or name)
    except InvalidTree as exc:
        return {"source": source, "file": name, "fault": f"invalid: {exc}"}
    except FormatError as exc:
        return {"source": source, "file": name, "fault": f"unreadable: {exc}"}
    s = tree.stats
    return {
        "source": source, "file": name, "tree": tree, "notes": parsed.notes, "cap": parsed.extra.get("cap"),
        "alphabet": parsed.alphabet,
        "game": tree.game.name, "total": s.total, "average": s.average, "max": s.max_guesses,
        "histogram": list(s.histogram[1:]), "seconds": time.perf_counter() - start, "fault": None,
    }


def arfst23_rows(folder: str) -> list[dict]:
    rows = []
    names = sorted(f for f in os.listdir(folder) if re.fullmatch(r"solution-\d+-\d+-\w+(\.yml)?", f))
    for name in names:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            data = f.read()
        fmt = "arfst23-yml" if name.endswith(".yml") else "arfst23"
        r = row("arfst23/Mastermind", name, fmt, data, path)
        if r["fault"] is None and r["tree"].game.repeats:
            r["classes"] = max(class_averages(r["tree"]).values())
        rows.append(r)
    # The twins must agree, and treegen's export in arfst23's own symbols must give back both files.
    by_name = {r["file"]: r for r in rows}
    for r in rows:
        if r["file"].endswith(".yml") or r["fault"] is not None:
            continue
        twin = by_name.get(r["file"] + ".yml")
        with open(os.path.join(folder, r["file"]), encoding="utf-8") as f:
            text = "".join(line for line in f.read().splitlines(True) if not line.startswith("cpu="))
        alphabet = r["alphabet"]  # the symbol map the import assumed, if any: written back the same way
        same = export_tree("arfst23", r["tree"], alphabet=alphabet) == text
        if twin is not None and twin["fault"] is None:
            with open(os.path.join(folder, twin["file"]), encoding="utf-8") as f:
                same = same and export_tree("arfst23-yml", r["tree"], alphabet=alphabet) == f.read()
                same = same and twin["tree"].root == r["tree"].root
            twin["same"] = same
        r["same"] = same
    return rows


def fancidev_rows(folder: str) -> list[dict]:
    rows = []
    strats = os.path.join(folder, "strats")
    for name in sorted(os.listdir(strats)) if os.path.isdir(strats) else []:
        if not name.endswith(".txt") or name == "Results.txt":
            continue
        path = os.path.join(strats, name)
        with open(path, "rb") as f:
            rows.append(row("fancidev/mastermind", f"strats/{name}", "irving", f.read(), path))
    appendix = os.path.join(folder, "book", "appendix.tex")
    if os.path.exists(appendix):
        with open(appendix, encoding="utf-8") as f:
            for title, block in appendix_blocks(f.read()):
                label = f"book/appendix.tex ({title})"
                rows.append(row("fancidev/mastermind", label, "irving", block.encode(), label))
    return rows


def table(rows: list[dict]) -> str:
    lines = [
        "| source | file | game | total | average | max | guesses 1, 2, ... | verified |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["fault"]:
            lines.append(f"| {r['source']} | {r['file']} | | | | | | no: {r['fault']} |")
            continue
        lines.append(
            f"| {r['source']} | {r['file']} | {r['game']} | {r['total']} | {r['average']:.5f} | {r['max']} | "
            f"{', '.join(map(str, r['histogram']))} | yes |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arfst23", metavar="DIR", help="a copy of github.com/arfst23/Mastermind")
    ap.add_argument("--fancidev", metavar="DIR", help="a copy of github.com/fancidev/mastermind (or its mirror)")
    args = ap.parse_args(argv)
    if not args.arfst23 and not args.fancidev:
        ap.error("give --arfst23 DIR and/or --fancidev DIR")
    for d in (args.arfst23, args.fancidev):
        if d and not os.path.isdir(d):
            ap.error(f"{d} is not a folder")
    start = time.perf_counter()
    rows = (arfst23_rows(args.arfst23) if args.arfst23 else []) + (fancidev_rows(args.fancidev) if args.fancidev else [])
    print(table(rows))
    print()
    for r in rows:
        if r["fault"]:
            continue
        extra = []
        if r.get("cap") is not None:
            extra.append(f"name says at most {r['cap']} guesses: {'holds' if r['max'] <= r['cap'] else 'VIOLATED'}")
        if "classes" in r:
            extra.append(f"largest class average {r['classes']:.5f}")
        if "same" in r:
            extra.append("export reproduces the file byte for byte" if r["same"] else "EXPORT DIFFERS from the file")
        extra += list(r["notes"])
        print(f"{r['file']}: {r['seconds']:.2f} s; " + "; ".join(extra))
    bad = [r for r in rows if r["fault"] or r.get("same") is False]
    print(f"\n{len(rows)} trees, {len(rows) - len(bad)} verified, {time.perf_counter() - start:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
