"""Derive the shipped word lists (treegen/words/) from Debian's `wamerican` package (SCOWL, size 50).

    python scripts/word_lists.py            # downloads wamerican with apt-get, writes treegen/words/*.txt
    python scripts/word_lists.py --check    # the same into a scratch folder, compared byte for byte
    python scripts/word_lists.py --dict /usr/share/dict/american-english   # a dictionary already installed

The lists: every word of the dictionary written in lower-case letters a-z alone (no proper nouns, no
apostrophes, no accents), upper-cased, sorted, once each:

- word-mastermind.txt: the words of 4 letters, all different (Word Mastermind as Bulls and Cows with words);
- words5.txt: the words of 5 letters (for the five-letter games);
- word-mastermind-N.txt: N words of word-mastermind.txt drawn by random.Random(N) (SAMPLES), sorted: lists
  small enough for the exact search (scripts/word_curve.py draws the same);
- jotto-common.txt: the JOTTO_COMMON most common words of words5.txt with five different letters (Jotto's
  classic words), by wordfreq's English frequencies (``pip install wordfreq``; ties by the word), sorted: a
  common-word list small enough for Jotto's exact optimum. wordfreq's data is under CC BY-SA 4.0, so this
  list is offered under it too (LICENSE-wordfreq), besides SCOWL's terms.

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
SAMPLES = (400, 1000, 1200)
JOTTO_COMMON = 300
WORDFREQ = "3.1.1"  # the version whose frequencies chose jotto-common.txt


def lists(words: list[str]) -> dict[str, list[str]]:
    four = sorted({w.upper() for w in words if re.fullmatch("[a-z]{4}", w) and len(set(w)) == 4})
    five = sorted({w.upper() for w in words if re.fullmatch("[a-z]{5}", w)})
    out = {"word-mastermind.txt": four, "words5.txt": five}
    for n in SAMPLES:
        out[f"word-mastermind-{n}.txt"] = sorted(random.Random(n).sample(four, n))
    out["jotto-common.txt"] = common([w for w in five if len(set(w)) == 5], JOTTO_COMMON)
    return out


def common(words: list[str], n: int) -> list[str]:
    """The n most frequent of ``words`` in English by wordfreq (its Zipf frequency; ties by the word), sorted."""
    try:
        import wordfreq
    except ImportError:
        sys.exit("word_lists.py: jotto-common.txt needs wordfreq: pip install wordfreq==" + WORDFREQ)
    from importlib.metadata import version

    if version("wordfreq") != WORDFREQ:
        sys.exit(f"word_lists.py: jotto-common.txt was chosen by wordfreq {WORDFREQ}, not {version('wordfreq')}: "
                 f"pip install wordfreq=={WORDFREQ}")
    ranked = sorted(words, key=lambda w: (-wordfreq.zipf_frequency(w.lower(), "en"), w))
    return sorted(ranked[:n])


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
                "derived by scripts/word_lists.py; licence: LICENSE-SCOWL (the package's copyright file)\n"
                f"jotto-common.txt: its words chosen by the English frequencies of wordfreq {WORDFREQ} (PyPI; "
                "https://github.com/rspeer/wordfreq); licence: LICENSE-wordfreq\n")
    with open(os.path.join(folder, "LICENSE-wordfreq"), "w", encoding="ascii") as f:
        f.write(WORDFREQ_NOTICE)


WORDFREQ_NOTICE = f"""jotto-common.txt: the words are SCOWL's (LICENSE-SCOWL); which of them are listed was decided by
their English word frequencies in wordfreq {WORDFREQ} by Robyn Speer (https://github.com/rspeer/wordfreq),
whose code is under the Apache License 2.0 and whose data files are under the Creative Commons
Attribution-ShareAlike 4.0 licence (https://creativecommons.org/licenses/by-sa/4.0/). As a work made
with that data, jotto-common.txt is offered under CC BY-SA 4.0 as well, with this attribution.
"""


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
