"""Regenerate every shipped tree in trees/ and its table in trees/README.md, byte for byte.

    python scripts/build_trees.py                 # every tree but the slow ones (about a minute on 2 cores)
    python scripts/build_trees.py --slow          # the slow ones too (hours: trees/README.md gives each one's time)
    python scripts/build_trees.py --only mastermind-optimal-average.json
    python scripts/build_trees.py --check         # rebuild into a scratch folder and compare bytes
    python scripts/build_trees.py --within-cap --game numbers-baseball -o FILE   # one least-worst-case tree
    python scripts/build_trees.py --openings      # trees/openings.json: every first guess's least total

Each tree of CERTIFIED is solved with `--certificate`, which writes its certificate beside it
(NAME.cert.json.gz, from 10 KB for mastermind to about 1 MB for bulls-cows), and `treegen verify` then checks
that certificate too; the table says how many claims it holds and how long verifying took. A tree of
IN_PARTS is solved without one, then certified by `treegen certify --split N` through a parts folder (resumable,
on every core), and `treegen verify --certificate` checks it.

Each tree is one `treegen solve` (or `treegen build`) run in a fresh process, then `treegen verify`.
The files carry no timings, so a rebuild gives identical bytes; the seconds each took go into the
README table (measured on the machine that ran this script). A slow tree without a certificate is solved
through a checkpoint folder (in the system's temporary folder, removed once the tree is written): stop the
script and run it again, and it resumes; its time is summed over the runs (recorded every 10 s, so a run
killed outright still counts). A certified tree's search runs in one process from start to end (see
docs/certificates.md): stopped, it starts again.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import time

import orjson

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS_DIR = os.path.join(os.path.dirname(HERE), "treegen", "words")  # the shipped word lists
TREES: list[tuple[str, list[str], str]] = [
    # (file, treegen arguments, what it proves)
    ("bulls-cows-optimal-average.json", ["solve"], "least total: 26274, within 7 guesses"),
    ("bulls-cows-optimal-worst.json", ["solve", "--objective", "worst"], "7 guesses suffice, 6 do not"),
    ("mastermind-optimal-average.json", ["solve", "--game", "mastermind"], "least total: 5625"),
    ("mastermind-optimal-average-max5.json", ["solve", "--game", "mastermind", "--max-guesses", "5"],
     "least total within 5 guesses: 5626"),
    ("mastermind-optimal-worst.json", ["solve", "--game", "mastermind", "--objective", "worst"],
     "5 guesses suffice, 4 do not"),
    ("smash-the-code-optimal-average.json", ["solve", "--game", "smash-the-code"], "least total (published: a C++ exact solver's run)"),
    ("royale-optimal-average.json", ["solve", "--game", "royale"], "least total (not found published)"),
    ("mm-4-7-optimal-average.json", ["solve", "--game", "mm:4:7"], "least total: 11228 (published)"),
    ("mm-4-8-optimal-average.json", ["solve", "--game", "mm:4:8"], "least total (20471 published as the optimum by arfst23's solver, without a checkable proof)"),
    ("mastermind-optimal-average-hard.json", ["solve", "--game", "mastermind", "--consistent-only"],
     "least total when every guess is a possible secret"),
    ("smash-the-code-optimal-average-hard.json", ["solve", "--game", "smash-the-code", "--consistent-only"],
     "least total when every guess is a possible secret (not found published)"),
    ("bulls-cows-optimal-average-hard.json", ["solve", "--consistent-only"],
     "least total when every guess is a possible secret (not found published)"),
    ("mastermind-optimal-crush.json", ["solve", "--game", "mastermind", "--objective", "crush"],
     "within 5 guesses, the fewest secrets that need 5 (539, published but not proved), then least total (not found published)"),
    ("word-mastermind-400-optimal-average.json",
     ["solve", "--game", "words:" + os.path.join(WORDS_DIR, "word-mastermind-400.txt")],
     "least total of 400 of word-mastermind's words (a list of its own: no published figure to compare with)"),
    ("jotto-common-optimal-average.json", ["solve", "--game", "jotto-common"],
     "least total of Jotto on 300 common words (a list of its own: no published figure to compare with)"),
]
# The least worst case alone, where the least total within it is slow (within_cap below).
TREES += [
    ("numbers-baseball-within-7.json", ["@within_cap", "--game", "numbers-baseball"],
     "7 guesses suffice, 6 do not (not found published; heuristic trees need 8); total not minimised"),
]
# Value files (`treegen value`): the value of the game against a randomising setter, both strategies.
VALUES: list[tuple[str, list[str], str]] = [
    ("mastermind-value.json", ["value", "--game", "mastermind", "-q"], "value against a randomising setter (published: Wiener's 5600/1290, in Bewersdorff's Glück, Logik und Bluff; reproduced)"),
    ("bulls-cows-value.json", ["value", "-q"], "one orbit: the value is the optimum 26274/5040"),
    ("smash-the-code-value.json", ["value", "--game", "smash-the-code", "-q"], "one orbit: the value is the optimum"),
]
TREES = TREES + VALUES
# Trees that take minutes or more: built only with --slow.
SLOW: list[tuple[str, list[str], str]] = [
    ("word-mastermind-1000-optimal-average.json",
     ["solve", "--game", "words:" + os.path.join(WORDS_DIR, "word-mastermind-1000.txt")],
     "least total of 1000 of word-mastermind's words, the search's claim, found again within 7 guesses (no certificate: "
     "too large; no published figure to compare with)"),
    ("word-mastermind-1200-optimal-average.json",
     ["solve", "--game", "words:" + os.path.join(WORDS_DIR, "word-mastermind-1200.txt")],
     "least total of 1200 of word-mastermind's words, the largest sample settled within an hour on 2 cores, the "
     "search's claim, found again within 7 guesses (no certificate: too large; no published figure to compare with)"),
    ("numbers-baseball-optimal-average.json", ["solve", "--game", "numbers-baseball"], "least total (not found published)"),
    ("mm-4-9-optimal-average.json", ["solve", "--game", "mm:4:9"], "least total (not found published)"),
    ("mm-6-4-optimal-average.json", ["solve", "--game", "mm:6:4"], "least total: 17281, within 6 guesses (not found published)"),
    ("mm-6-4-optimal-worst.json", ["solve", "--game", "mm:6:4", "--objective", "worst"],
     "5 guesses suffice, 4 do not; least total within 5 is 17305, 24 above the optimum, whose trees need 6 (not found published)"),
    ("bc-5-8-optimal-average.json", ["solve", "--game", "bc:5:8"],
     "least total: 34444, within 7 guesses, the least worst case (not found published)"),
    ("mm-5-6-optimal-average.json", ["solve", "--game", "mm:5:6"], "least total (not found published)"),
    ("mm-5-7-optimal-average.json", ["solve", "--game", "mm:5:7"],
     "least total: 85645, within 7 guesses (not found published; the best published tree found totals 86412)"),
    ("bc-5-9-optimal-average.json", ["solve", "--game", "bc:5:9"],
     "least total: 81847, within 7 guesses (not found published)"),
    ("mm-5-6-optimal-worst.json", ["solve", "--game", "mm:5:6", "--objective", "worst"],
     "6 guesses suffice, 5 do not; least total within 6 is 36721, the unconstrained optimum (not found published)"),
    ("numbers-baseball-optimal-average-max7.json", ["solve", "--game", "numbers-baseball", "--max-guesses", "7"],
     "least total within 7 guesses, the least worst case (not found published)"),
    ("mm-4-7-value.json", ["value", "--game", "mm:4:7", "-q"],
     "value against a randomising setter: 622/133 = 4.676692, above the uniform optimum 11228/2401 (not found published)"),
    ("royale-value.json", ["value", "--game", "royale", "-q"],
     "value against a randomising setter: 76311/17620 = 4.330931, above the uniform optimum 13496/3125 (not found published)"),
    ("bulls-cows-optimal-crush.json", ["solve", "--objective", "crush"],
     "within 7 guesses, the fewest secrets that need 7 (50, published but not proved), then least total (not found published)"),
]

# The trees shipped with a certificate of their lower bound (`treegen solve --certificate`): every proved tree,
# and every value file (`treegen value --certificate`: its value from below).
CERTIFIED = {
    "bulls-cows-optimal-average.json", "bulls-cows-optimal-worst.json", "bulls-cows-optimal-average-hard.json",
    "mastermind-optimal-average.json", "mastermind-optimal-average-max5.json", "mastermind-optimal-worst.json",
    "mastermind-optimal-crush.json", "mastermind-optimal-average-hard.json", "smash-the-code-optimal-average.json",
    "smash-the-code-optimal-average-hard.json", "royale-optimal-average.json", "mm-4-7-optimal-average.json",
    "mm-4-8-optimal-average.json", "mm-4-9-optimal-average.json", "bulls-cows-optimal-crush.json",
    "numbers-baseball-within-7.json", "mm-5-6-optimal-average.json", "mm-5-6-optimal-worst.json",
    "numbers-baseball-optimal-average.json", "numbers-baseball-optimal-average-max7.json",
    "word-mastermind-400-optimal-average.json", "jotto-common-optimal-average.json", "bc-5-8-optimal-average.json",
    "mm-6-4-optimal-average.json", "mm-6-4-optimal-worst.json",
    "mastermind-value.json", "bulls-cows-value.json", "smash-the-code-value.json", "mm-4-7-value.json",
    "royale-value.json",
}

# Trees too big for the one-process certifying search: certified after the solve by `treegen certify` in parts
# (docs/certificates.md), each with its split size (classes of at least that many secrets on the tree's path
# become nodes, so that no part outlasts a session).
IN_PARTS: dict[str, int] = {"mm-5-7-optimal-average.json": 1500}


def is_certified(name: str) -> bool:
    """Whether the tree ``name`` is built with a certificate, by either route."""
    return name in CERTIFIED or name in IN_PARTS


# Certificates larger than this are not shipped (git ignores them; the budget for all shipped ones is about
# 50 MB): `python scripts/build_trees.py --slow --only NAME` writes one beside its tree, and verify checks it.
SHIPPED_MAX = 20_000_000  # bytes
UNSHIPPED = {"mm-5-6-optimal-average.cert.json.gz", "mm-5-6-optimal-worst.cert.json.gz",  # 28 MB each
             "numbers-baseball-optimal-average.cert.json.gz",  # 51 MB
             "numbers-baseball-optimal-average-max7.cert.json.gz",
             "bc-5-8-optimal-average.cert.json.gz",  # 25 MB
             "mm-5-7-optimal-average.cert.json.gz"}  # 457 MB; these in .gitignore too

TREES_DIR = os.path.join(os.path.dirname(HERE), "trees")
# What each unshipped certificate holds, as the table gives it (claims, and megabytes to one decimal),
# recorded when it is built, so that the table is the same on a checkout that lacks the file. JSON, not *.json
# (which holds only trees).
UNSHIPPED_RECORD = os.path.join(TREES_DIR, ".unshipped-certificates")
TIMES_PATH = os.path.join(TREES_DIR, ".build-seconds")  # JSON; not *.json, which holds only trees


def command(*args: str) -> list[str]:
    """The argv of a treegen command, or (first argument ``@within_cap``) of this script's :func:`within_cap`."""
    if args[0] == "@within_cap":
        return [sys.executable, os.path.abspath(__file__), "--within-cap", *args[1:]]
    return [sys.executable, "-m", "treegen.cli", *args]


