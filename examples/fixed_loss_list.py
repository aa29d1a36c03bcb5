# Fixed: `losses.append(loss.item())` keeps Python floats, so no graph outlives its step.
import argparse

import torch
from torch import nn


def train(model, optimizer, criterion, steps, batch_size):
    losses = []
    for _ in range(steps):
        inputs = torch.randn(batch_size, 16)
        targets = torch.randn(batch_size, 1)
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())  # a float: the graph is freed with `loss`
    return sum(losses) / max(len(losses), 1)


def main():
    parser = argparse.ArgumentParser(description="Collect losses as numbers (no leak).")
    parser.add_argument("--steps", type=int, default=50, help="training steps")
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    mean = train(model, optimizer, nn.MSELoss(), args.steps, args.batch_size)
    print(f"mean loss over {args.steps} steps: {mean:.4f}")


if __name__ == "__main__":
    main()
