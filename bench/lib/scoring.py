"""Shared by bench/recall and bench/census: running sealint on one file of a tree, deciding whether
a finding stands where an expected leak is, and the recall tables.

A finding counts when it lies in the same scope as the expected line: the innermost Python
function (def) that holds it, or for code outside any function the top-level statement (a
module-level loop); in a notebook the same within the same cell; in C++ the same outermost
function body. When the file cannot be read that way, a finding within SLACK lines counts. A
finding whose related location points at the expected line (within SLACK lines) counts too.
Expected lines are `L`, or `C:L` in a notebook (cell C counted from 1 over every cell)."""
import ast
import collections
import json
import re
import subprocess
import sys

SLACK = 3
CPP_EXT = (".cpp", ".cc", ".cxx", ".cu", ".cuh", ".h", ".hpp")


def python_scope(source):
    """A function from a 1-based line to its scope key, or None when the source does not parse."""
    try:
        tree = ast.parse(source)
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


def notebook_cells(path):
    """The source of each cell, by 1-based cell number; magics and shell lines made comments."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    cells = {}
    for i, cell in enumerate(nb.get("cells", []), start=1):
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        cells[i] = "\n".join("#" + l if l.lstrip().startswith(("%", "!")) else l
                             for l in src.split("\n"))
    return cells


def cpp_scope(source):
    """Line -> key of the outermost function body that holds it (a brace block opened after a
    parameter list, outside namespaces and classes, which stay transparent), crudely: strings and
    comments are blanked first."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
    owner = {}  # line -> opening line of its function
    stack = []  # per open brace: the function's opening line, or None for a transparent block
    line, head_start, head = 1, 0, ""
    for i, ch in enumerate(text):
        if ch == "\n":
            line += 1
        if ch == "{":
            inside = next((f for f in reversed(stack) if f is not None), None)
            if inside is not None:
                stack.append(inside)
            elif "(" in head and not re.match(r"\s*(namespace|class|struct|union|enum)\b", head):
                stack.append(text.count("\n", 0, head_start) + 1)
            else:
                stack.append(None)
            head = ""
            head_start = i + 1
        elif ch in "};":
            if ch == "}" and stack:
                stack.pop()
            head = ""
            head_start = i + 1
        else:
            head += ch
        inside = next((f for f in reversed(stack) if f is not None), None)
        if inside is not None:
            owner.setdefault(line, inside)
    return lambda l: ("fn", owner[l]) if l in owner else ("line", l)


def scope_function(path):
    """For a file: a function (expected `L` or `C:L`) -> scope key, or None to fall back on SLACK."""
    try:
        if path.endswith(".ipynb"):
            scopes = {c: python_scope(s) for c, s in notebook_cells(path).items()}

            def nb_scope(cell, line):
                s = scopes.get(cell)
                return None if s is None else (cell, s(line))
            return nb_scope
        with open(path, encoding="utf-8", errors="replace") as f:
            source = f.read()
    except (OSError, ValueError):
        return None
    one = cpp_scope(source) if path.endswith(CPP_EXT) else python_scope(source)
    return None if one is None else (lambda cell, line: one(line))


def parse_expected(text):
    """`L` -> (None, L); `C:L` -> (C, L)."""
    parts = text.split(":")
    return (int(parts[0]), int(parts[1])) if len(parts) == 2 else (None, int(parts[0]))


def finding_counts(scope, finding, expected):
    """A finding stands for the expected leak when it starts in the same scope, or when one of
    its related locations points at the expected line itself (within SLACK lines): a leak
    reported where it repeats (`self.make_preds(...)` in the loop) with the statement that leaks
    (`load_model(...)` in the helper) as its note."""
    if same_place(scope, finding["range"]["start"], expected):
        return True
    cell, line = parse_expected(expected)
    for related in finding.get("related", []):
        at = related["range"]["start"]
        if at.get("cell") == cell and abs(int(at["line"]) - line) <= SLACK:
            return True
    return False


def same_place(scope, start, expected):
    """Does a finding starting at `start` (JSON range start: line, maybe cell) count for the
    expected line text?"""
    cell, line = parse_expected(expected)
    f_cell, f_line = start.get("cell"), int(start["line"])
    if f_cell != cell:
        return False
    if abs(f_line - line) <= SLACK:
        return True
    if scope is None:
        return False
    a, b = scope(cell, f_line), scope(cell, line)
    return a is not None and a == b


def lint_file(binary, config, export, path):
    """sealint's findings (JSON) on one file, run from its tree's root as a user runs it: every
    rule on, the empty `config` instead of the project's, no result cache."""
    cmd = [binary, "--format", "json", "--color", "never", "--no-cache", "--config", config,
           "--extend-select", "ALL", path]
    p = subprocess.run(cmd, cwd=export, capture_output=True, text=True)
    if p.returncode not in (0, 1, 2):
        print(f"run.py: sealint exited {p.returncode} on {export} {path}:\n{p.stderr}",
              file=sys.stderr)
    try:
        return json.loads(p.stdout or "[]")
    except json.JSONDecodeError:
        print(f"run.py: unreadable JSON from sealint on {export} {path}:\n{p.stderr}",
              file=sys.stderr)
        return []


def print_recall_table(title, key, scored, sets):
    """Recall by `key` (rule, shape), one column per set: scored is [(case, status, found_at)]."""
    counts = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for c, s, _ in scored:
        counts[c[key]][c["set"]]["cases"] += 1
        counts[c[key]][c["set"]]["found"] += s == "FOUND"
    cell = "{:>16}"
    print()
    hdr = f"{title:<13}" + "".join(cell.format(s) for s in sets)
    print(hdr)
    print("-" * len(hdr))
    total = collections.defaultdict(collections.Counter)

    def fmt(n):
        return cell.format(f"{n['found']}/{n['cases']} {n['found'] / n['cases']:.2f}"
                           if n["cases"] else "-")

    for k in sorted(counts):
        for s in sets:
            total[s].update(counts[k][s])
        print(f"{k:<13}" + "".join(fmt(counts[k][s]) for s in sets))
    print("-" * len(hdr))
    print(f"{'all':<13}" + "".join(fmt(total[s]) for s in sets))
