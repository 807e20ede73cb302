"""Derive the shipped word lists (treegen/words/) from Debian's `wamerican` package (SCOWL, size 50).

    python scripts/word_lists.py            # downloads wamerican with apt-get, writes treegen/words/*.txt
    python scripts/word_lists.py --check    # the same into a scratch folder, compared byte for byte
    python scripts/word_lists.py --dict /usr/share/dict/american-english   # a dictionary already installed

The lists: every word of the dictionary written in lower-case letters a-z alone (no proper nouns, no
apostrophes, no accents), upper-cased, sorted, once each:

- word-mastermind.txt: the words of 4 letters, all different (Word Mastermind as Bulls and Cows with words);
- words5.txt: the words of 5 letters (for the five-letter games);
- word-mastermind-N.txt: N words of word-mastermind.txt drawn by random.Random(N) (SAMPLES), sorted: lists
  small enough for the exact search (scripts/word_curve.py draws the same).

SCOWL's licence allows copying and redistribution with its notice, which is copied beside the lists
(LICENSE-SCOWL, from the package's copyright file), with the package's name and version (SOURCE).
"""

from __future__ import annotations

import argparse
import filecmp
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

PACKAGE = "wamerican"
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "treegen", "words")


# Samples of word-mastermind's list whose least total is proved and shipped (trees/), the same samples
# scripts/word_curve.py solves: sorted(random.Random(n).sample(list, n)).
SAMPLES = (400,)


def lists(words: list[str]) -> dict[str, list[str]]:
    four = sorted({w.upper() for w in words if re.fullmatch("[a-z]{4}", w) and len(set(w)) == 4})
    five = sorted({w.upper() for w in words if re.fullmatch("[a-z]{5}", w)})
    out = {"word-mastermind.txt": four, "words5.txt": five}
    for n in SAMPLES:
        out[f"word-mastermind-{n}.txt"] = sorted(random.Random(n).sample(four, n))
    return out


def fetch(scratch: str) -> tuple[str, str, str]:
    """The dictionary, the copyright file and the package's version, from `apt-get download`."""
    subprocess.run(["apt-get", "download", PACKAGE], cwd=scratch, check=True, capture_output=True)
    deb = glob.glob(os.path.join(scratch, f"{PACKAGE}_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(scratch, "x")], check=True)
    version = os.path.basename(deb).split("_")[1]
    root = os.path.join(scratch, "x", "usr", "share")
    return (os.path.join(root, "dict", "american-english"), os.path.join(root, "doc", PACKAGE, "copyright"), version)


def write(folder: str, dictionary: str, copyright_file: str | None, version: str) -> None:
    with open(dictionary, encoding="utf-8") as f:
        words = [line.strip() for line in f]
    os.makedirs(folder, exist_ok=True)
    for name, found in lists(words).items():
        with open(os.path.join(folder, name), "w", encoding="ascii", newline="\n") as f:
            f.write("".join(w + "\n" for w in found))
    if copyright_file:
        shutil.copyfile(copyright_file, os.path.join(folder, "LICENSE-SCOWL"))
    with open(os.path.join(folder, "SOURCE"), "w", encoding="ascii") as f:
        f.write(f"Debian package {PACKAGE} {version} (SCOWL size 50, American English): /usr/share/dict/american-english\n"
                "derived by scripts/word_lists.py; licence: LICENSE-SCOWL (the package's copyright file)\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="derive into a scratch folder and compare with treegen/words/")
    ap.add_argument("--dict", help="a dictionary file to read instead of downloading the package (no licence copied)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        if args.dict:
            dictionary, copyright_file, version = args.dict, None, "(given file)"
        else:
            dictionary, copyright_file, version = fetch(scratch)
        folder = os.path.join(scratch, "out") if args.check else OUT
        write(folder, dictionary, copyright_file, version)
        if args.check:
            differ = [n for n in sorted(os.listdir(folder)) if not filecmp.cmp(os.path.join(folder, n), os.path.join(OUT, n), shallow=False)]
            for n in sorted(os.listdir(folder)):
                print(f"{'DIFFERS' if n in differ else 'same'}  {n}")
            return 1 if differ else 0
    for name in sorted(os.listdir(OUT)):
        print(f"{name}: {sum(1 for _ in open(os.path.join(OUT, name), encoding='utf-8'))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
