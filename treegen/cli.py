"""The ``treegen`` command line: games, hints, candidates, trees, heuristics and exact search.

This layer parses arguments, handles signals and prints; the library returns values. Heavy modules
(numpy, numba) are imported inside the commands that need them, so that ``play``, ``verify`` and
``show`` start instantly. Exit statuses are the same for every command (``EXIT_STATUSES``): every error a
user can cause is a one-line message and exit 2, and no traceback reaches a user.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys

from . import __version__
from .rules import DEFAULT_GAME, PRESETS, TreegenError, resolve_game

EXIT_OK, EXIT_FALSE, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_SIGINT, EXIT_SIGTERM = 130, 143

EXIT_STATUSES = """exit status:
  0    success
  1    the tree is invalid, or what was asked is proved impossible
  2    bad input (a malformed argument, file or hint; an output that cannot be written)
  3    internal error (a bug: please report it)
  130  interrupted (Ctrl-C); 143: terminated (SIGTERM)
"""

EPILOG = """\
examples:
  treegen solve && treegen verify bulls-cows-optimal-average.json
  treegen games
  treegen hint 5346 5234                      # -> 1A2B
  treegen hint --game numbers-baseball 5382 3092
  treegen candidates 0123=1A2B 4567=0A1B
  treegen candidates --game mastermind 1122=BW 3456=W
  treegen build --strategy entropy            # a heuristic tree: bulls-cows-entropy.json
  treegen eval                                # every heuristic strategy compared in one table
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, then exits 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def format_help(self) -> str:
        # A description that needs a module import is built only when help is asked for (``serve``'s text
        # lives in treegen.serve, whose http.server import would slow every command's start).
        more = getattr(self, "describe_more", None)
        if more is not None:
            self.description = f"{self.description}\n\n{more()}"
            self.describe_more = None
        return super().format_help()


def _add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game",
        "-g",
        default=DEFAULT_GAME,
        metavar="G",
        help=f"a preset ({', '.join(PRESETS)}) or a spec bc:P:N / mm:P:N (default: {DEFAULT_GAME})",
    )


# -- argument types: every number a user types goes through rules.parse_int (ASCII digits, a range) ------
SEED_MAX = 2**64 - 1  # numpy's and Python's generators take any seed; 64 bits is what a user can mean


