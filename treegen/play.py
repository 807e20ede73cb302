"""Play a game with a strategy tree: solve a given secret, guess the user's secret, or host a game.

Standard library only (plus the tree module): the first guess appears instantly. Prompts go to stdout
and input is read line by line, so sessions can be scripted through a pipe; when stdin is not a
terminal each answer is echoed after its prompt so that the transcript reads naturally.
"""

from __future__ import annotations

import sys

from .rules import (
    CodeError,
    accepted_hint_forms,
    Game,
    HintError,
    format_code,
    format_hint,
    format_hint_native,
    parse_code,
    parse_hint,
    score_symbols,
)
from .tree import NotInTree, Tree, TreeError, next_guess


def solve(tree: Tree, secret: str) -> list[tuple[str, str]]:
    """The (guess, hint) pairs the tree plays against ``secret``, ending with the all-bulls hint.

    Raises ``CodeError`` for an illegal secret and :class:`TreeError` if the tree does not solve it.
    """
    game = tree.game
    target = game.codes[parse_code(game, secret)]
    node = tree.root
    moves: list[tuple[str, str]] = []
    while True:
        try:
            guess = game.codes[parse_code(game, node.guess)]
        except CodeError:
            raise TreeError(f"the tree's guess {node.guess!r} is not a legal code; check the file with treegen verify") from None
        hint = format_hint(game, score_symbols(game, guess, target))
        moves.append((node.guess, hint))
        if guess == target:
            return moves
        child = node.child(hint)
        if child is None:
            said = " ".join(f"{g} {h}" for g, h in moves)
            raise TreeError(
                f"the tree does not solve {format_code(game, game.code_index[target])}: "
                f"it has no move after {said}; check the file with treegen verify"
            )
        node = child


def _hint_text(game: Game, hint: str) -> str:
    """A canonical ``xAyB`` hint, followed by the game's own notation if it has one."""
    native = format_hint_native(game, game.hint(int(hint[0]), int(hint[2])))
    return f"{hint}  ({native})" if native else hint


def _ask(prompt: str) -> str:
    """One line of input, echoed when stdin is not a terminal. Raises EOFError at the end."""
    text = input(prompt)
    if not sys.stdin.isatty():
        print(text)
    return text.strip()


def play_secret(tree: Tree, secret: str) -> int:
    """``treegen play --secret``: print each guess and hint until solved."""
    moves = solve(tree, secret)
    for n, (guess, hint) in enumerate(moves, 1):
        print(f"guess {n}: {guess}  {_hint_text(tree.game, hint)}")
    print(f"solved in {len(moves)} guess{'es' if len(moves) != 1 else ''}")
    return 0


def play_guesser(tree: Tree) -> int:
    """``treegen play``: the tree guesses the user's secret; the user types the hints."""
    game = tree.game
    print(f"Think of a secret code. Game {game.describe()}.")
    print(f"I guess; you type the hint: {accepted_hint_forms(game)}. Ctrl-D quits.")
    node = tree.root
    alive: list | None = None  # the secrets consistent with the hints so far, computed on first use
    said: list[str] = []
    while True:
        n = len(said) + 1
        print(f"guess {n}: {node.guess}")
        while True:
            try:
                text = _ask("hint? ")
            except EOFError:
                print("\nbye")
                return 0
            if not text:
                continue
            if text in ("?", "help"):
                print(f"type the hint for {node.guess}: {accepted_hint_forms(game)}")
                continue
            try:
                hint = parse_hint(game, text)
            except HintError as exc:
                print(exc)
                continue
            key = format_hint(game, hint)
            if alive is None:
                alive = list(game.codes)
            try:
                guess = game.codes[parse_code(game, node.guess)]
            except CodeError:
                raise TreeError(f"the tree's guess {node.guess!r} is not a legal code; check the file with treegen verify") from None
            still = [s for s in alive if score_symbols(game, guess, s) == hint]
            if not still:
                given = ", ".join(said + [f"{node.guess}={key}"])
                print(f"no secret of {game.name} gives these hints: {given}; type the hint for {node.guess} again")
                continue
            if hint == game.win_hint:
                print(f"solved in {n} guess{'es' if n != 1 else ''}")
                return 0
            child = node.child(key)
            if child is None:
                given = ", ".join(said + [f"{node.guess}={key}"])
                print(
                    f"the tree has no move after {given} (it is incomplete; check it with treegen verify); "
                    "check the hint, or Ctrl-D to quit"
                )
                continue
            alive = still
            said.append(f"{node.guess}={key}")
            node = child
            break


def play_host(tree: Tree, seed: int | None = None) -> int:
    """``treegen play --host``: the computer picks a secret and scores the user's guesses."""
    import random

    game = tree.game
    secret = random.Random(seed).randrange(game.size)
    target = game.codes[secret]
    print(f"I have picked a secret code. Game {game.describe()}.")
    print("Type your guesses; '?' asks the tree for a move; Ctrl-D gives up.")
    history: list[tuple[str, str]] = []
    while True:
        try:
            text = _ask(f"guess {len(history) + 1}? ")
        except EOFError:
            print(f"\nthe secret was {format_code(game, secret)}")
            return 0
        if not text:
            continue
        if text == "?":
            try:
                print(f"the tree suggests {next_guess(tree, history)}")
            except NotInTree as exc:
                print(f"the tree has no advice for this history: {exc}")
            except TreeError as exc:
                print(f"the tree has no advice: {exc}")
            continue
        try:
            code = parse_code(game, text)
        except CodeError as exc:
            print(exc)
            continue
        guess = format_code(game, code)
        hint = format_hint(game, score_symbols(game, game.codes[code], target))
        history.append((guess, hint))
        print(f"{guess}  {_hint_text(game, hint)}")
        if code == secret:
            n = len(history)
            print(f"solved in {n} guess{'es' if n != 1 else ''}")
            return 0


def run(args) -> int:
    """``treegen play``: dispatch on --secret / --host / interactive."""
    from .rules import resolve_game
    from .tree import load_tree

    if args.secret is not None and args.host:
        raise TreeError("--secret and --host do not go together: --secret plays a given secret, --host picks one")
    if args.seed is not None and not args.host:
        raise TreeError("--seed applies only with --host")
    game = resolve_game(args.game) if args.game else None
    tree = load_tree(args.tree, game)
    if args.secret is not None:
        return play_secret(tree, args.secret)
    if args.host:
        return play_host(tree, args.seed)
    return play_guesser(tree)
