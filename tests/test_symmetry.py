"""Symmetry reduction of guesses, checked against orbits of a brute-force enumerated group."""

import itertools
import random

import numpy as np
import pytest

from treegen.feedback import feedback_table
from treegen.rules import format_code, parse_code, resolve_game
from treegen.rules import score_symbols as score
from treegen.exact.memo import SetOrbits
from treegen.symmetry import NodeGuesses, canonical_guesses, class_of, fresh_symbol_guesses, guess_classes


def _act(perm, sigma, code):
    """(g.c)[perm[p]] = sigma[c[p]]."""
    out = [None] * len(code)
    for p, s in enumerate(code):
        out[perm[p]] = sigma[s]
    return tuple(out)


def _allowed(game, history, secrets):
    """Every group element allowed by the definition in symmetry.py, enumerated by brute force."""
    codes = game.codes
    absent = {x for x in range(game.symbols) if all(x not in codes[s] for s in secrets)}
    used = {x for h in history for x in codes[h]}
    free = set(range(game.symbols)) - used - absent
    out = []
    for perm in itertools.permutations(range(game.positions)):
        for sigma in itertools.permutations(range(game.symbols)):
            if any(sigma[x] not in absent for x in absent) or any(sigma[x] not in free for x in free):
                continue
            ok = True
            for h in history:
                c = codes[h]
                for p in range(game.positions):
                    a, b = c[p], c[perm[p]]
                    if (a in absent) != (b in absent) or (a not in absent and sigma[a] != b):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                out.append((perm, sigma))
    return out


def _random_case(game, rng):
    """A random history of 0-3 guesses and the secrets its hints leave for a random secret."""
    secret = rng.randrange(game.size)
    history = [rng.randrange(game.size) for _ in range(rng.randrange(4))]
    codes = game.codes
    secrets = [
        s for s in range(game.size)
        if all(score(game, codes[h], codes[s]) == score(game, codes[h], codes[secret]) for h in history)
    ]
    return history, secrets


@pytest.mark.parametrize("spec", ["bc:3:4", "bc:3:5", "mm:3:3", "mm:2:4"])
def test_classes_are_brute_force_orbits(spec):
    game = resolve_game(spec)
    codes, index = game.codes, game.code_index
    rng = random.Random(spec)
    cases = [_random_case(game, rng) for _ in range(20)]
    cases.append(([], list(range(game.size))))
    for history, secrets in cases:
        elements = _allowed(game, history, secrets)
        alive = set(secrets)
        for perm, sigma in elements:  # the group maps the secrets onto themselves
            assert {index[_act(perm, sigma, codes[s])] for s in secrets} == alive
        orbit_min = [min(index[_act(perm, sigma, codes[c])] for perm, sigma in elements) for c in range(game.size)]
        want = sorted(set(orbit_min))
        got = canonical_guesses(game, history, np.array(secrets))
        assert got.dtype == np.int32
        assert got.tolist() == want, (history, secrets)
        assert class_of(game, history, np.array(secrets)).tolist() == orbit_min
        reps, sizes = guess_classes(game, history, np.array(secrets))
        assert reps.tolist() == want
        assert sizes.tolist() == [orbit_min.count(r) for r in want]
        # equivalent guesses split the secrets alike and are alike possible or not
        for r in want:
            members = [c for c in range(game.size) if orbit_min[c] == r]
            shapes = {
                tuple(sorted(np.unique([score(game, codes[g], codes[s]) for s in secrets], return_counts=True)[1]))
                for g in members
            }
            assert len(shapes) == 1
            assert len({g in alive for g in members}) == 1


@pytest.mark.parametrize("spec", ["bc:3:5", "mm:3:4"])
def test_node_guesses_keep_answers_only_where_roles_decide(spec):
    """One NodeGuesses over many nodes, as a search uses it: answers it kept for one history's roles
    serve another's, and every answer is still the classes that class_minima finds code by code."""
    game = resolve_game(spec)
    node = NodeGuesses(game)
    rng = random.Random(spec)
    cases = [_random_case(game, rng) for _ in range(80)]
    for history, secrets in cases + cases:
        reps, _ = guess_classes(game, history, np.array(secrets))
        assert node(history, np.array(secrets)).tolist() == reps.tolist(), (history, secrets)
    # the kept answers were shared: fewer role vectors than nodes without a position symmetry
    assert 0 < len(node._by_roles) < len(cases)


def test_secrets_none_means_every_code():
    game = resolve_game("bc:3:5")
    history = [parse_code(game, "012")]
    assert canonical_guesses(game, history).tolist() == canonical_guesses(
        game, history, np.arange(game.size)
    ).tolist()


