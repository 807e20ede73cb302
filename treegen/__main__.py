"""``python -m treegen``: the ``treegen`` command (see :mod:`treegen.cli`)."""

from .cli import run

if __name__ == "__main__":
    run()
