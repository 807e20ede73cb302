"""``treegen analyze`` and ``compare``: a game's moves scored against the exact optimum, two trees side by side."""

from __future__ import annotations

import sys
from pathlib import Path

from ..rules import TreegenError
from .common import Exit, add_command, add_game, game_of, seconds, whole

# -- analyze ---------------------------------------------------------------------------------------


def add_analyze(sub) -> None:
    p = add_command(
        sub, "analyze", cmd_analyze,
        "score each move of a game against the exact optimum: expected guesses left, the loss, the luck",
        "  treegen analyze 9876=0A2B 0123=1A1B 4567=0A1B 4617=4A0B\n"
        "  treegen analyze --game mastermind 1123=B 4456=W 2431=BWW --json\n"
        "  treegen analyze --tree trees/bulls-cows-optimal-average.json 0123=0A1B 4567=1A0B\n",
    )
    add_game(p)
    p.add_argument("history", nargs="*", metavar="GUESS=HINT", help="a guess and the hint it got, in the order played")
    p.add_argument("--tree", metavar="FILE", default=None,
                   help="a proved least-total tree to take values from (default: the shipped "
                   "trees/GAME-optimal-average.json when there is one; without one the solver computes every value)")
    p.add_argument("--budget", type=seconds, default=None, metavar="S",
                   help="seconds of exact search each move may take; past it, values are given as bounds (default 5)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")


def reference_tree(game, path: str | None):
    """The least-total tree to take values from: ``path``, else the shipped one for ``game``, else None."""
    from ..tree import load_tree

    if path is not None:
        from .trees import load

        tree = load(path, game)
        if tree.game != game:
            raise TreegenError(f"{path} is a tree for {tree.game.name}, not {game.name}; give --game {tree.game.name}")
        return tree
    from ..files import default_name
    from ..serve import default_trees_dir

    shipped = Path(default_trees_dir()) / default_name(game, "optimal-average")
    return load_tree(shipped, game) if shipped.is_file() else None


def cmd_analyze(args) -> int:
    import orjson

    from ..analysis import BUDGET, Analyzer, analysis_to_obj
    from ..rules import parse_history

    game = game_of(args.game, guesses=args.guess_list)
    history = parse_history(game, args.history)
    analyzer = Analyzer(game, reference_tree(game, args.tree))
    analysis = analyzer.analyze(history, BUDGET if args.budget is None else args.budget)
    obj = analysis_to_obj(analysis)
    if args.json:
        sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n")
        return Exit.OK
    print("\n".join(format_analysis(obj)))
    return Exit.OK


def _value_text(v: dict) -> str:
    """Expected guesses: exact to 4 places, or the bounds ("≥ 5.1")."""
    if v["exact"]:
        return f"{v['expected']:.4f}"
    if v.get("upper") is None:
        return f"≥ {v['expected']:.4f}"
    return f"{v['lower'] / v['secrets']:.4f}..{v['upper'] / v['secrets']:.4f}"


def _loss_text(loss: dict) -> str:
    if loss["exact"]:
        return "0" if loss["expected"] == 0 else f"{loss['expected']:.4f} ({loss['fraction']})"
    high = "?" if loss["at_most"] is None else f"{loss['at_most']:.4f}"
    return f"{loss['at_least']:.4f}..{high}"


def format_analysis(obj: dict) -> list[str]:
    """The analysis as a table: one row per move, then the position reached and the summary."""
    lines = [f"{obj['game']}: each move's value is the expected number of guesses still needed, this one "
             "included, if the game goes on optimally (exact unless shown as bounds)"]
    head = ("#", "guess", "hint", "secrets", "value", "best", "best guess", "loss", "luck")
    rows = [head]
    for m in obj["moves"]:
        luck = m["luck"]
        rows.append((str(m["number"]), m["guess"], m["hint"], f"{m['before']:,} → {m['after']:,}",
                     _value_text(m["value"]), _value_text(m["best"]), m["best"].get("guess") or "?",
                     _loss_text(m["loss"]), "?" if luck is None else f"{luck['expected']:+.2f}"))
    widths = [max(len(r[k]) for r in rows) for k in range(len(head))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if k in (1, 2, 3, 6) else c.rjust(w)
                               for k, (c, w) in enumerate(zip(r, widths))).rstrip())
    pos = obj["position"]
    if pos is not None:
        advice = pos.get("guess")
        lines.append(f"now: {pos['secrets']:,} secret{'s' if pos['secrets'] != 1 else ''} left, "
                     f"{_value_text(pos)} guesses to go with best play"
                     + (f"; play {advice}" if advice else "; no best guess known within the budget"))
    if any(not m["value"]["exact"] or not m["best"]["exact"] for m in obj["moves"]) or (pos and not pos["exact"]):
        lines.append("bounds: the exact search ran out of time (--budget) on some sets; their values are proved "
                     "lower bounds (≥) only")
    lines.append(obj["summary"]["text"])
    return lines


