# A running statistic updated in forward() from a value with a graph (SL001 in forward(): the
# model's caller runs it every step, and each step's graph is chained to the last). Confirm mode
# counts forward()'s calls; the training loop around it shows the same growth.
import argparse

import torch
from torch import nn


class Normalized(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)
        self.head = nn.Linear(width, 1)
        self.register_buffer("running_mean", torch.zeros(width))

    def forward(self, x):
        h = self.proj(x)
        self.running_mean = 0.99 * self.running_mean + 0.01 * h.mean(0)
        return self.head(h - self.running_mean)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Normalized(args.width).to(args.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(args.steps):
        loss = model(torch.randn(256, args.width, device=args.device)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()


if __name__ == "__main__":
    main()
