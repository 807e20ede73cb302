"""The brute-force optimum the tests compare the exact search and the coach with: a plain recursion over every
guess, with no symmetry and no bounds, for games of a few dozen codes.

``optimum(codes, hint, win)`` takes the codes (any hashable values), ``hint(guess, secret)`` (any hashable
value, from a scorer the test writes from the game's definition) and the winning hint; it returns ``best(S)``,
the least total guesses that finish the frozenset S (the next guess counted), and ``move(S, g)``, the least
total when g is played first (None for a guess that splits nothing and is not in S: it never helps).
"""

from __future__ import annotations

from functools import cache


def optimum(codes, hint, win):
    codes = list(codes)

    @cache
    def best(s: frozenset) -> int:
        if len(s) == 1:
            return 1
        return min(v for g in codes if (v := move(s, g)) is not None)

    @cache
    def move(s: frozenset, g) -> int | None:
        classes: dict = {}
        for x in s:
            classes.setdefault(hint(g, x), []).append(x)
        if len(classes) == 1 and win not in classes:
            return None  # no information: never part of an optimal strategy, and would loop
        return len(s) + sum(best(frozenset(c)) for h, c in classes.items() if h != win)

    return best, move