def within_cap(argv: list[str]) -> int:
    """The least worst case of a game, proved, with a tree that achieves it (no least total: that is `solve`'s job).

        python scripts/build_trees.py --within-cap --game numbers-baseball -o trees/numbers-baseball-within-7.json

    The exact feasibility search (``Solver.feasible``: can every secret be solved within d guesses?) runs for
    d = 1, 2, ... until it says yes; the d before it is then proved impossible. The tree is read back from the
    search (``Solver.feasible_tree``: at each set, the guess the search found to fit). It records ``worst_case``
    and ``impossible_within`` in its provenance, which `treegen verify` checks against the tree; its total is
    whatever that tree gives, not an optimum. `treegen solve --objective worst` proves the same worst case and
    then the least total within it, which takes far longer on big games.
    """
    import numpy as np

    from treegen import __version__
    from treegen.exact.solver import Solver
    from treegen.rules import resolve_game
    from treegen.tree import Node, save_tree
    from treegen.verify import make_tree

    parser = argparse.ArgumentParser(prog="build_trees.py --within-cap",
                                     description=within_cap.__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="numbers-baseball")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--certificate", default=None, metavar="FILE",
                        help="also write a certificate that no strategy finishes within one guess fewer")
    args = parser.parse_args(argv)
    game = resolve_game(args.game)
    secrets = np.arange(game.size, dtype=np.int32)
    start = time.perf_counter()
    depth = 1
    while True:
        solver = Solver(game, cap=depth)
        if solver.feasible(secrets, depth):
            break
        print(f"{game.name}: within {depth} guesses is impossible ({solver.counts.nodes} nodes)", flush=True)
        depth += 1
    wire = solver.feasible_tree(secrets, depth)
    seconds = time.perf_counter() - start
    root = Node.from_wire(game, wire)
    provenance = {"max_guesses": depth, "worst_case": depth, "impossible_within": depth - 1,
                  "nodes": solver.counts.nodes, "treegen": __version__}
    if args.certificate:
        import hashlib

        from treegen.certificate import certificate_to_bytes
        from treegen.exact.certify import certify
        from treegen.files import write_atomic

        data = certificate_to_bytes(certify(game, None, None, depth - 1))
        write_atomic(args.certificate, data, "certificate file")
        provenance["certificate"] = {"file": os.path.basename(args.certificate),
                                     "sha256": hashlib.sha256(data).hexdigest()}
    tree = make_tree(game, f"within-{depth}", root, provenance)
    save_tree(tree, args.output)
    print(f"{game.name}: every secret within {depth} guesses ({solver.counts.nodes} nodes); total {tree.stats.total} "
          f"(not minimised); {seconds:.1f} s; wrote {args.output}")
    return 0


