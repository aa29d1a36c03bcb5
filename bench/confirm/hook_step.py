# A PyTorch Lightning module whose training_step keeps every batch's loss tensor (SL002 in a
# hook: no loop in the file, the framework calls the step once per batch). Confirm mode counts
# the hook's calls. Runs under real Lightning, or bench/confirm/stand_in's loop where it is absent.
import argparse

import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Classifier(pl.LightningModule):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(256, width), nn.ReLU(), nn.Linear(width, 10))
        self.step_losses = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        self.step_losses.append(loss)  # keeps every batch's graph until the epoch ends
        return loss

    def on_train_epoch_end(self):
        self.step_losses.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--width", type=int, default=1024)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(args.batches * 64, 256),
                         torch.randint(0, 10, (args.batches * 64,)))
    trainer = pl.Trainer(max_epochs=1, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(Classifier(args.width), DataLoader(data, batch_size=64))


if __name__ == "__main__":
    main()
