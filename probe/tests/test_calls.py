"""Regions whose steps are the calls of a function (a framework's hook, `forward()`): the probe
counts calls, samples before the first and after each return, and a loop that calls the function
runs it without enclosing it."""
import os
import unittest

from tests import helpers

# A stand-in for a framework's loop in a file of its own (not in the plan), calling the script's
# hook once per batch; `fit` runs `epochs` epochs of `batches` batches, and `evaluate` calls the
# evaluation hook 3 times per epoch.
FRAMEWORK = """
import time
def fit(module, epochs, batches, pause=0.0):
    for epoch in range(epochs):
        for batch in range(batches):
            module.training_step(batch)
            time.sleep(pause)
        for batch in range(3):
            module.validation_step(batch)
"""

HOOKS = """
import torch
import framework
def decorated(function):
    return function
class Module:
    def __init__(self):
        self.weight = torch.ones(3, requires_grad=True)
        self.losses = []
        self.scores = []

    @decorated
    def training_step(self, batch):  # HOOK
        loss = (self.weight * batch).sum()
        self.losses.append(loss)  # LEAK
        return loss  # HOOK_END

    def validation_step(self, batch):  # EVAL
        out = (self.weight * batch).sum()
        self.scores.append(out)
        return out  # EVAL_END

framework.fit(Module(), epochs=int(__import__("sys").argv[1]), batches=40)
"""


def calls_entry(path, text, ident, start, end, function, variables, measure="growth"):
    entry = helpers.finding(path, text, list(variables), ident=ident, loop=start, end=end,
                            leak=end, measure=measure)
    entry["loop"]["counts"] = "calls"
    entry["loop"]["function"] = function
    return entry