def treegen(*args: str) -> None:
    """Run ``command(*args)`` in a fresh process."""
    subprocess.run(command(*args), check=True)


def _run_counting(cmd: list[str], spent_path: str, spent: float, start: float, every: float = 10.0) -> None:
    """Run ``cmd`` and keep ``spent_path`` at the seconds spent so far, rewritten ``every`` seconds while
    it runs (``spent`` before ``start``, a ``time.perf_counter()`` reading).

    Why not only at the end: a build killed outright (SIGKILL, a machine that goes away) runs no
    ``finally``, so its time would vanish while its checkpointed subproblems stay, and the resumed
    build would report too little. This way at most ``every`` seconds of a killed run go uncounted.
    """

    def record() -> None:
        tmp = spent_path + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{spent + time.perf_counter() - start:.1f}\n")
        os.replace(tmp, spent_path)

    proc = subprocess.Popen(cmd)
    try:
        while True:
            try:
                proc.wait(timeout=every)
                break
            except subprocess.TimeoutExpired:
                record()
    finally:
        if proc.poll() is None:  # interrupted here: stop the solve too (its checkpoint keeps its work)
            proc.terminate()
            proc.wait()
        record()
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, cmd)


def certificate_name(name: str) -> str:
    """The certificate shipped beside a tree: NAME.cert.json.gz for NAME.json."""
    return name.removesuffix(".json") + ".cert.json.gz"


