# Fixed: `total_loss += loss.item()` adds a Python float, so no graph outlives its step.
import argparse

import torch
from torch import nn


def train(model, optimizer, criterion, steps, batch_size, device):
    total_loss = 0
    for _ in range(steps):
        inputs = torch.randn(batch_size, 16, device=device)
        targets = torch.randn(batch_size, 1, device=device)
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()  # a float: the graph is freed with `loss`
    return total_loss / max(steps, 1)


def main():
    parser = argparse.ArgumentParser(description="Sum the loss as a number (no leak).")
    parser.add_argument("--steps", type=int, default=50, help="training steps")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--width", type=int, default=64, help="hidden layer width")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, args.width), nn.ReLU(), nn.Linear(args.width, 1))
    model.to(args.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    mean = train(model, optimizer, nn.MSELoss(), args.steps, args.batch_size,
                 args.device)
    print(f"mean loss over {args.steps} steps: {mean:.4f}")


if __name__ == "__main__":
    main()