class CallsTest(helpers.ScriptCase, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.script(FRAMEWORK, name="framework.py")
        self.path, self.text = self.script(HOOKS)

    def run_plan(self, findings, steps, args=("1",)):
        plan = helpers.plan(self.path, findings, steps=steps)
        run = helpers.run_probe(self.folder, plan, self.path, args=args, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["errors"], [])
        return run.result

    def test_each_call_of_a_decorated_hook_is_a_step(self):
        result = self.run_plan([calls_entry(self.path, self.text, 0, "HOOK", "HOOK_END",
                                            "training_step", ["self.losses"])], steps=6)
        self.assertEqual(result["exit"]["kind"], "stopped")
        (region,) = result["loops"]
        self.assertEqual(region["counts"], "calls")
        self.assertEqual(region["function"], "training_step")
        self.assertEqual(region["iterations"], 6)
        series = result["findings"][0]["variables"][0]["series"]
        # Before the first call, then after each return: the list grows by one loss per call.
        self.assertEqual(series["length"], [0, 1, 2, 3, 4, 5, 6])
        self.assertEqual(result["findings"][0]["variables"][0]["held_by"][0]["where"],
                         "local of training_step")

    def test_locals_of_the_call_are_read_after_it_returns(self):
        result = self.run_plan([calls_entry(self.path, self.text, 0, "HOOK", "HOOK_END",
                                            "training_step", ["loss"], measure="graph")], steps=4)
        nodes = result["findings"][0]["variables"][0]["series"]["graph_nodes"]
        # The entry sample is taken before the function runs: its locals do not exist yet.
        self.assertIsNone(nodes[0])
        self.assertTrue(all(n and n > 0 for n in nodes[1:]), nodes)

    def test_a_hook_called_less_often_waits_only_for_a_grace_period(self):
        # The evaluation hook runs 3 times per epoch; the training hook has its 10 calls within
        # the first epoch. The run does not wait for 4 epochs of evaluation.
        result = self.run_plan([
            calls_entry(self.path, self.text, 0, "HOOK", "HOOK_END", "training_step",
                        ["self.losses"]),
            calls_entry(self.path, self.text, 1, "EVAL", "EVAL_END", "validation_step",
                        ["self.scores"]),
        ], steps=10, args=("100",))
        self.assertEqual(result["exit"]["kind"], "stopped")
        self.assertLess(result["seconds"], 30)
        hook, evaluation = result["loops"]
        self.assertGreaterEqual(hook["iterations"], 10)
        self.assertGreaterEqual(evaluation["iterations"], 3)

    def test_a_hook_never_called_holds_the_run_to_its_end(self):
        result = self.run_plan([calls_entry(self.path, self.text, 0, "EVAL", "EVAL_END",
                                            "validation_step", ["self.scores"])], steps=10)
        # One epoch calls it 3 times: the script ends first.
        self.assertEqual(result["exit"]["kind"], "completed")
        self.assertEqual(result["loops"][0]["iterations"], 3)

    def test_a_loop_calling_the_function_runs_it_without_enclosing_it(self):
        text = """
        import torch
        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.avg = torch.zeros(())
            def forward(self, x):  # FORWARD
                self.avg = 0.9 * self.avg + x.sum()
                return self.avg  # FORWARD_END
        model = Model()
        for step in range(500):  # LOOP
            model(torch.ones(2, requires_grad=True))  # END
        """
        self.path, self.text = self.script(text)
        loop = helpers.finding(self.path, self.text, [], ident=1, leak="END")
        loop["rule"] = "loop"
        result = self.run_plan([calls_entry(self.path, self.text, 0, "FORWARD", "FORWARD_END",
                                            "forward", ["self.avg"]), loop], steps=5, args=())
        self.assertEqual(result["exit"]["kind"], "stopped")
        forward, training = result["loops"]
        self.assertEqual(forward["iterations"], 5)
        self.assertEqual(training["iterations"], 5)
        self.assertEqual(training["runs"], [0])
        self.assertEqual(training["encloses"], [])

    def test_a_method_of_many_instances_follows_the_first(self):
        # Four blocks of one class run the same forward() every step: each step is one call of
        # the first block, whose own sum is sampled, not an interleaving of four objects.
        text = """
        import torch
        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.total = torch.zeros(())
            def forward(self, x):  # FORWARD
                self.total = self.total + x.sum()
                return x  # FORWARD_END
        blocks = torch.nn.Sequential(*[Block() for _ in range(4)])
        for step in range(500):
            blocks(torch.ones(2, requires_grad=True))
        """
        self.path, self.text = self.script(text)
        result = self.run_plan([calls_entry(self.path, self.text, 0, "FORWARD", "FORWARD_END",
                                            "forward", ["self.total"])], steps=6, args=())
        self.assertEqual(result["loops"][0]["iterations"], 6)
        nodes = result["findings"][0]["variables"][0]["series"]["graph_nodes"]
        self.assertTrue(all(b > a for a, b in zip(nodes[1:], nodes[2:])), nodes)

    def test_bad_calls_regions(self):
        entry = calls_entry(self.path, self.text, 0, "HOOK", "HOOK_END", "training_step", [])
        entry["loop"]["counts"] = "batches"
        plan = helpers.plan(self.path, [entry])
        run = helpers.run_probe(self.folder, plan, self.path)
        self.assertEqual(run.returncode, 2)
        self.assertIn("`counts` must be one of iterations/calls", run.stderr)
        entry["loop"]["counts"] = "calls"
        del entry["loop"]["function"]
        run = helpers.run_probe(self.folder, helpers.plan(self.path, [entry]), self.path)
        self.assertEqual(run.returncode, 2)
        self.assertIn("findings[0].loop: missing `function`", run.stderr)

    def test_a_function_not_found_in_the_source_is_matched_by_name(self):
        entry = calls_entry(self.path, self.text, 0, "HOOK", "HOOK_END", "training_step",
                            ["self.losses"])
        entry["loop"]["line"] += 1  # not the `def` line: the source does not confirm it
        plan = helpers.plan(self.path, [entry], steps=3)
        run = helpers.run_probe(self.folder, plan, self.path, args=("1",), timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("matching its name only", run.result["errors"][0])
        self.assertEqual(run.result["loops"][0]["iterations"], 3)


if __name__ == "__main__":
    unittest.main()
