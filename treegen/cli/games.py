"""``treegen games``, ``hint`` and ``candidates``: the presets, one hint, the secrets a history leaves."""

from __future__ import annotations

from ..rules import PRESETS, RULE_PRESETS, WORD_PRESETS, resolve_game
from .common import Exit, add_command, add_game, game_of, whole

# -- games -----------------------------------------------------------------------------------------


def add_games(sub) -> None:
    add_command(sub, "games", cmd_games, "list the preset games", "  treegen games\n")


def cmd_games(args) -> int:
    print(f"{'preset':<19} {'positions':>9}  {'alphabet':<11} {'repeats':<8} {'secrets':>7}  hints")
    for g in PRESETS.values():
        notation = {"ab": "xAyB", "pegs": "xAyB or pegs BBW", "baseball": "xAyB or ball=2 strike=1"}
        print(
            f"{g.name:<19} {g.positions:>9}  {g.alphabet:<11} {'yes' if g.repeats else 'no':<8} "
            f"{g.size:>7}  {notation[g.notation]}"
        )
    for g in RULE_PRESETS.values():
        print(f"{g.name:<19} {g.positions:>9}  {g.alphabet:<11} {'yes' if g.repeats else 'no':<8} {g.size:>7}  "
              f"xA0B or pegs BB ({g.rule}: the bulls alone)")
    for name in WORD_PRESETS:
        g = resolve_game(name)
        hints = "xAyB" if g.rule == "bulls-cows" else "a count such as 2, or found (jotto: letters in common)"
        print(f"{g.name:<19} {g.positions:>9}  {'A-Z':<11} {'yes' if g.repeats else 'no':<8} {g.size:>7}  {hints} "
              f"(English words; treegen/words/)")
    print("\nOther games: --game bc:P:N (P positions, N symbols, no repeats) or mm:P:N (repeats);")
    print("symbols are the first N of 0-9 then A-Z, e.g. --game bc:3:6, --game mm:4:7;")
    print("or a list of words of a file (one per line, letters A-Z) as the codes: --game words:FILE (bulls and cows),")
    print("jotto:FILE (letters in common) or per-position:FILE (G right, Y elsewhere, - absent, as the word games mark).")
    return Exit.OK


# -- hint ------------------------------------------------------------------------------------------


def add_hint(sub) -> None:
    p = add_command(
        sub, "hint", cmd_hint, "score a guess against a secret",
        "  treegen hint 5346 5234                         # 1A2B\n"
        "  treegen hint --game numbers-baseball 5382 3092  # 1A1B  (ball=2 strike=1)\n"
        "  treegen hint --game mastermind 1122 1213\n",
    )
    add_game(p)
    p.add_argument("guess", metavar="GUESS")
    p.add_argument("secret", metavar="SECRET")


def cmd_hint(args) -> int:
    from ..play import hint_text
    from ..rules import parse_code, score_codes

    game = game_of(args.game, guesses=args.guess_list)
    guess = parse_code(game, args.guess)
    secret = parse_code(game, args.secret)
    hint = score_codes(game, guess, secret)
    print(hint_text(game, hint))
    return Exit.OK


# -- candidates ------------------------------------------------------------------------------------


def add_candidates(sub) -> None:
    p = add_command(
        sub, "candidates", cmd_candidates, "list the secrets still possible after some hints",
        "  treegen candidates 0123=1A2B 4567=0A1B\n"
        "  treegen candidates --game numbers-baseball 0115='b1s0' 5623=b0s0\n"
        "  treegen candidates --game mastermind 1122=BW\n",
    )
    add_game(p)
    p.add_argument("history", nargs="*", metavar="GUESS=HINT", help="a guess and the hint it got")
    p.add_argument("--limit", type=whole(0, 10**9), default=20, metavar="N", help="show at most N secrets (0: all; default 20)")


def cmd_candidates(args) -> int:
    from ..feedback import consistent_secrets
    from ..rules import format_code, parse_history

    game = game_of(args.game, guesses=args.guess_list)
    history = parse_history(game, args.history)
    alive = consistent_secrets(game, history)
    shown = alive[: args.limit] if args.limit > 0 else alive
    print(f"{alive.size} possible secret{'s' if alive.size != 1 else ''}")
    if shown.size:
        print(" ".join(format_code(game, int(c)) for c in shown) + (" ..." if shown.size < alive.size else ""))
    return Exit.OK

