#!/usr/bin/env python3
"""The census's runner (bench/census/run.sh calls it; stdlib only).

census.tsv lists every leak found by reading the training, evaluation and inference loops of
some of bench/corpus's repositories, before sealint was run on them; read.tsv lists the
repositories censused and how many loops were read in each. For each leak, runs sealint on its
file in the corpus export (bench/corpus/.cache/<owner>+<name>/, at the manifest's commit, which
must be the census's) as a user runs it, and counts it FOUND when a finding of the expected rule
stands in the same scope (bench/lib/scoring.py). Prints recall per rule, per shape and per
repository, the seconds, and every missed leak. $OUT receives one line per leak."""
import collections
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tsv import read_tsv  # noqa: E402
from scoring import scope_function, finding_counts, lint_file, print_recall_table  # noqa: E402

CORPUS = os.path.join(HERE, "..", "corpus")


def main():
    binary = sys.argv[1]
    leaks = read_tsv(os.path.join(HERE, "census.tsv"))
    pinned = {m["repo"]: m["commit"] for m in read_tsv(os.path.join(CORPUS, "manifest.tsv"))}
    results = []
    problems = set()
    seconds = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, ".sealint.toml")
        open(config, "w").close()
        findings_of = {}
        for leak in leaks:
            leak["set"] = "census"
            export = os.path.join(CORPUS, ".cache", leak["repo"].replace("/", "+"))
            if pinned.get(leak["repo"]) != leak["commit"]:
                problems.add(f"{leak['repo']}: census commit {leak['commit'][:12]} is not the "
                             "manifest's")
                continue
            if not os.path.isfile(os.path.join(export, leak["path"])):
                problems.add(f"{leak['repo']}: not exported (run bench/corpus/fetch.sh)")
                continue
            key = (export, leak["path"])
            if key not in findings_of:
                start = time.monotonic()
                findings_of[key] = lint_file(binary, config, export, leak["path"])
                seconds[leak["repo"]] += time.monotonic() - start
            scope = scope_function(os.path.join(export, leak["path"]))
            found = any(f["rule"] == leak["rule"] and finding_counts(scope, f, leak["line"])
                        for f in findings_of[key])
            results.append((leak, "FOUND" if found else "MISSED", ""))

    out = os.environ.get("OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("repo\tpath\tline\trule\tshape\tstatus\n")
            for c, status, _ in results:
                f.write("\t".join([c["repo"], c["path"], c["line"], c["rule"], c["shape"],
                                   status]) + "\n")

    read = read_tsv(os.path.join(HERE, "read.tsv"))
    print(f"sealint: {binary}")
    print(f"census: {len(leaks)} leaks in {len(read)} repositories "
          f"({sum(int(r['loops_read']) for r in read)} loops read); {len(results)} scored")
    for p in sorted(problems):
        print(f"  not scored: {p}")
    print_recall_table("rule", "rule", results, ["census"])
    print_recall_table("shape", "shape", results, ["census"])
    print_recall_table("repository", "repo", results, ["census"])
    print()
    print(f"seconds per repository (sealint, one run per file): total "
          f"{sum(seconds.values()):.1f}")
    for repo, sec in seconds.most_common():
        print(f"  {sec:7.1f}  {repo}")
    missed = [c for c, s, _ in results if s == "MISSED"]
    print()
    print(f"missed: {len(missed)}")
    for c in missed:
        print(f"  {c['rule']}  {c['shape']:<12} {c['repo']}  {c['path']}:{c['line']}  {c['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
