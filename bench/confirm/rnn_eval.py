# Recurrent training with its hidden state carried across steps (SL005, SL010) and an evaluation
# loop without torch.no_grad() (SL006): the three per-iteration patterns confirm mode measures
# besides SL001/SL002, on whatever device is there (bench/confirm/cuda.sh runs it on a GPU).
import argparse

import torch
from torch import nn


def train(rnn, head, steps, device):
    hidden = torch.zeros(1, 32, 256, device=device)
    for _ in range(steps):
        out, hidden = rnn(torch.randn(32, 16, 64, device=device), hidden)
        loss = head(out[:, -1]).pow(2).mean()
        # retain_graph: the next step backpropagates through this one's graph again, via `hidden`
        loss.backward(retain_graph=True)


def evaluate(model, batches):
    model.eval()
    scores = []
    for inputs in batches:
        out = model(inputs)
        scores.append(out.sum().item())
    return scores


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    rnn = nn.GRU(64, 256, batch_first=True).to(args.device)
    head = nn.Linear(256, 1).to(args.device)
    train(rnn, head, args.steps, args.device)
    model = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 10)).to(args.device)
    batches = [torch.randn(256, 512, device=args.device) for _ in range(args.steps)]
    print(sum(evaluate(model, batches)))


if __name__ == "__main__":
    main()