def test_bulls_cows_root_and_depth_one():
    game = resolve_game("bulls-cows")
    assert canonical_guesses(game).tolist() == [0]
    reps, sizes = guess_classes(game)
    assert reps.tolist() == [0] and sizes.tolist() == [5040]
    after = canonical_guesses(game, [parse_code(game, "0123")])
    assert len(after) == 20  # NOTES-search.md: 20 distinct guesses at depth 1
    reps, sizes = guess_classes(game, [parse_code(game, "0123")])
    assert reps.tolist() == after.tolist() and sizes.sum() == 5040
    # seed 001's own enumeration after 0123: 209 codes (its table, second guess)
    assert len(fresh_symbol_guesses(game, [parse_code(game, "0123")])) == 209


def test_classes_split_alike_in_bulls_cows():
    game = resolve_game("bulls-cows")
    table = feedback_table(game)
    history = [parse_code(game, "0123"), parse_code(game, "4561")]
    secrets = np.arange(game.size, dtype=np.int32)
    secret = parse_code(game, "5164")
    for h in history:
        secrets = secrets[table[h, secrets] == table[h, secret]]
    minima = class_of(game, history, secrets)
    reps = canonical_guesses(game, history, secrets)
    assert 1 < len(reps) < game.size
    shape = {}
    for g in range(game.size):
        counts = tuple(np.bincount(table[g, secrets], minlength=25))
        assert shape.setdefault(int(minima[g]), counts) == counts


def test_mastermind_root():
    game = resolve_game("mastermind")
    # five kinds of opening: 1111 1112 1122 1123 1234
    assert [format_code(game, c) for c in canonical_guesses(game)] == ["1111", "1112", "1122", "1123", "1234"]


# -- sets up to the whole group (the memo by orbit) ------------------------------------------------------


def _orbit_of_set(game, secrets):
    """Every image of a set under every position and symbol permutation, by brute force."""
    index = game.code_index
    out = set()
    for perm in itertools.permutations(range(game.positions)):
        for sigma in itertools.permutations(range(game.symbols)):
            out.add(tuple(sorted(index[_act(perm, sigma, game.codes[c])] for c in secrets)))
    return out


@pytest.mark.parametrize("spec", ["bc:3:4", "bc:3:5", "mm:3:3", "mm:2:4", "mm:4:2"])
def test_set_orbits_against_the_brute_force_group(spec):
    """SetOrbits.element finds an element exactly when the brute-force group has one, the element maps the
    one set onto the other, and equivalent sets share a key."""
    game = resolve_game(spec)
    orbits = SetOrbits(game)
    rng = random.Random(spec)
    seen = {"equivalent": 0, "not": 0}
    for _ in range(60):
        n = rng.randint(3, min(12, game.size - 1))
        source = sorted(rng.sample(range(game.size), n))
        orbit = _orbit_of_set(game, source)
        # a target in the orbit half of the time, else any set of the same size (rarely in it)
        target = sorted(rng.choice(sorted(orbit))) if rng.random() < 0.5 else sorted(rng.sample(range(game.size), n))
        a, b = np.array(source, dtype=np.int32), np.array(target, dtype=np.int32)
        found = orbits.element(a, b)
        equivalent = tuple(target) in orbit
        seen["equivalent" if equivalent else "not"] += 1
        assert (found is not None) == equivalent, (source, target)
        if equivalent:
            assert orbits.key(a) == orbits.key(b)
            perm, sigma = found
            image = sorted(game.code_index[tuple(int(sigma[game.codes[c][perm[j]]]) for j in range(game.positions))]
                           for c in source)
            assert image == target
    assert seen["equivalent"] > 10 and seen["not"] > 10, seen


def test_set_orbits_key_tells_apart_sets_of_other_counts():
    """Sets whose symbol counts differ get different keys (the key is those counts up to the group)."""
    game = resolve_game("bulls-cows")
    orbits = SetOrbits(game)
    a = np.array(sorted(parse_code(game, c) for c in ("0123", "0124", "0125")), dtype=np.int32)
    b = np.array(sorted(parse_code(game, c) for c in ("0123", "0124", "0156")), dtype=np.int32)
    c = np.array(sorted(parse_code(game, c) for c in ("4567", "4568", "4569")), dtype=np.int32)
    assert orbits.key(a) != orbits.key(b)
    assert orbits.key(a) == orbits.key(c)
    assert orbits.element(a, b) is None
    assert orbits.element(a, c) is not None
