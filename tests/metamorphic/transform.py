"""Meaning-preserving rewrites of a Python file, for the metamorphic suite (GENERALIZE.md).

Each transformation returns the new source, or None when it does not apply to the file (no loop
to rewrite, nothing to rename). `rename` works on tokens, so lines and comments (the fixtures'
inline verdicts and suppressions) stay where they were; the structural ones rebuild the file with
`ast.unparse` and keep each finding's line through a map of moved statements where they can.

Usage: transform.py NAME FILE  (prints the new source; exit 3 when NAME does not apply)
"""

import ast
import builtins
import io
import sys
import tokenize

# Names whose spelling is the API: Python's protocol methods and a module's own dunders are
# attributes or special forms, never renamed (methods are attributes and are never renamed).
_BUILTIN_NAMES = set(dir(builtins))


def _bound_names(tree):
    """Names the file binds itself: functions and classes it defines (at any depth), their
    parameters, assignment and loop targets, `with ... as`, `except ... as`, walrus targets and
    comprehension variables. Imports, attributes and methods are not among them."""
    bound = set()
    methods = set()

    def add_target(node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                bound.add(sub.id)
            elif isinstance(sub, ast.Starred) and isinstance(sub.value, ast.Name):
                bound.add(sub.value.id)

    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bound.add(node.name)
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods.add(item.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs:
                bound.add(arg.arg)
            for arg in (args.vararg, args.kwarg):
                if arg is not None:
                    bound.add(arg.arg)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                add_target(target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr,
                               ast.comprehension)):
            add_target(node.target)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            add_target(node.optional_vars)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, methods


def _unrenamable(tree, source):
    """Names that must keep their spelling for the file to keep its meaning."""
    keep = set()
    for node in ast.walk(tree):
        # Imported names are the library's, and a name given as a keyword argument is the
        # callee's parameter (possibly a library's).
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                keep.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.keyword) and node.arg:
            keep.add(node.arg)
        # Names read through strings (`getattr(self, "x")`, `__all__`, string annotations) are
        # rare and not followed: keep every identifier that appears in a string constant.
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.isidentifier():
                keep.add(node.value)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            pass
    return keep


def rename(source):
    """Every name the file binds becomes a neutral one (`v1`, `f1`, `C1`); attributes, methods,
    imports, keyword-argument names, builtins and dunders keep theirs."""
    tree = ast.parse(source)
    bound, methods = _bound_names(tree)
    keep = _unrenamable(tree, source) | _BUILTIN_NAMES | methods | {"self", "cls"}
    functions = {n.name for n in ast.walk(tree)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    # A module-level function that is also a method name stays (it is an attribute too).
    names = sorted(n for n in bound
                   if n not in keep and not (n.startswith("__") and n.endswith("__")) and
                   n != "_")
    if not names:
        return None
    mapping = {}
    counters = {"f": 0, "C": 0, "v": 0}
    for name in names:
        prefix = "C" if name in classes else "f" if name in functions else "v"
        counters[prefix] += 1
        mapping[name] = f"{prefix}{counters[prefix]}_"
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = []
    previous = None
    for tok in tokens:
        if (tok.type == tokenize.NAME and tok.string in mapping and
                not (previous is not None and previous.type == tokenize.OP and
                     previous.string == ".")):
            tok = tok._replace(string=mapping[tok.string])
        out.append(tok)
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok
    return tokenize.untokenize(out)


class _ForToWhile(ast.NodeTransformer):
    """`for T in E: B` becomes `it = iter(E)` and `while True: try: T = next(it) ...`."""

    def __init__(self):
        self.count = 0

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse:
            return node
        self.count += 1
        it = f"it{self.count}_"
        init = ast.Assign(targets=[ast.Name(it, ast.Store())],
                          value=ast.Call(ast.Name("iter", ast.Load()), [node.iter], []))
        advance = ast.Try(
            body=[ast.Assign(targets=[node.target],
                             value=ast.Call(ast.Name("next", ast.Load()),
                                            [ast.Name(it, ast.Load())], []))],
            handlers=[ast.ExceptHandler(type=ast.Name("StopIteration", ast.Load()), name=None,
                                        body=[ast.Break()])],
            orelse=[], finalbody=[])
        loop = ast.While(test=ast.Constant(True), body=[advance] + node.body, orelse=[])
        return [ast.copy_location(init, node), ast.copy_location(loop, node)]


def _rewrite(source, transformer):
    """The source rebuilt after `transformer`, or None when it changed nothing."""
    tree = transformer.visit(ast.parse(source))
    if transformer.count == 0:
        return None
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def for_to_next(source):
    """Each `for` loop (without `else`) advances an explicit iterator with `next()` instead."""
    return _rewrite(source, _ForToWhile())


class _BodyToHelper(ast.NodeTransformer):
    """The body of each simple loop inside a function moves into a module-level helper that the
    loop calls with the names the body reads before it binds them; the names it binds come back
    as the helper's results."""

    def __init__(self):
        self.count = 0
        self.in_function = 0
        self.helpers = []
        self.local_imports = {}

    def visit_FunctionDef(self, node):
        self.in_function += 1
        # Imports made inside the function: a helper makes the same import rather than taking a
        # module as an argument, as the author would write it.
        saved = self.local_imports
        self.local_imports = dict(saved)
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                for alias in sub.names:
                    self.local_imports[(alias.asname or alias.name).split(".")[0]] = sub
        self.generic_visit(node)
        self.local_imports = saved
        self.in_function -= 1
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_For(self, node):
        self.generic_visit(node)
        if not self.in_function or node.orelse:
            return node
        # The step: the leading statements that only compute values of this iteration (plain
        # names first bound here, calls such as `loss.backward()`); what updates state that
        # outlives the iteration (`total += loss`, `losses.append(loss)`) stays in the loop.
        outer = _read_before_bound(node.body)
        count = 0
        for stmt in node.body:
            if not _movable([stmt]) or not _computes_only(stmt, outer):
                break
            count += 1
        if count == 0:
            return node
        step, rest = node.body[:count], node.body[count:]
        needed = _read_before_bound(step)
        imports = [self.local_imports[name] for name in sorted(needed)
                   if name in self.local_imports]
        params = sorted(name for name in needed
                        if name not in _BUILTIN_NAMES and name not in self.module_names and
                        name not in self.local_imports)
        bound = sorted({n.id for stmt in step for n in ast.walk(stmt)
                        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})
        self.count += 1
        helper = f"step{self.count}_"
        ret = ast.Return(ast.Tuple([ast.Name(n, ast.Load()) for n in bound], ast.Load()))
        self.helpers.append(ast.FunctionDef(
            name=helper, args=ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params],
                                            vararg=None, kwonlyargs=[], kw_defaults=[],
                                            kwarg=None, defaults=[]),
            body=imports + step + ([ret] if bound else []), decorator_list=[], returns=None,
            type_comment=None))
        call = ast.Call(ast.Name(helper, ast.Load()), [ast.Name(p, ast.Load()) for p in params],
                        [])
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in bound], ast.Store())
        head = ast.Assign(targets=[target], value=call) if bound else ast.Expr(call)
        node.body = [head] + rest
        return node

    visit_AsyncFor = visit_For

    def visit_Module(self, node):
        # Imports, functions and classes of the module: the helper sees them as the loop did.
        self.module_names = set()
        for stmt in node.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.module_names |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.module_names.add(stmt.name)
        body = []
        for stmt in node.body:
            stmt = self.visit(stmt)
            body.extend(self.helpers)
            self.helpers = []
            body.append(stmt)
        node.body = body
        return node


