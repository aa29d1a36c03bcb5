#!/usr/bin/env python3
"""The recall benchmark's runner (bench/recall/run.sh calls it; stdlib only).

Reads the case files (cases.tsv, heldout.tsv, pairs.tsv; $CASES alone when set). For each case
whose export is in .cache/<owner>+<name>@<12-hex leaky commit>/ (the whole tree at the leaky
commit), runs `sealint --format json --config <empty .sealint.toml> --extend-select ALL <path>`
from the export's root, as a user runs it (project scope: the file sees what it imports from its
tree), and marks the case FOUND when a finding of the expected rule lies in the same scope as the
expected line (scoring.py). Prints recall per set, then per rule and per shape with one column
per set (tuned, heldout, tuning, retired, validation), then the seconds per repository, then the
missed cases of every set but `validation` (a `retired` half's are listed like tuning's): the
validation half's misses are counted, never listed, so that no one tunes to them.

$OUT, when set, receives one line per case (set repo path line rule shape FOUND/MISSED found_at);
validation rows say only FOUND or MISSED. $CASES names one case file with the same columns."""
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tsv import read_tsv  # noqa: E402
from scoring import scope_function, finding_counts, lint_file, print_recall_table  # noqa: E402

# The case files and the set a row of each belongs to when it has no `split` column: cases.tsv
# and heldout.tsv were both read and tuned to; pairs.tsv says per row (tuning, retired or
# validation). `retired` is an old validation half, reported often enough to be read now: it is
# counted in its own column and its misses are listed like tuning's. Only `validation` is hidden.
CASE_FILES = (("cases.tsv", "tuned"), ("heldout.tsv", "heldout"), ("pairs.tsv", None))
SET_ORDER = ("tuned", "heldout", "tuning", "retired", "validation")
HIDDEN = "validation"


def resolve(name):
    if os.path.isabs(name) or os.path.isfile(name):
        return os.path.abspath(name)
    return os.path.join(HERE, "..", "..", name)


def load_cases():
    """(cases, error): every case with its `set`, from $CASES or the three files."""
    name = os.environ.get("CASES")
    files = [(resolve(name), None)] if name else [
        (os.path.join(HERE, f), s) for f, s in CASE_FILES if os.path.isfile(os.path.join(HERE, f))]
    if name and not os.path.isfile(files[0][0]):
        return None, f"run.py: no case file at {name}"
    cases = []
    for path, default_set in files:
        for c in read_tsv(path):
            c["set"] = c.get("split") or default_set or os.path.basename(path)[:-4]
            cases.append(c)
    return cases, None


def score(cases, binary):
    """[(case, status, found_at)] and the seconds sealint took per repository."""
    results = []
    seconds = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, ".sealint.toml")
        open(config, "w").close()  # empty: default options; --extend-select ALL turns every rule on
        findings_of = {}
        for c in cases:
            export = os.path.join(HERE, ".cache",
                                  c["repo"].replace("/", "+") + "@" + c["leaky_commit"][:12])
            path = c["path"]
            if not os.path.isfile(os.path.join(export, path)):
                results.append((c, "NO-EXPORT", ""))
                continue
            key = (export, path)
            if key not in findings_of:
                start = time.monotonic()
                findings_of[key] = lint_file(binary, config, export, path)
                seconds[c["repo"]] += time.monotonic() - start
            scope = scope_function(os.path.join(export, path))
            hits = [f for f in findings_of[key]
                    if f["rule"] == c["rule"] and finding_counts(scope, f, c["line"])]
            if hits:
                best = min(hits, key=lambda f: abs(int(f["range"]["start"]["line"])
                                                   - int(c["line"].split(":")[-1])))
                at = best["range"]["start"]
                results.append((c, "FOUND", (f"{at['cell']}:" if "cell" in at else "")
                                + str(at["line"])))
            else:
                results.append((c, "MISSED", ""))
    return results, seconds


def main():
    binary = sys.argv[1]
    cases, error = load_cases()
    if error:
        print(error, file=sys.stderr)
        return 2
    results, seconds = score(cases, binary)

    out = os.environ.get("OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("set\trepo\tpath\tline\trule\tshape\tstatus\tfound_at\n")
            for c, status, at in results:
                f.write("\t".join([c["set"], c["repo"], c["path"], c["line"], c["rule"],
                                   c["shape"], status, "" if c["set"] == HIDDEN else at]) + "\n")

    scored = [r for r in results if r[1] != "NO-EXPORT"]
    missing = sorted({c["repo"] + "@" + c["leaky_commit"][:12]
                      for c, s, _ in results if s == "NO-EXPORT"})
    sets = [s for s in SET_ORDER if any(c["set"] == s for c, _, _ in results)]
    sets += sorted({c["set"] for c, _, _ in results} - set(sets))
    print(f"sealint: {binary}")
    print(f"cases: {len(scored)} of {len(cases)} scored, from "
          f"{len({c['repo'] for c, _, _ in scored})} repositories"
          + (f" (not exported: {', '.join(missing)}; run bench/recall/fetch.sh)"
             if missing else ""))
    print_recall_table("rule", "rule", scored, sets)
    print_recall_table("shape", "shape", scored, sets)

    print()
    print(f"seconds per repository (sealint, one run per file): total "
          f"{sum(seconds.values()):.1f}, slowest:")
    for repo, s in seconds.most_common(5):
        print(f"  {s:7.1f}  {repo}")

    missed = [(c, a) for c, s, a in scored if s == "MISSED" and c["set"] != HIDDEN]
    hidden = sum(1 for c, s, _ in scored if s == "MISSED" and c["set"] == HIDDEN)
    print()
    print(f"missed: {len(missed)}" + (f" (and {hidden} of the {HIDDEN} half, not listed: they are "
                                      "not read or tuned to)" if hidden else ""))
    for c, _ in missed:
        print(f"  {c['set']:<8} {c['rule']}  {c['shape']:<12} {c['repo']}@{c['leaky_commit'][:12]}"
              f"  {c['path']}:{c['line']}  {c['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
