"""``python -m treegen.cli``: the ``treegen`` command, as ``python -m treegen`` (scripts and tests run it so)."""

from . import run

if __name__ == "__main__":
    run()
