"""The ``treegen`` command line: games, hints, candidates, trees, heuristics and exact search.

Heavy modules (numpy, numba) are imported inside the commands that need them, so that ``play``,
``verify`` and ``show`` start instantly. Every error a user can cause is a one-line message and exit 2.
"""

from __future__ import annotations

import argparse
import sys

from .rules import DEFAULT_GAME, PRESETS, TreegenError, resolve_game

EXIT_USAGE = 2

EPILOG = """\
examples:
  treegen games
  treegen hint 5346 5234                      # -> 1A2B
  treegen hint --game numbers-baseball 5382 3092
  treegen candidates 0123=1A2B 4567=0A1B
  treegen candidates --game mastermind 1122=BW 3456=W
"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, then exits 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game",
        "-g",
        default=DEFAULT_GAME,
        metavar="G",
        help=f"a preset ({', '.join(PRESETS)}) or a spec bc:P:N / mm:P:N (default: {DEFAULT_GAME})",
    )


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


# -- the parser ------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="treegen",
        description="Optimal and heuristic strategy trees for Bulls and Cows, Mastermind and their variants.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, func, help: str, epilog: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name, help=help, description=help, epilog="examples:\n" + epilog,
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
    p.add_argument("--limit", type=int, default=20, metavar="N", help="show at most N secrets (0: all; default 20)")

    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except TreegenError as exc:
        print(f"treegen: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error of ours.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
