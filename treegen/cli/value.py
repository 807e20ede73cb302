"""``treegen value``: the value of the game against a setter who draws the secret at random, with both
mixed strategies (treegen.value, OR-Tools GLOP); ``--recheck FILE`` reruns a value file's lower bound."""

from __future__ import annotations

import sys

from ..rules import TreegenError, refuse_list_game
from .common import Exit, add_command, add_game, default_output, game_of, nonempty, whole, workers_asked
from .trees import load, verify_value


def add_value(sub) -> None:
    p = add_command(
        sub, "value", cmd_value,
        "the value of the game against a setter who draws the secret at random (mixed strategies, OR-Tools GLOP)",
        "  treegen value --game mastermind           # 5 orbits: prints the value and both strategies\n"
        "  treegen value                             # bulls-cows: one orbit, so the value is 26274/5040\n"
        "  treegen verify mastermind-value.json      # check both strategies exactly, without ortools\n"
        "  treegen value --recheck mastermind-value.json   # rerun the lower bound's search\n"
        "  treegen value --game mastermind --certificate mastermind-value.cert.json.gz   # a lower side anyone\n"
        "  treegen verify mastermind-value.json      #   can check (the setter draws 1290 codes alike)\n",
    )
    add_game(p)
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write the value file (default GAME-value.json)")
    p.add_argument("--workers", "-j", type=whole(None, 10**9), default=None, metavar="N",
                   help="processes for the ordinary search (default: the cores; weighted searches run in one)")
    p.add_argument("--recheck", default=None, metavar="FILE",
                   help="check a value file and rerun the search behind its lower bound (exit 1 if it fails)")
    p.add_argument("--certificate", default=None, metavar="FILE", type=nonempty,
                   help="also write a certificate of the value's lower side to FILE, which the value file names "
                   "and `treegen verify` checks: that no strategy's total over the codes the setter draws from, "
                   "weighted by their probabilities, is below the value (docs/certificates.md)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def cmd_value(args) -> int:
    """``treegen value``: the value of the game against a randomising setter, with both strategies (see
    treegen/value.py); ``--recheck FILE`` reruns a value file's lower-bound search."""
    asked = workers_asked(args)
    if args.recheck is not None:
        if args.output is not None or args.certificate is not None:  # a recheck writes nothing: never silently ignored
            raise TreegenError(f"{'-o' if args.output is not None else '--certificate'} does not go with --recheck, "
                               "which checks a value file and writes nothing")
        return _recheck(args.recheck, asked)

    import dataclasses
    import hashlib
    import os
    import time

    from ..valuefile import value_to_bytes
    from ..exact import check_memory, plan_workers
    from ..files import output_file, same_path, write_atomic
    from ..rules import format_code
    from ..value import game_value

    game = game_of(args.game, guesses=args.guess_list)
    refuse_list_game(game, "the value of the game")
    out = args.output if args.output is not None else default_output(game, "value")
    output_file(out, "value file")
    if args.certificate is not None:
        output_file(args.certificate, "certificate file")
        if same_path(out, args.certificate):
            raise TreegenError(f"the value file and its certificate would both be written to {out}; give two files")
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
    vf = gv.to_file()
    certificate = None
    if args.certificate is not None:
        from ..certificate import certificate_to_bytes
        from ..exact.certify import certify_value

        if not args.quiet:
            from tqdm import tqdm

            # a count: the number of claims is not known ahead (disable=None: none when stderr is no terminal)
            bar = tqdm(desc=f"certify {game.name}'s value", unit=" claims", file=sys.stderr, leave=False, disable=None)
        try:
            certificate = certificate_to_bytes(certify_value(vf, progress=None if bar is None else
                                                             lambda n: bar.update(n - bar.n)))
        finally:
            if bar is not None:
                bar.close()
        write_atomic(args.certificate, certificate, "certificate file")
        vf = dataclasses.replace(vf, provenance={**vf.provenance, "certificate": {
            "file": os.path.basename(args.certificate), "sha256": hashlib.sha256(certificate).hexdigest()}})
    seconds = time.perf_counter() - start
    write_atomic(out, value_to_bytes(vf), "value file")
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
    if certificate is not None:
        print(f"wrote    certificate {args.certificate} ({len(certificate):,} bytes) that no tree averages below {v} "
              f"against the setter: check it with `treegen verify {out}`")
    print(f"time     {seconds:.2f} s with {workers} worker{'s' if workers != 1 else ''}")
    return Exit.OK


def _recheck(path: str, workers: int) -> int:
    """``treegen value --recheck FILE``: check the value file, then rerun the search behind its lower bound."""
    from ..tree import InvalidTree
    from ..value import recheck

    vf = load(path, None, value_ok=True)
    if hasattr(vf, "root"):
        raise TreegenError(f"{path} is a tree file, not a value file (see `treegen value --help`)")
    try:
        verify_value(path, vf, None)
    except InvalidTree as exc:
        print(f"treegen: {path} is not a valid value file: {exc}", file=sys.stderr)
        return Exit.FALSE
    lower = recheck(vf, workers)
    if lower != vf.value:
        print(f"treegen: {path}: the best tree against its setter averages {lower} ({float(lower):.6f}), "
              f"not the claimed value {vf.value}", file=sys.stderr)
        return Exit.FALSE
    print(f"lower    rechecked: the best tree against the setter averages exactly {lower}; the value is proved")
    return Exit.OK
