#!/usr/bin/env python3
"""The recall benchmark's runner (bench/recall/run.sh calls it; stdlib only).

For each row of cases.tsv whose export is in .cache/<owner>+<name>@<12-hex leaky commit>/, runs
`sealint --format json --config <empty .sealint.toml> --extend-select ALL <path>` from the
export's root, naming the one file as pre-commit would, and marks the case FOUND when a finding
of the expected rule lies in the same scope as the expected line: the innermost function (def)
that holds it, or, for code outside any function, the top-level statement that holds it (a
module-level loop). When the file cannot be parsed by this Python's `ast`, a finding within 3
lines of the expected one counts. Prints recall per rule and per shape, then every missed case.

$OUT, when set, receives one line per case (repo path line rule shape FOUND/MISSED found_at).
$CASES, when set, names another case file with the same columns (bench/recall/heldout.tsv); a
relative path is taken from the current directory, then from the repository root."""
import ast
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tsv import read_tsv  # noqa: E402
SLACK = 3


def scopes(path):
    """A function from a 1-based line to its scope key, or None when the file does not parse."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (SyntaxError, ValueError):
        return None
    funcs = []  # (start, end, key) of every def, innermost found by the smallest span
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            funcs.append((start, node.end_lineno, ("def", node.lineno)))
    tops = [(n.lineno, n.end_lineno, ("top", n.lineno)) for n in tree.body]

    def scope(line):
        inner = [f for f in funcs if f[0] <= line <= f[1]]
        if inner:
            return min(inner, key=lambda f: f[1] - f[0])[2]
        for t in tops:
            if t[0] <= line <= t[1]:
                return t[2]
        return ("line", line)

    return scope


def cases_path():
    """cases.tsv, or the file $CASES names (relative: from the current directory, else the root)."""
    name = os.environ.get("CASES")
    if not name:
        return os.path.join(HERE, "cases.tsv")
    if os.path.isabs(name) or os.path.isfile(name):
        return os.path.abspath(name)
    return os.path.join(HERE, "..", "..", name)


def main():
    binary = sys.argv[1]
    path_of_cases = cases_path()
    if not os.path.isfile(path_of_cases):
        print(f"run.py: no case file at {os.environ.get('CASES')}", file=sys.stderr)
        return 2
    cases = read_tsv(path_of_cases)
    results = []  # (case, status, found_at)
    missing = set()
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, ".sealint.toml")
        open(config, "w").close()  # empty: default options; --extend-select ALL turns every rule on
        findings_of = {}
        for c in cases:
            export = os.path.join(HERE, ".cache",
                                  c["repo"].replace("/", "+") + "@" + c["leaky_commit"][:12])
            path = c["path"]
            if not os.path.isfile(os.path.join(export, path)):
                missing.add(c["repo"] + "@" + c["leaky_commit"][:12])
                results.append((c, "NO-EXPORT", ""))
                continue
            key = (export, path)
            if key not in findings_of:
                cmd = [binary, "--format", "json", "--color", "never", "--config", config,
                       "--extend-select", "ALL", path]
                p = subprocess.run(cmd, cwd=export, capture_output=True, text=True)
                if p.returncode not in (0, 1, 2):
                    print(f"run.py: sealint exited {p.returncode} on {c['repo']} {path}:\n"
                          f"{p.stderr}", file=sys.stderr)
                try:
                    findings_of[key] = json.loads(p.stdout or "[]")
                except json.JSONDecodeError:
                    print(f"run.py: unreadable JSON from sealint on {c['repo']} {path}:\n"
                          f"{p.stderr}", file=sys.stderr)
                    findings_of[key] = []
            line = int(c["line"])
            scope = scopes(os.path.join(export, path))
            hits = []
            for f in findings_of[key]:
                if f["rule"] != c["rule"]:
                    continue
                fl = int(f["range"]["start"]["line"])
                if abs(fl - line) <= SLACK or (scope is not None and scope(fl) == scope(line)):
                    hits.append(fl)
            if hits:
                best = min(hits, key=lambda fl: abs(fl - line))
                results.append((c, "FOUND", str(best)))
            else:
                results.append((c, "MISSED", ""))

    out = os.environ.get("OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("repo\tpath\tline\trule\tshape\tstatus\tfound_at\n")
            for c, status, at in results:
                f.write("\t".join([c["repo"], c["path"], c["line"], c["rule"], c["shape"],
                                   status, at]) + "\n")

    scored = [(c, s, a) for c, s, a in results if s != "NO-EXPORT"]
    print(f"sealint: {binary}")
    if os.environ.get("CASES"):
        print(f"case file: {os.path.relpath(path_of_cases, os.path.join(HERE, '..', '..'))}")
    print(f"cases: {len(scored)} of {len(cases)} scored, from "
          f"{len({c['repo'] for c, _, _ in scored})} repositories"
          + (f" (not exported: {', '.join(sorted(missing))}; run bench/recall/fetch.sh)"
             if missing else ""))

    def table(title, key):
        counts = collections.defaultdict(collections.Counter)
        for c, s, _ in scored:
            counts[c[key]]["cases"] += 1
            counts[c[key]]["found"] += s == "FOUND"
        print()
        hdr = f"{title:<13} {'cases':>5} {'found':>5} {'recall':>7}"
        print(hdr)
        print("-" * len(hdr))
        tot = collections.Counter()
        for k in sorted(counts):
            n = counts[k]
            tot.update(n)
            print(f"{k:<13} {n['cases']:>5} {n['found']:>5} {n['found'] / n['cases']:>7.2f}")
        print("-" * len(hdr))
        if tot["cases"]:
            print(f"{'all':<13} {tot['cases']:>5} {tot['found']:>5} "
                  f"{tot['found'] / tot['cases']:>7.2f}")

    table("rule", "rule")
    table("shape", "shape")

    missed = [(c, s, a) for c, s, a in scored if s == "MISSED"]
    print()
    print(f"missed: {len(missed)}")
    for c, _, _ in missed:
        print(f"  {c['rule']}  {c['shape']:<12} {c['repo']}@{c['leaky_commit'][:12]}  "
              f"{c['path']}:{c['line']}  {c['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
