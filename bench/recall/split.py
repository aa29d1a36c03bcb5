#!/usr/bin/env python3
"""Gives the rows of bench/recall/pairs.tsv that have no `split` yet their half, and writes the
file back. Rows already split keep their half, but for the retiring below.

The first batch (2026-11-27) was split once into `tuning` and `validation`, at random by
repository with the seed that the file's header comment names (`# split seed: N`), so that a fix
read in the tuning half never shows the validation half a neighbour of the same code.

Since then a new batch becomes the validation half whole, with no draw: when a validation half
has been reported three times, the next batch of new pairs (at least 30, from repositories not in
bench/ yet) is added without a split and this script is run with --retire. It relabels every
`validation` row `retired` (run.py counts them in their own column and lists their misses, like
tuning's) and labels every unsplit row `validation` (run with --retire alone first, the old half
is retired before the new rows are added). Without --retire, unsplit rows are refused while a
validation half is live. The validation half is measured, never read:
bench/recall/run.sh counts its misses without listing them.

Usage: bench/recall/split.py [--retire] [PAIRS_TSV]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = sys.argv[1:]
    retire = "--retire" in args
    args = [a for a in args if a != "--retire"]
    path = args[0] if args else os.path.join(HERE, "pairs.tsv")
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    comments = [l for l in lines if l.startswith("#")]
    body = [l for l in lines if l.strip() and not l.startswith("#")]
    header = body[0].split("\t")
    col = header.index("split")
    rows = [l.split("\t") for l in body[1:]]
    for r in rows:
        r += [""] * (len(header) - len(r))
    new = [r for r in rows if not r[col]]
    live = [r for r in rows if r[col] == "validation"]
    if not new and not retire:
        print("split.py: no unsplit rows")
        return 0
    if new and live and not retire:
        print(f"split.py: {len(live)} rows are still the validation half; pass --retire to "
              "relabel them `retired` before the new batch becomes the validation half",
              file=sys.stderr)
        return 2
    for r in live:
        r[col] = "retired"
    # The new batch is the validation half whole (README): no draw, no tuning share.
    for r in new:
        r[col] = "validation"
    with open(path, "w", encoding="utf-8") as f:
        for c in comments:
            f.write(c + "\n")
        f.write("\t".join(header) + "\n")
        for r in sorted(rows, key=lambda r: (r[0], r[1], r[3], r[4])):
            f.write("\t".join(r) + "\n")
    print(f"retired {len(live)} rows; the {len(new)} new rows of {len(rows)} are the validation "
          "half")
    return 0


if __name__ == "__main__":
    sys.exit(main())
