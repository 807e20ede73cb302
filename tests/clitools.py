"""Running the treegen command from tests: as a process, or cli.main in-process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from treegen import cli

TREEGEN = shutil.which("treegen") or os.path.join(os.path.dirname(sys.executable), "treegen")


def run(*args: str, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The installed ``treegen`` script as a process, output captured as text."""
    return subprocess.run([TREEGEN, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def run_main(capsys, *args: str):
    """cli.main in-process: (exit status, stdout, stderr); argparse's SystemExit becomes a status."""
    try:
        status = cli.main(list(args))
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err
