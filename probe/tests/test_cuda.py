"""The probe's CUDA path on a real device: memory_allocated per sample, allocation history, the
live blocks at a finding's lines and the snapshot. Skipped (and reported as skipped by unittest)
where torch sees no CUDA device; docs/confirm.md records the runs on a GPU machine."""
import os
import pickle
import unittest

from tests import helpers

try:
    import torch
    HAS_CUDA = bool(torch.cuda.is_available())
except Exception:  # a CPU-only or broken install
    HAS_CUDA = False

# One training step on the GPU. The script chooses the device itself, as real scripts do; the
# probe must not have initialised CUDA before (CUDA_VISIBLE_DEVICES is set first, on purpose).
PRELUDE = """
import os
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")
import torch
from torch import nn
torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
def step():
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(torch.randn(512, 256, device=device)),
                                  torch.randn(512, 1, device=device))
    loss.backward()
    optimizer.step()
    return loss
"""

# Training: backward() frees the saved activations of each graph, so the sum keeps graph nodes
# (CPU objects) but no GPU memory beyond its first steps.
TRAINING = """
def train():
    total = 0
    for _ in range(100):  # LOOP
        loss = step()
        total += loss  # LEAK END
    return total
train()
"""

FIXED = TRAINING.replace("total += loss  # LEAK END", "total += loss.item()  # LEAK END")

# Validation with autograd on: no backward() ever frees the graphs, so every batch's saved
# activations (512 x 1024 floats, 2 MiB, and more) stay allocated on the GPU.
VALIDATION = """
def validate():
    total = 0
    for _ in range(100):  # LOOP
        inputs = torch.randn(512, 256, device=device)
        total += nn.functional.mse_loss(model(inputs), torch.randn(512, 1, device=device))  # LEAK END
    return total
validate()
"""

# The leaky loop returns (freeing what it kept) before a second flagged loop reaches `steps`: its
# blocks must be counted while it still runs, not at the end of the run.
VALIDATION_THEN_MORE = VALIDATION.replace("range(100)", "range(30)") + """
def more():
    for _ in range(100):  # LOOP2
        step()  # LEAK2 END2
more()
"""

MIB = 1024 * 1024