_STORES = {"append", "extend", "add", "update", "insert", "appendleft", "put", "__setitem__"}


def _read_before_bound(body):
    """Names the statements read before they bind them: what a helper needs as arguments."""
    first_read, first_bind = {}, {}
    for index, stmt in enumerate(body):
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name):
                table = first_read if isinstance(sub.ctx, ast.Load) else first_bind
                table.setdefault(sub.id, index)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            first_read.setdefault(stmt.target.id, index)
    return {name for name, index in first_read.items()
            if index <= first_bind.get(name, index)}


def _computes_only(stmt, outer):
    """The statement binds plain names of this iteration only, or is a call that stores nothing
    into a container (`loss.backward()`, `optimizer.step()`)."""
    if isinstance(stmt, ast.Assign):
        return all(isinstance(n, ast.Name) and n.id not in outer
                   for target in stmt.targets for n in ast.walk(target)
                   if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript)) and
                   not isinstance(getattr(n, "ctx", None), ast.Load))
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        callee = stmt.value.func
        return not (isinstance(callee, ast.Attribute) and callee.attr in _STORES)
    return False


def _movable(body):
    """A body can move into a helper when nothing in it leaves the loop or the function
    (`break`, `continue`, `return`, `yield`) or rebinds an outer name (`global`, `nonlocal`),
    and it reads no name it binds only on some paths (a helper would see it unbound)."""
    for stmt in body:
        for sub in ast.walk(stmt):
            if isinstance(sub, (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom,
                                ast.Global, ast.Nonlocal, ast.Await, ast.FunctionDef,
                                ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
                                ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Try, ast.With,
                                ast.If, ast.For, ast.While)):
                return False
    return True


def body_to_helper(source):
    """The step at the head of each loop inside a function moves into a helper the loop calls."""
    return _rewrite(source, _BodyToHelper())


TRANSFORMS = {
    "rename": rename,
    "for_to_next": for_to_next,
    "body_to_helper": body_to_helper,
}


def main(argv):
    if len(argv) != 3 or argv[1] not in TRANSFORMS:
        sys.stderr.write(f"usage: transform.py {{{','.join(TRANSFORMS)}}} FILE\n")
        return 2
    with open(argv[2], encoding="utf-8") as f:
        source = f.read()
    result = TRANSFORMS[argv[1]](source)
    if result is None:
        return 3
    sys.stdout.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
