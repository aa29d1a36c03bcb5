# Mixed precision (autocast and GradScaler) with a torch.compile'd model where torch has it: the
# training step of current scripts. `running_loss += loss` keeps every step's graph (SL001). On a
# GPU it checks that the probe's sys.settrace and torch.compile coexist and what the verdict says.
import argparse

import torch
from torch import nn


def train(model, optimizer, scaler, steps, device):
    running_loss = 0.0
    for _ in range(steps):
        inputs = torch.randn(256, 512, device=device)
        targets = torch.randint(0, 10, (256,), device=device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device.split(":")[0], enabled=device != "cpu"):
            loss = nn.functional.cross_entropy(model(inputs), targets)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        running_loss += loss  # a tensor: each step's graph stays reachable through the sum
    return running_loss / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--no-compile", action="store_true")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 10)).to(args.device)
    compile_model = getattr(torch, "compile", None)
    if compile_model is not None and not args.no_compile:
        model = compile_model(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler(enabled=args.device.startswith("cuda"))
    print(f"mean loss {float(train(model, optimizer, scaler, args.steps, args.device)):.4f}")


if __name__ == "__main__":
    main()
