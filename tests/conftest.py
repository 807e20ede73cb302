"""Shared test helper: a naive scorer written from the definition, independent of treegen.rules.score."""

import pytest


def _naive_bulls_cows(guess, secret):
    """(bulls, cows) of ``guess`` against ``secret`` (any equal-length sequences of symbols).

    Bulls are the positions that agree; cows are the common symbols counted with multiplicity
    (the smaller of the two counts of each symbol), minus the bulls.
    """
    assert len(guess) == len(secret)
    bulls = 0
    for i in range(len(guess)):
        if guess[i] == secret[i]:
            bulls += 1
    common = 0
    for symbol in set(guess):
        in_guess = 0
        for x in guess:
            if x == symbol:
                in_guess += 1
        in_secret = 0
        for x in secret:
            if x == symbol:
                in_secret += 1
        common += in_guess if in_guess < in_secret else in_secret
    return bulls, common - bulls


@pytest.fixture(scope="session")
def naive():
    """The naive (bulls, cows) scorer."""
    return _naive_bulls_cows


@pytest.fixture(scope="session")
def naive_split(naive):
    """split(codes, g, secrets): the classes (lists, by naive hint) that guess g splits ``secrets`` into, the
    secret g itself left out (it is solved); None when g learns nothing (one class, and g not a secret)."""

    def split(codes, g, secrets):
        classes: dict = {}
        for s in secrets:
            if s != g:
                classes.setdefault(naive(codes[g], codes[s]), []).append(s)
        if len(classes) == 1 and g not in secrets:
            return None
        return list(classes.values())

    return split
