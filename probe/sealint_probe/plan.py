"""Loads and checks a confirm plan (docs/confirm.md, "Plan (version 1)").

Everything the rest of the probe reads from the plan is checked here, so that a plan written by a
different sealint version fails with one clear message instead of a traceback mid-run.
"""
import json

FORMAT = "sealint-confirm-plan"
VERSION = 1
MEASURES = ("growth", "graph", "none")


class PlanError(Exception):
    """The plan cannot be used; the message says which field and why."""


COUNTS = ("iterations", "calls")


class Loop(object):
    """The region whose steps are counted: a loop statement (`counts` "iterations", `line` its
    header), or a function a framework calls once per batch (`counts` "calls", `line` its `def`
    line, `function` its name). `optional`: the run does not wait for it unless it is entered (a
    region in a module the script imports, which the run may never pass through)."""

    __slots__ = ("file", "line", "end_line", "counts", "function", "optional", "length_of",
                 "count_of", "count", "saved_tensors")

    def __init__(self, file, line, end_line, counts="iterations", function=None, optional=False):
        self.file = file
        self.line = line
        self.end_line = end_line
        self.counts = counts
        self.function = function
        self.optional = optional
        # How many iterations one pass of the loop runs: len() of the place `length_of`, the int
        # the place `count_of` holds, or `count`; None when the plan does not say.
        self.length_of = None
        self.count_of = None
        self.count = None
        # Count the bytes autograd saves for backward in each step (saved.py).
        self.saved_tensors = False

    @property
    def calls(self):
        return self.counts == "calls"


class Finding(object):
    __slots__ = ("id", "rule", "file", "line", "measure", "loop", "variables")

    def __init__(self, id, rule, file, line, measure, loop, variables):
        self.id = id
        self.rule = rule
        self.file = file
        self.line = line
        self.measure = measure
        self.loop = loop
        self.variables = variables


class Plan(object):
    __slots__ = ("script", "steps", "snapshot", "findings")

    def __init__(self, script, steps, snapshot, findings):
        self.script = script
        self.steps = steps
        self.snapshot = snapshot
        self.findings = findings


def _is_int(value):
    # bool is an int subclass; `true` is never a valid line or step count.
    return isinstance(value, int) and not isinstance(value, bool)


def _field(obj, key, check, what, where):
    if key not in obj:
        raise PlanError("%s: missing `%s`" % (where, key))
    value = obj[key]
    if not check(value):
        raise PlanError("%s: `%s` must be %s, not %s" % (where, key, what, json.dumps(value)))
    return value


def _positive(value):
    return _is_int(value) and value >= 1


def _text(value):
    return isinstance(value, str) and value != ""


def _variable_path(value):
    # `name` or `name.attr.attr`: the probe only walks attributes, it never evaluates code.
    return isinstance(value, str) and all(part.isidentifier() for part in value.split("."))


def _loop(raw, where):
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise PlanError("%s: `loop` must be an object or null" % where)
    where = where + ".loop"
    file = _field(raw, "file", _text, "a path", where)
    line = _field(raw, "line", _positive, "a line number", where)
    end_line = _field(raw, "end_line", _positive, "a line number", where)
    if end_line < line:
        raise PlanError("%s: `end_line` %d is before `line` %d" % (where, end_line, line))
    counts = raw.get("counts", "iterations")
    if counts not in COUNTS:
        raise PlanError("%s: `counts` must be one of %s, not %s" % (where, "/".join(COUNTS),
                                                                   json.dumps(counts)))
    function = None
    if counts == "calls":
        function = _field(raw, "function", lambda v: isinstance(v, str) and v.isidentifier(),
                          "a function name", where)
    optional = raw.get("optional", False)
    if not isinstance(optional, bool):
        raise PlanError("%s: `optional` must be true or false, not %s" % (where,
                                                                         json.dumps(optional)))
    loop = Loop(file, line, end_line, counts, function, optional)
    saved_tensors = raw.get("saved_tensors", False)
    if not isinstance(saved_tensors, bool):
        raise PlanError("%s: `saved_tensors` must be true or false, not %s"
                        % (where, json.dumps(saved_tensors)))
    loop.saved_tensors = saved_tensors
    for key in ("length_of", "count_of"):
        if key in raw:
            setattr(loop, key, _field(raw, key, _variable_path, "a name or attribute path", where))
    if "count" in raw:
        loop.count = _field(raw, "count", _positive, "a positive integer", where)
    return loop


def _finding(raw, index):
    where = "findings[%d]" % index
    if not isinstance(raw, dict):
        raise PlanError("%s must be an object" % where)
    variables = _field(raw, "variables", lambda v: isinstance(v, list), "a list", where)
    for position, variable in enumerate(variables):
        if not _variable_path(variable):
            raise PlanError("%s.variables[%d]: %s is not a name or a dotted attribute path"
                            % (where, position, json.dumps(variable)))
    return Finding(
        id=_field(raw, "id", lambda v: _is_int(v) and v >= 0, "an index", where),
        rule=_field(raw, "rule", _text, "a rule id", where),
        file=_field(raw, "file", _text, "a path", where),
        line=_field(raw, "line", _positive, "a line number", where),
        measure=_field(raw, "measure", lambda v: v in MEASURES, "one of " + "/".join(MEASURES),
                       where),
        loop=_loop(raw.get("loop"), where),
        variables=list(variables),
    )


def parse(raw):
    """Returns a Plan from the decoded JSON, or raises PlanError."""
    if not isinstance(raw, dict):
        raise PlanError("the plan must be a JSON object")
    if raw.get("format") != FORMAT:
        raise PlanError("`format` is %s, expected %s" % (json.dumps(raw.get("format")),
                                                          json.dumps(FORMAT)))
    if raw.get("version") != VERSION:
        raise PlanError("`version` %s is not supported (this probe reads version %d)"
                        % (json.dumps(raw.get("version")), VERSION))
    script = _field(raw, "script", _text, "a path", "plan")
    steps = _field(raw, "steps", _positive, "a positive integer", "plan")
    snapshot = raw.get("snapshot")
    if snapshot is not None and not _text(snapshot):
        raise PlanError("plan: `snapshot` must be a path or null")
    findings_raw = _field(raw, "findings", lambda v: isinstance(v, list), "a list", "plan")
    findings = [_finding(item, index) for index, item in enumerate(findings_raw)]
    return Plan(script, steps, snapshot, findings)


def load(path):
    """Reads and checks the plan file; raises PlanError (also for unreadable or invalid JSON)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise PlanError("cannot read %s: %s" % (path, error.strerror or error))
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise PlanError("%s is not valid JSON: %s" % (path, error))
    return parse(raw)
