"""End-to-end: the probe run as a subprocess on small scripts, as sealint runs it."""
import os
import shutil
import subprocess
import sys
import unittest

from tests import helpers

# A tiny model and one training step; the scripts below add their loop around it.
PRELUDE = """
import sys
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
def step():
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(torch.randn(4, 4)), torch.randn(4, 1))
    loss.backward()
    optimizer.step()
    return loss
"""


def differences(series):
    return [b - a for a, b in zip(series, series[1:])]


class ProbeTest(helpers.ScriptCase, unittest.TestCase):
    def probe(self, text, variables, steps=5, args=(), **finding_options):
        path, text = self.script(PRELUDE + text)
        plan = helpers.plan(path, [helpers.finding(path, text, variables, **finding_options)],
                            steps=steps)
        run = helpers.run_probe(self.folder, plan, path, args)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIsNotNone(run.result, run.stderr)
        self.assertEqual(run.result["format"], "sealint-confirm-result")
        return run

    def series(self, run, metric, variable=0, finding=0):
        return run.result["findings"][finding]["variables"][variable]["series"][metric]

    def test_leaky_total_grows_by_a_constant(self):
        run = self.probe("""
def train():
    total = 0
    for _ in range(100):  # LOOP
        loss = step()
        total += loss  # LEAK END
train()
""", ["total"], steps=6)
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        self.assertEqual(run.result["loops"][0]["iterations"], 6)
        graph = self.series(run, "graph_nodes")
        self.assertEqual(len(graph), 7)
        self.assertIsNone(graph[0])  # `total` is still the int 0 when the loop is entered
        steps = differences(graph[1:])
        self.assertTrue(all(d > 0 for d in steps), graph)
        self.assertEqual(len(set(steps)), 1, graph)
        self.assertEqual(self.series(run, "requires_grad")[1:], [True] * 6)
        self.assertIsNone(self.series(run, "length"))
        self.assertEqual(len(run.result["loops"][0]["series"]["live_tensor_bytes"]), 7)
        self.assertIsNone(run.result["loops"][0]["series"]["cuda_allocated_bytes"])
        self.assertEqual(run.result["device"], "cpu")
        self.assertIsNone(run.result["findings"][0]["cuda_blocks"])
        self.assertEqual(run.result["errors"], [])

    def test_fixed_total_measures_nothing(self):
        run = self.probe("""
def train():
    total = 0.0
    for _ in range(100):  # LOOP
        loss = step()
        total += loss.item()  # LEAK END
train()
""", ["total"])
        for metric in ("graph_nodes", "tensor_bytes", "length", "requires_grad"):
            self.assertIsNone(self.series(run, metric), metric)
        self.assertEqual(run.result["findings"][0]["iterations"], 5)

    def test_list_append_grows_length_and_graph(self):
        run = self.probe("""
losses = []
for _ in range(100):  # LOOP
    losses.append(step())  # LEAK END
""", ["losses"])
        self.assertEqual(self.series(run, "length"), [0, 1, 2, 3, 4, 5])
        graph = self.series(run, "graph_nodes")
        self.assertEqual(graph[0], 0)
        self.assertTrue(all(d > 0 for d in differences(graph)), graph)
        self.assertEqual(self.series(run, "tensor_bytes")[0], 0)
        self.assertIsNone(self.series(run, "requires_grad")[0])
        self.assertTrue(self.series(run, "requires_grad")[-1])

    def test_loop_never_reached(self):
        run = self.probe("""
def never():
    total = 0
    for _ in range(3):  # LOOP
        total += step()  # LEAK END
print("done")
""", ["total"])
        self.assertEqual(run.result["exit"], {"kind": "completed", "code": 0, "exception": None})
        loop = run.result["loops"][0]
        self.assertEqual((loop["iterations"], loop["entries"]), (0, 0))
        self.assertEqual(loop["series"]["live_tensor_bytes"], [])
        self.assertEqual(self.series(run, "graph_nodes"), [])
        self.assertEqual(run.stdout, "done\n")

    def test_exception_mid_loop_keeps_samples(self):
        run = self.probe("""
total = 0
for i in range(100):  # LOOP
    total += step()  # LEAK
    if i == 2:
        raise ValueError("boom " + "x" * 2000)  # RAISE END
""", ["total"])
        exit_info = run.result["exit"]
        self.assertEqual(exit_info["kind"], "exception")
        self.assertEqual(exit_info["exception"]["type"], "ValueError")
        self.assertLess(len(exit_info["exception"]["message"]), 600)
        path = os.path.join(self.folder, "train.py")
        self.assertEqual(os.path.realpath(exit_info["exception"]["file"]), os.path.realpath(path))
        with open(path) as handle:
            text = handle.read()
        self.assertEqual(exit_info["exception"]["line"], helpers.marker_line(text, "RAISE"))
        self.assertEqual(run.result["loops"][0]["iterations"], 2)
        self.assertEqual(len(self.series(run, "graph_nodes")), 3)
        self.assertIn("ValueError: boom", run.stderr)  # the traceback, as python prints it
        self.assertNotIn("runpy", run.stderr)

    def test_sys_exit_code(self):
        run = self.probe("""
total = 0
for i in range(100):  # LOOP
    total += step()  # LEAK
    if i == 1:
        sys.exit(3)  # END
""", ["total"])
        self.assertEqual(run.result["exit"], {"kind": "exit", "code": 3, "exception": None})
        self.assertEqual(run.result["loops"][0]["iterations"], 1)

    def test_while_true_is_stopped_after_steps(self):
        run = self.probe("""
total = 0
while True:  # LOOP
    total += step()
    total = total * 1  # LEAK END
""", ["total"], steps=4)
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        self.assertEqual(run.result["loops"][0]["iterations"], 4)
        self.assertEqual(len(self.series(run, "graph_nodes")), 5)

    def test_stdin_gives_eof(self):
        run = self.probe("""
data = sys.stdin.read()
total = 0
for _ in range(3):  # LOOP
    total += step()  # LEAK END
print("read %d" % len(data))
""", ["total"], steps=10)
        self.assertEqual(run.result["exit"]["kind"], "completed")
        self.assertEqual(run.result["loops"][0]["iterations"], 3)
        self.assertEqual(run.stdout, "read 0\n")

    def test_output_is_left_alone_and_flushed_at_stop(self):
        path, text = self.script(PRELUDE + """
total = 0
for i in range(100):  # LOOP
    print(("line %d " % i) * 20)
    total += step()  # LEAK END
""")
        plan = helpers.plan(path, [helpers.finding(path, text, ["total"])], steps=5)
        output = os.path.join(self.folder, "stdout.txt")
        with open(output, "wb") as handle:
            run = helpers.run_probe(self.folder, plan, path, stdout=handle)
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        with open(output) as handle:
            lines = handle.read().splitlines()
        self.assertEqual(len(lines), 5)  # printed before the stop, flushed despite os._exit
        self.assertTrue(lines[4].startswith("line 4 "))

    def test_dataloader_workers_do_not_count_or_write(self):
        # The flagged loop in __getitem__ runs only in the forked workers: it must stay at 0.
        run = self.probe("""
class Data(torch.utils.data.Dataset):
    def __len__(self):
        return 16
    def __getitem__(self, index):
        acc = 0
        for k in range(3):  # WORKER_LOOP
            acc += k  # WORKER_END
        return torch.randn(4) + acc

def main():
    loader = torch.utils.data.DataLoader(Data(), batch_size=4, num_workers=2)
    total = 0
    for epoch in range(2):
        for batch in loader:  # LOOP
            total += model(batch).sum()  # LEAK END
    print("epochs done")

if __name__ == "__main__":
    torch.multiprocessing.set_start_method("fork", force=True)
    main()
""", ["total"], steps=8)
        # the loop ran 4 batches in each of 2 epochs: 8 iterations over 2 entries
        loop = run.result["loops"][0]
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        self.assertEqual((loop["iterations"], loop["entries"]), (8, 2))
        self.assertEqual(len(self.series(run, "graph_nodes")), 9)
        leftovers = [n for n in os.listdir(self.folder) if n.endswith(".tmp")]
        self.assertEqual(leftovers, [])

    def test_dataloader_loop_in_workers_only(self):
        path, text = self.script(PRELUDE + """
class Data(torch.utils.data.Dataset):
    def __len__(self):
        return 8
    def __getitem__(self, index):
        acc = 0
        for k in range(3):  # WLOOP
            acc += k  # WEND
        return torch.randn(4) + acc

if __name__ == "__main__":
    torch.multiprocessing.set_start_method("fork", force=True)
    loader = torch.utils.data.DataLoader(Data(), batch_size=2, num_workers=2)
    total = 0
    for batch in loader:  # LOOP
        total += model(batch).sum()  # LEAK END
    print("done")
""")
        findings = [helpers.finding(path, text, ["total"]),
                    helpers.finding(path, text, ["acc"], ident=1, loop="WLOOP", end="WEND",
                                    leak="WEND")]
        run = helpers.run_probe(self.folder, helpers.plan(path, findings, steps=2), path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["exit"]["kind"], "completed")  # the worker loop never ran here
        self.assertEqual(run.result["loops"][0]["iterations"], 4)
        self.assertEqual(run.result["loops"][1]["iterations"], 0)
        self.assertEqual(run.stdout, "done\n")

    def test_method_attribute_path(self):
        run = self.probe("""
class Trainer(object):
    def __init__(self):
        self.total = 0
    def fit(self, n):
        def helper(x):
            return [v for v in x]
        for _ in helper(range(n)):  # LOOP
            self.total += step()  # LEAK END
        return self.total
Trainer().fit(50)
""", ["self.total", "self.missing.attr", "nowhere"])
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        graph = self.series(run, "graph_nodes")
        self.assertEqual(len(graph), 6)
        self.assertIsNone(graph[0])
        self.assertTrue(all(d > 0 for d in differences(graph[1:])), graph)
        self.assertIsNone(self.series(run, "graph_nodes", variable=1))
        self.assertIsNone(self.series(run, "graph_nodes", variable=2))
        self.assertEqual(run.result["errors"], [])

    def test_multiline_header_and_nested_loop(self):
        run = self.probe("""
def train(epochs):
    total = 0
    for epoch in range(epochs):
        for i in range(  # LOOP
                3):
            total += step()  # LEAK END
    return total
train(3)
""", ["total"], steps=20)
        loop = run.result["loops"][0]
        self.assertEqual(run.result["exit"]["kind"], "completed")
        self.assertEqual((loop["iterations"], loop["entries"]), (9, 3))
        self.assertEqual(len(self.series(run, "graph_nodes")), 10)


    def test_relative_script_and_chdir(self):
        path, text = self.script(PRELUDE + """
import os, tempfile
os.chdir(tempfile.gettempdir())
def train():
    total = 0
    for _ in range(100):  # LOOP
        total += step()  # LEAK END
train()
""")
        plan = helpers.plan(path, [helpers.finding(path, text, ["total"])], steps=3)
        run = helpers.run_probe(self.folder, plan, "train.py")  # relative to the probe's cwd
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["exit"]["kind"], "stopped")
        self.assertEqual(run.result["loops"][0]["iterations"], 3)


