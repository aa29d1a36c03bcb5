# A minimal stand-in for PyTorch Lightning's training loop, for machines without Lightning:
# bench/confirm/cuda.sh puts this folder on PYTHONPATH only when `import pytorch_lightning`
# fails. Trainer.fit calls the module's training_step once per batch, as Lightning does.
import torch
from torch import nn


class LightningModule(nn.Module):
    def log(self, *args, **kwargs):
        pass


class Trainer(object):
    def __init__(self, max_epochs=1, accelerator="auto", **kwargs):
        self.max_epochs = max_epochs
        self.device = "cuda" if torch.cuda.is_available() and accelerator != "cpu" else "cpu"

    def fit(self, module, train_dataloaders):
        module.to(self.device)
        optimizer = module.configure_optimizers()
        for _ in range(self.max_epochs):
            for index, batch in enumerate(train_dataloaders):
                batch = [t.to(self.device) for t in batch]
                loss = module.training_step(batch, index)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            module.on_train_epoch_end()
