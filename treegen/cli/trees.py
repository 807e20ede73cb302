"""``treegen verify``, ``show``, ``import`` and ``export``: tree files (and value files) read, checked and
converted. Their handlers import the standard library, orjson and treegen's tree modules only, no numpy:
they start instantly."""

from __future__ import annotations

import argparse
import os
import sys

from ..rules import TreegenError
from .common import EXPORT_FORMATS, IMPORT_FORMATS, Exit, add_command, add_guesses, game_of, no_game, nonempty, or_list, whole


def add_tree_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", "-g", default=None, metavar="G",
        help="refuse a tree for any other game (default: the game named in the file)",
    )
    add_guesses(p)


def tree_game(args):
    return game_of(args.game, guesses=args.guess_list) if args.game else no_game(args)


def load(path: str, game, value_ok: bool = False):
    """A tree file (or, with ``value_ok``, a value file: ``valuefile``), or standard input for ``-``."""
    from ..files import read_input
    from ..tree import TreeError, tree_from_bytes

    data, source = read_input(path, "tree file"), "<stdin>" if path == "-" else path
    if b'"treegen-value"' in data[:4096]:
        from ..valuefile import value_from_bytes

        if not value_ok:
            raise TreeError(f"{source} is a value file (format treegen-value), not a tree: check it with "
                            "`treegen verify`")
        vf = value_from_bytes(data, source)
        if game is not None and not vf.game.same_rules(game):
            raise TreeError(f"{source} is a value file for {vf.game.describe()}, not for {game.describe()}")
        return vf
    return tree_from_bytes(data, source, game)


def verify_value(name: str, vf, max_guesses) -> None:
    """Check a value file's claims (``valuefile.check_value``) and print what was checked."""
    from ..valuefile import check_value
    from ..rules import format_code

    check_value(vf, max_guesses)
    print(f"{name}: valid value file for {vf.game.name}: value {vf.value} = {float(vf.value):.6f} guesses")
    print(f"guesser  {len(vf.guesser)} tree{'s' if len(vf.guesser) != 1 else ''}, each replayed: the mixture holds "
          f"every secret to at most {vf.value} on average")
    setter = ", ".join(f"{format_code(vf.game, r)}: {p}" for (r, _), p in zip(vf.orbits, vf.setter))
    print(f"setter   orbit probabilities {setter}: every listed tree averages at least {vf.value} against them")


# -- verify ----------------------------------------------------------------------------------------


def add_verify(sub) -> None:
    p = add_command(
        sub, "verify", cmd_verify,
        "check that tree files solve every secret of their game and that every figure they claim is true",
        "  treegen verify bc.json                  # stats table, exit 0 if valid\n"
        "  treegen verify bc.json --max-guesses 7  # also require every secret solved within 7 guesses\n"
        "  treegen verify --game mastermind mm.json\n"
        "  treegen verify trees/*.json             # several files, then a summary\n"
        "  cat bc.json | treegen verify -          # standard input\n"
        "  treegen verify trees/mastermind-value.json   # a value file: both strategies, exactly\n"
        "  treegen verify mm.json --certificate mm.cert.json.gz   # also check a certificate of optimality\n"
        "  treegen verify mm57.json --certificate mm57.cert.json.gz --workers 2   # a big one, on 2 cores\n"
        "\n"
        "a tree or value file that names its certificate (treegen solve --certificate, treegen value\n"
        "--certificate) has it checked too, when the certificate is beside it: exit 1 if it fails or does\n"
        "not certify the file's figures.\n",
    )
    p.add_argument("file", metavar="FILE", nargs="+", help="tree files or value files (docs/tree-format.md); - reads standard input")
    p.add_argument("--max-guesses", type=whole(None, 10**9), default=None, metavar="N", help="fail if a secret needs more than N guesses")
    p.add_argument("--certificate", default=None, metavar="CERT", type=nonempty,
                   help="check this certificate of the file's lower bound: a tree's least total, or a value "
                   "file's value from below (one file only; default: the one the file names, if it is beside it)")
    p.add_argument("--no-certificate", action="store_true", help="do not check the certificate a file names")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar while a certificate is checked")
    p.add_argument("--workers", type=whole(None, 10**9), default=1, metavar="K",
                   help="processes that check a certificate, each checking a share of its claims and holding about "
                   "what one process would (default 1)")
    add_tree_game(p)


