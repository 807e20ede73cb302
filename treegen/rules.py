"""The rules of code-guessing games: games, codes, hints and how a guess is scored.

This module needs only the standard library, so that playing and verifying a tree start instantly.
Codes and hints are small ints; strings appear only in the paired parse/format functions.

- A code is the index of its symbol tuple in the game's sorted code list (``Game.codes``).
- A hint is ``bulls * (positions + 1) + cows``; the canonical text is ``xAyB``.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from functools import cache, cached_property

SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Games with tree files, tables and exact search: at most 8 positions and 200000 codes. Playing and
# sampling a strategy without a table (treegen.livescore) also takes games of up to 10 positions
# (resolve_game(..., large=True)); their size is then limited by memory, not by a fixed count.
MAX_POSITIONS = 10
TABLE_MAX_POSITIONS = 8
MAX_CODES = 200_000

Code = int
"""A code of a game: the index of its symbol tuple in ``Game.codes`` (text only via parse/format_code)."""
Hint = int
"""A hint: ``bulls * (positions + 1) + cows`` (text only via parse/format_hint)."""


class TreegenError(ValueError):
    """Base class of every error that treegen reports to a human."""


class GameError(TreegenError):
    """An unknown game or a malformed game spec."""


class CodeError(TreegenError):
    """A code that is not legal in its game."""


class HintError(TreegenError):
    """A hint that is malformed or cannot occur in its game."""


class NumberError(TreegenError):
    """A number that is not plain ASCII digits or lies outside the range its place accepts."""


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (the last three ``...``), for messages that quote user input:
    a code, a hint or a name of thousands of characters must not become a message of thousands."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_ASCII_INT = re.compile(r"-?[0-9]+")
_MAX_DIGITS = 30  # far beyond any count treegen takes; int() of thousands of digits raises ValueError


def parse_int(text: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """The integer written as ``text``: ASCII digits only (an optional leading ``-``), within ``lo..hi``.

    ``int()`` alone also takes Unicode digits (``１``, ``٣``), underscores and thousands of digits; a
    number a user or a file gives treegen goes through here instead, so every place refuses the same
    things with the same words. ``what`` names the number in the message (``"--seed"``, ``"line 3's
    count"``). Raises :class:`NumberError`.
    """
    raw = str(text).strip()
    if not _ASCII_INT.fullmatch(raw):
        if not raw:
            raise NumberError(f"{what} is empty; give a whole number{_range_text(lo, hi)}")
        raise NumberError(
            f"{what} must be a whole number in ASCII digits{_range_text(lo, hi)}, not {shorten(raw)!r}"
        )
    digits = len(raw.lstrip("-").lstrip("0"))
    if digits > _MAX_DIGITS:  # ASCII digits, but too many to be any number treegen takes (or to convert)
        bounds = _range_text(lo, hi) or " a smaller number"
        raise NumberError(f"{what} must be{bounds}, not a number of {digits} digits")
    value = int(raw)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise NumberError(f"{what} must be{_range_text(lo, hi)}, not {value}")
    return value


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" of at least {lo}"
    if hi is not None:
        return f" of at most {hi}"
    return ""


ACCEPTED_SYMBOLS = (
    "symbols are printable ASCII characters other than a space, each once (a letter counts once in either case)"
)


def symbols_problem(symbols: str) -> str | None:
    """What makes ``symbols`` unfit as a game's symbols (a clause such as ``"has a space"``), or None.

    Codes are read a character at a time with letters in any case (``parse_symbols``) and written into
    text formats split at whitespace, so a symbol must be one printable, non-space ASCII character, and
    ``a`` and ``A`` cannot be two symbols. Shared by ``Game`` and the ``--alphabet FROM=TO`` maps of
    ``treegen.formats``.
    """
    seen: dict[str, str] = {}
    for ch in symbols:
        if ch == " ":
            return "has a space"
        if ch in "\r\n":
            return "has a line break"
        if not ch.isascii():
            return f"has the non-ASCII character {ch!r}"
        if not ch.isprintable() or ch.isspace():
            return f"has the control character {ch!r}"
        folded = ch.upper()
        if folded in seen:
            first = seen[folded]
            return f"has {ch!r} twice" if first == ch else f"has both {first!r} and {ch!r} (the same letter)"
        seen[folded] = ch
    return None


@dataclass(frozen=True)
class Game:
    """A code-guessing game: ``positions`` symbols drawn from ``alphabet``, with or without repeats.

    ``notation`` names the game's own way of writing hints besides ``xAyB``:
    ``"ab"`` (none), ``"pegs"`` (black/white pegs, ``BBW``) or ``"baseball"`` (``ball=3 strike=1``,
    where ball counts strikes too).
    """

    name: str
    positions: int
    alphabet: str
    repeats: bool
    notation: str = "ab"
    # A game whose codes are a list (Word Mastermind): the words in code order, each ``positions`` symbols of
    # the alphabet. Compared through ``digest`` (its SHA-256), so that hashing a game stays cheap.
    words: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    digest: str | None = None
    # A list game may allow guesses that are never the secret (``--guess-list``): after the words in the code
    # order, so that the secrets are the codes 0 .. secret_count - 1. Compared through ``guesses_digest``.
    guesses: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    guesses_digest: str | None = None
    # How a guess is scored (RULES): bulls and cows; black pegs only (the bulls); Jotto (the letters in
    # common, and whether the guess is the secret); or per position (each position right, elsewhere or absent).
    rule: str = "bulls-cows"

    def __post_init__(self) -> None:
        if not 1 <= self.positions <= MAX_POSITIONS:
            raise GameError(f"a game needs 1 to {MAX_POSITIONS} positions, not {self.positions}")
        if not isinstance(self.alphabet, str) or not 2 <= len(self.alphabet) <= len(SYMBOLS):
            raise GameError(
                f"a game needs 2 to {len(SYMBOLS)} distinct symbols, not {shorten(repr(self.alphabet))}; "
                f"{ACCEPTED_SYMBOLS}"
            )
        problem = symbols_problem(self.alphabet)
        if problem:
            raise GameError(f"game symbols {shorten(self.alphabet)!r} {problem}; {ACCEPTED_SYMBOLS}")
        if not self.repeats and self.positions > len(self.alphabet):
            raise GameError(
                f"{self.positions} positions without repeats need at least {self.positions} symbols"
            )
        if self.notation not in ("ab", "pegs", "baseball"):
            raise GameError(f"unknown hint notation {self.notation!r}")
        if self.rule not in RULES:
            raise GameError(f"unknown hint rule {shorten(repr(self.rule))}: use one of {', '.join(RULES)}")
        if self.rule == "per-position" and self.positions > PER_POSITION_MAX:
            # 3**P hints must fit the uint8 of every hint table: 3**5 = 243, 3**6 = 729.
            raise GameError(f"the per-position rule takes codes of 1 to {PER_POSITION_MAX} symbols, not {self.positions}")
        if self.rule == "per-position" and self.words is None:
            # Reordering positions changes which repeated letter is marked elsewhere, so the symmetry the search
            # uses on a game of every arrangement would not hold; a list game uses none.
            raise GameError("the per-position rule is for a list of codes (per-position:FILE), not every arrangement "
                            "of the symbols; a file may list every code")
        if self.words is not None:
            problem = words_problem(self.words, self.positions, self.alphabet, self.repeats)
            if problem:
                raise GameError(f"game {shorten(self.name)!r}: {problem}")
            object.__setattr__(self, "digest", words_digest(self.words))
        if self.guesses is not None:
            if self.words is None:
                raise GameError("only a list game takes guesses that are never the secret (--guess-list)")
            problem = words_problem(self.guesses, self.positions, self.alphabet, self.repeats, "guess")
            if not problem:
                both = sorted(set(self.words) & set(self.guesses))
                if both:
                    problem = f"{both[0]!r} is both a word and a guess; list each secret once, among the words"
                elif len(self.words) + len(self.guesses) > WORDS_MAX:
                    problem = f"words and guesses come to {len(self.words) + len(self.guesses)}; at most {WORDS_MAX}"
            if problem:
                raise GameError(f"game {shorten(self.name)!r}: {problem}")
            object.__setattr__(self, "guesses_digest", words_digest(self.guesses))

    # -- sizes -------------------------------------------------------------------------------
    @property
    def symbols(self) -> int:
        return len(self.alphabet)

    @cached_property
    def symbol_lookup(self) -> dict[str, int]:
        """Symbol index of each character a code may be written with: the alphabet's, letters in either case.

        Only ASCII characters are keys: ``str.upper`` would turn ``'ß'`` into ``'SS'`` and ``'ı'`` into
        ``'I'``, so upper-casing whole texts accepted some non-ASCII codes and miscounted others.
        """
        out = {}
        for k, ch in enumerate(self.alphabet):
            out[ch] = out[ch.upper()] = out[ch.lower()] = k  # symbols_problem: no letter twice in any case
        return out

    @property
    def hint_slots(self) -> int:
        """Size of the hint index space: hints are ``bulls * (positions + 1) + cows``, or under the per-position
        rule the marks of the positions as base-3 digits (see ``score_symbols``)."""
        if self.rule == "per-position":
            return 3**self.positions
        return (self.positions + 1) ** 2

    @property
    def win_hint(self) -> int:
        """The hint of a guess that is the secret: all bulls, or every position right (the largest hint)."""
        if self.rule == "per-position":
            return 3**self.positions - 1
        return self.positions * (self.positions + 1)

    def same_rules(self, other: Game) -> bool:
        """Whether ``other`` plays by the same rules, whatever its name: the same codes (positions, symbols,
        repeats and, for a list game, the same list) scored by the same rule, and so the same hints."""
        return (self.positions, self.alphabet, self.repeats, self.digest, self.guesses_digest, self.rule) == (
            other.positions, other.alphabet, other.repeats, other.digest, other.guesses_digest, other.rule)

    def rule_hint(self, bulls: int, common: int) -> int:
        """The hint of a guess with ``bulls`` symbols in place and ``common`` symbols shared with the secret
        (counted with multiplicity) under the game's rule: bulls and cows (cows = common - bulls); black
        pegs only (``xA0B``); Jotto, the common letters (``0AcB``), or all-bulls when the guess is the secret."""
        if self.rule == "black-pegs":
            return bulls * (self.positions + 1)
        if self.rule == "jotto":
            return self.win_hint if bulls == self.positions else common
        return bulls * (self.positions + 1) + common - bulls

    @property
    def spec(self) -> str:
        """The ``bc:P:N`` / ``mm:P:N`` spec that names the same rules."""
        return f"{'mm' if self.repeats else 'bc'}:{self.positions}:{self.symbols}"

    # -- the code list -----------------------------------------------------------------------
    @property
    def listed(self) -> bool:
        """Whether the codes are a list (``words``) rather than every arrangement of the symbols. Such a game
        has no symmetry: a relabelling of positions or symbols need not map the list onto itself."""
        return self.words is not None

    @cached_property
    def codes(self) -> tuple[tuple[int, ...], ...]:
        """Every code as a tuple of symbol indices, in sorted (lexicographic) order; a list game's words in
        their order, then its guesses that are never the secret."""
        n, p = self.symbols, self.positions
        if self.words is not None:
            return tuple(tuple(self.alphabet.index(ch) for ch in w) for w in self.words + (self.guesses or ()))
        if self.repeats:
            return tuple(itertools.product(range(n), repeat=p))
        return tuple(itertools.permutations(range(n), p))

    @cached_property
    def code_index(self) -> dict[tuple[int, ...], int]:
        return {c: i for i, c in enumerate(self.codes)}

    @property
    def size(self) -> int:
        """Number of codes: every code may be guessed; the first ``secret_count`` of them are the secrets."""
        if self.words is not None:
            return len(self.words) + len(self.guesses or ())
        if self.repeats:
            return self.symbols**self.positions
        out = 1
        for k in range(self.positions):
            out *= self.symbols - k
        return out

    @property
    def secret_count(self) -> int:
        """Number of secrets: the codes 0 .. secret_count - 1 (all of them but a list game's ``guesses``)."""
        return len(self.words) if self.words is not None else self.size

    # -- hints -------------------------------------------------------------------------------
    def hint(self, bulls: int, cows: int) -> int:
        return bulls * (self.positions + 1) + cows

    def split_hint(self, hint: int) -> tuple[int, int]:
        return divmod(hint, self.positions + 1)

    @cached_property
    def possible_hints(self) -> frozenset[int]:
        """The hints that some guess and secret of this game produce (under the per-position rule, a superset).

        Renaming symbols or reordering positions (in both codes) keeps the hint, so the guess can be
        sorted: symbol x repeated ``parts[x]`` times, one guess per partition of the positions. A walk
        over the positions then follows every secret up to renaming the symbols outside the guess:
        (bulls, uses of each guess symbol capped at its count in the guess, other symbols used).
        Scoring one guess per pattern against every code took minutes for games such as mm:7:5.
        """
        p, n, seen = self.positions, self.symbols, set()
        if self.rule == "per-position":
            # Every pattern of marks but one kind: P - 1 positions right and one elsewhere, for that letter
            # would have to be in the one position not right, which holds another letter. The rest may not all
            # occur in a given list, which only weakens a counting bound made with them.
            return frozenset(h for h in range(3**p) if sorted(_marks(h, p)) != [1] + [2] * (p - 1))
        for parts in _partitions(p, n if self.repeats else p, p if self.repeats else 1):
            k = len(parts)
            states = {(0, (0,) * k, 0)}
            for g in (x for x, m in enumerate(parts) for _ in range(m)):
                nxt = set()
                for bulls, used, other in states:
                    for x in range(k):
                        if used[x] < parts[x]:
                            nxt.add((bulls + (x == g), used[:x] + (used[x] + 1,) + used[x + 1 :], other))
                        elif self.repeats:
                            nxt.add((bulls + (x == g), used, other))
                    if other < n - k:  # a symbol outside the guess (any one, when repeats are allowed)
                        nxt.add((bulls, used, other + (not self.repeats)))
                states = nxt
            seen.update(self.rule_hint(bulls, sum(used)) for bulls, used, _ in states)
        return frozenset(seen)

    def describe(self) -> str:
        scored = {"bulls-cows": "", "black-pegs": ", black pegs only", "jotto": ", Jotto hints (letters in common)",
                  "per-position": ", per-position hints (right, elsewhere, absent)"}[self.rule]
        if self.words is not None:
            more = f", and {len(self.guesses)} more words to guess with" if self.guesses else ""
            return (f"{self.name}: a list of {len(self.words)} words of {self.positions} letters"
                    f"{'' if self.repeats else ', all different'}{scored}{more}, {len(self.words)} secrets")
        return (
            f"{self.name}: {self.positions} positions, symbols {self.alphabet}, "
            f"{'repeats' if self.repeats else 'no repeats'}{scored}, {self.size} secrets"
        )


# -- hint rules and games of a list of words -------------------------------------------------------------
RULES = ("bulls-cows", "black-pegs", "jotto", "per-position")  # score_symbols says how each scores a guess
PER_POSITION_MAX = 5  # positions under the per-position rule: its 3**P hints fit in a uint8
# How ``--game PREFIX:FILE`` names a list game read from a file, by the rule that scores it.
LIST_PREFIXES = {"words:": "bulls-cows", "jotto:": "jotto", "per-position:": "per-position"}
MARKS = "-YG"  # a position's mark under the per-position rule, by its base-3 digit: absent, elsewhere, right


def _marks(hint: int, positions: int) -> list[int]:
    """The per-position marks of ``hint`` (0 absent, 1 elsewhere, 2 right), first position first: the hint is
    the sum of mark_k * 3**k."""
    return [hint // 3**k % 3 for k in range(positions)]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
WORDS_MAX = 20_000  # words in a list game (a feedback table of 400 MB)


def words_digest(words) -> str:
    """The SHA-256 of a list game's words, one per line: what a tree file records of its list."""
    import hashlib

    return hashlib.sha256("\n".join(words).encode("ascii")).hexdigest()


def words_problem(words, positions: int, alphabet: str, repeats: bool, what: str = "word") -> str | None:
    """What is wrong with a list game's words (or guesses: ``what``), in code order, unique, each a code of the
    alphabet, or None."""
    if not 1 <= len(words) <= WORDS_MAX:
        return f"a list game has 1 to {WORDS_MAX} {what}s, not {len(words)}"
    for k, w in enumerate(words):
        if not isinstance(w, str) or len(w) != positions or any(ch not in alphabet for ch in w):
            return f"{what} {k + 1} {shorten(repr(w))} is not {positions} symbols of {alphabet}"
        if not repeats and len(set(w)) != positions:
            return f"{what} {k + 1} {w!r} repeats a symbol, but the game has all different symbols"
        if k and words[k - 1] >= w:
            return f"the {what}s are not in order without repeats: {words[k - 1]!r} then {w!r}"
    return None


def refuse_list_game(game: Game, what: str) -> None:
    """GameError when ``game`` is a list of words and ``what`` (a command or method) needs the symmetry of every
    arrangement of the symbols, which a list does not have."""
    if game.listed:
        raise GameError(f"{what} relies on the symmetry of every arrangement of the symbols; {game.name} is a "
                        "list of words, which has none (build, solve, verify, play and analyze take it)")


def parse_word_list(text: str, source: str, name: str, rule: str = "bulls-cows", guesses: str | None = None,
                    guesses_source: str = "the guesses") -> Game:
    """A list game from a file's text: one word per line, letters A-Z in either case (or digits 0-9), all of one
    length. Repeated letters within a word are allowed when some word has one. ``guesses`` is the text of a
    second list, of words that may be guessed but are never the secret (a word of both lists is a secret), or
    ``"all"``: every code of the alphabet. The words are sorted; a problem is a GameError naming its line."""
    words = _read_words(text, source)
    alphabet = "0123456789" if words[0].isdigit() else LETTERS
    extra: tuple[str, ...] | None = None
    if guesses is not None:
        secrets = set(words)
        if guesses == "all":
            repeats = any(len(set(w)) != len(w) for w in words)
            n, p = len(alphabet), len(words[0])
            count = n**p if repeats else math.perm(n, p)
            if count > WORDS_MAX:
                raise GameError(f"--guess-list all: {p} symbols of {alphabet} make {count:,} codes; at most {WORDS_MAX:,} "
                                "are supported (give a list of guesses instead)")
            every = itertools.product(alphabet, repeat=p) if repeats else itertools.permutations(alphabet, p)
            more = ["".join(c) for c in every]
        else:
            more = _read_words(guesses, guesses_source, words[0])
        extra = tuple(sorted(w for w in more if w not in secrets)) or None
    repeats = any(len(set(w)) != len(w) for w in words + list(extra or ()))
    return Game(name, len(words[0]), alphabet, repeats, "ab", tuple(sorted(words)), rule=rule, guesses=extra)


def _read_words(text: str, source: str, like: str | None = None) -> list[str]:
    """The words of a list's text, upper-cased, in file order (``parse_word_list``), each of the length and kind
    (letters or digits) of ``like`` when given, else of line 1's word."""
    words: list[str] = []
    seen: dict[str, int] = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    first = "the secrets' words have" if like is not None else "line 1's word has"
    for n, raw in enumerate(lines, 1):
        w = raw.rstrip("\r")
        where = f"{source}, line {n}"
        if not w.strip():
            raise GameError(f"{where} is empty; a word list has one word per line and no empty lines")
        if w != w.strip():
            raise GameError(f"{where}: {shorten(repr(w))} has spaces around it; write one word per line")
        up = w.upper() if w.isascii() else w
        if not (up.isascii() and (up.isalpha() or up.isdigit())):
            raise GameError(f"{where}: {shorten(repr(w))} is not a word of the letters A-Z (or the digits 0-9) alone")
        model = like if like is not None else (words[0] if words else None)
        if model is not None and len(up) != len(model):
            raise GameError(f"{where}: {up!r} has {len(up)} letters, but {first} {len(model)}; "
                            "every word of a list has the same length")
        if model is not None and up.isdigit() != model.isdigit():
            raise GameError(f"{where}: {up!r} mixes digits and letters with {first.rsplit(' ', 1)[0]}; a list is of one "
                            "or the other")
        if up in seen:
            raise GameError(f"{where}: {up!r} is line {seen[up]}'s word again; every word once")
        if len(up) > TABLE_MAX_POSITIONS:
            raise GameError(f"{where}: {up!r} has {len(up)} letters; at most {TABLE_MAX_POSITIONS} are supported")
        seen[up] = n
        words.append(up)
    if not words:
        raise GameError(f"{source} has no words; a word list has one word per line")
    if len(words) > WORDS_MAX:
        raise GameError(f"{source} has {len(words)} words; at most {WORDS_MAX} are supported")
    return words


def _partitions(total: int, most: int, largest: int):
    """Non-increasing tuples of at most ``most`` positive parts, each at most ``largest``, summing to ``total``."""
    if total == 0:
        yield ()
        return
    if most == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, most - 1, first):
            yield (first,) + rest


def _pattern_codes(game: Game):
    """One code per pattern of repeated symbols (first occurrences in increasing order)."""

    def extend(prefix: tuple[int, ...], used: int):
        if len(prefix) == game.positions:
            yield prefix
            return
        # A new symbol is always the next unused one; repeat games may also reuse an earlier one.
        choices = range(min(used + 1, game.symbols)) if game.repeats else (used,)
        for s in choices:
            yield from extend(prefix + (s,), max(used, s + 1))

    yield from extend((), 0)


# -- presets and specs ---------------------------------------------------------------------------
PRESETS: dict[str, Game] = {
    g.name: g
    for g in (
        Game("bulls-cows", 4, "0123456789", False),
        Game("mastermind", 4, "123456", True, "pegs"),
        Game("numbers-baseball", 4, "0123456789", True, "baseball"),
        Game("mastermind-digits", 4, "0123456789", True, "pegs"),
        Game("smash-the-code", 4, "123456789", False, "pegs"),
        Game("royale", 5, "01234", True, "pegs"),
    )
}
DEFAULT_GAME = "bulls-cows"
# Presets scored by another rule of the family (RULES): Mastermind with black pegs only.
RULE_PRESETS: dict[str, Game] = {"black-pegs": Game("black-pegs", 4, "123456", True, "pegs", rule="black-pegs")}

# The numbers of a spec are read by parse_int (ASCII digits only: \d would also match '４' and '٣');
# [^:\s]* lets a spec-shaped name with a bad number get a message about that number.
_SPEC = re.compile(r"(bc|mm):([^:\s]*):([^:\s]*)")


def resolve_game(name: str, *, large: bool = False) -> Game:
    """The game named by a preset name or a ``bc:P:N`` / ``mm:P:N`` spec.

    Specs have at most 8 positions and 200000 codes, unless ``large``: then up to 10 positions and
    any number of codes, for callers that need no code list or table and check memory themselves.
    The game's name is the canonical spelling (``bc:03:06`` is ``bc:3:6``), so that every spelling
    of the same game writes the same files.
    """
    key = str(name).strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    if key in RULE_PRESETS:
        return RULE_PRESETS[key]
    if key in WORD_PRESETS:
        return _word_preset(key)
    m = _SPEC.fullmatch(key)
    if m:
        kind = m.group(1)
        most = MAX_POSITIONS if large else TABLE_MAX_POSITIONS
        accepted = f"positions 1-{most} and symbols 2-{len(SYMBOLS)} are accepted"
        try:
            p = parse_int(m.group(2), "the number of positions", 1, most)
            n = parse_int(m.group(3), "the number of symbols", 2, len(SYMBOLS))
        except NumberError as exc:
            raise GameError(f"game spec {shorten(name)!r}: {exc}; {accepted}") from None
        canonical = f"{kind}:{p}:{n}"
        game = Game(canonical, p, SYMBOLS[:n], kind == "mm", "pegs" if kind == "mm" else "ab")
        if game.size > MAX_CODES and not large:
            raise GameError(
                f"game {canonical!r} has {game.size} codes; at most {MAX_CODES} are supported here "
                f"(treegen play --strategy and treegen eval --sample take larger games)"
            )
        return game
    raise GameError(
        f"unknown game {shorten(name)!r}: use one of {', '.join([*PRESETS, *RULE_PRESETS, *WORD_PRESETS])}, a spec such as "
        f"bc:3:6 (no repeats) or mm:4:7 (repeats), or words:FILE (a list of words, one per line)"
    )


# Games of a shipped word list (treegen/words/, derived by scripts/word_lists.py): name -> file.
WORD_PRESETS = {"word-mastermind": ("word-mastermind.txt", "bulls-cows"), "jotto": ("words5.txt", "jotto"),
                "jotto-common": ("jotto-common.txt", "jotto")}


@cache
def _word_preset(key: str) -> Game:
    from pathlib import Path

    file, rule = WORD_PRESETS[key]
    path = Path(__file__).resolve().parent / "words" / file
    return parse_word_list(path.read_text(encoding="ascii"), str(path), key, rule)


class ArgumentTypeError(TreegenError, TypeError):
    """An argument of the Python API of the wrong type (a game given as a number, say): a TreegenError with
    a one-line message, and a TypeError for callers that catch those."""


def game_argument(game: Game | str, who: str) -> Game:
    """The game that ``who`` (an API function's name) was given: a :class:`Game` as is, or
    a preset name or spec such as ``"mastermind"`` or ``"bc:4:10"``, resolved by :func:`resolve_game`
    (``GameError`` when unknown). Anything else is an :class:`ArgumentTypeError`."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return resolve_game(game)
    raise ArgumentTypeError(f"{who}: game must be a Game or a game name such as 'mastermind' or 'bc:4:10', "
                            f"not {type(game).__name__}")


def game_from_dict(d: dict) -> Game:
    """The game described by a tree file's ``game`` object (a preset, a spec, or explicit fields).

    The fields must have their JSON types (no ``int("４")``, no ``bool("no")``); a name that is a spec
    (``bc:...`` / ``mm:...``) must be a valid one, and any other name that is not a preset names a game
    of its own, whose symbols must pass :func:`symbols_problem`.
    """
    try:
        name, p, alphabet, repeats = d["name"], d["positions"], d["alphabet"], d["repeats"]
    except (KeyError, TypeError) as exc:
        raise GameError(
            f"game description {shorten(repr(d), 80)} lacks name, positions, alphabet or repeats"
        ) from exc
    if not isinstance(name, str) or not isinstance(alphabet, str) or type(repeats) is not bool \
            or isinstance(p, bool) or not hasattr(p, "__index__"):
        raise GameError(
            f"game description {shorten(repr(d), 80)}: name and alphabet must be strings, positions a "
            f"whole number and repeats true or false"
        )
    p = p.__index__()  # an int (or numpy integer) as it is, never a string or float converted
    if not name.isprintable():  # messages quote the name as it is: a line break would split them
        raise GameError(f"game name {shorten(name)!r} has a line break or control character; give a name on one line")
    key = name.strip().lower()
    rule = d.get("rule", "bulls-cows")
    if rule not in RULES:
        raise GameError(f"game {shorten(name)!r}: unknown hint rule {shorten(repr(rule))}; the rules are {', '.join(RULES)}")
    if "words" in d or "words_sha256" in d:
        words, digest = d.get("words"), d.get("words_sha256")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words) or not isinstance(digest, str):
            raise GameError(f"game {shorten(name)!r}: a list game has 'words' (a list of strings) and 'words_sha256'")
        if words_digest(words) != digest:
            raise GameError(f"game {shorten(name)!r}: its words do not match its words_sha256 (the list was changed)")
        guesses = None
        if "guesses" in d or "guesses_sha256" in d:
            guesses, gdigest = d.get("guesses"), d.get("guesses_sha256")
            if not isinstance(guesses, list) or not all(isinstance(w, str) for w in guesses) \
                    or not isinstance(gdigest, str):
                raise GameError(f"game {shorten(name)!r}: a list game's 'guesses' are a list of strings, with "
                                "'guesses_sha256'")
            if words_digest(guesses) != gdigest:
                raise GameError(f"game {shorten(name)!r}: its guesses do not match its guesses_sha256 (the list "
                                "was changed)")
            guesses = tuple(guesses)
        game = Game(name, p, alphabet, repeats, "ab", tuple(words), rule=rule, guesses=guesses)
    elif key in PRESETS or key in RULE_PRESETS or _SPEC.fullmatch(key):
        game = resolve_game(name)  # a spec that is out of range is an error, not a game of its own
    else:
        game = Game(name, p, alphabet, repeats, rule=rule)
    if (game.positions, game.alphabet, game.repeats, game.rule) != (p, alphabet, repeats, rule):
        raise GameError(f"game {shorten(name)!r} does not match its description {shorten(repr(d), 80)}")
    return game


def game_to_dict(game: Game) -> dict:
    d = {
        "name": game.name,
        "positions": game.positions,
        "alphabet": game.alphabet,
        "repeats": game.repeats,
    }
    if game.words is not None:  # a list game carries its list, and the list's digest to check it by
        d["words"] = list(game.words)
        d["words_sha256"] = game.digest
    if game.guesses is not None:  # and its guesses that are never the secret, the same way
        d["guesses"] = list(game.guesses)
        d["guesses_sha256"] = game.guesses_digest
    if game.rule != "bulls-cows":
        d["rule"] = game.rule
    return d


# -- codes ---------------------------------------------------------------------------------------
def parse_code(game: Game, text: str) -> int:
    """The code written as ``text`` (spaces ignored, letters in any case)."""
    symbols = parse_symbols(game, text)
    code = game.code_index.get(symbols)
    if code is None:  # only a list game lacks an arrangement of its symbols
        raise CodeError(f"{shorten(str(text))!r} is not a word of {game.name}'s list of {game.size} words")
    return code


def parse_symbols(game: Game, text: str) -> tuple[int, ...]:
    """The symbol indices of the code written as ``text``; ``CodeError`` for an illegal code.

    Needs no code list, so games too large for one (``treegen.livescore``) parse codes with it too.
    """
    # No upper() of the whole text: 'ß'.upper() is 'SS' (two symbols from one) and 'ı'.upper() is 'I'.
    # Each character is looked up as it is; symbol_lookup holds the alphabet's ASCII symbols, letters in
    # either case, so full-width digits and other non-ASCII characters are never a symbol.
    raw = "".join(str(text).split())
    shown = shorten(str(text))
    if len(raw) != game.positions:
        raise CodeError(
            f"code {shown!r} has {len(raw)} symbols; {game.name} codes have {game.positions} "
            f"symbols from {game.alphabet}{'' if game.repeats else ', all different'}"
        )
    lookup = game.symbol_lookup
    symbols = []
    for ch in raw:
        k = lookup.get(ch)
        if k is None:
            raise CodeError(
                f"code {shown!r} uses {ch!r}; {game.name} codes use only the symbols {game.alphabet}"
                + (" (letters in either case)" if any(c.isalpha() for c in game.alphabet) else "")
            )
        symbols.append(k)
    if not game.repeats and len(set(symbols)) != len(symbols):
        raise CodeError(f"code {shown!r} repeats a symbol; {game.name} codes have all different symbols")
    return tuple(symbols)


def format_code(game: Game, code: int) -> str:
    return "".join(game.alphabet[s] for s in game.codes[code])


def score_symbols(game: Game, guess: tuple[int, ...], secret: tuple[int, ...]) -> Hint:
    """The hint for ``guess`` against ``secret``, both symbol tuples (``game.codes[code]``).

    Bulls are positions that agree; cows are the common symbols counted with multiplicity
    (min of the two counts), minus the bulls; the game's rule makes the hint of them (``Game.rule_hint``).
    """
    if game.rule == "per-position":
        return _per_position(guess, secret)
    bulls = sum(1 for g, s in zip(guess, secret) if g == s)
    common = sum(min(guess.count(x), secret.count(x)) for x in set(guess))
    return game.rule_hint(bulls, common)


def _per_position(guess: tuple[int, ...], secret: tuple[int, ...]) -> Hint:
    """The per-position hint, scored as the word games score repeated letters: a position is right (2) when the
    letters agree; then, left to right, a letter not right is elsewhere (1) while the secret has copies of it
    left over from the right positions and the earlier "elsewhere" marks, else absent (0). Hint = sum of
    mark_k * 3**k."""
    left: dict[int, int] = {}
    for g, s in zip(guess, secret):
        if g != s:
            left[s] = left.get(s, 0) + 1
    hint = 0
    for k, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            hint += 2 * 3**k
        elif left.get(g, 0):
            left[g] -= 1
            hint += 3**k
    return hint


def score_codes(game: Game, guess: Code, secret: Code) -> Hint:
    """The hint for the code ``guess`` against the code ``secret``."""
    return score_symbols(game, game.codes[guess], game.codes[secret])


# -- hints ---------------------------------------------------------------------------------------
# [0-9] and re.ASCII, not \d and Unicode matching: \d takes '１' and '٣', and with re.I the pattern
# 's' matches 'ſ' (long s) and 'k' matches the Kelvin sign.
_AB = re.compile(r"^([0-9]+)\s*A\s*([0-9]+)\s*B$", re.I | re.ASCII)
_PAIR = re.compile(r"^([0-9]+)[\s,/]+([0-9]+)$", re.ASCII)
_BASEBALL = re.compile(
    r"^(?:(?:b(?:all)?s?\s*[=:]?\s*(?P<b1>[0-9]+))[\s,;]*(?:s(?:trike)?s?\s*[=:]?\s*(?P<s1>[0-9]+))"
    r"|(?:s(?:trike)?s?\s*[=:]?\s*(?P<s2>[0-9]+))[\s,;]*(?:b(?:all)?s?\s*[=:]?\s*(?P<b2>[0-9]+)))$",
    re.I | re.ASCII,
)
_PEGS = re.compile(r"^[BW]*$", re.I | re.ASCII)


def accepted_hint_forms(game: Game) -> str:
    """The ways of writing a hint that ``parse_hint`` accepts for ``game``, for messages and prompts."""
    if game.rule == "jotto":
        return f"the number of letters in common, '0' to '{game.positions}', or 'found' (also '0A2B', '{game.positions}A0B')"
    if game.rule == "per-position":
        example = ("GY-" * 2)[: game.positions]
        return (f"a mark for each of the {game.positions} positions: G (right), Y (elsewhere), - (absent), "
                f"such as '{example}'; also B, X, . or _ for absent, or 2/1/0")
    if game.rule == "black-pegs":
        return "the black pegs, 'BB' or '2' (also '2A0B'); '-' or '0' for none"
    forms = "'1A2B', '1a2b', '1 2' (bulls then cows)"
    if game.notation == "baseball":
        forms += ", 'ball=3 strike=1' or 'b3s1' (ball counts strikes too)"
    elif game.notation == "pegs":
        forms += ", pegs such as 'BWW' (B black = right place, W white = wrong place; '-' for none)"
    return forms


def parse_hint(game: Game, text: str) -> int:
    """The hint written as ``text`` in the canonical ``xAyB`` form or in the game's own notation."""
    raw = " ".join(str(text).split())
    shown = shorten(str(text))

    def count(digits: str) -> int:
        # ASCII digits (the regexes), but maybe thousands of them: no count above the positions is a
        # hint, and int() refuses more than 4300 digits with a ValueError.
        if len(digits.lstrip("0")) > 3:
            raise HintError(f"hint {shown!r} counts more symbols than the {game.positions} of a {game.name} code")
        return int(digits)

    if game.rule == "per-position":
        return _parse_marks(game, raw, shown)
    bulls = cows = None
    m = _AB.match(raw) or _PAIR.match(raw)
    if game.rule != "bulls-cows" and not m:
        # Jotto: the letters in common, or 'found'; black pegs: their number, or the pegs as B's.
        low = raw.lower()
        if game.rule == "jotto" and low in ("found", "win", "yes"):
            return game.win_hint
        if re.fullmatch("[0-9]+", raw, re.ASCII):
            n = count(raw)
            bulls, cows = (n, 0) if game.rule == "black-pegs" else (0, n)
        elif game.rule == "black-pegs" and (raw == "-" or re.fullmatch("[Bb]+", raw)):
            bulls, cows = raw.upper().count("B"), 0
    if m:
        bulls, cows = count(m.group(1)), count(m.group(2))
    elif game.notation == "baseball" and (mb := _BASEBALL.match(raw)):
        ball = count(mb.group("b1") or mb.group("b2"))
        strike = count(mb.group("s1") or mb.group("s2"))
        if strike > ball:
            raise HintError(f"hint {shown!r}: strikes ({strike}) cannot exceed balls ({ball}); ball counts strikes too")
        bulls, cows = strike, ball - strike
    elif game.notation == "pegs" and (raw in ("-", "") or _PEGS.match(raw.replace(" ", ""))):
        pegs = raw.replace(" ", "").upper()
        bulls, cows = pegs.count("B"), pegs.count("W")
    if bulls is None:
        raise HintError(f"cannot read hint {shown!r}; {game.name} accepts {accepted_hint_forms(game)}")
    p = game.positions
    if bulls + cows > p:
        raise HintError(f"hint {shown!r} counts {bulls + cows} symbols; {game.name} codes have only {p}")
    h = game.hint(bulls, cows)
    if h not in game.possible_hints:
        raise HintError(
            f"hint {shown!r} ({format_hint(game, h)}) cannot occur in {game.name}: possible hints are "
            + " ".join(format_hint(game, x) for x in sorted(game.possible_hints))
        )
    return h


def parse_history(game: Game, items) -> list[tuple[int, int]]:
    """Guesses and their hints written ``GUESS=HINT`` (``0123=1A2B``), as (code, hint) pairs: the one reader of a
    game so far, for the command line and the server."""
    history = []
    for item in items:
        if "=" not in item:
            raise HintError(f"{shorten(str(item))!r} is not GUESS=HINT; write each guess and its hint as 0123=1A2B")
        code, hint = item.split("=", 1)
        history.append((parse_code(game, code), parse_hint(game, hint)))
    return history


def hint_of_key(game: Game, key: str) -> Hint | None:
    """The hint of a tree's branch key in canonical form (``format_hint``: ``xAyB``, or the per-position marks
    such as ``G-Y--``), or None when ``key`` is not one for ``game``; fast, for walking trees."""
    if game.rule == "per-position":
        if len(key) != game.positions or any(ch not in MARKS for ch in key):
            return None
        return sum(MARKS.index(ch) * 3**k for k, ch in enumerate(key))
    if len(key) != 4 or key[1] != "A" or key[3] != "B" or key[0] not in "0123456789" or key[2] not in "0123456789":
        return None
    bulls, cows = int(key[0]), int(key[2])
    return game.hint(bulls, cows) if bulls + cows <= game.positions else None


_MARK_OF = {"G": 2, "2": 2, "Y": 1, "1": 1, "-": 0, "B": 0, "X": 0, ".": 0, "_": 0, "0": 0,
            "\U0001F7E9": 2, "\U0001F7E8": 1, "\u2B1B": 0, "\u2B1C": 0}  # and the squares the word games share


def _parse_marks(game: Game, raw: str, shown: str) -> int:
    """A per-position hint written as one mark per position (``parse_hint``)."""
    marks = [_MARK_OF.get(ch.upper() if ch.isascii() else ch) for ch in raw.replace(" ", "")]
    if len(marks) != game.positions or None in marks:
        raise HintError(f"cannot read hint {shown!r}; {game.name} accepts {accepted_hint_forms(game)}")
    h = sum(m * 3**k for k, m in enumerate(marks))
    if h not in game.possible_hints:
        raise HintError(f"hint {shown!r} cannot occur in {game.name}: when every other position is right, the "
                        "last letter cannot be elsewhere")
    return h


def format_hint(game: Game, hint: int) -> str:
    if game.rule == "per-position":
        return "".join(MARKS[m] for m in _marks(hint, game.positions))
    bulls, cows = game.split_hint(hint)
    return f"{bulls}A{cows}B"


def format_hint_native(game: Game, hint: int) -> str | None:
    """The hint in the game's own notation, or None when the game has only ``xAyB`` (or, under the
    per-position rule, only its marks)."""
    if game.rule == "per-position":
        return None
    bulls, cows = game.split_hint(hint)
    if game.rule == "jotto":
        return "found" if hint == game.win_hint else f"{cows} in common"
    if game.rule == "black-pegs":
        return "B" * bulls or "-"
    if game.notation == "baseball":
        return f"ball={bulls + cows} strike={bulls}"
    if game.notation == "pegs":
        return "B" * bulls + "W" * cows or "-"
    return None
