"""When the probe stops a run: every measured loop has `steps` iterations or cannot get more soon,
whatever loops enclose it (stopping.py), and the progress file sealint reads meanwhile."""
import json
import os
import unittest

from tests import helpers

# An epoch loop around a training function, as real scripts have it; each epoch is long enough
# that running them all would take many seconds.
EPOCHS = """
import time
def train(epoch):
    for batch in range(200):  # INNER
        time.sleep(0.01)  # INNER_END
def evaluate():
    for batch in range(3):  # EVAL
        time.sleep(0.001)  # EVAL_END
def unused():
    for batch in range(3):  # UNUSED
        pass  # UNUSED_END
for epoch in range(50):  # OUTER
    train(epoch)
    evaluate()  # OUTER_END
"""


def watched(path, text, ident, loop, end, variables=()):
    """A plan entry for a loop no finding is in (rule `loop`), as sealint writes it."""
    entry = helpers.finding(path, text, list(variables), ident=ident, loop=loop, end=end,
                            leak=end)
    entry["rule"] = "loop"
    return entry


class StoppingTest(helpers.ScriptCase, unittest.TestCase):
    def run_plan(self, findings, steps, probe_args=()):
        plan = helpers.plan(self.path, findings, steps=steps)
        run = helpers.run_probe(self.folder, plan, self.path, probe_args=probe_args, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.result

    def setUp(self):
        super().setUp()
        self.path, self.text = self.script(EPOCHS)

    def loop(self, result, marker):
        line = helpers.marker_line(self.text, marker)
        return next(loop for loop in result["loops"] if loop["line"] == line)

    def test_an_enclosing_epoch_loop_does_not_hold_the_run(self):
        # Watched loops without variables count too: only their loop memory is measured.
        result = self.run_plan([watched(self.path, self.text, 0, "INNER", "INNER_END"),
                                watched(self.path, self.text, 1, "OUTER", "OUTER_END")], steps=5)
        self.assertEqual(result["exit"]["kind"], "stopped")
        inner, outer = self.loop(result, "INNER"), self.loop(result, "OUTER")
        # Stopped inside the first epoch: not held until the epoch loop had iterations of its own.
        self.assertEqual(inner["entries"], 1)
        self.assertEqual(inner["iterations"], 5)
        self.assertEqual(outer["iterations"], 0)
        self.assertEqual(outer["encloses"], [result["loops"].index(inner)])
        self.assertEqual(inner["encloses"], [])

    def test_a_short_loop_left_does_not_hold_the_run(self):
        # The evaluation loop has 3 iterations per epoch: once it was run and left, the run
        # stops rather than waiting for later epochs to add more.
        result = self.run_plan([watched(self.path, self.text, 0, "INNER", "INNER_END"),
                                watched(self.path, self.text, 1, "EVAL", "EVAL_END")], steps=5)
        self.assertEqual(result["exit"]["kind"], "stopped")
        self.assertEqual(self.loop(result, "EVAL")["iterations"], 3)
        self.assertEqual(self.loop(result, "INNER")["entries"], 2)

    def test_a_flagged_enclosing_loop_gets_its_steps_when_they_come_soon(self):
        path, text = self.script(EPOCHS.replace("range(200)", "range(2)"))
        self.path, self.text = path, text
        flagged = helpers.finding(path, text, ["epoch"], ident=1, loop="OUTER", end="OUTER_END",
                                  leak="OUTER_END")
        result = self.run_plan([watched(path, text, 0, "INNER", "INNER_END"), flagged], steps=4)
        self.assertEqual(result["exit"]["kind"], "stopped")
        self.assertEqual(self.loop(result, "OUTER")["iterations"], 4)

    def test_an_optional_region_never_entered_does_not_hold_the_run(self):
        # A loop of a module the script imports, in a function the run never calls.
        unused = watched(self.path, self.text, 1, "UNUSED", "UNUSED_END")
        unused["loop"]["optional"] = True
        result = self.run_plan([watched(self.path, self.text, 0, "INNER", "INNER_END"), unused],
                               steps=5)
        self.assertEqual(result["exit"]["kind"], "stopped")
        # Stopped inside the first epoch, not held for a region that never runs.
        self.assertEqual(self.loop(result, "INNER")["entries"], 1)
        self.assertEqual(self.loop(result, "UNUSED")["entries"], 0)

    def test_progress_file_tells_the_iterations_so_far(self):
        progress = os.path.join(self.folder, "progress.json")
        self.run_plan([watched(self.path, self.text, 0, "INNER", "INNER_END")], steps=30,
                      probe_args=["--progress", progress])
        with open(progress) as handle:
            doc = json.load(handle)
        self.assertEqual(doc["steps"], 30)
        self.assertGreater(doc["elapsed"], 0)
        self.assertEqual([loop["line"] for loop in doc["loops"]],
                         [helpers.marker_line(self.text, "INNER")])
        self.assertGreaterEqual(doc["loops"][0]["iterations"], 1)


if __name__ == "__main__":
    unittest.main()
