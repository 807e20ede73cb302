"""The exact search's levers: :class:`Options`, the one record of them (the solver, the coordinator, a
checkpoint's key and the command all read these fields by these names)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules import Game


@dataclass(frozen=True)
class Options:
    """Search levers, each switchable for ablation measurements.

    ``symmetry``: one guess per class of equivalent guesses. ``lookahead``: the one-step lower bound per
    guess (off: a guess is bounded by |S| alone until its classes are split). ``ordering``: guesses
    best-first by that bound. ``memo``: remember solved sets (exact results are kept regardless, to
    rebuild the tree). ``two_phase``: raise every big class to its own least lookahead bound before any
    class is searched in depth. ``orbits``: a set the memo does not know is looked up by its orbit under
    the game's symmetry (see memo.SetOrbits), so that equivalent sets share one search (off without
    ``memo``, which it lives in); None (the default): on for games of more than ``ORBITS_MIN_CODES`` codes
    (see :func:`uses_orbits`). ``shares``: a guess searched once a better one is known gives each of its
    big classes a share of its slack first (see solver.share_slack).
    """

    symmetry: bool = True
    lookahead: bool = True
    ordering: bool = True
    memo: bool = True
    two_phase: bool = True
    orbits: bool | None = None
    shares: bool = True

    def resolved(self, game: Game) -> Options:
        """These options with ``orbits`` decided for ``game`` and the memo (what a search of it does, and
        records)."""
        return replace(self, orbits=uses_orbits(game, self.orbits, self.memo))


ORBITS_MIN_CODES = 2000
"""The memo by orbit is on by default only for games of more codes than this. On smaller games it saves
little and costs the first run its two kernels' compile: mastermind's search takes 5583 sets with it and
5605 without, in the same time (0.9 s either way, whole processes), while ``set_orbit_key`` and
``set_orbit_element`` take about 1.8 s of CPU to compile on an empty cache (scripts/first_run.py)."""


def uses_orbits(game: Game, orbits: bool | None, memo: bool = True) -> bool:
    """Whether a search of ``game`` uses the memo by orbit when asked for ``orbits`` (None: by size), with
    the ``memo`` on or off: the memo by orbit lives in the memo, so it is off without it."""
    if game.listed:
        return False  # a list game has no symmetry (symmetry.NodeGuesses), so no orbits either
    return memo and (game.size > ORBITS_MIN_CODES if orbits is None else orbits)
