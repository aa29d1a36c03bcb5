#!/usr/bin/env python3
"""The precision benchmark's runner (bench/corpus/run.sh calls it; stdlib only).

For each row of manifest.tsv whose export is in .cache/, runs
`sealint --format json --config <empty .sealint.toml> <subdir>` from the export's root (so
paths are relative to it, and no configuration of the repository applies), collects the
findings as rows (repo, path, line, rule, severity, message), joins them with judgements.tsv on
(repo, path, line, rule), and prints a table per rule, the overall figures, every unjudged
finding and the judgements that match no finding. $OUT, when set, receives the raw rows."""
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tsv import read_tsv  # noqa: E402


def one_line(s):
    return " ".join(str(s).split())


# What sealint reads as C++ (analyzer/cpp/frontend.cpp's is_cpp_source) and as Python.
CPP_GLOBS = ("*.cpp", "*.cc", "*.cxx", "*.cu")
PYTHON_GLOBS = ("*.py", "*.pyi", "*.ipynb")


def run_sealint(binary, config, jobs, subdir, export, repo, lang, other_globs, timings,
                input_errors):
    """One language's run over one export: its findings (JSON), and its wall and CPU seconds
    in timings[repo] (CPU: the children's user + system time, from the kernel's accounting)."""
    cmd = [binary, "--format", "json", "--color", "never", "--no-cache", "--config", config]
    if jobs:
        cmd += ["--jobs", jobs]
    for glob in list(other_globs) + os.environ.get("EXCLUDE", "").split():
        cmd += ["--exclude", glob]
    cmd.append(subdir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=export, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    timings[repo][lang] = (wall, cpu)
    if p.returncode not in (0, 1, 2):
        print(f"run.py: sealint exited {p.returncode} on {repo} ({lang}):\n{p.stderr}",
              file=sys.stderr)
        return []
    if p.returncode == 2:  # input errors (syntax errors, non-UTF-8): findings still valid
        input_errors[repo] += sum(1 for l in p.stderr.splitlines() if "error" in l)
    try:
        return json.loads(p.stdout or "[]")
    except json.JSONDecodeError:
        print(f"run.py: unreadable JSON from sealint on {repo} ({lang}):\n{p.stderr}",
              file=sys.stderr)
        return []


def print_timings(timings):
    """Seconds per repository and language (wall, and CPU in brackets), slowest first; TIMES=path
    also writes them as TSV."""
    def cell(t, lang):
        return f"{t[lang][0]:7.1f} ({t[lang][1]:6.1f})" if lang in t else f"{'-':>16}"

    def total(lang):
        return (sum(t[lang][0] for t in timings.values() if lang in t),
                sum(t[lang][1] for t in timings.values() if lang in t),
                sum(t["py_files" if lang == "python" else "cpp_files"] for t in timings.values()
                    if lang in t))

    print("seconds per repository, wall (CPU), Python (with notebooks) and C++, slowest first:")
    print(f"  {'Python files':>12} {'Python s':>16} {'C++ files':>9} {'C++ s':>16}  repo")
    order = sorted(timings.items(), key=lambda kv: -sum(kv[1][l][0] for l in ("python", "cpp")
                                                        if l in kv[1]))
    for repo, t in order:
        print(f"  {t['py_files']:>12} {cell(t, 'python')} {t['cpp_files']:>9} {cell(t, 'cpp')}"
              f"  {repo}")
    for lang, name in (("python", "Python"), ("cpp", "C++")):
        wall, cpu, files = total(lang)
        if files == 0:
            print(f"  {name}: not run")
            continue
        print(f"  {name}: {wall:.1f} s wall, {cpu:.1f} s CPU over {files} files, "
              f"{cpu / files:.3f} CPU s per file")
    path = os.environ.get("TIMES")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write("repo\tpython_files\tpython_wall_s\tpython_cpu_s\tcpp_files\tcpp_wall_s"
                    "\tcpp_cpu_s\n")
            for repo, t in sorted(timings.items()):
                py = t.get("python", ("", ""))
                cpp = t.get("cpp", ("", ""))
                f.write("\t".join(str(x) for x in (
                    repo, t["py_files"], *(f"{v:.2f}" if v != "" else "" for v in py),
                    t["cpp_files"], *(f"{v:.2f}" if v != "" else "" for v in cpp))) + "\n")


def main():
    binary = sys.argv[1]
    manifest = read_tsv(os.path.join(HERE, "manifest.tsv"))
    jobs = os.environ.get("JOBS")
    rows = []
    missing = []
    input_errors = collections.Counter()
    n_py = n_cpp = n_nb = 0
    timings = {}
    excluded = set(os.environ.get("EXCLUDE", "").split())
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, ".sealint.toml")
        # Empty: the rules that are on by default, default options, severity "note". EXTEND=SL004
        # also measures rules that are off by default.
        with open(config, "w") as f:
            extend = [r for r in os.environ.get("EXTEND", "").split(",") if r]
            if extend:
                f.write("extend-select = [%s]\n" % ", ".join('"%s"' % r for r in extend))
        for m in manifest:
            repo, subdir = m["repo"], m["subdir"] or "."
            export = os.path.join(HERE, ".cache", repo.replace("/", "+"))
            if not os.path.isdir(os.path.join(export, subdir)):
                missing.append(repo)
                continue
            repo_py = repo_cpp = repo_nb = 0
            for _, _, files in os.walk(os.path.join(export, subdir)):
                repo_py += sum(1 for f in files if f.endswith((".py", ".pyi")))
                repo_cpp += sum(1 for f in files if f.endswith((".cpp", ".cc", ".cxx", ".cu")))
                repo_nb += sum(1 for f in files if f.endswith(".ipynb"))
            n_py += repo_py
            n_cpp += repo_cpp
            n_nb += repo_nb
            timings[repo] = {"py_files": repo_py + repo_nb, "cpp_files": repo_cpp}
            # Python and C++ run apart, so that each language's seconds per repository are
            # known; their findings join as one run's would (project scope reads Python only).
            for lang, own_globs, other_globs, count in (
                    ("python", PYTHON_GLOBS, CPP_GLOBS, repo_py + repo_nb),
                    ("cpp", CPP_GLOBS, PYTHON_GLOBS, repo_cpp)):
                if count == 0 or set(own_globs) <= excluded:
                    continue  # no files of the language, or EXCLUDE leaves them all out
                findings = run_sealint(binary, config, jobs, subdir, export, repo, lang,
                                       other_globs, timings, input_errors)
                for f in findings:
                    if f["rule"] is None:  # an input problem (docs/output-json.md), also on stderr
                        continue
                    path = f["path"]
                    if path.startswith("./"):
                        path = path[2:]
                    # A notebook's line counts within its cell (docs/notebooks.md): the cell
                    # is part of where the finding is, so it goes with the path.
                    cell = f["range"]["start"].get("cell")
                    if cell:
                        path = f"{path}:cell {cell}"
                    rows.append((repo, path, int(f["range"]["start"]["line"]), f["rule"],
                                 f["severity"], one_line(f["message"])))
    rows.sort()

    out = os.environ.get("OUT")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("repo\tpath\tline\trule\tseverity\tmessage\n")
            for r in rows:
                f.write("\t".join(map(str, r)) + "\n")

    judged = {}
    jpath = os.path.join(HERE, "judgements.tsv")
    if os.path.exists(jpath):
        for j in read_tsv(jpath):
            key = (j["repo"], j["path"], int(j["line"]), j["rule"])
            judged[key] = (j["verdict"].strip().upper(), j["reason"])

    per_rule = collections.defaultdict(collections.Counter)
    unjudged = []
    matched = set()
    for r in rows:
        key = r[:4]
        c = per_rule[r[3]]
        c["findings"] += 1
        c[r[4]] += 1
        v = judged.get(key)
        if v is None or v[0] not in ("TRUE", "FALSE"):
            c["unjudged"] += 1
            unjudged.append(r)
        else:
            c[v[0]] += 1
            matched.add(key)

    def prec(t, f):
        return f"{t / (t + f):.2f}" if t + f else "-"

    print(f"sealint: {binary}")
    print(f"corpus: {len(manifest) - len(missing)} of {len(manifest)} repositories, "
          f"{n_py} Python files, {n_nb} notebooks, {n_cpp} C++ files"
          + (f" (missing: {', '.join(missing)}; run bench/corpus/fetch.sh)" if missing else ""))
    if input_errors:
        print("input errors (files sealint could not fully read; their other findings count): "
              + ", ".join(f"{k} {v}" for k, v in sorted(input_errors.items())))
    print()
    hdr = f"{'rule':<7} {'findings':>8} {'(err/warn/note)':>16} {'TRUE':>5} {'FALSE':>6} {'unjudged':>9} {'precision':>10}"
    print(hdr)
    print("-" * len(hdr))
    tot = collections.Counter()
    for rule in sorted(per_rule):
        c = per_rule[rule]
        tot.update(c)
        sev = f"{c['error']}/{c['warning']}/{c['note']}"
        print(f"{rule:<7} {c['findings']:>8} {sev:>16} {c['TRUE']:>5} {c['FALSE']:>6} "
              f"{c['unjudged']:>9} {prec(c['TRUE'], c['FALSE']):>10}")
    print("-" * len(hdr))
    sev = f"{tot['error']}/{tot['warning']}/{tot['note']}"
    print(f"{'all':<7} {tot['findings']:>8} {sev:>16} {tot['TRUE']:>5} {tot['FALSE']:>6} "
          f"{tot['unjudged']:>9} {prec(tot['TRUE'], tot['FALSE']):>10}")
    # error and warning findings only (what a default run of severity "warning" shows)
    ew = collections.Counter()
    for r in rows:
        if r[4] in ("error", "warning"):
            v = judged.get(r[:4])
            ew["findings"] += 1
            ew[v[0] if v and v[0] in ("TRUE", "FALSE") else "unjudged"] += 1
    print(f"{'err+warn':<7} {ew['findings']:>8} {'':>16} {ew['TRUE']:>5} {ew['FALSE']:>6} "
          f"{ew['unjudged']:>9} {prec(ew['TRUE'], ew['FALSE']):>10}")

    print()
    print_timings(timings)

    print()
    print(f"unjudged findings: {len(unjudged)}")
    for r in unjudged:
        print(f"  {r[0]}\t{r[1]}:{r[2]}\t{r[3]}\t{r[4]}\t{r[5]}")
    stale = sorted(k for k in judged if k not in matched and k not in {r[:4] for r in rows})
    if stale:
        print()
        print(f"judgements that match no finding of this binary: {len(stale)}")
        for k in stale:
            print(f"  {k[0]}\t{k[1]}:{k[2]}\t{k[3]}\t{judged[k][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
