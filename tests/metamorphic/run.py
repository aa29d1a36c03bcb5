"""The metamorphic suite (GENERALIZE.md): rewrites that keep a file's meaning must keep its
findings. For every Python fixture and example, and every transformation of transform.py that
applies to it, sealint runs on the original and on the rewrite, each alone in a folder of its own
under the same file name; the findings must agree:
- `rename` keeps lines, so the findings must be the same (rule, line) pairs;
- the structural rewrites move lines, so each rule must be reported as many times.
A pair listed in exceptions.tsv must differ; one that no longer differs is reported too, so that
the list only shrinks. Its reason says which of two it is: a finding that rests on a name that is
the API (a framework's hook, a library's field), or, with the prefix `open:`, a gap of the
analysis not closed yet (a fact still taken from a name where structure should give it).

Usage: run.py SEALINT SOURCE_DIR [--transform NAME] [--file SUBSTRING] [--write-gaps]
Exit 0 when every file is invariant or listed; 1 otherwise. --write-gaps rewrites the `open:`
lines of exceptions.tsv from this run (what each pair loses and gains), keeping the others: the
diff of the file then shows what a change closed or opened.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import transform  # noqa: E402

EXCEPTIONS = pathlib.Path(__file__).resolve().parent / "exceptions.tsv"


def findings(sealint, folder, name, source):
    path = folder / name
    path.write_text(source, encoding="utf-8")
    run = subprocess.run(
        [sealint, name, "--format", "json", "--no-cache", "--show-suppressed"],
        cwd=folder, capture_output=True, text=True, timeout=300,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder)})
    if run.returncode not in (0, 1):
        raise RuntimeError(f"sealint exited {run.returncode} on {name}: {run.stderr.strip()}")
    return [(f["rule"], f["range"]["start"]["line"]) for f in json.loads(run.stdout)
            if f["rule"] is not None]


def inputs(source_dir):
    files = sorted((source_dir / "fixtures" / "python").glob("*.py"))
    files += sorted((source_dir / "examples").glob("*.py"))
    return files


def load_exceptions():
    listed = {}
    for line in EXCEPTIONS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not fields[2].strip():
            raise SystemExit(f"exceptions.tsv: want file<TAB>transformation<TAB>reason: {line!r}")
        listed[(fields[0], fields[1])] = fields[2]
    return listed


WHY = {
    "rename": "a kind, a loop or a step still taken from a name the file chose",
    "for_to_next": "a loop advanced with next() in a while is not followed as the for loop was",
    "body_to_helper": "what the step does is not followed through the helper it moved into",
}


def write_gaps(listed, found, names, files):
    """exceptions.tsv with the `open:` lines of the transformations and files run replaced by
    what this run found; API lines and other runs' lines are kept."""
    def counts(items):
        tally = collections.Counter(item if isinstance(item, str) else item[0] for item in items)
        return ", ".join(f"{rule}×{n}" for rule, n in sorted(tally.items()))
    lines = [l for l in EXCEPTIONS.read_text(encoding="utf-8").splitlines()]
    kept = [l for l in lines if l.startswith("#") or not l.strip() or
            not (l.split("\t")[2].startswith("open:") and l.split("\t")[1] in names and
                 l.split("\t")[0] in files)]
    for (file, name), (lost, gained) in sorted(found.items()):
        if (file, name) in listed and not listed[(file, name)].startswith("open:"):
            continue
        what = "; ".join(part for part in (f"loses {counts(lost)}" if lost else "",
                                           f"gains {counts(gained)}" if gained else "") if part)
        kept.append(f"{file}\t{name}\topen: {WHY[name]} ({what})")
    header = [l for l in kept if l.startswith("#")]
    body = sorted(l for l in kept if not l.startswith("#") and l.strip())
    EXCEPTIONS.write_text("\n".join(header + body) + "\n", encoding="utf-8")


def check(sealint, source_dir, file, name):
    source = file.read_text(encoding="utf-8")
    try:
        rewritten = transform.TRANSFORMS[name](source)
    except (SyntaxError, RecursionError, ValueError):
        return None  # the fixtures of input errors: nothing to rewrite
    if rewritten is None:
        return None
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        before = findings(sealint, pathlib.Path(a), file.name, source)
        after = findings(sealint, pathlib.Path(b), file.name, rewritten)
    if name == "rename":
        lost = sorted((collections.Counter(before) - collections.Counter(after)).elements())
        gained = sorted((collections.Counter(after) - collections.Counter(before)).elements())
    else:
        rules_before = collections.Counter(rule for rule, _ in before)
        rules_after = collections.Counter(rule for rule, _ in after)
        lost = sorted((rules_before - rules_after).elements())
        gained = sorted((rules_after - rules_before).elements())
    return lost, gained


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sealint", type=lambda p: str(pathlib.Path(p).resolve()))
    parser.add_argument("source_dir", type=pathlib.Path)
    parser.add_argument("--transform", choices=sorted(transform.TRANSFORMS), action="append")
    parser.add_argument("--file", help="only files whose name contains this")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--write-gaps", action="store_true")
    args = parser.parse_args()
    names = args.transform or sorted(transform.TRANSFORMS)
    listed = load_exceptions()
    files = [f for f in inputs(args.source_dir) if not args.file or args.file in f.name]
    rel = {f: str(f.relative_to(args.source_dir)) for f in files}
    jobs = [(f, n) for f in files for n in names]
    failures, applied, differing = [], 0, 0
    gaps_found = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda job: check(args.sealint, args.source_dir, *job), jobs)
        for (file, name), result in zip(jobs, results):
            if result is None:
                continue
            applied += 1
            lost, gained = result
            differs = bool(lost or gained)
            differing += differs
            key = (rel[file], name)
            if differs:
                gaps_found[key] = (lost, gained)
            if differs and (key not in listed or os.environ.get("METAMORPHIC_VERBOSE")):
                failures.append(f"{rel[file]} [{name}]: lost {lost}, gained {gained}")
            elif not differs and key in listed:
                failures.append(f"{rel[file]} [{name}]: listed in exceptions.tsv but invariant "
                                "now: remove the line")
    if args.write_gaps:
        write_gaps(listed, gaps_found, set(names), {rel[f] for f in files})
        return 0
    for failure in failures:
        print(failure)
    gaps = sum(1 for (file, name), reason in listed.items()
               if reason.startswith("open:") and name in names)
    api = sum(1 for (file, name), reason in listed.items()
              if not reason.startswith("open:") and name in names)
    print(f"metamorphic: {applied} rewrites of {len(files)} files, {differing} changed the "
          f"findings ({api} listed as names that are the API, {gaps} as open gaps), "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