def build(name: str, args: list[str], folder: str, slow: bool = False) -> tuple[float, float | None]:
    """Solve one tree into ``folder`` and verify it; the seconds it took (summed over resumed runs for
    a slow tree) and, for a certified tree, the seconds its verification took with the certificate."""
    path = os.path.join(folder, name)
    cert = os.path.join(folder, certificate_name(name))
    if name in CERTIFIED:
        args = [*args, "--certificate", cert]
    ckpt = os.path.join(tempfile.gettempdir(), "treegen-build-checkpoints", name)
    spent_path = os.path.join(ckpt, "seconds-so-far")
    spent = 0.0
    if slow:
        # `treegen value` has no checkpoint, nor has a certified tree's search (one process, start to end):
        # a stopped run of either starts again
        if args[0] == "solve" and name not in CERTIFIED:
            args = [*args, "--checkpoint", ckpt]
        os.makedirs(ckpt, exist_ok=True)
        if os.path.exists(spent_path):
            with open(spent_path) as f:
                spent = float(f.read())
    start = time.perf_counter()
    if slow:
        _run_counting(command(*args, "-o", path), spent_path, spent, start)
    else:
        treegen(*args, "-o", path)
    if name in IN_PARTS:
        # the parts folder sits beside the solve's checkpoint, so a stopped build resumes either
        certify = ["certify", path, "-o", cert, "--split", str(IN_PARTS[name])]
        if slow:
            _run_counting(command(*certify, "--parts", os.path.join(ckpt, "parts")), spent_path,
                          spent + time.perf_counter() - start, time.perf_counter())
        else:
            treegen(*certify)
    seconds = spent + time.perf_counter() - start
    start = time.perf_counter()
    treegen("verify", "-q", path, *(["--certificate", cert] if name in IN_PARTS else []))
    checked = time.perf_counter() - start if is_certified(name) else None
    if slow:
        shutil.rmtree(ckpt)
    return seconds, checked


