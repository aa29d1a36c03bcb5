# Checks confirm mode's "runs out near iteration N" on a GPU: the validation leak of
# examples/leaky_eval_loss.py with batches made on the fly (no dataset held on the device), run
# with --until-oom until CUDA memory runs out, printing the iteration it did. `sealint confirm` on
# the same script (a bounded run) projects that iteration; bench/confirm/cuda.sh runs both.
import argparse

import torch
from torch import nn


def synthetic_loader(steps, device):
    for _ in range(steps):
        yield (torch.randn(256, 512, device=device),
               torch.randint(0, 10, (256,), device=device))


def validate(model, criterion, val_loader):
    model.eval()
    total_loss = 0
    iteration = 0
    for inputs, targets in val_loader:
        total_loss += criterion(model(inputs), targets)
        iteration += 1
    return total_loss, iteration


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--until-oom", action="store_true")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 10)).to(args.device)
    steps = 10**9 if args.until_oom else args.steps
    counted = [0]

    def counting_loader():
        for batch in synthetic_loader(steps, args.device):
            counted[0] += 1
            yield batch
    try:
        validate(model, nn.CrossEntropyLoss(), counting_loader())
    except torch.cuda.OutOfMemoryError:
        print("out of memory at iteration %d" % counted[0])


if __name__ == "__main__":
    main()