def uncertified(name: str, tree, stats) -> None:
    """Say that the lower bound of a tree (with its ``stats``) or a value file (``stats`` None) is the search's
    claim, when no certificate is checked."""
    if stats is None:
        print("lower    that no other tree does better rests on the exact search; rerun it with "
              f"`treegen value --recheck {name}` (`treegen value --certificate` writes a certificate)")
    elif "lower_bound" in (tree.provenance or {}):
        print("lower    the search's claim, not certified (treegen solve --certificate writes a certificate)")


def check_certificate_of(name: str, path: str | None, tree, stats, quiet: bool, workers: int = 1) -> None:
    """Check the certificate at ``path`` (None: the one the file's provenance names, beside it, if any) of a
    tree (with its ``stats``) or a value file (``stats`` None), and print what it certifies; CertificateError
    or NotCertified if it fails."""
    import hashlib

    from ..files import map_input
    from ..verify import NotCertified

    named = (tree.provenance or {}).get("certificate")
    found = path is None
    if path is None:
        if not isinstance(named, dict) or not isinstance(named.get("file"), str) or name == "<stdin>":
            uncertified(name, tree, stats)
            return
        path = os.path.join(os.path.dirname(name), os.path.basename(named["file"]))
        if not os.path.exists(path):
            print(f"lower    the search's claim; its certificate {named['file']} is not beside the file")
            return
    data = map_input(path, "certificate file")  # of any size: mapped, and read a claim at a time
    # A certificate given by name is checked on its own merits; the one found beside the file must be the one it names.
    if found and named.get("sha256") not in (None, hashlib.sha256(data).hexdigest()):
        raise NotCertified(f"{path} is not the certificate the file names (its SHA-256 differs)")
    from ..certificate import check_certificate_bytes, check_certificate_file

    bar = None
    if not quiet:
        from tqdm import tqdm

        # disable=None: no bar when standard error is not a terminal (a log, a pipe)
        bar = tqdm(desc="certificate", unit=" claims", file=sys.stderr, leave=False, disable=None)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    if workers > 1 and path == "-":  # each process maps the file itself; a pipe can be read only once
        print(f"treegen: --workers {workers}: a certificate read from standard input is checked in one process",
              file=sys.stderr)
    try:
        if workers > 1 and path != "-" and len(data):
            proof = check_certificate_file(data, path, progress=progress if bar is not None else None, workers=workers)
        else:
            proof = check_certificate_bytes(data, path, progress if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    from ..valuefile import certified_value
    from ..verify import certified

    for line in certified(tree, stats, proof) if stats is not None else certified_value(tree, proof):
        print(f"certified {line}")
    print(f"certificate {path}: {proof.claims:,} claims checked in {proof.seconds:.1f} s")


def cmd_verify(args) -> int:
    from ..report import describe_tree, format_stats
    from ..tree import InvalidTree, TreeError
    from ..files import InputError
    from ..verify import verify_tree

    if args.max_guesses is not None and args.max_guesses < 1:
        raise TreegenError(f"--max-guesses must be at least 1, not {args.max_guesses}")
    if args.workers < 1:
        raise TreegenError(f"--workers must be at least 1, not {args.workers}")
    if args.file.count("-") > 1:
        raise TreegenError("standard input ('-') can be read only once")
    game = tree_game(args)
    if args.certificate is not None and len(args.file) > 1:
        raise TreegenError("--certificate goes with one tree or value file; give the files one at a time")
    within = f" within {args.max_guesses}" if args.max_guesses is not None else ""
    worst = Exit.OK
    tally = {"valid": 0, "invalid": 0, "not certified": 0, "unreadable": 0}
    for k, path in enumerate(args.file):
        name = "<stdin>" if path == "-" else path
        if k:
            print()
        try:
            tree = load(path, game, value_ok=True)
        except TreeError as exc:
            if len(args.file) == 1:
                raise
            print(f"treegen: error: {exc}", file=sys.stderr)
            tally["unreadable"] += 1
            worst = Exit.USAGE
            continue
        try:
            if not hasattr(tree, "root"):  # a value file
                verify_value(name, tree, args.max_guesses)
                stats = None
            else:
                stats = verify_tree(tree, args.max_guesses)
                print(f"{name}: valid tree, every secret solved{within}")
                print(describe_tree(tree))
                print(format_stats(stats))
            if not args.no_certificate:
                check_certificate_of(name, args.certificate, tree, stats, args.quiet, args.workers)
            elif stats is None:  # a value file says what its lower side rests on (a tree's stats table says enough)
                uncertified(name, tree, stats)
        except InvalidTree as exc:
            kind = "tree" if hasattr(tree, "root") else "value file"
            print(f"treegen: {name} is not a valid {kind}: {exc}", file=sys.stderr)
            tally["invalid"] += 1
            worst = max(worst, Exit.FALSE)
            continue
        except InputError:
            raise
        except TreegenError as exc:  # a certificate that fails its check, or does not certify the tree
            print(f"treegen: {name}: optimality not certified: {exc}", file=sys.stderr)
            tally["not certified"] += 1
            worst = max(worst, Exit.FALSE)
            continue
        tally["valid"] += 1
    if len(args.file) > 1:
        print(f"\n{len(args.file)} files: " + ", ".join(f"{n} {what}" for what, n in tally.items() if n))
    return worst


# -- show ------------------------------------------------------------------------------------------


def add_show(sub) -> None:
    p = add_command(
        sub, "show", cmd_show, "print a tree file's stats, whether it verifies, and its first levels as an outline",
        "  treegen show bc.json             # stats, then each hint of the first 2 levels: class size, next guess\n"
        "  treegen show bc.json --depth 1   # the first guess: each hint and the size of its class\n"
        "  cat bc.json | treegen show -     # standard input\n",
    )
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md); - reads standard input")
    p.add_argument("--depth", "-d", type=whole(None, 10**9), default=2, metavar="D", help="levels of guesses to show (default 2)")
    add_tree_game(p)


