# A realistic-sized CPU training step for bench/confirm_overhead.sh: a 3-layer MLP on batches of
# 256, with the SL001 leak (`total += loss`) so that sealint confirm has a finding to measure.
import argparse

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                          nn.Linear(1024, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    total = 0
    for _ in range(args.steps):
        inputs = torch.randn(256, 512)
        targets = torch.randint(0, 10, (256,))
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        total += loss
    print(float(total) / args.steps)


if __name__ == "__main__":
    main()
