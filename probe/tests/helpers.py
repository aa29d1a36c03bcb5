"""Writes a script and a plan to a temp folder and runs the probe on them as sealint would."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

PROBE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def marker_line(text, marker):
    """1-based line of the first line whose comment has the word `marker` (`# LEAK END`)."""
    for number, line in enumerate(text.splitlines(), 1):
        if "#" in line and marker in line.split("#", 1)[1].split():
            return number
    raise AssertionError("no marker %s" % marker)


def finding(script_path, text, variables, ident=0, measure="growth", loop="LOOP", end="END",
            leak="LEAK"):
    loop_info = None
    if loop is not None:
        loop_info = {"file": script_path, "line": marker_line(text, loop),
                     "end_line": marker_line(text, end)}
    return {"id": ident, "rule": "SL001", "path": os.path.basename(script_path),
            "file": script_path, "line": marker_line(text, leak), "column": 1,
            "measure": measure, "loop": loop_info, "variables": variables}


def plan(script_path, findings, steps=5, snapshot=None):
    return {"format": "sealint-confirm-plan", "version": 1, "script": script_path,
            "steps": steps, "snapshot": snapshot, "findings": findings}


class Run(object):
    def __init__(self, returncode, result, stdout, stderr):
        self.returncode = returncode
        self.result = result
        self.stdout = stdout
        self.stderr = stderr


def env(extra_path=None):
    environment = dict(os.environ)
    paths = [PROBE_ROOT]
    if extra_path:
        paths.insert(0, extra_path)
    environment["PYTHONPATH"] = os.pathsep.join(paths)
    return environment


def run_probe(folder, plan_doc, script_path, args=(), python=None, stdout=None, timeout=120,
              extra_path=None, probe_args=()):
    """Runs `python -m sealint_probe` with stdin from /dev/null; returns a Run."""
    plan_path = os.path.join(folder, "plan.json")
    out_path = os.path.join(folder, "result.json")
    if plan_doc is not None:
        with open(plan_path, "w") as handle:
            json.dump(plan_doc, handle)
    command = [python or sys.executable, "-m", "sealint_probe", "--plan", plan_path,
               "--out", out_path] + list(probe_args) + ["--", script_path] + list(args)
    completed = subprocess.run(command, stdin=subprocess.DEVNULL,
                               stdout=stdout if stdout is not None else subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env(extra_path), timeout=timeout,
                               cwd=folder)
    result = None
    if os.path.exists(out_path):
        with open(out_path) as handle:
            result = json.load(handle)
    out = completed.stdout.decode("utf-8", "replace") if completed.stdout is not None else ""
    return Run(completed.returncode, result, out, completed.stderr.decode("utf-8", "replace"))


class ScriptCase(object):
    """Mixin for unittest.TestCase: a temp folder and a script in it."""

    def setUp(self):
        self._temp = tempfile.TemporaryDirectory(prefix="sealint_probe_test_")
        self.folder = self._temp.name

    def tearDown(self):
        self._temp.cleanup()

    def script(self, text, name="train.py"):
        text = textwrap.dedent(text).lstrip("\n")
        path = os.path.join(self.folder, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path, text
