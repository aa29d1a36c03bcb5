"""SL006's evidence: grad mode when the finding's line runs, and the bytes autograd saves for
backward per iteration (saved.py), read by the probe run as a subprocess."""
import unittest

from tests import helpers

PRELUDE = """
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 4))
batches = [torch.randn(16, 64) for _ in range(30)]
"""

# What one forward saves that the model does not hold anyway: the input (16x64 floats) for the
# first weight's gradient and the ReLU output (16x128); not the parameters.
ACTIVATIONS = 16 * 64 * 4 + 16 * 128 * 4


def graph_finding(path, text, ident=0, loop="LOOP", end="END", leak="LEAK", variables=()):
    entry = helpers.finding(path, text, list(variables), ident=ident, measure="graph", loop=loop,
                            end=end, leak=leak)
    entry["rule"] = "SL006"
    entry["loop"]["saved_tensors"] = True
    return entry


class SavedTensorsTest(helpers.ScriptCase, unittest.TestCase):
    def run_plan(self, text, findings_of, steps=6):
        path, text = self.script(PRELUDE + text)
        plan = helpers.plan(path, findings_of(path, text), steps=steps)
        run = helpers.run_probe(self.folder, plan, path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIsNotNone(run.result, run.stderr)
        self.assertEqual(run.result["errors"], [])
        return run.result

    def test_grad_on_and_activations_saved_each_iteration(self):
        result = self.run_plan("""
def check(net):
    acc = 0
    for x in batches:  # LOOP
        acc += net(x).sum()  # LEAK END
check(model)
""", lambda path, text: [graph_finding(path, text)])
        finding = result["findings"][0]
        self.assertEqual(finding["grad_enabled"], [None] + [True] * 6)
        saved = result["loops"][0]["series"]["saved_tensor_bytes"]
        self.assertEqual(saved[0], None)  # the entry: no iteration ran yet
        self.assertEqual(saved[1:], [ACTIVATIONS] * 6)

    def test_grad_off_at_the_line_saves_nothing(self):
        # No finding would be made here by the rules (no_grad is in a caller the line does not
        # show); the probe reads what the line ran under.
        result = self.run_plan("""
def check(net):
    total = 0.0
    for x in batches:  # LOOP
        total += float(net(x).sum())  # LEAK END
    return total
torch.set_grad_enabled(False)
check(model)
""", lambda path, text: [graph_finding(path, text)])
        self.assertEqual(result["findings"][0]["grad_enabled"], [None] + [False] * 6)
        self.assertEqual(result["loops"][0]["series"]["saved_tensor_bytes"], [None] + [0] * 6)

    def test_the_line_in_a_helper_the_loop_calls(self):
        result = self.run_plan("""
def score(net, x):
    return net(x).sum()  # LEAK
def check(net):
    kept = []
    for x in batches:  # LOOP
        kept.append(score(net, x))  # END
check(model)
""", lambda path, text: [graph_finding(path, text)])
        self.assertEqual(result["findings"][0]["grad_enabled"], [None] + [True] * 6)
        self.assertEqual(result["loops"][0]["series"]["saved_tensor_bytes"][1:], [ACTIVATIONS] * 6)

    def test_an_inplace_change_of_a_saved_tensor_still_fails_backward(self):
        # Autograd leaves the version check of a saved tensor to the hooks: the probe makes it,
        # so that a script failing with "modified by an inplace operation" (SL005's symptom)
        # still fails, inside the counted loop and after it.
        result = self.run_plan("""
caught = []
def modify():
    y = torch.randn(3, requires_grad=True).sigmoid()
    y.mul_(2)
    try:
        y.sum().backward()
    except RuntimeError as error:
        caught.append("modified by an inplace operation" in str(error))
def check(net):
    for x in batches[:8]:  # LOOP
        out = net(x).sum()  # LEAK
        modify()  # END
check(model)
modify()
assert caught == [True] * 9, caught
""", lambda path, text: [graph_finding(path, text)], steps=100)
        self.assertEqual(result["exit"]["kind"], "completed", result["exit"])
        self.assertEqual(result["loops"][0]["iterations"], 8)

    def test_no_reference_cycle_through_saved_outputs(self):
        # A saved output (Sigmoid saves its result) kept by a hook that returned the tensor
        # itself would hold its own graph forever: tensors would pile up with no leak in the code.
        result = self.run_plan("""
import gc
net = nn.Sequential(nn.Linear(64, 32), nn.Sigmoid())
def count():
    gc.collect()
    return sum(1 for o in gc.get_objects() if issubclass(type(o), torch.Tensor))
counts = []
def check():
    for i in range(40):  # LOOP
        net(batches[i % 30]).sum().item()  # LEAK
        counts.append(count())  # END
    return counts
check()
assert counts[-1] == counts[5], counts
""", lambda path, text: [graph_finding(path, text)], steps=50)
        self.assertEqual(result["exit"]["kind"], "completed", result["exit"])


if __name__ == "__main__":
    unittest.main()
