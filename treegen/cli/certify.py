"""``treegen certify``: a certificate for a proved least-total tree, searched in parts on worker processes
(exact.parts), resumable from a parts folder; or for a value file's lower side (exact.certify.certify_value);
``treegen verify FILE --certificate CERT`` checks it."""

from __future__ import annotations

import os
import sys

from ..rules import TreegenError
from .common import (
    Exit,
    Stop,
    add_command,
    failure_status,
    interrupt_within,
    nonempty,
    refuse_uncheckable,
    whole,
    workers_asked,
)


def add_certify(sub) -> None:
    p = add_command(
        sub, "certify", cmd_certify,
        "write a certificate that a proved least-total tree's total is the least (searched in parts), or that "
        "no tree beats a value file's value",
        "  treegen certify trees/mastermind-optimal-average.json -o mm.cert.json.gz\n"
        "  treegen verify trees/mastermind-optimal-average.json --certificate mm.cert.json.gz\n"
        "  treegen certify bc58.json -o bc58.cert.json.gz --parts bc58-parts/ --split 1000   # resumable\n"
        "  treegen certify royale-value.json -o royale-value.cert.json.gz   # a value file's lower side\n"
        "\n"
        "`treegen solve --certificate` certifies in the one process that searches; this command certifies a\n"
        "tree afterwards, on any number of workers: each class of each first guess is searched alone (a part),\n"
        "and a rerun with the same --parts folder takes the parts it finished. Nothing in the folder is\n"
        "trusted for the proof: `treegen verify` checks the certificate with code that shares nothing with\n"
        "the search, reading the certificate a claim at a time. Trees of least total only (with or without a\n"
        "cap, hard mode too), and value files (`treegen value`: that no tree averages below the value against\n"
        "its setter, in one process; `treegen value --certificate` writes it with the value file instead).\n",
    )
    p.add_argument("tree", metavar="FILE", type=nonempty,
                   help="a tree written by `treegen solve` (objective average): its total is what is certified; "
                   "or a value file, whose value is certified from below")
    p.add_argument("-o", "--output", required=True, metavar="CERT", type=nonempty,
                   help="where to write the certificate (gzip-compressed JSON)")
    p.add_argument("--parts", default=None, metavar="DIR",
                   help="keep each finished part in DIR (created if its parent exists); a rerun with the same DIR "
                   "resumes; a DIR of another tree's certificate is refused")
    p.add_argument("--split", type=whole(1, 10**9), default=None, metavar="N",
                   help="search each class of at least N secrets that the tree's guesses lead to as parts one guess "
                   "further down, again and again, rather than as one part: smaller parts, for a big game "
                   "(bulls-cows with N = 630: 564 parts, 1.4 times the CPU of the 22 without); default: the "
                   "root's classes are the parts")
    p.add_argument("--workers", type=whole(None, 10**9), default=None, metavar="K",
                   help="worker processes (default and most: every core); the certificate is the same for any K")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def cmd_certify(args) -> int:
    import time
    from concurrent.futures.process import BrokenProcessPool

    from ..exact import Options, SearchBug, check_memory, plan_workers
    from ..exact.checkpoint import CheckpointStore
    from ..exact.executors import (
        INLINE_MAX_CODES,
        INLINE_MAX_WORDS,
        InlineExecutor,
        ProcessExecutor,
    )
    from ..exact.parts import NotLeast, certify_in_parts, parts_key
    from ..files import output_file, same_path, write_atomic
    from ..verify import verify_tree
    from .solve import stderr_line

    from .trees import load

    tree = load(args.tree, None, value_ok=True)
    if not hasattr(tree, "root"):
        return _certify_value(args, tree)
    game, prov = tree.game, tree.provenance or {}
    if "optimal_total" not in prov:
        raise TreegenError(f"{args.tree} is not a proved tree (its provenance has no optimal_total): only a tree "
                           "from `treegen solve` has a least total to certify")
    if prov.get("objective") != "average":
        raise TreegenError(f"{args.tree} is a tree of objective {prov.get('objective')!r}: certify certifies least-total "
                           "trees (objective average); `treegen solve --certificate` certifies the others")
    # The figure to certify must be the tree's own: verify's replay checks every secret and every claim
    # (an integer optimal_total equal to the tree's total, a positive cap it keeps, hard mode).
    verify_tree(tree)
    cost, cap, hard = prov["optimal_total"], prov.get("max_guesses"), bool(prov.get("consistent_only"))
    refuse_uncheckable(game, "certify")
    wire = None if args.split is None else tree.root.to_wire(game)  # the nodes follow the tree's guesses
    output_file(args.output, "certificate file")
    if same_path(args.output, args.tree):
        raise TreegenError(f"the certificate would be written over its tree {args.tree}; give another file")
    if args.parts is not None and (same_path(args.output, args.parts)
                                   or same_path(os.path.dirname(os.path.abspath(args.output)), args.parts)):
        raise TreegenError(f"the certificate {args.output} would be written into the parts folder {args.parts}; "
                           "write it elsewhere")
    asked = workers_asked(args)
    workers, note = plan_workers(game, asked)
    if note and args.workers is not None:
        print(f"treegen: {note}", file=sys.stderr)
    check_memory(game)
    store = None
    if args.parts is not None:
        store = CheckpointStore(args.parts, parts_key(game, cap, hard, cost), stderr_line(None))
        if store.created:
            print(f"treegen: created parts folder {args.parts}", file=sys.stderr)
    options = Options().resolved(game)
    bar = None
    stop = Stop()  # Ctrl-C and SIGTERM stop the workers and leave alike
    executor = None
    failure: BaseException | None = None
    start = time.perf_counter()
    try:
        with stop:
            if not args.quiet:
                from tqdm import tqdm

                # the parts known so far: a guess's next pass starts only when its last one ends, so the
                # total grows as the run goes (no ETA is honest here)
                bar = tqdm(total=0, desc=f"certify {game.name}", unit=" parts", file=sys.stderr, leave=False,
                           disable=None, bar_format="{desc}: {n}/{total} parts [{elapsed}]")

            def progress(done: int, started: int) -> None:
                bar.total = started
                bar.update(done - bar.n)

            # A part of a big game runs for minutes inside compiled code, where this process would not see a
            # signal until it returns: in worker processes (one, if one is asked for) Ctrl-C and SIGTERM end it
            # at once. A small game's parts take milliseconds, and run here.
            big = game.size > (INLINE_MAX_WORDS if game.listed else INLINE_MAX_CODES)
            executor = ProcessExecutor(workers) if big else InlineExecutor()
            certificate, figures = certify_in_parts(game, cap, cost, hard, options, executor.submit, store,
                                                    stderr_line(bar), progress if bar is not None else None,
                                                    wire, args.split)
            stop.check()
    except (NotLeast, SearchBug, KeyboardInterrupt, BrokenProcessPool) as exc:
        failure = exc
    except SystemError as exc:  # Ctrl-C while numba boxed a kernel's results (see common.interrupt_within)
        if not interrupt_within(exc):
            raise
        failure = KeyboardInterrupt()
    finally:
        if executor is not None:
            executor.close()
        if bar is not None:
            bar.close()
    if isinstance(failure, NotLeast):
        print(f"treegen: {failure}; no certificate written", file=sys.stderr)
        return Exit.FALSE
    if failure is not None:
        again = f" (run it again with --parts {args.parts} to resume)" if args.parts else ""
        return failure_status(failure, "no certificate written", again, stop.terminated)
    # written as it is made, a part at a time from the parts folder (bc:5:9's would be GBs): never held whole
    size = write_atomic(args.output, certificate, "certificate file")
    within = f" within {cap} guesses" if cap is not None else ""
    mode = " in hard mode" if hard else ""
    print(f"wrote    certificate {args.output} ({size:,} bytes, {figures['claims']:,} claims): no "
          f"strategy for {game.name}{mode}{within} costs less than {cost}")
    split = f", {figures['nodes_split']} sets split" if args.split is not None else ""
    print(f"parts    {figures['parts']} ({figures['searched']} searched in this run{split}), {figures['nodes']:,} nodes, "
          f"{time.perf_counter() - start:.1f} s with {workers} worker{'s' if workers != 1 else ''}")
    print(f"check it `treegen verify {args.tree} --certificate {args.output}`")
    return Exit.OK


