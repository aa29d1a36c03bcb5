# Leaks: a validation loop sums the loss tensor with autograd on. No backward() ever frees these
# graphs' saved activations, so every batch's activations stay allocated until the loop ends:
# the leak that runs real validation passes out of memory.
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def validate(model, criterion, loader):
    model.eval()
    total_loss = 0
    for inputs, targets in loader:
        total_loss += criterion(model(inputs), targets)
    return float(total_loss) / max(len(loader), 1)


def main():
    parser = argparse.ArgumentParser(description="Validate with autograd on (leaks).")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 10)).to(args.device)
    data = TensorDataset(torch.randn(256 * args.steps, 512, device=args.device),
                         torch.randint(0, 10, (256 * args.steps,), device=args.device))
    print(validate(model, nn.CrossEntropyLoss(), DataLoader(data, batch_size=256)))


if __name__ == "__main__":
    main()
