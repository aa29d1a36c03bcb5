"""In-process checks of the measuring (needs torch) and of reading CUDA snapshots of both layouts
(synthetic: no GPU needed)."""
import collections
import os
import sys
import tempfile
import unittest

from sealint_probe import cuda, measure, plan

try:
    import torch
except ImportError:  # the counting and snapshot tests still run
    torch = None


class _Finding(object):
    def __init__(self, file, line, loop):
        self.id, self.file, self.line, self.loop = 0, file, line, loop


class SnapshotTest(unittest.TestCase):
    def setUp(self):
        self.file = os.path.abspath(__file__)
        self.finding = _Finding(self.file, 12, plan.Loop(self.file, 10, 14))

    def frames(self, *lines):
        return [{"filename": "/usr/lib/torch/nn.py", "line": 3, "name": "f"}] + [
            {"filename": self.file, "line": line, "name": "train"} for line in lines]

    def test_torch2_layout(self):
        snapshot = {"segments": [{"blocks": [
            {"size": 512, "requested_size": 500, "state": "active_allocated",
             "frames": self.frames(12, 30)},
            {"size": 1024, "state": "active_allocated", "frames": self.frames(13)},
            {"size": 2048, "state": "inactive", "frames": self.frames(12)},
            {"size": 4096, "state": "active_allocated", "frames": self.frames(40)},
            {"size": 8192, "state": "active_allocated"},
        ]}], "device_traces": []}
        self.assertEqual(cuda._blocks_for(snapshot, self.finding, "steps"),
                         {"line": {"count": 1, "bytes": 512}, "loop": {"count": 2, "bytes": 1536},
                          "when": "steps"})

    def test_torch113_layout(self):
        snapshot = [{"blocks": [
            {"size": 512, "state": "active_allocated",
             "history": [{"addr": 1, "real_size": 500, "frames": self.frames(40)},
                         {"addr": 1, "real_size": 500, "frames": self.frames(12)}]},
            {"size": 256, "state": "active_allocated", "history": []},
        ]}]
        self.assertEqual(cuda._blocks_for(snapshot, self.finding, "end"),
                         {"line": {"count": 1, "bytes": 512}, "loop": {"count": 1, "bytes": 512},
                          "when": "end"})


class _Sneaky(list):
    """A list whose Python overrides must never run while measuring."""

    def __len__(self):
        raise AssertionError("__len__ called")

    def __iter__(self):
        raise AssertionError("__iter__ called")


@unittest.skipIf(torch is None, "needs torch")
class MeasureTest(unittest.TestCase):
    def setUp(self):
        self.measurer = measure.Measurer(torch)
        layer = torch.nn.Linear(3, 1)
        self.loss = layer(torch.randn(2, 3)).sum()

    def test_tensor(self):
        sample = self.measurer.value(self.loss)
        self.assertGreater(sample["graph_nodes"], 2)
        self.assertEqual(sample["tensor_bytes"], self.loss.numel() * 4)
        self.assertIs(sample["requires_grad"], True)
        self.assertIsNone(sample["length"])
        plain = self.measurer.value(torch.zeros(4))
        self.assertEqual((plain["graph_nodes"], plain["requires_grad"]), (0, False))

    def test_containers_share_one_graph_and_dedupe_storages(self):
        base = torch.zeros(10)
        held = [self.loss, self.loss * 2, base, base[2:]]
        sample = self.measurer.value(held)
        self.assertEqual(sample["length"], 4)
        self.assertEqual(sample["tensor_bytes"], 4 + 4 + 40)  # base and its view: one storage
        alone = self.measurer.value(self.loss)["graph_nodes"]
        self.assertEqual(sample["graph_nodes"], alone + 1)  # MulBackward on top of the shared graph
        nested = self.measurer.value({"a": (base,), "b": collections.deque([self.loss])})
        self.assertEqual((nested["length"], nested["tensor_bytes"]), (2, 44))
        self.assertIsNone(self.measurer.value([1, 2])["requires_grad"])

    def test_user_code_is_not_called(self):
        sneaky = _Sneaky([self.loss])
        self.assertEqual(self.measurer.value(sneaky)["length"], 1)

        class Loud(torch.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                raise AssertionError("__torch_function__ called")

        loud = torch.ones(2).as_subclass(Loud)
        with self.measurer.quiet():
            self.assertEqual(self.measurer.value(loud)["tensor_bytes"], 8)
            self.assertGreaterEqual(self.measurer.live_tensor_bytes(), 8)

    def test_other_values_are_null(self):
        for value in (3, 2.5, "text", None, torch.nn.Linear(1, 1), object()):
            self.assertEqual(self.measurer.value(value), measure.null_sample())

    def test_lookup(self):
        class Meter(object):
            pass

        meter = Meter()
        meter.sum = 7
        frame = sys._getframe()
        self.assertEqual(measure.lookup(frame, "meter.sum"), (7, None))
        self.assertEqual(measure.lookup(frame, "meter.nothing"), (measure.MISSING, None))
        self.assertEqual(measure.lookup(frame, "undefined_name"), (measure.MISSING, None))
        self.assertIs(measure.lookup(frame, "torch")[0], torch)  # a global
        self.assertEqual(measure.lookup(frame, "len"), (measure.MISSING, None))  # not builtins

        class Broken(object):
            @property
            def value(self):
                raise RuntimeError("no")

        broken = Broken()
        value, error = measure.lookup(sys._getframe(), "broken.value")
        self.assertIs(value, measure.MISSING)
        self.assertIn("RuntimeError: no", error)


class PlanTest(unittest.TestCase):
    def test_load_rejects_what_it_cannot_use(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "plan.json")
            with open(path, "w") as handle:
                handle.write('{"format": "sealint-confirm-plan", "version": 1, "script": "/x.py",'
                             ' "steps": true, "snapshot": null, "findings": []}')
            with self.assertRaises(plan.PlanError) as caught:
                plan.load(path)
            self.assertIn("`steps` must be a positive integer", str(caught.exception))
            with self.assertRaises(plan.PlanError):
                plan.load(os.path.join(folder, "missing.json"))


if __name__ == "__main__":
    unittest.main()