def cmd_show(args) -> int:
    from ..report import describe_tree, format_stats, outline
    from ..tree import InvalidTree
    from ..verify import verify_tree

    if args.depth < 0:
        raise TreegenError(f"--depth must be 0 or more, not {args.depth}")
    tree = load(args.file, tree_game(args))
    print(describe_tree(tree))
    try:
        verify_tree(tree)
        problem = None
    except InvalidTree as exc:
        problem = str(exc)
    print("verified " + ("yes: every secret is solved and every stored figure is true" if problem is None
                         else f"NO: {problem}"))
    print(format_stats(tree.stats))
    print()
    print("\n".join(outline(tree, args.depth)))
    if problem is not None:
        print(f"treegen: {args.file} does not verify: {problem}", file=sys.stderr)
        return Exit.FALSE
    return Exit.OK


# -- import ----------------------------------------------------------------------------------------


def add_import(sub) -> None:
    p = add_command(
        sub, "import", cmd_import,
        f"read a tree another tool wrote ({', '.join(IMPORT_FORMATS)}), verify it, save it as a tree file",
        "  treegen import irving p4c6r-knuth.txt -o knuth.json        # game guessed from the root count 1296\n"
        "  treegen import arfst23 solution-4-7-6 -o mm47.json         # game from the name solution-P-C-D\n"
        "  treegen import arfst23 solution-4-6-5.yml -o mm.json       # .yml: read as arfst23-yml\n"
        "  treegen import paths paths.txt --game mastermind --alphabet 012345=123456 -o mm.json\n"
        "exit 0: imported and verified; 1: not a complete, consistent strategy; 2: unreadable input\n",
    )
    p.add_argument("format", metavar="FORMAT", help=f"{or_list(IMPORT_FORMATS)} (docs/tree-format.md)")
    p.add_argument("file", metavar="FILE", help="the file to import")
    p.add_argument("--game", "-g", default=None, metavar="G",
                   help="the game (default: from a treegen header, the root count, or the arfst23 file name)")
    add_guesses(p)
    p.add_argument("--alphabet", default=None, metavar="FROM=TO",
                   help="the file writes the game's symbol TO[i] as FROM[i], e.g. 012345=123456 "
                   "(default: guessed when the file's symbols are not the game's, and said on stderr)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the tree file to write")