def _whole(lo: int | None = None, hi: int | None = None):
    """An argparse type: a whole number in ASCII digits within ``lo..hi`` (``int`` would take ``１``, ``1_0``
    and 5000 digits, and fail far later, or with a traceback)."""
    from .rules import NumberError, parse_int

    def whole(text: str) -> int:
        try:
            return parse_int(text, "the value", lo, hi)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return whole


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (``float`` takes ``nan`` and ``inf``)."""
    raw = text.strip()
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9}", raw) or float(raw) <= 0:
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise argparse.ArgumentTypeError(f"the value must be a positive number of seconds such as 600 or 0.5, not {shown!r}")
    return float(raw)


def _text(text: str) -> str:
    """An argparse type for every text option: an empty value is refused, as ``-o ''`` always was (an empty
    ``--guesses`` would start a long search; an empty ``--trees`` would serve the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the value is empty; give one")
    return text


# -- games, hint, candidates -----------------------------------------------------------------------


def cmd_games(args) -> int:
    print(f"{'preset':<19} {'positions':>9}  {'alphabet':<11} {'repeats':<8} {'secrets':>7}  hints")
    for g in PRESETS.values():
        notation = {"ab": "xAyB", "pegs": "xAyB or pegs BBW", "baseball": "xAyB or ball=2 strike=1"}
        print(
            f"{g.name:<19} {g.positions:>9}  {g.alphabet:<11} {'yes' if g.repeats else 'no':<8} "
            f"{g.size:>7}  {notation[g.notation]}"
        )
    print("\nOther games: --game bc:P:N (P positions, N symbols, no repeats) or mm:P:N (repeats);")
    print("symbols are the first N of 0-9 then A-Z, e.g. --game bc:3:6, --game mm:4:7.")
    return 0


def cmd_hint(args) -> int:
    from .rules import format_hint, format_hint_native, parse_code, score_codes

    game = resolve_game(args.game)
    guess = parse_code(game, args.guess)
    secret = parse_code(game, args.secret)
    hint = score_codes(game, guess, secret)
    native = format_hint_native(game, hint)
    print(format_hint(game, hint) + (f"  ({native})" if native else ""))
    return 0


def _parse_history(game, pairs: list[str]):
    from .rules import HintError, parse_code, parse_hint

    history = []
    for item in pairs:
        if "=" not in item:
            raise HintError(f"{item!r} is not GUESS=HINT; write each guess and its hint as 0123=1A2B")
        code, hint = item.split("=", 1)
        history.append((parse_code(game, code), parse_hint(game, hint)))
    return history


def cmd_candidates(args) -> int:
    from .feedback import consistent_secrets
    from .rules import format_code

    game = resolve_game(args.game)
    history = _parse_history(game, args.history)
    alive = consistent_secrets(game, history)
    shown = alive[: args.limit] if args.limit > 0 else alive
    print(f"{alive.size} possible secret{'s' if alive.size != 1 else ''}")
    if shown.size:
        print(" ".join(format_code(game, int(c)) for c in shown) + (" ..." if shown.size < alive.size else ""))
    return 0


# -- tree files: verify, play, show (stdlib + orjson only: they start instantly) -------------------


def _tree_game(args):
    return resolve_game(args.game) if args.game else None


def _load(path: str, game, value_ok: bool = False):
    """A tree file (or, with ``value_ok``, a value file: ``certificate``), or standard input for ``-``."""
    from .tree import TreeError, tree_from_bytes

    from .files import read_input

    data, source = read_input(path, "tree file"), "<stdin>" if path == "-" else path
    if b'"treegen-value"' in data[:4096]:
        from .certificate import value_from_bytes

        if not value_ok:
            raise TreeError(f"{source} is a value file (format treegen-value), not a tree: check it with "
                            "`treegen verify`")
        vf = value_from_bytes(data, source)
        if game is not None and (vf.game.positions, vf.game.alphabet, vf.game.repeats) != (
                game.positions, game.alphabet, game.repeats):
            raise TreeError(f"{source} is a value file for {vf.game.describe()}, not for {game.describe()}")
        return vf
    return tree_from_bytes(data, source, game)


def _verify_value(name: str, vf, max_guesses) -> None:
    """Check a value file's claims (``certificate.check_value``) and print what was checked."""
    from .certificate import check_value
    from .rules import format_code

    check_value(vf, max_guesses)
    print(f"{name}: valid value file for {vf.game.name}: value {vf.value} = {float(vf.value):.6f} guesses")
    print(f"guesser  {len(vf.guesser)} tree{'s' if len(vf.guesser) != 1 else ''}, each replayed: the mixture holds "
          f"every secret to at most {vf.value} on average")
    setter = ", ".join(f"{format_code(vf.game, r)}: {p}" for (r, _), p in zip(vf.orbits, vf.setter))
    print(f"setter   orbit probabilities {setter}: every listed tree averages at least {vf.value} against them")
    print("lower    that no other tree does better rests on the exact search; rerun it with "
          f"`treegen value --recheck {name}`")


def cmd_verify(args) -> int:
    from .report import describe_tree, format_stats
    from .tree import InvalidTree, TreeError
    from .verify import verify_tree

    if args.max_guesses is not None and args.max_guesses < 1:
        raise TreegenError(f"--max-guesses must be at least 1, not {args.max_guesses}")
    if args.file.count("-") > 1:
        raise TreegenError("standard input ('-') can be read only once")
    game = _tree_game(args)
    within = f" within {args.max_guesses}" if args.max_guesses is not None else ""
    worst = EXIT_OK
    tally = {"valid": 0, "invalid": 0, "unreadable": 0}
    for k, path in enumerate(args.file):
        name = "<stdin>" if path == "-" else path
        if k:
            print()
        try:
            tree = _load(path, game, value_ok=True)
        except TreeError as exc:
            if len(args.file) == 1:
                raise
            print(f"treegen: error: {exc}", file=sys.stderr)
            tally["unreadable"] += 1
            worst = EXIT_USAGE
            continue
        try:
            if not hasattr(tree, "root"):  # a value file
                _verify_value(name, tree, args.max_guesses)
                tally["valid"] += 1
                continue
            stats = verify_tree(tree, args.max_guesses)
        except InvalidTree as exc:
            kind = "tree" if hasattr(tree, "root") else "value file"
            print(f"treegen: {name} is not a valid {kind}: {exc}", file=sys.stderr)
            tally["invalid"] += 1
            worst = max(worst, EXIT_FALSE)
            continue
        tally["valid"] += 1
        print(f"{name}: valid tree, every secret solved{within}")
        print(describe_tree(tree))
        print(format_stats(stats))
    if len(args.file) > 1:
        print(f"\n{len(args.file)} files: " + ", ".join(f"{n} {what}" for what, n in tally.items() if n))
    return worst


def cmd_show(args) -> int:
    from .report import describe_tree, format_stats, outline
    from .tree import InvalidTree
    from .verify import verify_tree

    if args.depth < 0:
        raise TreegenError(f"--depth must be 0 or more, not {args.depth}")
    tree = _load(args.file, _tree_game(args))
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
        return EXIT_FALSE
    return EXIT_OK


def cmd_play(args) -> int:
    """Check the options, then play from a tree (``play``), as an evil host (``play``, no tree), or by a
    strategy without a tree (``liveplay``)."""
    if args.secret is not None and args.host:
        raise TreegenError("--secret and --host do not go together: --secret plays a given secret, --host picks one")
    if args.evil and not args.host:
        raise TreegenError("--evil applies only with --host")
    if args.evil and args.seed is not None:
        raise TreegenError("--seed and --evil do not go together: the evil host picks no secret")
    if args.strategy is not None:
        return _play_strategy(args)
    if args.seed is not None and not args.host:
        raise TreegenError("--seed applies only with --host or --strategy")
    if any(v is not None for v in (args.threshold, args.guess_sample, args.memory)):
        raise TreegenError("--threshold, --guess-sample and --memory apply only with --strategy")
    import random

    from . import play
    from .tree import load_tree

    game = resolve_game(args.game) if args.game else None
    if args.tree is None:
        if not (args.host and args.evil):
            raise TreegenError("play needs --tree FILE (or --strategy S, or --host --evil to play without a tree)")
        tree, game = None, game or resolve_game(DEFAULT_GAME)
    else:
        tree = load_tree(args.tree, game)
        game = tree.game
    if args.secret is not None:
        return play.play_secret(tree, args.secret)
    with play.Console() as con:
        if args.host:
            setter = play.EvilSetter(game) if args.evil else play.FixedSecret(game, random.Random(args.seed).randrange(game.size))
            return play.play_host(game, tree, setter, con)
        return play.play_guesser(tree, con)


def _play_strategy(args) -> int:
    """``treegen play --strategy S``: no tree file; the strategy chooses each guess as the game goes."""
    from . import liveplay
    from .feedback import parse_memory

    if args.tree is not None:
        raise TreegenError("--strategy plays without a tree file; give either --tree or --strategy")
    if args.host:
        raise TreegenError("--host plays with a tree file (or --evil): drop --strategy")
    game = resolve_game(args.game or DEFAULT_GAME, large=True)
    memory = parse_memory(args.memory) if args.memory is not None else None
    player = liveplay.Player.make(game, args.strategy, seed=args.seed, threshold=args.threshold,
                                  guess_sample=args.guess_sample, memory=memory)
    if args.secret is not None:
        return liveplay.play_secret(player, args.secret)
    return liveplay.play_guesser(player)


def cmd_import(args) -> int:
    """``treegen import``: read another tool's tree, verify it completely, save it as a tree file."""
    import os

    from .files import output_file, read_input
    from .formats import import_format, import_tree
    from .report import describe_tree, format_stats
    from .tree import InvalidTree, save_tree

    output_file(args.output, "tree file")
    if os.path.exists(args.output) and os.path.exists(args.file) and os.path.samefile(args.output, args.file):
        raise TreegenError(f"-o {args.output} is the file being imported; write the tree to another file")
    game = resolve_game(args.game) if args.game else None
    fmt = import_format(args.format, args.file)
    data = read_input(args.file, "input file")
    try:
        tree, parsed = import_tree(fmt, data, args.file, game, args.alphabet)
    except InvalidTree as exc:
        print(f"treegen: {args.file} is not a complete, consistent strategy: {exc}", file=sys.stderr)
        return EXIT_FALSE
    for note in parsed.notes:
        print(f"treegen: {args.file}: {note}", file=sys.stderr)
    save_tree(tree, args.output)
    print(f"{args.output}: imported from {args.file} ({fmt}); verified: every secret solved")
    print(describe_tree(tree))
    print(format_stats(tree.stats))
    return EXIT_OK


def cmd_export(args) -> int:
    """``treegen export``: write a verified tree file in another format, to stdout or -o FILE."""
    import os

    from .files import output_file, write_atomic
    from .formats import export_tree
    from .tree import InvalidTree
    from .verify import verify_tree

    if args.output is not None:
        output_file(args.output, "export file")
        if os.path.exists(args.output) and os.path.exists(args.file) and os.path.samefile(args.output, args.file):
            raise TreegenError(f"-o {args.output} is the tree file being exported; write to another file")
    tree = _load(args.file, _tree_game(args))
    try:
        verify_tree(tree)
    except InvalidTree as exc:
        print(f"treegen: {args.file} is not a valid tree: {exc}", file=sys.stderr)
        return EXIT_FALSE
    text = export_tree(args.format, tree, args.depth, header=not args.bare, alphabet=args.alphabet)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomic(args.output, text.encode("utf-8"), "export file")
    return EXIT_OK


def _add_tree_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", "-g", default=None, metavar="G",
        help="refuse a tree for any other game (default: the game named in the file)",
    )