def _certify_value(args, vf) -> int:
    """``treegen certify VALUEFILE -o CERT``: the value file checked, then a certificate of its lower side
    (exact.certify.certify_value), written in this process."""
    import time

    from ..certificate import certificate_to_bytes
    from ..exact.certify import certify_value
    from ..files import output_file, same_path, write_atomic
    from ..tree import InvalidTree
    from ..valuefile import check_value

    refused = [flag for flag, given in (("--parts", args.parts), ("--split", args.split), ("--workers", args.workers))
               if given is not None]
    if refused:
        raise TreegenError(f"{refused[0]} does not apply to a value file, whose certificate is written in one process")
    output_file(args.output, "certificate file")
    if same_path(args.output, args.tree):
        raise TreegenError(f"the certificate would be written over its value file {args.tree}; give another file")
    try:
        check_value(vf)  # the value certified is the file's own, which its strategies must reach
    except InvalidTree as exc:
        print(f"treegen: {args.tree} is not a valid value file: {exc}", file=sys.stderr)
        return Exit.FALSE
    start = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(desc=f"certify {vf.game.name}'s value", unit=" claims", file=sys.stderr, leave=False, disable=None)
    try:
        data = certificate_to_bytes(certify_value(vf, progress=None if bar is None else lambda n: bar.update(n - bar.n)))
    finally:
        if bar is not None:
            bar.close()
    size = write_atomic(args.output, data, "certificate file")
    print(f"wrote    certificate {args.output} ({size:,} bytes) that no tree averages below {vf.value} against the "
          f"setter of {args.tree}, in {time.perf_counter() - start:.1f} s")
    print(f"check it `treegen verify {args.tree} --certificate {args.output}`")
    return Exit.OK
