"""How long one pass of a loop is (docs/confirm.md, `loops[].length`): read at the loop's first
entry from what the plan says its iterable is, only where len() runs none of the script's code."""
import unittest

from tests import helpers

SCRIPT = """
import torch
from torch.utils.data import DataLoader, TensorDataset
class Rows:
    calls = 0
    def __len__(self):
        Rows.calls += 1
        raise RuntimeError("the probe must not call this")
    def __iter__(self):
        return iter(range(4))
loader = DataLoader(TensorDataset(torch.zeros(40, 2)), batch_size=8)
rows = [1, 2, 3]
steps = 6
for batch in loader:  # LOADER
    pass  # LOADER_END
for row in rows:  # ROWS
    pass  # ROWS_END
for step in range(steps):  # STEPS
    pass  # STEPS_END
custom = Rows()
for item in custom:  # CUSTOM
    pass  # CUSTOM_END
assert Rows.calls == 0
"""


class PassLengthTest(helpers.ScriptCase, unittest.TestCase):
    def test_lengths_of_dataloaders_containers_and_ranges(self):
        path, text = self.script(SCRIPT)
        entries = []
        for ident, (marker, key, value) in enumerate([
                ("LOADER", "length_of", "loader"), ("ROWS", "length_of", "rows"),
                ("STEPS", "count_of", "steps"), ("CUSTOM", "length_of", "custom")]):
            entry = helpers.finding(path, text, [], ident=ident, loop=marker,
                                    end=marker + "_END", leak=marker + "_END")
            entry["rule"] = "loop"
            entry["loop"][key] = value
            entries.append(entry)
        # More steps than any loop has: each is entered and left, and the script runs to its end.
        run = helpers.run_probe(self.folder, helpers.plan(path, entries, steps=100), path)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["exit"]["kind"], "completed", run.stderr)
        loops = {loop["line"]: loop for loop in run.result["loops"]}

        def loop(marker):
            return loops[helpers.marker_line(text, marker)]

        self.assertEqual(loop("LOADER")["length"], 5)
        self.assertEqual(loop("LOADER")["length_unit"], "epoch")
        self.assertEqual(loop("ROWS")["length"], 3)
        self.assertNotIn("length_unit", loop("ROWS"))
        self.assertEqual(loop("STEPS")["length"], 6)
        # The script's own class: its __len__ is not called (the script asserts so at its end).
        self.assertNotIn("length", loop("CUSTOM"))

    def test_bad_lengths_in_the_plan(self):
        path, text = self.script(SCRIPT)
        entry = helpers.finding(path, text, [], loop="ROWS", end="ROWS_END", leak="ROWS_END")
        entry["loop"]["length_of"] = "len(rows)"
        run = helpers.run_probe(self.folder, helpers.plan(path, [entry]), path)
        self.assertEqual(run.returncode, 2)
        self.assertIn("findings[0].loop: `length_of` must be a name or attribute path",
                      run.stderr)


if __name__ == "__main__":
    unittest.main()
