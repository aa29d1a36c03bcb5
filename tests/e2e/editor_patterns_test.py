#!/usr/bin/env python3
"""The VS Code problem matcher and the Vim errorformat that docs/editors.md gives read sealint's
text output: a .py finding, a notebook finding (as a problem of the notebook file, its cell in the
message), an input problem with a position, and one that concerns a whole file. Both are taken
from the page itself, so the page cannot drift from the output.

    editor_patterns_test.py SEALINT SOURCE_DIR
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SEALINT, SOURCE = Path(sys.argv[1]), Path(sys.argv[2])
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def problem_matchers(page):
    """The tasks.json block's matchers, JSON with JavaScript regexes in it."""
    block = re.search(r"```json\n(\{\n  \"version\": \"2\.0\.0\".*?)\n```", page, re.S).group(1)
    return json.loads(block)["tasks"][0]["problemMatcher"]


def js_to_python(regexp):
    # The matchers use only what both dialects read alike: classes, groups, (?:...), (?!...).
    return re.compile(regexp)


def match_line(matchers, line):
    """What VS Code makes of one output line: the first matcher whose pattern matches."""
    for matcher in matchers:
        pattern = matcher["pattern"]
        found = js_to_python(pattern["regexp"]).match(line)
        if not found:
            continue
        group = lambda key: found.group(pattern[key]) if key in pattern else None  # noqa: E731
        return {"file": group("file"), "line": group("line"), "severity": group("severity"),
                "code": group("code"), "message": group("message"),
                "kind": pattern.get("kind", "location")}
    return None


def main():
    page = (SOURCE / "docs" / "editors.md").read_text(encoding="utf-8")
    work = Path(tempfile.mkdtemp(prefix="sealint-editor-"))
    try:
        shutil.copy(SOURCE / "examples" / "leaky_total_loss.py", work / "train.py")
        shutil.copy(SOURCE / "examples" / "notebooks" / "leaky_total_loss.ipynb", work / "nb.ipynb")
        (work / "a.cpp").write_text('#include <torch/torch.h>\n#include "missing.h"\n'
                                    "int main() { return 0; }\n")
        (work / "b.cpp").write_text("int main() { int x = ; return 0; }\n")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work)}
        run = subprocess.run([str(SEALINT), "--color", "never", "--no-cache", "."], cwd=work,
                             env=env, capture_output=True, text=True, timeout=300)
        lines = (run.stdout + run.stderr).splitlines()

        matchers = problem_matchers(page)
        seen = {}
        for line in lines:
            result = match_line(matchers, line)
            if result:
                seen[line] = result
        py = [r for l, r in seen.items() if l.startswith("train.py:17:9: error[SL001]")]
        check(len(py) == 1 and py[0]["file"] == "train.py" and py[0]["line"] == "17"
              and py[0]["code"] == "SL001" and py[0]["severity"] == "error",
              f"problemMatcher: the .py finding: {py}")
        nb = [r for l, r in seen.items() if l.startswith("nb.ipynb:cell 4:9:5: error[SL001]")]
        check(len(nb) == 1 and nb[0]["file"] == "nb.ipynb" and nb[0]["kind"] == "file"
              and nb[0]["message"].startswith("cell 4:9:5: error[SL001]")
              and nb[0]["code"] == "SL001",
              f"problemMatcher: the notebook finding: {nb}")
        syntax = [r for l, r in seen.items() if l.startswith("b.cpp:1:")]
        check(len(syntax) == 1 and syntax[0]["file"] == "b.cpp" and syntax[0]["line"] == "1"
              and syntax[0]["severity"] == "error", f"problemMatcher: the C++ error: {syntax}")
        missing = [r for l, r in seen.items() if l.startswith("a.cpp:2:")]
        check(len(missing) == 1 and missing[0]["severity"] == "warning",
              f"problemMatcher: the missing header: {missing}")
        for line, result in seen.items():
            check(not result["file"].startswith("sealint") and ":cell" not in result["file"],
                  f"problemMatcher: {line!r} read as {result}")
        # A whole-file problem: the shape every `path: warning: ...` line has.
        whole = match_line(matchers, "a.cpp: warning: C++: no compile_commands.json entry")
        check(whole is not None and whole["file"] == "a.cpp" and whole["kind"] == "file",
              f"problemMatcher: a whole-file warning: {whole}")
        check(match_line(matchers, "sealint: error: unknown rule 'SL999'") is None,
              "problemMatcher: sealint's own message read as a file's problem")

        # The errorformat, through Vim's own parser (Neovim, headless).
        nvim = shutil.which("nvim")
        check(nvim is not None, "nvim is missing (make deps installs neovim)")
        if nvim:
            efm = re.search(r"setlocal errorformat=(.+)$", page, re.M).group(1)
            (work / "out.txt").write_text("\n".join(lines) + "\n")
            script = work / "efm.vim"
            script.write_text(
                "set errorformat=" + efm + "\n"
                "cgetfile out.txt\n"
                "let items = map(getqflist(), {_, e -> {'file': bufname(e.bufnr), 'lnum': e.lnum,"
                " 'type': e.type, 'text': e.text}})\n"
                "call writefile([json_encode(items)], 'qf.json')\n"
                "qall!\n")
            subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-S",
                            str(script)], cwd=work, env=env, capture_output=True, timeout=60)
            items = [i for i in json.loads((work / "qf.json").read_text()) if i["file"]]
            files = sorted({i["file"] for i in items})
            check(files == ["a.cpp", "b.cpp", "nb.ipynb", "train.py"],
                  f"errorformat: entries on {files}")
            py_items = [i for i in items if i["file"] == "train.py" and i["lnum"] == 17]
            check(len(py_items) == 1 and py_items[0]["type"] == "e",
                  f"errorformat: the .py finding: {py_items}")
            nb_items = [i for i in items if i["file"] == "nb.ipynb"]
            check(len(nb_items) == 1 and nb_items[0]["text"].startswith("4:9:5: error[SL001]"),
                  f"errorformat: the notebook finding: {nb_items}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