def cmd_import(args) -> int:
    """``treegen import``: read another tool's tree, verify it completely, save it as a tree file."""
    from ..files import output_file, read_input
    from ..formats import import_format, import_tree
    from ..report import describe_tree, format_stats
    from ..tree import InvalidTree, save_tree

    output_file(args.output, "tree file")
    if os.path.exists(args.output) and os.path.exists(args.file) and os.path.samefile(args.output, args.file):
        raise TreegenError(f"-o {args.output} is the file being imported; write the tree to another file")
    game = game_of(args.game, guesses=args.guess_list) if args.game else no_game(args)
    fmt = import_format(args.format, args.file)
    data = read_input(args.file, "input file")
    try:
        tree, parsed = import_tree(fmt, data, args.file, game, args.alphabet)
    except InvalidTree as exc:
        print(f"treegen: {args.file} is not a complete, consistent strategy: {exc}", file=sys.stderr)
        return Exit.FALSE
    for note in parsed.notes:
        print(f"treegen: {args.file}: {note}", file=sys.stderr)
    save_tree(tree, args.output)
    print(f"{args.output}: imported from {args.file} ({fmt}); verified: every secret solved")
    print(describe_tree(tree))
    print(format_stats(tree.stats))
    return Exit.OK


# -- export ----------------------------------------------------------------------------------------


def add_export(sub) -> None:
    p = add_command(
        sub, "export", cmd_export,
        "write a tree file as " + or_list(f"{f} (Graphviz)" if f == "dot" else f for f in EXPORT_FORMATS),
        "  treegen export paths mm.json -o mm-paths.txt     # one line per secret; importing it gives mm.json back\n"
        "  treegen export arfst23 mm.json --alphabet 012345=123456   # colours written 0-5, as arfst23 does\n"
        "  treegen export irving mm.json                    # Irving notation on stdout, as mmstrat prints it\n"
        "  treegen export dot mm.json --depth 2 | dot -Tsvg > mm.svg\n"
        "  treegen export csv mm.json -o nodes.csv          # one row per node: history, guess, secrets\n",
    )
    p.add_argument("format", metavar="FORMAT", help=or_list(EXPORT_FORMATS))
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md)")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--depth", "-d", type=whole(0, 10**9), default=None, metavar="N", help="dot: draw only the first N levels")
    p.add_argument("--alphabet", default=None, metavar="FROM=TO",
                   help="write the game's symbol TO[i] as FROM[i], e.g. 012345=123456 (not for dot, csv)")
    p.add_argument("--bare", action="store_true",
                   help="paths/irving: leave out the '# treegen:' header line (for other tools; "
                   "an import then records strategy imported:FORMAT)")
    add_tree_game(p)


def cmd_export(args) -> int:
    """``treegen export``: write a verified tree file in another format, to stdout or -o FILE."""
    from ..files import output_file, write_atomic
    from ..formats import export_tree
    from ..tree import InvalidTree
    from ..verify import verify_tree

    if args.output is not None:
        output_file(args.output, "export file")
        if os.path.exists(args.output) and os.path.exists(args.file) and os.path.samefile(args.output, args.file):
            raise TreegenError(f"-o {args.output} is the tree file being exported; write to another file")
    tree = load(args.file, tree_game(args))
    try:
        verify_tree(tree)
    except InvalidTree as exc:
        print(f"treegen: {args.file} is not a valid tree: {exc}", file=sys.stderr)
        return Exit.FALSE
    text = export_tree(args.format, tree, args.depth, header=not args.bare, alphabet=args.alphabet)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomic(args.output, text.encode("utf-8"), "export file")
    return Exit.OK