# -- heuristic trees: build, eval -----------------------------------------------------------------


def _progress_bar(total: int, desc: str):
    """A tqdm bar on stderr that shows up only if the work takes over a second."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="secret", delay=1.0, leave=False, file=sys.stderr)


def cmd_build(args) -> int:
    from .feedback import parse_memory
    from .files import output_file
    from .report import format_stats
    from .strategies import build_tree, default_output, format_scored, get_strategy
    from .tree import save_tree

    game = resolve_game(args.game)
    name = get_strategy(args.strategy).name
    out = args.output if args.output is not None else default_output(game, name)
    output_file(out, "tree file")
    memory = parse_memory(args.memory) if args.memory is not None else None
    with _progress_bar(game.size, name) as bar:
        built = build_tree(
            game, name, first=args.first, consistent_only=args.consistent_only, seed=args.seed,
            tie=args.tie, progress=bar.update, memory=memory,
        )
    save_tree(built.tree, out)
    print(f"{built.tree.strategy} for {game.name}, opening {built.tree.root.guess}: wrote {out}")
    print(format_stats(built.tree.stats))
    print(f"time     {built.seconds:.2f} s")
    if args.stats:
        print("guesses scored per depth:")
        print(format_scored(built))
    return 0


def _eval_sample(args) -> int:
    from .feedback import parse_memory
    from .liveplay import LIVE_STRATEGIES, Player, evaluate, format_sample
    from .rules import MAX_CODES
    from .strategies import applicable

    game = resolve_game(args.game, large=True)
    if args.first is not None or args.consistent_only or args.tie != "possible":
        raise TreegenError("--first, --consistent-only and --tie apply to built trees, not to --sample")
    if args.strategy != "all":
        names = [args.strategy]
    elif game.size > MAX_CODES:
        names = list(LIVE_STRATEGIES)
    else:
        names = [n for n in applicable(game) if n != "digit-sweep"] + ["hybrid"]
    memory = parse_memory(args.memory) if args.memory is not None else None
    players = [
        Player.make(
            game, name, seed=args.seed if name in ("hybrid", "random-consistent") else None,
            threshold=args.threshold if name == "hybrid" else None,
            guess_sample=args.guess_sample if name == "hybrid" else None, memory=memory,
        )
        for name in names
    ]
    n = min(args.sample, game.size)
    print(game.describe())
    seed = 0 if args.seed is None else args.seed
    for player in players:
        with _progress_bar(n, player.strategy) as bar:
            sample = evaluate(player, args.sample, seed, progress=bar.update)
        print(format_sample(player.strategy, sample))
    return 0


def cmd_eval(args) -> int:
    from .feedback import feedback_table, parse_memory
    from .strategies import applicable, build_tree, format_comparison, get_strategy, uses_table

    if args.sample is not None:
        return _eval_sample(args)
    if args.threshold is not None or args.guess_sample is not None:
        raise TreegenError("--threshold and --guess-sample apply to the hybrid strategy, with --sample")
    game = resolve_game(args.game)
    names = applicable(game) if args.strategy == "all" else [get_strategy(args.strategy).name]
    memory = parse_memory(args.memory) if args.memory is not None else None
    if any(uses_table(game, name, memory) for name in names):
        feedback_table(game, memory)  # built once up front, so that no strategy's time includes it
    rows = []
    with _progress_bar(game.size * len(names), "eval") as bar:
        for name in names:
            kind = get_strategy(name).kind
            built = build_tree(
                game, name,
                first=args.first if kind != "sweep" else None,
                consistent_only=args.consistent_only and kind == "scored",
                seed=args.seed if kind == "random" else None,
                tie=args.tie, progress=bar.update, memory=memory,
            )
            rows.append((name, built))
    opening = "chosen by each scored strategy's own score (else the lowest code)" if args.first is None else args.first
    print(f"{game.describe()}; opening {opening}, ties: {args.tie}")
    print(format_comparison(rows))
    return 0


# -- exact search: solve --------------------------------------------------------------------------


def _stderr_line(bar):
    """Print one line on stderr without breaking a progress bar's line."""

    def say(message: str) -> None:
        if bar is not None:
            bar.write(f"treegen: {message}", file=sys.stderr)
        else:
            print(f"treegen: {message}", file=sys.stderr)

    return say


