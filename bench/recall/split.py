#!/usr/bin/env python3
"""Splits the rows of bench/recall/pairs.tsv that have no `split` yet into `tuning` and
`validation`, once, at random with the seed the file's header comment names (`# split seed: N`),
by repository (all rows of one repository fall in the same half), and writes the file back. Rows
already split keep their half: a row never moves.

The validation half is measured, never read: bench/recall/run.sh counts its misses without
listing them. When a validation half has been reported three times, the next batch of new pairs
(at least 30) becomes the next validation half: add them without a split and run this again.

Usage: bench/recall/split.py [PAIRS_TSV]"""
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "pairs.tsv")
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    comments = [l for l in lines if l.startswith("#")]
    seed = next((int(m.group(1)) for l in comments
                 if (m := re.match(r"#\s*split seed:\s*(\d+)", l))), None)
    if seed is None:
        print(f"split.py: {path} has no `# split seed: N` line", file=sys.stderr)
        return 2
    body = [l for l in lines if l.strip() and not l.startswith("#")]
    header = body[0].split("\t")
    col = header.index("split")
    rows = [l.split("\t") for l in body[1:]]
    for r in rows:
        r += [""] * (len(header) - len(r))
    new = [r for r in rows if not r[col]]
    # By repository, so that a fix read in the tuning half never shows the validation half a
    # neighbour of the same code.
    repos = sorted({r[0] for r in new})
    random.Random(seed + len(rows) - len(new)).shuffle(repos)
    half = {}
    taken = 0
    for repo in repos:
        n = sum(1 for r in new if r[0] == repo)
        half[repo] = "validation" if taken < len(new) / 2 else "tuning"
        taken += n if half[repo] == "validation" else 0
    for r in new:
        r[col] = half[r[0]]
    with open(path, "w", encoding="utf-8") as f:
        for c in comments:
            f.write(c + "\n")
        f.write("\t".join(header) + "\n")
        for r in sorted(rows, key=lambda r: (r[0], r[1], r[3], r[4])):
            f.write("\t".join(r) + "\n")
    print(f"split {len(new)} new rows of {len(rows)} (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
