"""What the tracer must know about a flagged loop's source: which code object holds it and which
line events mean "the header was visited".

Line events are the only per-iteration signal `sys.settrace` gives, and they differ by statement
shape and Python version (measured on CPython 3.8-3.13):
- a `for` header and a `while cond` header get a line event on entry and after every iteration
  (the backward jump); the exhaustion is the same event as the last backward jump;
- a header split over several lines also fires on its continuation lines and then on the header
  line again, which is not a new iteration;
- `while True:` fires on its header before 3.10 never; there the first body line is the signal;
- 3.12+ inlines list/set/dict comprehensions, so one in the header fires the header line again.
`ast` gives the shape; without it (unreadable file, other grammar) the header line alone is used.
"""
import ast
import dis
import os
import sys
import tokenize

ENTRY = 1  # the loop is entered (again): no iteration finished
ITERATION = 2  # one more iteration finished
CALL = 3  # a calls-counted function is called: the first call is the region's entry
RETURN = 4  # it returned (or raised): one more step finished
LINE = 5  # a watched line (a finding's own) is about to run
LEAVE = 6  # the frame left a loop that counts saved tensors (a line past it, or a return)


def canonical(path):
    """One spelling per file, so that the plan's path, `co_filename` and snapshot frames compare."""
    try:
        return os.path.normcase(os.path.realpath(path))
    except (OSError, ValueError):
        return path


class LoopShape(object):
    __slots__ = ("file", "line", "end_line", "continuation", "one_liner", "trigger", "body_end",
                 "scope_name", "scope_lines", "from_ast", "calls", "leaves")

    def __init__(self, file, line, end_line):
        self.file = file  # canonical
        self.line = line
        self.end_line = end_line
        self.continuation = frozenset()  # header lines after the first
        self.one_liner = False  # the body starts on a header line
        self.trigger = line  # the line whose events are visits
        self.body_end = None  # only for the `while True` fallback: last line of the first stmt
        self.scope_name = None  # co_name of the code object holding the loop
        self.scope_lines = frozenset()  # its possible co_firstlineno values
        self.from_ast = False
        self.calls = False  # the calls of a function are counted, not a loop's iterations
        self.leaves = False  # the tracer reports when the frame leaves the loop (LEAVE)

    def visit_kind(self, prev):
        """ENTRY, ITERATION or None for a line event at `self.trigger`, `prev` being the frame's
        previous line event (None at the frame's first)."""
        if prev is None or prev < self.line or prev > self.end_line:
            return ENTRY
        if self.body_end is not None:
            # `while True` before 3.10: a jump back to the first body line from further down.
            return ITERATION if prev > self.body_end else None
        if prev in self.continuation:
            return None
        if prev == self.line and not self.one_liner:
            return None
        return ITERATION

    def holds(self, code):
        """Whether `code` (whose file is this loop's) is the code object the loop is in."""
        if self.from_ast:
            return code.co_name == self.scope_name and code.co_firstlineno in self.scope_lines
        name = code.co_name
        if self.calls:
            # Without the source: the function's name, and its first line between its first
            # decorator and its `def` line (a few lines up at most).
            return name == self.scope_name and 0 <= self.line - code.co_firstlineno <= 20
        if name.startswith("<") and name != "<module>":
            return False  # lambdas and comprehensions cannot hold a loop statement
        return any(line == self.line for _, line in dis.findlinestarts(code))


def _read_tree(path):
    with tokenize.open(path) as handle:  # honours a coding cookie, like the interpreter
        return ast.parse(handle.read(), path)


def _find(tree, line):
    """The loop statement with header `line` and the innermost function or class around it."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    loops = (ast.For, ast.AsyncFor, ast.While)
    stack = [(tree, tree)]
    while stack:
        node, scope = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, loops) and child.lineno == line:
                return child, scope
            stack.append((child, child if isinstance(child, scopes) else scope))
    return None, None


def _constant_true(test):
    return isinstance(test, ast.Constant) and bool(test.value)


def _first_statement(body):
    # A bare string or `pass` compiles to nothing, so it never gets a line event.
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue
        return statement
    return None


def shape(file, line, end_line):
    """Returns (LoopShape, problem); problem is a string when the source could not be used."""
    result = LoopShape(canonical(file), line, end_line)
    try:
        tree = _read_tree(file)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError) as error:
        return result, "cannot read the loop at %s:%d (%s); counting header lines only" % (
            file, line, error)
    node, scope = _find(tree, line)
    if node is None:
        return result, "no for/while statement at %s:%d; counting header lines only" % (file, line)
    result.from_ast = True
    if isinstance(scope, ast.Module):
        result.scope_name = "<module>"
        result.scope_lines = frozenset([1, scope.body[0].lineno if scope.body else 1])
    else:
        result.scope_name = scope.name
        result.scope_lines = frozenset([scope.lineno] + [d.lineno for d in scope.decorator_list])
    if isinstance(node, ast.While):
        header_end = node.test.end_lineno
    else:
        header_end = max(node.target.end_lineno, node.iter.end_lineno)
    body_line = node.body[0].lineno
    result.one_liner = body_line <= header_end
    result.continuation = frozenset(range(line + 1, min(header_end, body_line - 1) + 1))
    first = _first_statement(node.body)
    if (sys.version_info < (3, 10) and isinstance(node, ast.While) and _constant_true(node.test)
            and first is not None and first.lineno > header_end):
        result.trigger = first.lineno
        result.body_end = first.end_lineno
    return result, None


def _find_function(tree, line, name):
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if isinstance(node, functions) and node.lineno == line and node.name == name:
            return node
    return None


def calls_shape(file, line, end_line, name):
    """The shape of a region whose steps are the calls of function `name` defined at `line` (its
    `def` line): (LoopShape, problem). The code object is told by its name and first line, which
    is the first decorator's line when it has decorators."""
    result = LoopShape(canonical(file), line, end_line)
    result.calls = True
    result.trigger = None
    result.scope_name = name
    try:
        tree = _read_tree(file)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError) as error:
        return result, "cannot read the function at %s:%d (%s); matching its name only" % (
            file, line, error)
    node = _find_function(tree, line, name)
    if node is None:
        return result, "no function `%s` defined at %s:%d; matching its name only" % (
            name, file, line)
    result.from_ast = True
    result.scope_lines = frozenset([node.lineno] + [d.lineno for d in node.decorator_list])
    return result, None


class LineShape(object):
    """A finding's own line, watched in whatever code object holds it (the loop's function, or a
    helper it calls per iteration): each line event there is a LINE visit."""

    __slots__ = ("file", "line", "end_line", "trigger", "calls", "leaves")

    def __init__(self, file, line):
        self.file = file  # canonical
        self.line = line
        self.end_line = line
        self.trigger = line
        self.calls = False
        self.leaves = False

    def visit_kind(self, prev):
        return LINE

    def holds(self, code):
        if code.co_name.startswith("<") and code.co_name != "<module>":
            return False  # a comprehension's or lambda's lines are its own frame's
        return any(line == self.line for _, line in dis.findlinestarts(code))