def _interrupt_within(exc: BaseException) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt or was caused by one. numba boxes a kernel's results with
    Python code, so Ctrl-C (or the SIGTERM handler's KeyboardInterrupt) can be raised there, and CPython
    then raises SystemError("... returned a result with an exception set") with the interrupt at the end
    of its chain of causes."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__
    return False


def cmd_solve(args) -> int:
    import signal
    import time
    from concurrent.futures.process import BrokenProcessPool

    from .coordinator import Infeasible, SearchBug, check_memory, compile_ahead, plan_workers, solve_game, strategy_name
    from .files import output_file, output_folder
    from .report import format_stats
    from .search import Options
    from .tree import save_tree

    game = resolve_game(args.game)
    if args.max_guesses is not None and args.max_guesses < 1:
        raise TreegenError(f"--max-guesses must be at least 1, not {args.max_guesses}")
    asked = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if asked < 1:
        raise TreegenError(f"--workers must be at least 1, not {asked}")
    objective = args.objective
    strategy = strategy_name(objective, args.max_guesses, args.consistent_only)
    out = args.output if args.output is not None else f"{game.name.replace(':', '-')}-{strategy}.json"
    # Everything that can be refused is refused before the search starts (and before any folder is made).
    if args.orbits and args.no_orbits:
        raise TreegenError("--orbits and --no-orbits contradict each other; give one at most")
    if args.address is not None and args.executor != "ray":
        raise TreegenError("--address applies only with --executor ray")
    output_file(out, "tree file")
    check_memory(game)
    if args.checkpoint is not None and output_folder(args.checkpoint):
        print(f"treegen: created checkpoint folder {args.checkpoint}", file=sys.stderr)
    if args.executor == "ray":
        workers = asked
    else:
        workers, note = plan_workers(game, asked)
        if note and args.workers is not None:  # said only to whoever asked for a number of workers
            print(f"treegen: {note}", file=sys.stderr)
    options = Options(
        symmetry=not args.no_symmetry, lookahead=not args.no_lookahead, ordering=not args.no_ordering,
        memo=not args.no_memo, two_phase=not args.no_two_phase,
        orbits=False if args.no_orbits else True if args.orbits else None, shares=not args.no_shares,
    ).resolved(game)
    start = time.perf_counter()
    bar = None

    def progress(done: int, total: int, note: str) -> None:
        # tqdm redraws at most every mininterval seconds on update(); never force a redraw here.
        bar.total = total
        if note != bar.postfix:
            bar.set_postfix_str(note, refresh=False)
        bar.update(done - bar.n)

    def timings() -> dict:
        return {"seconds": round(time.perf_counter() - start, 2), "workers": workers}

    signals: list[int] = []

    def stop(signum, frame):
        signals.append(signum)
        raise KeyboardInterrupt  # stop the workers and leave as after Ctrl-C

    def stopped() -> None:
        # The record, not only the exception: a KeyboardInterrupt raised while LLVM calls back into Python
        # (numba compiling) is printed and dropped by ctypes, and the solve would go on to write its tree.
        if signals:
            raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    failure: BaseException | None = None
    try:
        # Before the progress bar, whose monitor thread would make compile_ahead spawn its helper
        # rather than fork it (slower to start).
        compile_ahead(game, asked, None if args.quiet else _stderr_line(None), orbits=options.orbits)
        stopped()
        if not args.quiet:
            from tqdm import tqdm

            bar = tqdm(total=0, desc=f"solve {game.name}", unit="subproblem", file=sys.stderr, leave=False)
        tree = solve_game(
            game, objective, args.max_guesses, workers, args.checkpoint, progress if bar is not None else None,
            options, warn=_stderr_line(bar), timings=timings if args.timings else None,
            consistent_only=args.consistent_only, executor=args.executor, address=args.address, eager=args.eager,
        )
        stopped()
    except (Infeasible, SearchBug, KeyboardInterrupt, BrokenProcessPool) as exc:
        failure = exc
    except SystemError as exc:
        if not _interrupt_within(exc):
            raise
        failure = KeyboardInterrupt()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        if bar is not None:
            bar.close()  # before any message, which would otherwise trail the bar's line
    if isinstance(failure, Infeasible):
        print(f"treegen: {failure}", file=sys.stderr)
        return EXIT_FALSE
    if isinstance(failure, SearchBug):
        print(f"treegen: internal error: {failure}; no tree written (please report it)", file=sys.stderr)
        return EXIT_INTERNAL
    if isinstance(failure, KeyboardInterrupt):
        again = f" (run it again with --checkpoint {args.checkpoint} to resume)" if args.checkpoint else ""
        terminated = signal.SIGTERM in signals
        print(f"treegen: {'terminated' if terminated else 'interrupted'}; no tree written{again}", file=sys.stderr)
        return EXIT_SIGTERM if terminated else EXIT_SIGINT
    if isinstance(failure, BrokenProcessPool):
        print("treegen: internal error: a worker process died (out of memory?); no tree written", file=sys.stderr)
        return EXIT_INTERNAL
    seconds = time.perf_counter() - start
    save_tree(tree, out)
    prov = tree.provenance
    what = {"average": "least total", "worst": "least worst case, then least total",
            "crush": "least worst case, then fewest secrets at it, then least total"}[objective]
    if args.consistent_only:
        what += ", every guess a possible secret"
    cap = f" within {prov['max_guesses']} guesses" if prov["max_guesses"] is not None else ""
    print(f"{tree.strategy} for {game.name} ({what}{cap}): wrote {out}")
    if "worst_case" in prov:
        print(f"proved   every secret within {prov['worst_case']} guesses; within {prov['impossible_within']} is impossible")
    if "at_worst" in prov:
        print(f"proved   {prov['at_worst']} secrets need all {prov['worst_case']} guesses, and no tree has fewer")
    print(f"proved   optimal total {prov['optimal_total']} (lower bound {prov['lower_bound']})")
    print(format_stats(tree.stats))
    print(f"nodes    {prov['nodes']}")
    print(f"time     {seconds:.2f} s with {workers} worker{'s' if workers != 1 else ''}")
    return EXIT_OK


def cmd_serve(args) -> int:
    from . import serve

    return serve.run(args.trees, args.port, args.open)


def _serves() -> str:
    from .serve import SERVES

    return SERVES


def cmd_static(args) -> int:
    """``treegen static``: the least static set (or one of --size K), proved by the depth-first search or
    CP-SAT (``--method``); see treegen/static.py and treegen/static_search.py.

    Exit 0: the file is written and its claim proved (least size, or a set of size K); 1: no static set of
    K guesses exists (proved); 4: the time limit stopped the search (the best set so far is written, with
    ``proved_minimum`` false, when there is one); also when CP-SAT runs out of memory or gives up first.
    """
    from . import static
    from .files import output_file
    from .report import format_stats
    from .rules import parse_code
    from .tree import save_tree

    game = resolve_game(args.game)
    out = args.output if args.output is not None else f"{game.name.replace(':', '-')}-static.json"
    output_file(out, "tree file")
    if args.case_log is not None:
        output_file(args.case_log, "case log")
    h = static.hint_count(game)
    if args.guesses:
        codes = [parse_code(game, c) for c in args.guesses.replace(",", " ").split()]
        if len(set(codes)) != len(codes):
            raise TreegenError("--guesses repeats a code; give distinct codes")
        if not static.is_static_set(game, codes):
            print(f"treegen: these {len(codes)} guesses do not tell every two secrets of {game.name} apart",
                  file=sys.stderr)
            return 1
        bounds = static.counting_bounds(game)
        result = static.StaticResult(game, len(codes), tuple(codes), min(bounds.lower, len(codes)),
                                     bounds.lower >= len(codes), False, bounds, method="counting")
    else:
        bar = None
        if not args.quiet:
            from tqdm import tqdm

            bar = tqdm(total=None, desc=f"static {game.name}", unit="case", file=sys.stderr, leave=False, delay=1.0,
                       bar_format="{desc}: {n}/{total} cases; {postfix} [{elapsed}]")

        def progress(lower: int, upper: int | None, note: str, done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.set_postfix_str(f"{lower} <= static <= {'?' if upper is None else upper}; {note}", refresh=False)
            bar.refresh()

        try:
            result = static.find_static(
                game, args.size, method=args.method, workers=args.workers, seed=args.seed,
                time_limit=args.time_limit, memory_mb=args.memory,
                progress=progress if bar is not None else None,
            )
        finally:
            if bar is not None:
                bar.close()
        if args.case_log is not None:
            import orjson

            from .files import write_atomic

            write_atomic(args.case_log, b"".join(orjson.dumps(c.to_obj()) + b"\n" for c in result.cases), "case log")
    upper = None if result.guesses is None else len(result.guesses)
    print(f"game     {game.describe()}; {h} possible hints")
    print(f"bounds   counting: at least {result.bounds.lower} (h^k >= N: {result.bounds.plain}; "
          f"{result.bounds.cases} symmetry cases)")
    if args.guesses:
        pass  # a given set: nothing was searched
    elif result.method == "dfs":
        print(f"search   depth-first: {result.cases_solved} cases searched ({result.subcases} third-guess "
              f"subcases, {result.nodes} codes tried), {result.cases_bounded} closed by counting, "
              f"{result.seconds:.1f} s with {args.workers} thread{'s' if args.workers != 1 else ''}")
    else:
        print(f"search   CP-SAT: {result.iterations} solves, {result.constraints} separation clauses, "
              f"{result.cases_solved} cases solved, {result.cases_bounded} closed by counting, "
              f"{result.seconds:.1f} s with {args.workers} worker{'s' if args.workers != 1 else ''}")
    if args.size is not None and result.guesses is None and not result.timed_out:
        print(f"treegen: no static set of {args.size} guesses separates the secrets of {game.name} "
              f"(proved: at least {result.lower_bound})", file=sys.stderr)
        return 1
    if result.guesses is None:
        print(f"treegen: {result.stopped}: no set of {args.size} found and none refuted; "
              f"static >= {result.lower_bound}; no file written", file=sys.stderr)
        return 4
    tree = static.static_tree(game, result, args.objective)
    save_tree(tree, out)
    k = len(result.guesses)
    claim = tree.provenance["static"]
    if args.size is None and not args.guesses:
        state = "proved" if claim["proved_minimum"] else f"not proved ({result.stopped})"
        print(f"static   {result.lower_bound} <= static({game.name}) <= {upper}: {state}")
    else:
        print(f"static   a static set of {k}; static({game.name}) >= {claim['lower_bound']}"
              + (" (so it is least)" if claim["proved_minimum"] else ""))
    print("guesses  " + " ".join(claim["guesses"]))
    print(f"total    {claim['total']} = k(k+1)/2 + (N-k)(k+1): the same for every static set of {k}"
          + ("; --objective average has nothing else to choose" if args.objective == "average" else ""))
    print(format_stats(tree.stats))
    print(f"wrote    {out}")
    return 4 if result.timed_out else 0


def _add_heuristic_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--first", default=None, metavar="CODE",
                   help="the opening guess (default: scored strategies choose it by their score, others the lowest code)")
    p.add_argument("--consistent-only", action="store_true", help="scored strategies guess only possible codes")
    p.add_argument("--seed", type=_whole(0, SEED_MAX), default=None, metavar="N", help="random-consistent: the random seed (default 0)")
    p.add_argument(
        "--tie", choices=("possible", "paper"), default="possible",
        help="equal scores go to the lowest possible code (possible, default) or as seed 001's program "
        "does, to the last possible code it scans (paper)",
    )


def _add_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--memory", default=None, metavar="SIZE",
                   help="memory budget such as 4G or 512M (default: a quarter of the machine's memory); a "
                   "feedback table larger than this is not built: hints are computed on the fly")


