#!/usr/bin/env python3
"""Rules only match and report (SEMANTIC.md): a rule file must not define its own statement
walker, hold a list of more than three API names, or read source text. Knowledge of APIs belongs
in analyzer/knowledge/, traversal in analyzer/ir/walk.h, facts in the IR. And a rule file stays
small (about 400 lines): a rule with more to say splits into its own folder (rules/SL009/).

Rule files written before the semantic layer still do some of this. BASELINE counts what each
one does today; a count may only go down (lower the number in the same change), a new file starts
at zero. So the debt shrinks and never grows.

LONG_FILES holds the files written longer than that; each may only shrink.

usage: rule_files.py REPO_ROOT
"""
import pathlib
import re
import sys

# file -> (walkers, name lists longer than three, source reads), as of the semantic-layer change.
BASELINE = {
    "SL001_grad_accumulation.cpp": (0, 0, 0),
    "SL002_tensor_collection.cpp": (0, 0, 0),
    "SL004_scope_extrusion.cpp": (0, 0, 0),
}

MAX_LINES = 400
# file -> its length when the limit came in; it may not grow back.
LONG_FILES = {
}

# A function that recurses over statement bodies: its own walker.
WALKER = re.compile(r"^[^;{}()]*\w+\([^;{}]*const\s+std::vector<(?:ir::)?Stmt\s*\*>\s*&\s*\w+[^;{}]*\)\s*(?:const\s*)?\{",
                    re.M)
# A string array of four or more entries: a table of API names.
NAME_LIST = re.compile(r"std::array<std::string_view,\s*(\d+)>|std::string_view\s+\w+\[\]\s*=\s*\{([^}]*)\}")
# The source text itself: file().code(), or a statement's raw text compared to a marker.
SOURCE_READ = re.compile(r"\.file\(\)\.code\(\)|\.text\s*==\s*\"decl\"")


def counts(text: str) -> tuple[int, int, int]:
    walkers = len(WALKER.findall(text))
    lists = 0
    for match in NAME_LIST.finditer(text):
        size = int(match.group(1)) if match.group(1) else match.group(2).count('"') // 2
        lists += size > 3
    return walkers, lists, len(SOURCE_READ.findall(text))


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    failures = []
    rules = root / "rules"
    for path in sorted([*rules.glob("SL*.cpp"), *rules.glob("SL*/*.cpp"), *rules.glob("SL*/*.h")]):
        name = path.relative_to(rules).as_posix()
        text = path.read_text(encoding="utf-8")
        now = counts(text)
        allowed = BASELINE.get(name, (0, 0, 0))
        for what, n, limit in zip(("statement walkers", "API name lists", "source reads"), now, allowed):
            if n > limit:
                failures.append(f"rules/{name}: {n} {what} (allowed {limit}): "
                                "use analyzer/ir/walk.h, analyzer/knowledge/ or an IR fact instead")
            elif n < limit:
                failures.append(f"rules/{name}: {n} {what}, fewer than the {limit} allowed: "
                                "lower its BASELINE in tests/lint/rule_files.py")
        lines = text.count("\n")
        max_lines = LONG_FILES.get(name, MAX_LINES)
        if lines > max_lines:
            failures.append(f"rules/{name}: {lines} lines (allowed {max_lines}): split the rule into "
                            "its own folder of checks, or move general facts to analyzer/semantic/")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
