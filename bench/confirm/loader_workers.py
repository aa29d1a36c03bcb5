# A training loop fed by a DataLoader with worker processes and pinned memory (the shape of most
# real scripts), whose `losses.append(loss)` keeps every step's graph (SL002). On a GPU it checks
# that the probe's tracing and CUDA memory history leave forked workers and pinned copies working.
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(model, loader, optimizer, device):
    losses = []
    for inputs, targets in loader:
        inputs = inputs.to(device, non_blocking=True)
        targets = targets.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss)  # a tensor: the list keeps this step's graph reachable
    return losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=8192)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(args.samples, 256), torch.randint(0, 10, (args.samples,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True,
                        num_workers=args.workers, pin_memory=args.device.startswith("cuda"))
    model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 10)).to(args.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = train(model, loader, optimizer, args.device)
    print(f"{len(losses)} steps, last loss {losses[-1].item():.4f}")


if __name__ == "__main__":
    main()