def certificate_facts(cert: str) -> tuple[int, int]:
    """A certificate file's claims and bytes, its claims counted as the checker reads them, one at a time
    (mm:5:7's unpacks to gigabytes of JSON)."""
    from treegen.certificate import CLAIM, members
    from treegen.files import map_input

    data = map_input(cert, "certificate file")
    return sum(1 for name, _ in members(data, cert) if name is CLAIM), len(data)


def read_json(path: str) -> dict:
    """A JSON record of this folder ({} if it is not there yet)."""
    try:
        with open(path, "rb") as f:
            return orjson.loads(f.read())
    except FileNotFoundError:
        return {}


def readme_table() -> str:
    """trees/README.md from the tree files, their build times and what the certificates hold."""
    times = read_json(TIMES_PATH)
    return table([(n, p, times.get(n), times.get(certificate_name(n))) for n, _, p in TREES + SLOW
                  if os.path.exists(os.path.join(TREES_DIR, n))])


def table(rows: list[tuple[str, str, float | None, float | None]]) -> str:
    slow_names = {name for name, _, _ in SLOW}
    slow = [(seconds or 0) + (checked or 0) for name, _, seconds, checked in rows if name in slow_names]
    slow_hours = sum(slow) / 3600
    lines = [
        "# Shipped trees",
        "",
        "Every file here passes `treegen verify`; `python scripts/build_trees.py` regenerates them byte for byte",
        "(`--check` rebuilds into a scratch folder and compares). Times are whole-process wall times of the",
        "run that made the file, on a 2-core machine, with the default workers (every core; a certified tree's "
        "search runs in one process). The last "
        f"{len(slow)} files ({slow_hours:.1f} hours in all by the seconds below, with their certificates' checks) are",
        "built only with `--slow`, the uncertified trees through a checkpoint folder: a stopped build resumes from it,",
        "and its time is then summed over the runs (a certified tree's search, and `treegen value`, have no checkpoint:",
        "a stopped run starts again).",
        "",
        "A tree with a certificate ([docs/certificates.md](../docs/certificates.md)) has its lower bound proved by",
        "claims that `treegen verify` checks with code that shares nothing with the search; the column gives the",
        "claims, the certificate's size and the seconds `treegen verify` took with it. The others' lower bounds",
        "are the search's claim.",
        "",
        "| file | game | objective | total | average | max | proves | seconds | certified |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    values = [
        "",
        "Value files (`treegen value`, format in [docs/tree-format.md](../docs/tree-format.md#value-files-treegen-value-version-1)):",
        "the value of the game against a setter who draws the secret at random, with both mixed strategies.",
        "",
        "A value file's certificate proves its value from below: no strategy's total over the codes its setter draws",
        "from, weighted by their probabilities, is below the value ([docs/certificates.md](../docs/certificates.md#the-value-of-the-game-a-certificate-over-the-setters-codes)).",
        "",
        "| file | game | value | average | setter's orbit probabilities | guesser's trees | proves | seconds | certified |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    head = len(values)  # the value files' table is left out when there are none
    unshipped = read_json(UNSHIPPED_RECORD)
    for name, proves, seconds, checked in rows:
        with open(os.path.join(TREES_DIR, name), "rb") as f:
            tree = orjson.loads(f.read())
        secs = f"{seconds:.1f}" if seconds is not None else "–"
        cert = os.path.join(TREES_DIR, certificate_name(name))
        certified = "no"
        facts = None  # (claims, megabytes): from the file, else from the record of an unshipped one
        if is_certified(name) and os.path.exists(cert):
            claims, size = certificate_facts(cert)
            facts = claims, size / 1e6
        elif is_certified(name) and certificate_name(name) in unshipped:
            facts = tuple(unshipped[certificate_name(name)])
        if facts:
            claims, megabytes = facts
            if certificate_name(name) in UNSHIPPED:
                certified = (f"yes, not shipped ({claims:,} claims, {megabytes:.1f} MB"
                             + (f", verified in {checked:.1f} s" if checked is not None else "")
                             + f"): `python scripts/build_trees.py --slow --only {name}` writes it")
            else:
                certified = (f"[yes]({certificate_name(name)}): {claims:,} claims, {megabytes:.2f} MB"
                             + (f", verified in {checked:.1f} s" if checked is not None else ""))
        if tree.get("format") == "treegen-value":
            setter = ", ".join(f"{o['representative']}: {o['setter']}" for o in tree["orbits"])
            num, _, den = tree["value"].partition("/")
            values.append(f"| [{name}]({name}) | {tree['game']['name']} | {tree['value']} | "
                          f"{int(num) / int(den or 1):.6f} | {setter} | {len(tree['guesser'])} | {proves} | {secs} | "
                          f"{certified} |")
            continue
        st, prov = tree["stats"], tree.get("provenance", {})
        objective = prov.get("objective", tree["strategy"])
        if "at_worst" in prov:
            objective += f" ({prov['at_worst']} at {prov['worst_case']})"
        if prov.get("max_guesses") is not None and objective == "average":
            objective += f", at most {prov['max_guesses']} guesses"
        if prov.get("consistent_only"):
            objective += ", hard mode"
        lines.append(
            f"| [{name}]({name}) | {tree['game']['name']} | {objective} | {st['total']} | "
            f"{st['total'] / st['secrets']:.4f} | {st['max_guesses']} | {proves} | {secs} | {certified} |"
        )
    return "\n".join(lines + (values if len(values) > head else [])) + "\n"


# The games whose every opening (first guess, one per class of equivalent ones) is valued exactly in
# trees/openings.json, with the least-total tree the values are taken from where the opening is the tree's.
OPENINGS = ["mastermind", "bulls-cows", "smash-the-code", "royale", "mm:4:7", "mm:4:8", "numbers-baseball"]
OPENINGS_FILE = os.path.join(TREES_DIR, "openings.json")


def openings_table() -> bytes:
    """trees/openings.json: for each game of OPENINGS, every opening's least total (exact, from the exact
    search on each class, ``treegen.analysis``), best first; the page's "why the first guess" table."""
    from treegen.analysis import Analyzer
    from treegen.files import default_name
    from treegen.rules import format_code, resolve_game
    from treegen.tree import load_tree

    games = {}
    for name in OPENINGS:
        game = resolve_game(name)
        tree_file = default_name(game, "optimal-average")
        analyzer = Analyzer(game, load_tree(os.path.join(TREES_DIR, tree_file), game))
        start = time.perf_counter()
        rows = analyzer.openings()
        print(f"openings of {game.name}: {len(rows)} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        games[game.name] = {
            "tree": tree_file, "secrets": game.size,
            "openings": [{"guess": format_code(game, code), "codes": size, "total": v.lower} for code, size, v in rows],
        }
    doc = {"format": "treegen-openings", "version": 1,
           "note": "each first guess's least total (every secret's guesses summed, the first included), one guess "
                   "per class of equivalent first guesses ('codes' of them), best first; exact, by the exact search "
                   "of each class (python scripts/build_trees.py --openings)",
           "games": games}
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--within-cap"]:  # one tree, in the fresh process that build() starts for it
        return within_cap(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="FILE", help="build only these files (repeatable)")
    parser.add_argument("--check", action="store_true", help="rebuild into a scratch folder and compare bytes")
    parser.add_argument("--slow", action="store_true", help="include the trees that take minutes or more")
    parser.add_argument("--table", action="store_true", help="only write trees/README.md's table again, from the files")
    parser.add_argument("--openings", action="store_true", help="only write trees/openings.json again (with --check: compare)")
    args = parser.parse_args(argv)
    if args.openings:
        data = openings_table()
        if args.check:
            same = os.path.exists(OPENINGS_FILE) and open(OPENINGS_FILE, "rb").read() == data
            print(f"{'same' if same else 'DIFFERS'}  openings.json")
            return 0 if same else 1
        with open(OPENINGS_FILE + ".tmp", "wb") as f:
            f.write(data)
        os.replace(OPENINGS_FILE + ".tmp", OPENINGS_FILE)
        return 0
    known = TREES + SLOW
    slow = {name for name, _, _ in SLOW}
    chosen = [t for t in known if (args.only and t[0] in args.only) or (not args.only and (args.slow or t[0] not in slow))]
    if not chosen:
        parser.error(f"no tree named {args.only}; known: {', '.join(t[0] for t in known)}")
    if args.check:
        differ = []
        with tempfile.TemporaryDirectory() as scratch:
            for name, targs, _ in chosen:
                build(name, targs, scratch, name in slow)
                for built in [name] + ([certificate_name(name)] if is_certified(name) else []):
                    same = os.path.exists(os.path.join(TREES_DIR, built)) and filecmp.cmp(
                        os.path.join(scratch, built), os.path.join(TREES_DIR, built), shallow=False
                    )
                    print(f"{'same' if same else 'DIFFERS'}  {built}")
                    if not same:
                        differ.append(built)
        return 1 if differ else 0
    os.makedirs(TREES_DIR, exist_ok=True)
    if args.table:
        chosen = []
    from treegen.files import write_atomic

    def write_json(path: str, record: dict, what: str) -> None:
        write_atomic(path, orjson.dumps(record, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n",
                     what, durable=False)

    for name, targs, _ in chosen:
        seconds, checked = build(name, targs, TREES_DIR, name in slow)
        # read again: another build beside this one (a second core's --only list) may have written its times
        times = read_json(TIMES_PATH)
        times[name] = round(seconds, 1)
        if checked is not None:
            times[certificate_name(name)] = round(checked, 1)
        write_json(TIMES_PATH, times, "build times")
        if certificate_name(name) in UNSHIPPED:
            record = read_json(UNSHIPPED_RECORD)
            claims, size = certificate_facts(os.path.join(TREES_DIR, certificate_name(name)))
            record[certificate_name(name)] = [claims, round(size / 1e6, 1)]
            write_json(UNSHIPPED_RECORD, record, "certificate record")
    write_atomic(os.path.join(TREES_DIR, "README.md"), readme_table().encode(), "trees/README.md", durable=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
