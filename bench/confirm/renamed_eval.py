# The validation-pass leak of examples/leaky_eval_loss.py written with names that say nothing of
# validation, in a method of a class: the loss is summed with its graph and no backward frees the
# activations. bench/confirm/cuda.sh confirms it with no rule
# selected (the growth is found by watching the loop that runs a model) and with SL006 alone.
import argparse

import torch
from torch import nn


class Tally:
    def __init__(self, net, pairs):
        self.net = net
        self.pairs = pairs

    def run(self):
        self.net.eval()
        lossfn = nn.CrossEntropyLoss()
        acc = 0
        for xb, yb in self.pairs:
            acc = acc + lossfn(self.net(xb), yb)
        return float(acc)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--grad-off", action="store_true", help="the fixed twin: autograd off")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 10)).to(args.device)
    pairs = [(torch.randn(256, 512, device=args.device),
              torch.randint(0, 10, (256,), device=args.device)) for _ in range(args.steps)]
    # Reached through getattr, so the analysis cannot tell: the run shows autograd off.
    getattr(torch, "set_grad_enabled")(not args.grad_off)
    print(Tally(net, pairs).run())


if __name__ == "__main__":
    main()