# -- compare ---------------------------------------------------------------------------------------


def add_compare(sub) -> None:
    p = add_command(
        sub, "compare", cmd_compare,
        "two trees of one game side by side: totals, histograms, and the first positions where they differ",
        "  treegen compare trees/bulls-cows-optimal-average.json trees/bulls-cows-optimal-crush.json\n"
        "  treegen compare trees/mastermind-optimal-average.json mastermind-entropy.json --limit 3\n",
    )
    p.add_argument("first", metavar="A", help="a tree file")
    p.add_argument("second", metavar="B", help="a tree file of the same game")
    p.add_argument("--limit", type=whole(0, 10**6), default=10, metavar="N",
                   help="list at most N differences (default 10; 0: all)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")


def comparison_to_obj(c, names: tuple[str, str], limit: int) -> dict:
    shown = c.differences if limit == 0 else c.differences[:limit]
    return {
        "trees": [{"file": n, "secrets": s.secrets, "total": s.total, "average": round(s.average, 6),
                   "max_guesses": s.max_guesses, "histogram": list(s.histogram)} for n, s in zip(names, c.stats)],
        "positions": c.positions, "differences_found": len(c.differences),
        "differences": [{"path": list(d.path), "depth": d.depth, "secrets": d.subtrees[0].secrets,
                         "guesses": list(d.guesses),
                         "totals": [t.total for t in d.subtrees], "max_guesses": [t.most for t in d.subtrees]}
                        for d in shown],
    }


def cmd_compare(args) -> int:
    from ..compare import compare_trees
    from .trees import load

    a, b = load(args.first, None), load(args.second, None)
    obj = comparison_to_obj(compare_trees(a, b), (args.first, args.second), args.limit)
    if args.json:
        import orjson

        sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n")
        return Exit.OK
    ta, tb = obj["trees"]
    rows = [("", "A", "B"), ("file", ta["file"], tb["file"]), ("total", f"{ta['total']:,}", f"{tb['total']:,}"),
            ("average", f"{ta['average']:.4f}", f"{tb['average']:.4f}"), ("max", str(ta["max_guesses"]), str(tb["max_guesses"]))]
    for k in range(1, max(len(ta["histogram"]), len(tb["histogram"]))):
        ha, hb = (t["histogram"][k] if k < len(t["histogram"]) else 0 for t in (ta, tb))
        rows.append((f"{k} guess{'es' if k != 1 else ''}", f"{ha:,}", f"{hb:,}"))
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    print(f"{a.game.name}: two trees side by side")
    for r in rows:
        print(f"  {r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]:>{w[2]}}".rstrip())
    n = obj["differences_found"]
    if n == 0:
        print("The trees make the same guess everywhere." if ta["total"] == tb["total"] else "")
        return Exit.OK
    print(f"They first guess differently at {n} position{'s' if n != 1 else ''} (shallowest first, larger sets first):")
    for d in obj["differences"]:
        where = " ".join(d["path"]) if d["path"] else "the first guess"
        s = d["secrets"]
        print(f"  guess {d['depth']} after {where} ({s:,} secret{'s' if s != 1 else ''}): "
              f"A plays {d['guesses'][0]} ({d['totals'][0] / s:.4f} on average from here, at most {d['max_guesses'][0]}), "
              f"B plays {d['guesses'][1]} ({d['totals'][1] / s:.4f}, at most {d['max_guesses'][1]})")
    if len(obj["differences"]) < n:
        print(f"  ... and {n - len(obj['differences'])} more (--limit 0 lists them all)")
    return Exit.OK