def _add_live_options(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--strategy", default=None, metavar="S", help=help)
    p.add_argument("--threshold", type=_whole(0, 10**9), default=None, metavar="T",
                   help="hybrid: guess the first possible code while more than T remain (default 2000)")
    p.add_argument("--guess-sample", type=_whole(0, 10**9), default=None, metavar="K",
                   help="hybrid: score the possible codes plus K random others (default 1000)")
    _add_memory(p)


def cmd_value(args) -> int:
    """``treegen value``: the value of the game against a randomising setter, with both strategies (see
    treegen/value.py); ``--recheck FILE`` reruns a value file's lower-bound search."""
    import time

    from .certificate import value_to_bytes
    from .files import output_file, write_atomic
    from .rules import format_code

    asked = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if asked < 1:
        raise TreegenError(f"--workers must be at least 1, not {asked}")
    if args.recheck is not None:
        from .tree import InvalidTree
        from .value import recheck

        vf = _load(args.recheck, None, value_ok=True)
        if hasattr(vf, "root"):
            raise TreegenError(f"{args.recheck} is a tree file, not a value file (see `treegen value --help`)")
        try:
            _verify_value(args.recheck, vf, None)
        except InvalidTree as exc:
            print(f"treegen: {args.recheck} is not a valid value file: {exc}", file=sys.stderr)
            return EXIT_FALSE
        lower = recheck(vf, asked)
        if lower != vf.value:
            print(f"treegen: {args.recheck}: the best tree against its setter averages {lower} ({float(lower):.6f}), "
                  f"not the claimed value {vf.value}", file=sys.stderr)
            return EXIT_FALSE
        print(f"lower    rechecked: the best tree against the setter averages exactly {lower}; the value is proved")
        return EXIT_OK
    from .coordinator import check_memory, plan_workers
    from .value import game_value

    game = resolve_game(args.game)
    out = args.output if args.output is not None else f"{game.name.replace(':', '-')}-value.json"
    output_file(out, "value file")
    check_memory(game)
    workers, note = plan_workers(game, asked)
    if note and args.workers is not None:
        print(f"treegen: {note}", file=sys.stderr)
    start = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=None, desc=f"value {game.name}", unit="tree", file=sys.stderr, leave=False, delay=1.0)

    def progress(iteration: int, lower: float, upper: float, note: str) -> None:
        bar.set_postfix_str(f"{lower:.6f} <= value <= {upper:.6f}; {note}", refresh=False)
        bar.update(1)

    try:
        gv = game_value(game, workers, progress=progress if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    write_atomic(out, value_to_bytes(gv.to_file()), "value file")
    v = gv.value
    print(f"value of {game.name} against a randomising setter: wrote {out}")
    print(f"value    {v} = {float(v):.6f} guesses on average: no setter holds the guesser's mixture above it, "
          "no guesser beats the setter's distribution below it")
    print(f"uniform  {gv.uniform} = {float(gv.uniform):.6f} when the setter draws uniformly (the ordinary optimum)")
    print("setter   " + ", ".join(f"{format_code(game, r)} ({size} codes): {p}" for (r, size), p in zip(gv.orbits, gv.setter)))
    print(f"guesser  {len(gv.guesser)} tree{'s' if len(gv.guesser) != 1 else ''} with weights "
          + ", ".join(str(w) for w, _ in gv.guesser) + ", each played under a random relabelling of positions and symbols")
    print(f"proof    exact best response to the setter = {gv.lower} = the mixture's bound; "
          f"{gv.columns} trees generated in {gv.iterations} LP rounds, {gv.nodes} search nodes")
    print(f"time     {seconds:.2f} s with {workers} worker{'s' if workers != 1 else ''}")
    return EXIT_OK


# -- the parser ------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="treegen",
        description="Optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants.",
        epilog=EPILOG + "\n" + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"treegen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, func, help: str, epilog: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name, help=help, description=help, epilog="examples:\n" + epilog + "\n" + EXIT_STATUSES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(func=func)
        return p

    command("games", cmd_games, "list the preset games", "  treegen games\n")

    p = command(
        "hint", cmd_hint, "score a guess against a secret",
        "  treegen hint 5346 5234                         # 1A2B\n"
        "  treegen hint --game numbers-baseball 5382 3092  # 1A1B  (ball=2 strike=1)\n"
        "  treegen hint --game mastermind 1122 1213\n",
    )
    _add_game(p)
    p.add_argument("guess", metavar="GUESS")
    p.add_argument("secret", metavar="SECRET")

    p = command(
        "candidates", cmd_candidates, "list the secrets still possible after some hints",
        "  treegen candidates 0123=1A2B 4567=0A1B\n"
        "  treegen candidates --game numbers-baseball 0115='b1s0' 5623=b0s0\n"
        "  treegen candidates --game mastermind 1122=BW\n",
    )
    _add_game(p)
    p.add_argument("history", nargs="*", metavar="GUESS=HINT", help="a guess and the hint it got")
    p.add_argument("--limit", type=_whole(0, 10**9), default=20, metavar="N", help="show at most N secrets (0: all; default 20)")

    p = command(
        "verify", cmd_verify,
        "check that tree files solve every secret of their game and that every figure they claim is true",
        "  treegen verify bc.json                  # stats table, exit 0 if valid\n"
        "  treegen verify bc.json --max-guesses 7  # also require every secret solved within 7 guesses\n"
        "  treegen verify --game mastermind mm.json\n"
        "  treegen verify trees/*.json             # several files, then a summary\n"
        "  cat bc.json | treegen verify -          # standard input\n"
        "  treegen verify trees/mastermind-value.json   # a value file: both strategies, exactly\n",
    )
    p.add_argument("file", metavar="FILE", nargs="+", help="tree files or value files (docs/tree-format.md); - reads standard input")
    p.add_argument("--max-guesses", type=_whole(None, 10**9), default=None, metavar="N", help="fail if a secret needs more than N guesses")
    _add_tree_game(p)

    p = command(
        "play", cmd_play,
        "play with a tree: it guesses your secret, solves a given one (--secret), or hosts a game (--host)",
        "  treegen play --tree bc.json                    # think of a secret, type the hints (1A2B, '1 2', ...)\n"
        "  treegen play --tree bc.json --secret 5346      # show how the tree solves 5346\n"
        "  treegen play --tree bc.json --host --seed 7    # you guess; type ? for the tree's advice\n"
        "  treegen play --host --evil                     # you guess; the host keeps every hint consistent\n"
        "  treegen play --host --evil --game mastermind --tree trees/mastermind-optimal-worst.json\n"
        "  printf '0A2B\\n1A1B\\n' | treegen play --tree bc.json  # scripted hints\n"
        "\n"
        "commands at the prompt: help, undo (take back the last hint or guess), quit/q/exit;\n"
        "with --host, ? asks the tree, or off the tree's path a heuristic (it says which).\n"
        "\n"
        "When stdin is not a terminal, lines are read one by one and echoed after their prompt, and the\n"
        "first malformed line (a hint or code that cannot be read), inconsistent hint (no secret gives the\n"
        "hints so far), or an end of input before the secret is found stops the session with exit 2 and\n"
        "one line on stderr that says which. Exit 0 means solved, or quit on purpose (quit; Ctrl-D at a\n"
        "terminal); exit 1 means the tree is invalid (it has no move for a consistent history).\n",
    )
    p.add_argument("--tree", "-t", default=None, metavar="FILE",
                   help="the tree file to play with (required, except with --host --evil or --strategy)")
    p.add_argument("--secret", "-s", default=None, metavar="CODE", help="play this secret without asking")
    p.add_argument("--host", action="store_true", help="pick a random secret and score your guesses")
    p.add_argument("--seed", type=_whole(0, SEED_MAX), default=None, metavar="N", help="with --host: pick the secret reproducibly")
    p.add_argument("--evil", action="store_true",
                   help="with --host: hold no secret; answer each guess with the consistent hint that leaves "
                   "you the most guesses in the worst case")
    p.add_argument(
        "--game", "-g", default=None, metavar="G",
        help="with --tree: refuse a tree for any other game (default: the game named in the file); "
        "with --host --evil or --strategy and no tree: the game to play (default bulls-cows)",
    )
    _add_live_options(p, "play without a tree file: hybrid, first-consistent, random-consistent or a scored "
                      "strategy (games of up to 200000 codes); games of up to 10 positions")

    p = command(
        "show", cmd_show, "print a tree file's stats, whether it verifies, and its first levels as an outline",
        "  treegen show bc.json             # stats, then each hint of the first 2 levels: class size, next guess\n"
        "  treegen show bc.json --depth 1   # the first guess: each hint and the size of its class\n"
        "  cat bc.json | treegen show -     # standard input\n",
    )
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md); - reads standard input")
    p.add_argument("--depth", "-d", type=_whole(None, 10**9), default=2, metavar="D", help="levels of guesses to show (default 2)")
    _add_tree_game(p)

    p = command(
        "import", cmd_import,
        "read a tree another tool wrote (paths, irving, arfst23, arfst23-yml), verify it, save it as a tree file",
        "  treegen import irving p4c6r-knuth.txt -o knuth.json        # game guessed from the root count 1296\n"
        "  treegen import arfst23 solution-4-7-6 -o mm47.json         # game from the name solution-P-C-D\n"
        "  treegen import arfst23 solution-4-6-5.yml -o mm.json       # .yml: read as arfst23-yml\n"
        "  treegen import paths paths.txt --game mastermind --alphabet 012345=123456 -o mm.json\n"
        "exit 0: imported and verified; 1: not a complete, consistent strategy; 2: unreadable input\n",
    )
    p.add_argument("format", metavar="FORMAT", help="paths, irving, arfst23 or arfst23-yml (docs/tree-format.md)")
    p.add_argument("file", metavar="FILE", help="the file to import")
    p.add_argument("--game", "-g", default=None, metavar="G",
                   help="the game (default: from a treegen header, the root count, or the arfst23 file name)")
    p.add_argument("--alphabet", default=None, metavar="FROM=TO",
                   help="the file writes the game's symbol TO[i] as FROM[i], e.g. 012345=123456 "
                   "(default: guessed when the file's symbols are not the game's, and said on stderr)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the tree file to write")

    p = command(
        "export", cmd_export,
        "write a tree file as paths, irving, arfst23, arfst23-yml, dot (Graphviz) or csv",
        "  treegen export paths mm.json -o mm-paths.txt     # one line per secret; importing it gives mm.json back\n"
        "  treegen export arfst23 mm.json --alphabet 012345=123456   # colours written 0-5, as arfst23 does\n"
        "  treegen export irving mm.json                    # Irving notation on stdout, as mmstrat prints it\n"
        "  treegen export dot mm.json --depth 2 | dot -Tsvg > mm.svg\n"
        "  treegen export csv mm.json -o nodes.csv          # one row per node: history, guess, secrets\n",
    )
    p.add_argument("format", metavar="FORMAT", help="paths, irving, arfst23, arfst23-yml, dot or csv")
    p.add_argument("file", metavar="FILE", help="a tree file (docs/tree-format.md)")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--depth", "-d", type=_whole(0, 10**9), default=None, metavar="N", help="dot: draw only the first N levels")
    p.add_argument("--alphabet", default=None, metavar="FROM=TO",
                   help="write the game's symbol TO[i] as FROM[i], e.g. 012345=123456 (not for dot, csv)")
    p.add_argument("--bare", action="store_true",
                   help="paths/irving: leave out the '# treegen:' header line (for other tools; "
                   "an import then records strategy imported:FORMAT)")
    _add_tree_game(p)

    p = command(
        "build", cmd_build, "build a heuristic strategy tree over every secret and save it",
        "  treegen build --strategy entropy                       # bulls-cows-entropy.json\n"
        "  treegen build --strategy minimax --game mastermind --first 1122 -o knuth.json\n"
        "  treegen build --strategy expected-size --stats        # guesses scored per depth\n"
        "  treegen build --strategy random-consistent --seed 7\n"
        "  treegen build --strategy digit-sweep --game mastermind-digits\n"
        "  treegen build --strategy first-consistent --game bc:6:10 --memory 4G   # no 22.9 GB table: on the fly\n",
    )
    _add_game(p)
    p.add_argument("--strategy", "-s", required=True, metavar="S", help="first-consistent, random-consistent, "
                   "minimax, expected-size, expected-steps, entropy, most-parts, n-ln-n-plus-1, digit-sweep")
    _add_heuristic_options(p)
    p.add_argument("--stats", action="store_true", help="also print how many guesses were scored at each depth")
    p.add_argument("--output", "-o", default=None, metavar="FILE", help="default: GAME-STRATEGY.json")
    _add_memory(p)

    p = command(
        "eval", cmd_eval, "build the heuristic trees and compare them in one table",
        "  treegen eval                                   # every strategy for bulls-cows\n"
        "  treegen eval --game mastermind --first 1122\n"
        "  treegen eval --strategy minimax --tie paper    # seed 001's tie rule\n"
        "  treegen eval --game bc:10:10 --sample 100 --strategy hybrid --seed 1   # 95% interval of the mean\n",
    )
    _add_game(p)
    p.add_argument("--strategy", "-s", default="all", metavar="S|all", help="one strategy, or all that apply (default)")
    _add_heuristic_options(p)
    p.add_argument("--sample", type=_whole(0, 10**9), default=None, metavar="N",
                   help="play N random secrets (--seed) without building trees; games of up to 10 positions")
    p.add_argument("--threshold", type=_whole(0, 10**9), default=None, metavar="T",
                   help="hybrid: guess the first possible code while more than T remain (default 2000)")
    p.add_argument("--guess-sample", type=_whole(0, 10**9), default=None, metavar="K",
                   help="hybrid: score the possible codes plus K random others (default 1000)")
    _add_memory(p)

    p = command(
        "solve", cmd_solve, "prove an optimal strategy tree by exact search",
        "  treegen solve -o bulls-cows.json && treegen verify bulls-cows.json\n"
        "  treegen solve --game mastermind                      # least total: 5625\n"
        "  treegen solve --game mastermind --max-guesses 5      # least total within 5 guesses: 5626\n"
        "  treegen solve --game mastermind --objective worst    # 5 guesses, 4 impossible\n"
        "  treegen solve --game mastermind --objective crush    # 5 guesses, then fewest secrets needing 5\n"
        "  treegen solve --game mastermind --consistent-only    # hard mode: only possible codes as guesses\n"
        "  treegen solve --game mm:4:7 --workers 2 --checkpoint ckpt/\n"
        "  treegen solve --executor ray --address auto --eager   # on a Ray cluster (ray start --head, then workers)\n"
        "\n"
        "a checkpoint folder is trusted to be treegen's own work: each entry is checked for damage, for\n"
        "belonging to this search and this version of the search's code, and an exact value against its\n"
        "tree, and the final tree is replayed over every secret. But an entry rewritten with a worse,\n"
        "self-consistent outcome (its checksum recomputed) passes those checks, and the solve would claim\n"
        "what it never proved: resume only from a folder nothing but treegen has written, and for a claim\n"
        "others must trust, solve without a checkpoint folder or with a fresh one.\n",
    )
    _add_game(p)
    p.add_argument("--objective", choices=("average", "worst", "crush"), default="average",
                   help="average: least total guesses; worst: least maximum, then least total; crush: least "
                   "maximum, then fewest secrets needing it, then least total (default average)")
    p.add_argument("--max-guesses", type=_whole(None, 10**9), default=None, metavar="N",
                   help="every secret must be solved within N guesses (exit 1 with a proof if impossible)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="where to write the tree (default GAME-optimal-OBJECTIVE.json); a symlink is written "
                   "through to its target")
    p.add_argument("--workers", type=_whole(None, 10**9), default=None, metavar="K",
                   help="worker processes (default and most: every core); the output is the same for any K")
    p.add_argument("--executor", choices=("processes", "ray"), default="processes",
                   help="where subproblems run: local worker processes (default) or Ray (pip install -e '.[ray]')")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="with --executor ray: 'auto' joins this machine's Ray cluster (ray start), or a Ray "
                   "address; without it a local Ray of --workers CPUs starts on loopback")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="record finished subproblems in DIR (created if its parent exists); a rerun with the "
                   "same DIR resumes; a DIR of another search is refused")
    p.add_argument("--eager", action="store_true",
                   help="search every class of every guess side by side rather than one after another, and "
                   "coordinate every big set, not only those near the root: for many workers (Ray), a shorter "
                   "critical path (bulls-cows 1.4 s of CPU against 2.6 s) for more work; the same tree (the "
                   "file records eager, as its node count differs)")
    p.add_argument("--consistent-only", "--hard", action="store_true",
                   help="hard mode: every guess must be a secret still possible")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--timings", action="store_true",
                   help="also record seconds and workers in the file (the bytes then differ run to run)")
    for lever in ("symmetry", "lookahead", "ordering", "memo", "two-phase", "orbits", "shares"):
        p.add_argument(f"--no-{lever}", action="store_true", help=argparse.SUPPRESS)
    # The memo by orbit is on by default only for games of more than 2000 codes (search.uses_orbits).
    p.add_argument("--orbits", action="store_true", help=argparse.SUPPRESS)

    p = command(
        "serve", cmd_serve,
        "serve the browser page: play with and explore the tree files of a folder (on 127.0.0.1)",
        "  treegen serve --open                 # http://127.0.0.1:8000/ in your browser\n"
        "  treegen serve --trees my-trees/ --port 0   # any free port; the URL is printed\n",
    )
    p.describe_more = _serves
    p.add_argument("--port", "-p", type=_whole(0, 65535), default=8000, metavar="N", help="port to listen on (0: any free port; default 8000)")
    p.add_argument("--trees", default=None, metavar="DIR",
                   help="folder of tree files to list (default: the repository's trees/ when run from a checkout, else the current folder)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")

    p = command(
        "static", cmd_static,
        "the static game: fewest guesses written down at once whose hints name the secret (OR-Tools CP-SAT)",
        "  treegen static --game mm:2:5                 # least size with its proof: 4\n"
        "  treegen static --game mastermind --size 4    # exit 1: no static set of 4 guesses\n"
        "  treegen static --game mastermind --guesses '1221 2354 3311 4524 5656 6643'   # check a set\n"
        "  treegen static --game bulls-cows --time-limit 600 -o bc-static.json\n"
        "\n  and for static only: exit 4 when the search stopped (time limit, or CP-SAT gave up) before a proof;\n"
        "  the best set so far is written, marked proved_minimum: false\n",
    )
    _add_game(p)
    p.add_argument("--size", type=_whole(0, 10**9), default=None, metavar="K",
                   help="find a set of exactly K guesses or prove that none exists (exit 1)")
    p.add_argument("--objective", choices=("size", "average"), default="size",
                   help="size: least number of guesses (default); average: least total among least sets, "
                   "which is the same for every set (reported, see README)")
    p.add_argument("--guesses", default=None, metavar="CODES",
                   help="check and write this set (codes separated by spaces or commas) instead of searching")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write the tree (default GAME-static.json)")
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="S",
                   help="stop after S seconds and report the best bounds (exit 4)")
    p.add_argument("--method", choices=("dfs", "cp-sat"), default="dfs",
                   help="how each symmetry case is decided: dfs, the compiled depth-first search (default), "
                   "or cp-sat, OR-Tools CP-SAT with lazy separation clauses; both give the same answer")
    p.add_argument("--workers", type=_whole(None, 10**9), default=2, metavar="N",
                   help="threads of the depth-first search, or CP-SAT workers (default 2)")
    p.add_argument("--seed", type=_whole(0, 2**31 - 1), default=0, metavar="N", help="CP-SAT random seed (default 0)")
    p.add_argument("--memory", type=_whole(0, 10**9), default=None, metavar="MB",
                   help="cp-sat: cap each CP-SAT call at MB megabytes (it then stops, exit 4)")
    p.add_argument("--case-log", default=None, metavar="FILE",
                   help="write one JSON line per symmetry case: size, fixed codes, bound, status, seconds, "
                   "clauses and solves (cp-sat), codes tried and subcases (dfs)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    p = command(
        "value", cmd_value,
        "the value of the game against a setter who draws the secret at random (mixed strategies, OR-Tools GLOP)",
        "  treegen value --game mastermind           # 5 orbits: prints the value and both strategies\n"
        "  treegen value                             # bulls-cows: one orbit, so the value is 26274/5040\n"
        "  treegen verify mastermind-value.json      # check both strategies exactly, without ortools\n"
        "  treegen value --recheck mastermind-value.json   # rerun the lower bound's search\n",
    )
    _add_game(p)
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write the value file (default GAME-value.json)")
    p.add_argument("--workers", "-j", type=_whole(None, 10**9), default=None, metavar="N",
                   help="processes for the ordinary search (default: the cores; weighted searches run in one)")
    p.add_argument("--recheck", default=None, metavar="FILE",
                   help="check a value file and rerun the search behind its lower bound (exit 1 if it fails)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    # Every text option refuses an empty value (-o and --checkpoint keep their own check and words, in
    # files.output_file and files.output_folder).
    for each in sub.choices.values():
        for action in each._actions:
            if isinstance(action, argparse._StoreAction) and action.option_strings and action.type is None \
                    and action.dest not in ("output", "checkpoint"):
                action.type = _text
    return parser


def _flush_stdout() -> int | None:
    """Flush standard output inside main's handlers rather than at exit, where a failure would print
    Python's own message: None when all is well, else the exit status after a one-line message."""
    if sys.stdout is None:  # started with standard output closed: print() wrote nothing, nothing to flush
        return None
    try:
        sys.stdout.flush()
        return None
    except BrokenPipeError:
        status = None  # output piped into `head` and closed early: not an error of ours
    except TreegenError as exc:  # files.checked_stdout's "cannot write the output: ..."
        print(f"treegen: error: {exc}", file=sys.stderr)
        status = EXIT_USAGE
    except OSError as exc:
        print(f"treegen: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        status = EXIT_USAGE
    try:  # leave nothing for the interpreter's own flush at exit to fail on
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return status


class Terminated(BaseException):
    """SIGTERM arrived (see :func:`run`). A BaseException, like KeyboardInterrupt, so that no ``except
    Exception`` on the way up takes it for an error; unlike KeyboardInterrupt, so that a command that
    handles Ctrl-C in its own way (play's prompt) does not take it for one."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args) or 0)
    except Terminated:
        print("treegen: terminated", file=sys.stderr)
        status = EXIT_SIGTERM
    except TreegenError as exc:
        print(f"treegen: error: {exc}", file=sys.stderr)
        status = EXIT_USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        status = EXIT_SIGINT
    except BrokenPipeError:
        status = EXIT_OK
    except RecursionError:
        print("treegen: error: the input is nested too deeply to process", file=sys.stderr)
        status = EXIT_USAGE
    except Exception as exc:  # a bug: one line for the user, the traceback only on request
        if _interrupt_within(exc):  # Ctrl-C while a kernel returned (see _interrupt_within)
            print("", file=sys.stderr)
            status = EXIT_SIGINT
        elif os.environ.get("TREEGEN_DEBUG"):
            raise
        else:
            print(f"treegen: internal error: {type(exc).__name__}: {exc} (please report it; "
                  "TREEGEN_DEBUG=1 shows the traceback)", file=sys.stderr)
            status = EXIT_INTERNAL
    flushed = _flush_stdout()
    return status if flushed is None else flushed


def run() -> None:
    """The ``treegen`` command: :func:`main`, then exit with its status. The garbage collector is frozen
    first: the interpreter's last collection would walk every object that numba's compiles and cache
    loads left behind, about 0.2 s of a one-second solve, to free memory the system frees at exit anyway."""
    import signal

    def terminate(signum, frame):
        raise Terminated

    # Every command ends on SIGTERM with one line and exit 143; solve and serve install their own handler,
    # which also says what was (not) written.
    signal.signal(signal.SIGTERM, terminate)
    try:
        from .files import checked_stdout

        sys.stdout = checked_stdout()
    except (AttributeError, OSError, ValueError):
        pass  # no usable standard output (closed, or not a file): keep Python's own
    status = main()
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
