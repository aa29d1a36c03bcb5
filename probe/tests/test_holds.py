"""What holds a growing value (holds.py): the chain from its root to the newest tensor with an
autograd graph, read without running the user's code."""
import collections
import sys
import unittest

import torch

from sealint_probe import holds, measure

HISTORY = {}  # a module global the chain can start from


def _graph_tensor():
    return torch.ones(2, requires_grad=True).sum()


class _Trainer(object):
    def __init__(self):
        self.history = {"lr": [0.1], "loss": [_graph_tensor() for _ in range(3)]}


class _Sneaky(list):
    def __iter__(self):
        raise AssertionError("__iter__ called")

    def __len__(self):
        raise AssertionError("__len__ called")


class HoldsTest(unittest.TestCase):
    def setUp(self):
        self.measurer = measure.Measurer(torch)

    def chain(self, path):
        # As the session does: the sample's lookup, then the chain from its values.
        frame = sys._getframe(1)
        values, where, _ = measure.lookup_path(frame, path)
        return holds.chain(path, values, where, frame.f_code.co_name, self.measurer)

    def names(self, links):
        return [link["name"] for link in links]

    def test_attribute_path_then_down_to_the_newest_tensor(self):
        trainer = _Trainer()  # noqa: F841 (read through the frame)
        links = self.chain("trainer.history")
        self.assertEqual(self.names(links), ["trainer", ".history", "['loss']", "[2]"])
        self.assertEqual(links[0]["type"], "_Trainer")
        self.assertEqual(links[0]["where"], "local of test_attribute_path_then_down_to_the_newest_tensor")
        self.assertEqual(links[1]["length"], 2)
        self.assertEqual(links[2]["length"], 3)
        self.assertEqual(links[3]["grad_fn"], "SumBackward0")

    def test_a_tensor_itself_and_a_global(self):
        total = _graph_tensor()  # noqa: F841
        self.assertEqual(self.names(self.chain("total")), ["total"])
        HISTORY["loss"] = [_graph_tensor()]
        try:
            links = self.chain("HISTORY")
            self.assertEqual(links[0]["where"], "global")
            self.assertEqual(self.names(links), ["HISTORY", "['loss']", "[0]"])
        finally:
            HISTORY.clear()

    def test_deques_and_tuples(self):
        window = collections.deque([(1, _graph_tensor())])  # noqa: F841
        self.assertEqual(self.names(self.chain("window")), ["window", "[...]", "[1]"])

    def test_nothing_with_a_graph_gives_none(self):
        numbers = [1.0, 2.0]  # noqa: F841
        detached = [_graph_tensor().detach()]  # noqa: F841
        self.assertIsNone(self.chain("numbers"))
        self.assertIsNone(self.chain("detached"))
        self.assertIsNone(self.chain("unbound_name"))

    def test_user_code_is_not_called(self):
        sneaky = _Sneaky([_graph_tensor()])  # noqa: F841
        links = self.chain("sneaky")
        self.assertEqual(self.names(links), ["sneaky", "[0]"])
        self.assertEqual(links[0]["type"], "_Sneaky")


if __name__ == "__main__":
    unittest.main()
