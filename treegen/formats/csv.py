"""CSV, export only: one row per node, depth first, ``history,guess,secrets``, for spreadsheets.

Written by the standard library's csv module, with text cells guarded against being run as formulas.
"""

from __future__ import annotations

import csv  # the standard library's (imports are absolute: this module is treegen.formats.csv)
import io

from ..tree import Tree, walk


# A spreadsheet opening the CSV runs a cell that starts with one of these as a formula (OWASP's list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(text: str) -> str:
    """A text cell made safe to open in a spreadsheet: a leading apostrophe if it could start a formula.

    Only text cells (codes and histories, written in the game's symbols, which a tree file chooses);
    the secrets column is a count that treegen computes and stays a number.
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def format_csv(tree: Tree) -> str:
    """One row per node, depth first: ``history,guess,secrets`` (history: guesses and hints, spaced).

    Written by the csv module (a cell with a comma, quote or line break is quoted, quotes doubled), with
    the formula guard of :func:`_csv_text` on the text cells.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["history", "guess", "secrets"])
    for visit in walk(tree.game, tree.root):
        n = sum(len(s) for s in visit.partition.values())
        writer.writerow([_csv_text(" ".join(visit.path)), _csv_text(visit.node.guess), n])
    return buf.getvalue()