@unittest.skipUnless(HAS_CUDA, "no CUDA device visible to torch")
class CudaTest(helpers.ScriptCase, unittest.TestCase):
    def probe(self, body, steps=12):
        path, text = self.script(PRELUDE + body)
        snapshot = os.path.join(self.folder, "mem.pickle")
        plan = helpers.plan(path, [helpers.finding(path, text, ["total"])], steps=steps,
                            snapshot=snapshot)
        run = helpers.run_probe(self.folder, plan, path, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.result["exit"]["kind"], "stopped", run.result["exit"])
        return run

    def allocated(self, run):
        allocated = run.result["loops"][0]["series"]["cuda_allocated_bytes"]
        self.assertIsNotNone(allocated, run.result["errors"])
        self.assertEqual(len(allocated), 13)
        return allocated

    def test_validation_leak_keeps_activations_and_blocks_point_at_the_loop(self):
        run = self.probe(VALIDATION)
        result = run.result
        self.assertTrue(result["device"].startswith("cuda:0"), result["device"])
        allocated = self.allocated(run)
        growth = [b - a for a, b in zip(allocated[1:], allocated[2:])]
        self.assertTrue(all(g >= 2 * MIB for g in growth), allocated)
        blocks = result["findings"][0]["cuda_blocks"]
        self.assertIsNotNone(blocks, result["errors"])
        # The leaked activations were allocated by the finding's line (inside the module's
        # forward, which the Python stack passes through).
        self.assertGreaterEqual(blocks["line"]["count"], 12, blocks)
        self.assertGreaterEqual(blocks["line"]["bytes"], 12 * 2 * MIB, blocks)
        self.assertGreaterEqual(blocks["loop"]["bytes"], blocks["line"]["bytes"])
        self.assertEqual(result["snapshot"]["written"], True, result["snapshot"])
        with open(result["snapshot"]["path"], "rb") as handle:
            snapshot = pickle.load(handle)
        segments = snapshot["segments"] if isinstance(snapshot, dict) else snapshot
        self.assertTrue(segments)

    def test_blocks_are_counted_while_the_loop_runs(self):
        path, text = self.script(PRELUDE + VALIDATION_THEN_MORE)
        findings = [helpers.finding(path, text, ["total"]),
                    helpers.finding(path, text, ["nothing"], ident=1, loop="LOOP2", end="END2",
                                    leak="LEAK2")]
        plan = helpers.plan(path, findings, steps=12)
        run = helpers.run_probe(self.folder, plan, path, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        first, second = (f["cuda_blocks"] for f in run.result["findings"])
        self.assertEqual(first["when"], "steps")
        self.assertGreaterEqual(first["line"]["bytes"], 12 * 2 * MIB, first)
        self.assertEqual(second["when"], "steps")
        # Counted halfway too: the line kept about half as much after 6 iterations.
        self.assertEqual(first["iteration"], 12)
        self.assertEqual(first["earlier"]["iteration"], 6)
        self.assertGreaterEqual(first["line"]["bytes"] - first["earlier"]["line"]["bytes"],
                                6 * 2 * MIB, first)

    def test_training_leak_grows_the_graph_not_gpu_memory(self):
        run = self.probe(TRAINING)
        graph = run.result["findings"][0]["variables"][0]["series"]["graph_nodes"]
        self.assertTrue(all(b > a for a, b in zip(graph[1:], graph[2:])), graph)
        allocated = self.allocated(run)
        # Flat once the first steps have made the gradients (a loss scalar per step at most).
        self.assertLessEqual(max(allocated[3:]) - min(allocated[3:]), 8 * 1024, allocated)

    def test_fixed_twin_stays_flat(self):
        allocated = self.allocated(self.probe(FIXED))
        self.assertEqual(len(set(allocated[3:])), 1, allocated)

    def test_sl006_grad_mode_and_saved_bytes_on_the_gpu(self):
        # SL006's evidence on CUDA: autograd on at the line, the activations each iteration
        # saves counted by the saved-tensor hooks (the first layer's input, 512 x 256 floats,
        # and the ReLU output, 512 x 1024: 2.5 MiB), and the GPU's count growing by as much
        # since the sum keeps every graph. The hooks' detached aliases must not add a cycle.
        path, text = self.script(PRELUDE + VALIDATION)
        entry = helpers.finding(path, text, [], measure="graph")
        entry["rule"] = "SL006"
        entry["loop"]["saved_tensors"] = True
        plan = helpers.plan(path, [entry], steps=12)
        run = helpers.run_probe(self.folder, plan, path, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        result = run.result
        self.assertEqual(result["findings"][0]["grad_enabled"], [None] + [True] * 12)
        saved = result["loops"][0]["series"]["saved_tensor_bytes"]
        activations = 512 * 256 * 4 + 512 * 1024 * 4
        self.assertTrue(all(value >= activations for value in saved[1:]), saved)
        allocated = result["loops"][0]["series"]["cuda_allocated_bytes"]
        growth = [b - a for a, b in zip(allocated[2:], allocated[3:])]
        self.assertTrue(all(g >= activations for g in growth), allocated)

    def test_a_fixed_validation_saves_nothing_and_stays_flat(self):
        path, text = self.script(PRELUDE + VALIDATION.replace(
            "    total = 0\n", "    total = 0\n    torch.set_grad_enabled(False)\n"))
        entry = helpers.finding(path, text, ["total"])
        entry["loop"]["saved_tensors"] = True
        plan = helpers.plan(path, [entry], steps=12)
        run = helpers.run_probe(self.folder, plan, path, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        loop = run.result["loops"][0]["series"]
        self.assertEqual(loop["saved_tensor_bytes"], [None] + [0] * 12)
        self.assertEqual(len(set(loop["cuda_allocated_bytes"][3:])), 1, loop)


if __name__ == "__main__":
    unittest.main()
