"""Exit statuses: the one list of them, for the command line and the interactive console alike.

Standard library only, so that every command (and ``play``, which returns a status) reads it for free.
"""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    """The exit statuses of every command (``EXIT_MEANINGS`` says what each means)."""

    OK = 0
    FALSE = 1
    USAGE = 2
    INTERNAL = 3
    STOPPED = 4  # static only (its own help says so): the search stopped before a proof
    SIGINT = 130
    SIGTERM = 143


EXIT_MEANINGS = {
    Exit.OK: "success",
    Exit.FALSE: "the tree is invalid, or what was asked is proved impossible",
    Exit.USAGE: "bad input (a malformed argument, file or hint; an output that cannot be written)",
    Exit.INTERNAL: "internal error (a bug: please report it)",
    Exit.SIGINT: "interrupted (Ctrl-C)",
    Exit.SIGTERM: "terminated (SIGTERM)",
}


__all__ = ["EXIT_MEANINGS", "Exit"]