class CommandLineTest(helpers.ScriptCase, unittest.TestCase):
    def setUp(self):
        super(CommandLineTest, self).setUp()
        self.path, self.text = self.script("""
total = 0
for i in range(3):  # LOOP
    total += i  # LEAK END
""")

    def good_plan(self):
        return helpers.plan(self.path, [helpers.finding(self.path, self.text, ["total"])])

    def assertBadPlan(self, plan_doc, words):
        run = helpers.run_probe(self.folder, plan_doc, self.path)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("sealint_probe: bad plan", run.stderr)
        self.assertIn(words, run.stderr)
        self.assertIsNone(run.result)

    def test_bad_plans(self):
        plan = self.good_plan()
        plan["version"] = 2
        self.assertBadPlan(plan, "`version` 2 is not supported")
        plan = self.good_plan()
        plan["format"] = "something-else"
        self.assertBadPlan(plan, "`format`")
        plan = self.good_plan()
        plan["findings"][0]["variables"] = ["x + 1"]
        self.assertBadPlan(plan, "findings[0].variables[0]")
        plan = self.good_plan()
        del plan["findings"][0]["loop"]["end_line"]
        self.assertBadPlan(plan, "findings[0].loop: missing `end_line`")
        plan = self.good_plan()
        plan["steps"] = 0
        self.assertBadPlan(plan, "`steps`")
        with open(os.path.join(self.folder, "plan.json"), "w") as handle:
            handle.write("{not json")
        self.assertBadPlan(None, "not valid JSON")

    def test_cannot_import_torch(self):
        # A `torch` that fails to import, first on the path: works with any interpreter.
        fake = os.path.join(self.folder, "fake")
        os.mkdir(fake)
        with open(os.path.join(fake, "torch.py"), "w") as handle:
            handle.write("raise ImportError('No module named torch (fake)')\n")
        run = helpers.run_probe(self.folder, self.good_plan(), self.path, extra_path=fake)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn("sealint_probe: %s cannot import torch: No module named torch (fake)"
                      % sys.executable, run.stderr)
        self.assertIsNone(run.result)

    def test_interpreter_without_torch(self):
        python = _python_without_torch()
        if python is None:
            self.skipTest("no python3 without torch on PATH")
        run = helpers.run_probe(self.folder, self.good_plan(), self.path, python=python)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertRegex(run.stderr, r"^sealint_probe: \S+ cannot import torch: ")

    def test_integers_only_script_completes(self):
        run = helpers.run_probe(self.folder, self.good_plan(), self.path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["exit"]["kind"], "completed")
        self.assertEqual(run.result["loops"][0]["iterations"], 3)
        series = run.result["findings"][0]["variables"][0]["series"]
        self.assertEqual(series, {"graph_nodes": None, "tensor_bytes": None, "length": None,
                                  "requires_grad": None})

    def test_missing_snapshot_is_reported_on_cpu(self):
        plan = self.good_plan()
        plan["snapshot"] = os.path.join(self.folder, "mem.pickle")
        run = helpers.run_probe(self.folder, plan, self.path)
        self.assertEqual(run.returncode, 0, run.stderr)
        snapshot = run.result["snapshot"]
        self.assertEqual(snapshot["path"], plan["snapshot"])
        self.assertFalse(snapshot["written"])
        self.assertTrue(snapshot["error"])
        self.assertFalse(os.path.exists(plan["snapshot"]))

    def test_snapshot_option_overrides_the_plans_path(self):
        # A plan made on another machine names that machine's path; --snapshot names one here.
        plan = self.good_plan()
        plan["snapshot"] = "/elsewhere/mem.pickle"
        run = helpers.run_probe(self.folder, plan, self.path,
                                probe_args=["--snapshot", "here.pickle"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["snapshot"]["path"], os.path.join(self.folder, "here.pickle"))


def _python_without_torch():
    for name in ("python3", "python3.12", "python3.13"):
        python = shutil.which(name)
        if python is None or os.path.realpath(python) == os.path.realpath(sys.executable):
            continue
        try:
            check = subprocess.run([python, "-c", "import torch"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=helpers.env(), timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if check.returncode != 0:
            return python
    return None


if __name__ == "__main__":
    unittest.main()
