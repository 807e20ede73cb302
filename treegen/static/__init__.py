"""The static game: the fewest guesses, all written down before any hint, whose hints name the secret.

Definitions
-----------
A **static set** for a game G is a list of k codes g_1..g_k whose hint vectors
(hint(g_1, s), ..., hint(g_k, s)) differ for every two secrets s. The **static number** static(G) is the
least such k. Played as a strategy, the k guesses are made in order whatever the hints (a guess that gets
the all-bulls hint ends the game); after the k hints exactly one secret is left and is guessed next.

Cost of a static set, and why ``--objective average`` has nothing to choose. In these games every code is
a possible secret, so the k guesses are k distinct secrets. The secret g_j is solved by guess j; every other
secret needs the k guesses and one more. For N secrets the total is therefore

    1 + 2 + ... + k  +  (N - k)(k + 1)  =  k(k + 1)/2 + (N - k)(k + 1),

the same for EVERY static set of size k, and the worst case is k + 1 (k when N = k). Among least-size sets
the "least total" objective is constant; :func:`static_total` gives it and the command reports it rather
than pretend to optimise it. (It would matter only in a variant where the player may stop reading hints
early, which is no longer static.)

Method (:func:`find_static`)
----------------------------
The search goes size by size from the counting bound up; at each size every symmetry case (below) is
decided by one of two independent methods, which must agree case by case (tests, and
``scripts/static_results.py --cross-check``):
- ``dfs`` (default): the compiled depth-first search of ``treegen.static.dfs`` (one more level of
  symmetry cases, a counting filter on each level's codes, and a pair filter for the last guess). It
  settles mastermind: no static set of 5 (all 153 cases that counting leaves open), so static = 6.
- ``cp-sat``: OR-Tools CP-SAT with lazy separation clauses, as follows.

CP-SAT model: a boolean x_c per code ("c is in the set"), sum x_c = k, and for a pair of secrets {a, b} the clause
OR{x_c : hint(c, a) != hint(c, b)} ("some chosen guess tells a from b"). There are N(N-1)/2 pairs (839k for
mastermind, 12.7M for bulls-cows), so they are added lazily: solve with the pairs known so far, group the
secrets by their hint vectors under the set found (numpy), add one clause per secret of each group of two
or more (the pair it makes with the group's first secret), and solve again. A set that separates every
pair is a static set; an infeasible subset of the clauses is a proof that no set of that size exists,
because every clause is a constraint of the full problem.

Symmetry breaking: the game's symmetry group (position permutations x symbol permutations,
``treegen.symmetry``) maps static sets to static sets and splits the codes into orbits, numbered in the
order of their smallest codes r_1 < r_2 < ... Every set has a least orbit i among its codes; a group element
maps one of its codes in orbit i onto r_i. So it is enough to solve, for each i, the case "r_i is in the
set and no code of an orbit before i is": one CP-SAT model per case with the variables of orbits >= i only
and with the clauses that r_i already satisfies dropped. Clauses found in one case are kept for the next.

Counting bounds (:func:`counting_bounds`), applied before any CP-SAT call, per case (with the codes the
case allows):
- plain: k guesses give at most h^k hint vectors (h = the number of hints that can occur), so h^k >= N;
- level 1: every class C of r_i (secrets giving r_i the same hint) must be separated by the other k - 1
  guesses; a guess c gives at most d(C) = max_c |{hint(c, s) : s in C}| distinct hints on C, so
  d(C)^(k-1) >= |C|;
- level 2: moreover some other guess c of the set splits C into classes C' (hints of c), each of which the
  remaining k - 2 guesses must separate: h^(k-2) >= max |C'|. The set is unknown, so take the c (among the
  codes the case allows) that makes this easiest.
A case whose bound exceeds k is closed without searching (either method); the least bound over the cases is a lower bound
for the game.

Determinism: the depth-first search returns the first set in a fixed order whatever the number of threads
(``treegen.static.dfs``); CP-SAT runs with a fixed seed and ``interleave_search`` (its deterministic
parallel mode), so its set depends only on the game, the size, the seed and the number of workers. The
cases are decided in order and the first one with a set gives it; the guesses are written in increasing
code order.

The checking code (``verify.check_static_tree``) needs only the standard library, so that
``treegen verify`` starts instantly; numpy and ortools are imported inside the functions that solve.
"""

from __future__ import annotations

from ..verify import static_total, static_worst
from .cases import (OBJECTIVES, Bounds, Case, CaseRecord, StaticError, counting_bounds, greedy_set, hint_count, is_static_set,
                    symmetry_cases, unseparated_pairs)
from .search import METHODS, StaticResult, decide_cases, find_static
from .tree import static_root, static_tree

__all__ = ["Bounds", "Case", "CaseRecord", "METHODS", "OBJECTIVES", "StaticError", "StaticResult", "counting_bounds",
           "decide_cases", "find_static", "greedy_set", "hint_count", "is_static_set", "static_root",
           "static_total", "static_tree", "static_worst", "symmetry_cases", "unseparated_pairs"]
