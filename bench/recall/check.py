#!/usr/bin/env python3
"""Checks bench/recall's case files against the mirrored histories (stdlib and git only).

For every row: the fix commit is in the mirror, the leaky commit is its first parent, the path is
a file at the leaky commit, and the line (`C:L` in a notebook) lies inside it; no fix commit is
listed twice; at most three rows come from one repository in pairs.tsv; the rule and shape are
known. Prints each problem and exits 1 when there is one.

Usage: bench/recall/check.py [CASE_FILE...]   (default: cases.tsv, heldout.tsv, pairs.tsv)
       MIRROR=/work/.mirror (where the search tool's `fetch` leaves each repository)"""
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tsv import read_tsv  # noqa: E402

RULES = {f"SL{n:03d}" for n in range(1, 13)}
SHAPES = {"loop", "hook", "forward", "cross-method", "cross-file", "tf1-per-call", "keras",
          "notebook", "cpp", "other"}
MAX_PER_REPO = 3


def git_dir(repo):
    base = os.path.join(os.environ.get("MIRROR", "/work/.mirror"), repo.replace("/", "+"))
    for root, dirs, files in os.walk(base):
        if "HEAD" in files and "objects" in dirs and "refs" in dirs:
            return root
        if root.count(os.sep) - base.count(os.sep) >= 3:
            dirs[:] = []
    return None


def git(gitdir, *args):
    p = subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True)
    return p.stdout if p.returncode == 0 else None


def line_count(blob, path):
    if path.endswith(".ipynb"):
        cells = json.loads(blob).get("cells", [])
        return {i: len("".join(c.get("source", "")).split("\n")) for i, c in enumerate(cells, 1)}
    return blob.count(b"\n") + 1


def check_row(row):
    """The problems of one row, as strings."""
    gitdir = git_dir(row["repo"])
    if gitdir is None:
        return ["no mirror (fetch it: github:" + row["repo"] + ")"]
    problems = []
    if row["rule"] not in RULES:
        problems.append(f"unknown rule {row['rule']}")
    if row["shape"] not in SHAPES:
        problems.append(f"unknown shape {row['shape']}")
    parents = git(gitdir, "rev-parse", row["fix_commit"] + "^1")
    if parents is None:
        return problems + [f"fix commit {row['fix_commit'][:12]} not in the mirror"]
    if parents.decode().strip() != row["leaky_commit"]:
        problems.append(f"leaky commit is not the fix's first parent ({parents.decode()[:12]})")
    blob = git(gitdir, "show", f"{row['leaky_commit']}:{row['path']}")
    if blob is None:
        return problems + [f"{row['path']} is not a file at the leaky commit"]
    try:
        lines = line_count(blob, row["path"])
        if isinstance(lines, dict):
            cell, line = (int(x) for x in row["line"].split(":"))
            if cell not in lines or not 1 <= line <= lines[cell]:
                problems.append(f"cell {cell} line {line} is not in the notebook")
        elif not 1 <= int(row["line"]) <= lines:
            problems.append(f"line {row['line']} is past the file's {lines} lines")
    except (ValueError, json.JSONDecodeError) as e:
        problems.append(f"unreadable line or notebook: {e}")
    return problems


def main():
    files = sys.argv[1:] or [os.path.join(HERE, f) for f in ("cases.tsv", "heldout.tsv",
                                                             "pairs.tsv")
                             if os.path.isfile(os.path.join(HERE, f))]
    bad = 0
    seen = {}
    for path in files:
        rows = read_tsv(path)
        per_repo = collections.Counter(r["repo"] for r in rows)
        if os.path.basename(path) == "pairs.tsv":
            for repo, n in per_repo.items():
                if n > MAX_PER_REPO:
                    print(f"{path}: {repo} has {n} rows (at most {MAX_PER_REPO})")
                    bad += 1
        for row in rows:
            key = (row["fix_commit"], row["path"], row["line"])
            if key in seen:
                print(f"{path}: {row['repo']} {row['path']}:{row['line']} is listed twice "
                      f"(also in {seen[key]})")
                bad += 1
            seen[key] = os.path.basename(path)
            for problem in check_row(row):
                print(f"{os.path.basename(path)}: {row['repo']} {row['fix_commit'][:12]} "
                      f"{row['path']}:{row['line']}: {problem}")
                bad += 1
    print(f"checked {len(seen)} rows of {len(files)} files: {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
