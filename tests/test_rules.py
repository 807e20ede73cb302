"""The rules: games, codes, hints and scoring, checked against a naive scorer and by properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegen import rules
from treegen.rules import (
    PRESETS,
    CodeError,
    GameError,
    HintError,
    format_code,
    format_hint,
    format_hint_native,
    parse_code,
    parse_hint,
    resolve_game,
    score_symbols as score,
    score_codes,
)

SMALL_GAMES = ["bc:2:4", "bc:3:4", "bc:3:5", "mm:2:3", "mm:3:3", "mm:3:2", "mm:4:3"]


def expected_hint(game, naive, guess, secret):
    bulls, cows = naive(guess, secret)
    return bulls * (game.positions + 1) + cows


# -- scoring against the naive scorer --------------------------------------------------------------


@pytest.mark.parametrize("spec", SMALL_GAMES)
def test_score_matches_naive_on_every_pair_of_small_games(spec, naive):
    game = resolve_game(spec)
    for i, g in enumerate(game.codes):
        for j, s in enumerate(game.codes):
            want = expected_hint(game, naive, g, s)
            assert score(game, g, s) == want, (g, s)
            assert score_codes(game, i, j) == want, (g, s)


@pytest.mark.parametrize("name", list(PRESETS))
def test_score_matches_naive_on_random_pairs_of_presets(name, naive):
    game = PRESETS[name]
    rng = random.Random(f"rules-{name}")
    for _ in range(3000):
        i, j = rng.randrange(game.size), rng.randrange(game.size)
        g, s = game.codes[i], game.codes[j]
        assert score_codes(game, i, j) == expected_hint(game, naive, g, s), (g, s)


def test_naive_scorer_on_hand_examples(naive):
    # Sanity of the reference itself, from the definition.
    assert naive("5346", "5234") == (1, 2)
    assert naive("5255", "5543") == (1, 1)
    assert naive("1122", "2211") == (0, 4)
    assert naive("1111", "1222") == (1, 0)


# -- the seeds' worked examples --------------------------------------------------------------------


def hint_of(game_name, guess, secret):
    game = resolve_game(game_name)
    return game, score_codes(game, parse_code(game, guess), parse_code(game, secret))


def test_worked_example_bulls_cows():
    game, h = hint_of("bulls-cows", "5346", "5234")
    assert format_hint(game, h) == "1A2B"
    assert format_hint_native(game, h) is None


@pytest.mark.parametrize("name", ["mastermind-digits", "numbers-baseball"])
def test_worked_example_repeats(name):
    game, h = hint_of(name, "5255", "5543")
    assert format_hint(game, h) == "1A1B"


def test_worked_example_numbers_baseball():
    game, h = hint_of("numbers-baseball", "5382", "3092")
    assert format_hint(game, h) == "1A1B"
    assert format_hint_native(game, h) == "ball=2 strike=1"
    assert parse_hint(game, "ball=2 strike=1") == h


def test_pegs_native_format():
    game = PRESETS["mastermind"]
    assert format_hint_native(game, game.hint(2, 1)) == "BBW"
    assert format_hint_native(game, game.hint(0, 0)) == "-"


# -- properties ------------------------------------------------------------------------------------

PROPERTY_GAMES = [
    PRESETS["bulls-cows"],
    PRESETS["mastermind"],
    PRESETS["royale"],
    PRESETS["smash-the-code"],
    resolve_game("bc:3:6"),
    resolve_game("mm:4:7"),
    resolve_game("mm:3:2"),
    resolve_game("bc:5:12"),
]


def _codes(game):
    if game.repeats:
        return st.lists(st.integers(0, game.symbols - 1), min_size=game.positions, max_size=game.positions).map(
            tuple
        )
    return st.permutations(range(game.symbols)).map(lambda p: tuple(p[: game.positions]))


@st.composite
def game_and_two_codes(draw):
    game = draw(st.sampled_from(PROPERTY_GAMES))
    return game, draw(_codes(game)), draw(_codes(game))


@settings(max_examples=300, deadline=None)
@given(game_and_two_codes())
def test_score_is_symmetric_bounded_and_matches_naive(naive, case):
    game, a, b = case
    h = score(game, a, b)
    assert h == score(game, b, a)
    bulls, cows = game.split_hint(h)
    assert bulls >= 0 and cows >= 0
    assert bulls + cows <= game.positions
    assert (bulls, cows) == naive(a, b)
    assert h in game.possible_hints
    assert score(game, a, a) == game.win_hint


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_score_is_invariant_under_symbol_and_position_permutations(data):
    game, a, b = data.draw(game_and_two_codes())
    sym = data.draw(st.permutations(range(game.symbols)))
    pos = data.draw(st.permutations(range(game.positions)))
    h = score(game, a, b)
    assert score(game, tuple(sym[x] for x in a), tuple(sym[x] for x in b)) == h
    assert score(game, tuple(a[p] for p in pos), tuple(b[p] for p in pos)) == h


# -- sizes and codes -------------------------------------------------------------------------------

PRESET_SIZES = {
    "bulls-cows": 5040,
    "mastermind": 1296,
    "numbers-baseball": 10000,
    "mastermind-digits": 10000,
    "smash-the-code": 3024,
    "royale": 3125,
}


def test_every_preset_has_a_known_size():
    assert set(PRESETS) == set(PRESET_SIZES)
    assert rules.DEFAULT_GAME in PRESETS


@pytest.mark.parametrize("name", list(PRESET_SIZES))
def test_preset_secret_counts_and_code_list(name):
    game = resolve_game(name)
    assert game is PRESETS[name]
    assert game.size == PRESET_SIZES[name]
    assert len(game.codes) == game.size
    assert list(game.codes) == sorted(game.codes)
    assert len(set(game.codes)) == game.size
    for code in (0, game.size // 2, game.size - 1):
        assert parse_code(game, format_code(game, code)) == code


@pytest.mark.parametrize(
    "spec,size",
    [("bc:3:6", 120), ("mm:4:7", 2401), ("bc:4:10", 5040), ("mm:4:6", 1296), ("bc:2:4", 12), ("mm:3:2", 8),
     ("bc:5:12", 95040), ("mm:4:12", 20736), ("BC:3:6", 120)],
)
def test_spec_sizes(spec, size):
    game = resolve_game(spec)
    assert game.size == size
    assert len(game.codes) == size
    assert list(game.codes) == sorted(game.codes)
    assert game.spec == spec.lower()


@pytest.mark.parametrize("spec", SMALL_GAMES + ["bc:3:6", "mm:4:7", "mm:4:12", "smash-the-code", "mastermind"])
def test_parse_format_round_trip_every_code(spec):
    game = resolve_game(spec)
    for code in range(game.size):
        text = format_code(game, code)
        assert len(text) == game.positions
        assert parse_code(game, text) == code
        assert parse_code(game, text.lower()) == code
    for code, symbols in enumerate(game.codes):
        if not game.repeats:
            assert len(set(symbols)) == game.positions
        assert game.code_index[symbols] == code


@pytest.mark.parametrize(
    "spec,text",
    [
        ("bulls-cows", "012"),  # too short
        ("bulls-cows", "01234"),  # too long
        ("bulls-cows", ""),
        ("bulls-cows", "012A"),  # unknown symbol
        ("bulls-cows", "01-3"),
        ("mastermind", "0123"),  # 0 is not a colour
        ("mastermind", "1237"),
        ("smash-the-code", "0123"),
        ("bulls-cows", "0012"),  # repeated symbol, no-repeat game
        ("smash-the-code", "1231"),
        ("bc:3:6", "112"),
        ("mm:4:12", "ABCD"),  # C is not among 0-9AB
    ],
)
def test_parse_code_refuses(spec, text):
    with pytest.raises(CodeError):
        parse_code(resolve_game(spec), text)


def test_parse_code_accepts_letters_in_any_case_and_spaces():
    game = resolve_game("mm:4:12")
    assert game.alphabet == "0123456789AB"
    code = parse_code(game, "ab0B")
    assert code == parse_code(game, "AB0B") == parse_code(game, " a b 0 b ")
    assert format_code(game, code) == "AB0B"
    bc = PRESETS["bulls-cows"]
    assert parse_code(bc, "0 1 2 3") == parse_code(bc, "0123") == 0
    assert parse_code(PRESETS["numbers-baseball"], "0012") == 12


def test_code_errors_are_treegen_errors():
    assert issubclass(CodeError, rules.TreegenError)
    assert issubclass(HintError, rules.TreegenError)
    assert issubclass(GameError, rules.TreegenError)
    assert issubclass(rules.TreegenError, ValueError)


# -- games -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["chess", "bc:9:10", "mm:4:37", "bc:0:5", "mm:4:1", "bc:5:4", "mm:8:10", "bc:3", "xx:3:3", ""]
)
def test_resolve_game_refuses(spec):
    with pytest.raises(GameError):
        resolve_game(spec)


@pytest.mark.parametrize("name", list(PRESETS) + ["bc:3:6", "mm:4:7"])
def test_game_dict_round_trip(name):
    game = resolve_game(name)
    assert rules.game_from_dict(rules.game_to_dict(game)) == game


def test_game_from_dict_refuses_mismatch():
    d = rules.game_to_dict(PRESETS["bulls-cows"])
    with pytest.raises(GameError):
        rules.game_from_dict({**d, "positions": 3})
    with pytest.raises(GameError):
        rules.game_from_dict({"name": "x"})


# -- hints -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1A2B", "1a2b", " 1 A 2 B ", "1 2", "1A 2B", "1,2"])
def test_parse_hint_canonical_forms(text):
    for name in ("bulls-cows", "mastermind", "numbers-baseball"):
        game = PRESETS[name]
        assert parse_hint(game, text) == game.hint(1, 2)


@pytest.mark.parametrize(
    "text,bulls,cows",
    [
        ("ball=2 strike=1", 1, 1),
        ("b2s1", 1, 1),
        ("strike=1 ball=2", 1, 1),
        ("B2S1", 1, 1),
        ("balls=3 strikes=0", 0, 3),
        ("ball=4 strike=4", 4, 0),
        ("ball=0 strike=0", 0, 0),
    ],
)
def test_parse_hint_baseball(text, bulls, cows):
    game = PRESETS["numbers-baseball"]
    assert parse_hint(game, text) == game.hint(bulls, cows)


@pytest.mark.parametrize(
    "text,bulls,cows", [("BBW", 2, 1), ("bbw", 2, 1), ("WBB", 2, 1), ("-", 0, 0), ("W", 0, 1), ("BBBB", 4, 0)]
)
def test_parse_hint_pegs(text, bulls, cows):
    game = PRESETS["mastermind"]
    assert parse_hint(game, text) == game.hint(bulls, cows)


@pytest.mark.parametrize(
    "name,text",
    [
        ("bulls-cows", "3A1B"),  # cannot occur
        ("mastermind", "3A1B"),
        ("bulls-cows", "5A0B"),  # more than positions
        ("bulls-cows", "2A3B"),
        ("bulls-cows", "xyz"),
        ("bulls-cows", ""),
        ("bulls-cows", "1A"),
        ("numbers-baseball", "ball=1 strike=2"),  # strikes > balls
        ("numbers-baseball", "b1s2"),
        ("numbers-baseball", "ball=5 strike=0"),
        ("bulls-cows", "BBW"),  # pegs are not bulls-cows notation
        ("bulls-cows", "-"),
        ("bulls-cows", "ball=2 strike=1"),  # nor baseball
        ("mastermind", "BBBW"),  # 3A1B as pegs
        ("mastermind", "BBWWW"),
        ("mastermind", "BXW"),
        ("royale", "BBBBW"),
    ],
)
def test_parse_hint_refuses(name, text):
    with pytest.raises(HintError):
        parse_hint(PRESETS[name], text)


@pytest.mark.parametrize(
    "spec",
    SMALL_GAMES + ["bc:1:3", "mm:1:2", "bc:4:4", "bc:3:3", "bc:4:6", "mm:4:2", "mm:3:4", "mm:5:2", "mm:5:3",
                   "mm:2:5", "mm:6:2"],
)
def test_possible_hints_equal_hints_seen_in_full_table(spec, naive):
    game = resolve_game(spec)
    seen = {expected_hint(game, naive, g, s) for g in game.codes for s in game.codes}
    assert game.possible_hints == seen
    for h in range(game.hint_slots):
        bulls, cows = game.split_hint(h)
        text = f"{bulls}A{cows}B"
        if h in seen:
            assert parse_hint(game, text) == h
        else:
            with pytest.raises(HintError):
                parse_hint(game, text)


@pytest.mark.parametrize("name", list(PRESETS))
def test_hint_text_round_trip(name):
    game = PRESETS[name]
    assert game.win_hint in game.possible_hints
    assert game.hint(game.positions - 1, 1) not in game.possible_hints
    for h in game.possible_hints:
        assert parse_hint(game, format_hint(game, h)) == h
        native = format_hint_native(game, h)
        if game.notation == "ab":
            assert native is None
        else:
            assert parse_hint(game, native) == h


@pytest.mark.parametrize("spec", ["mm:7:5", "mm:8:4", "mm:6:7", "mm:5:11", "bc:6:10"])
def test_possible_hints_of_large_games_cover_random_pairs(spec, naive):
    # Scoring one guess per repeat pattern against every code took minutes for mm:7:5 / mm:8:4; the walk
    # takes milliseconds (no time is asserted: the machine may be loaded).
    game = resolve_game(spec)
    possible = game.possible_hints
    rng = random.Random(spec)
    for _ in range(500):
        g, s = rng.choice(game.codes), rng.choice(game.codes)
        assert expected_hint(game, naive, g, s) in possible
    assert game.win_hint in possible
    assert game.hint(game.positions - 1, 1) not in possible
    assert all(parse_hint(game, format_hint(game, h)) == h for h in possible)


# -- arbitrary text never escapes as anything but a TreegenError -----------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(list(PRESETS.values())),
    st.text(alphabet=st.sampled_from("0123456789ABWbwsatrikel =:,;-/\t"), max_size=16),
)
def test_parse_hint_raises_only_hint_errors(game, text):
    try:
        h = parse_hint(game, text)
    except HintError:
        return
    assert h in game.possible_hints


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(PRESETS.values())), st.text(max_size=8))
def test_parse_code_raises_only_code_errors(game, text):
    try:
        code = parse_code(game, text)
    except CodeError:
        return
    assert 0 <= code < game.size


# -- numbers, codes and specs from users: ASCII only, one-line errors (issue #40) --------------------

BIG = "9" * 5000  # int() refuses more than 4300 digits with a plain ValueError (exit 3 in the CLI)


def _short(exc) -> str:
    """The message of a refusal: one line, and short however long the input was."""
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 400, msg
    return msg


def test_numbers_in_specs_and_hints_are_ascii_digits_within_bounds():
    # \d also matches '４' and '٣'; int() takes them, and '²' or 5000 digits raise a bare ValueError.
    for spec in ("bc:４:10", "bc:4:１0", "mm:٤:6", "bc:²:10", f"bc:{BIG}:10", f"mm:4:{BIG}", "bc:-4:10", "bc::10"):
        with pytest.raises(GameError) as info:
            resolve_game(spec)
        assert "game spec" in _short(info)
    with pytest.raises(GameError, match="from 1 to 8"):
        resolve_game("bc:9:10")
    assert resolve_game("bc:4:10", large=True).positions == 4
    bc = resolve_game("bulls-cows")
    nb = resolve_game("numbers-baseball")
    for game, text in ((bc, "１A2B"), (bc, "1A２B"), (bc, "١ ٢"), (bc, f"{BIG}A0B"), (bc, f"0A{BIG}B"), (bc, f"1 {BIG}"),
                       (nb, f"ball={BIG} strike=0"), (nb, "ball=3 ſtrike=1"), (nb, "b３s1")):
        with pytest.raises(HintError) as info:
            parse_hint(game, text)
        _short(info)
    assert parse_hint(bc, "0001A02B") == parse_hint(bc, "1A2B")  # leading zeros are still ASCII digits
    assert parse_hint(nb, "ball=3 strike=1") == parse_hint(nb, "1A2B")
    # Game descriptions from files: JSON types only, no int("４"), and a spec name must be a valid spec.
    for d in ({"name": "x", "positions": "４", "alphabet": "0123", "repeats": False},
              {"name": "x", "positions": BIG, "alphabet": "0123", "repeats": False},
              {"name": f"bc:{BIG}:10", "positions": 4, "alphabet": "0123456789", "repeats": False},
              {"name": "x", "positions": 2, "alphabet": "012", "repeats": "no"}):
        with pytest.raises(GameError) as info:
            rules.game_from_dict(d)
        _short(info)
    with pytest.raises(rules.NumberError, match="not a number of 5000 digits"):
        rules.parse_int(BIG, "--seed", 0, 10)


def test_codes_with_non_ascii_characters_are_refused_consistently():
    mm = resolve_game("mm:4:6")
    with pytest.raises(CodeError, match="uses 'ß'"):  # 'ß'.upper() is 'SS': it was 'has 5 symbols'
        parse_code(mm, "ß123")
    with pytest.raises(CodeError, match="uses '０'"):
        parse_code(mm, "０123")
    letters = resolve_game("bc:3:20")  # symbols 0-9 then A-J
    assert parse_code(letters, "ij1") == parse_code(letters, "IJ1")  # letters in either case
    for text in ("ı12", "ſ12", "Ｉ12"):  # 'ı'.upper() == 'I': this was accepted as I12
        with pytest.raises(CodeError, match="uses"):
            parse_code(letters, text)
    with pytest.raises(CodeError) as info:
        parse_code(mm, BIG)
    assert "has 5000 symbols" in _short(info)


def test_game_symbols_are_printable_ascii_once_in_any_case():
    assert rules.Game("x", 2, '",=@', True).alphabet == '",=@'  # punctuation is fine (exports escape it)
    for alphabet, why in (("0 1", "has a space"), ("0\n1", "has a line break"), ("aA1", "'a' and 'A'"),
                          ("01\t", "control character"), ("０12", "non-ASCII"), ("011", "'1' twice")):
        with pytest.raises(GameError, match=why) as info:
            rules.Game("x", 2, alphabet, True)
        assert "printable ASCII" in _short(info)
    lower = rules.Game("x", 2, "abc", True)  # lower-case symbols, read in either case
    assert parse_code(lower, "AB") == parse_code(lower, "ab") and format_code(lower, parse_code(lower, "AB")) == "ab"


def test_game_specs_get_their_canonical_name():
    from treegen.tree import Node, tree_to_bytes
    from treegen.verify import make_tree

    assert resolve_game("bc:03:06").name == "bc:3:6" and resolve_game(" MM:004:0006 ").name == "mm:4:6"
    assert resolve_game("bc:03:06") == resolve_game("bc:3:6")
    d = {"name": "bc:03:06", "positions": 3, "alphabet": "012345", "repeats": False}
    assert rules.game_from_dict(d).name == "bc:3:6"
    # The same tree built for either spelling is the same file.
    files = set()
    for spelling in ("mm:2:2", "mm:02:002"):
        game = resolve_game(spelling)
        root = Node.build("00", {"0A0B": Node.build("11"), "1A0B": Node.build("01", {"0A2B": Node.build("10")})})
        files.add(tree_to_bytes(make_tree(game, "hand", root)))
    assert len(files) == 1
