#include "analyzer/semantic/torch_code.h"

#include <string_view>

#include <gtest/gtest.h>

#include "analyzer/knowledge/ecosystem.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::lower_python;

bool torch_code(std::string_view code) {
  auto lowered = lower_python(std::string(code));
  return ir::is_torch_code(*lowered.module);
}

constexpr std::string_view kStep =
    "def fit(model, loader, optimizer, criterion):\n"
    "    for x, y in loader:\n"
    "        loss = criterion(model(x), y)\n"
    "        optimizer.zero_grad()\n"
    "        loss.backward()\n"
    "        optimizer.step()\n";

TEST(TorchCode, ImportingTorchOrALibraryOnItIsTorchCode) {
  EXPECT_TRUE(torch_code("import torch.nn as nn\n"));
  EXPECT_TRUE(torch_code("import pytorch_lightning as pl\n"));
  EXPECT_TRUE(torch_code("from lightning.pytorch import LightningModule\n"));
  EXPECT_TRUE(torch_code("from timm.models import create_model\n"));
  EXPECT_FALSE(torch_code("import numpy as np\nfrom .models import Net\n"));
}

TEST(TorchCode, AFileThatPlainlyTrainsIsTorchCodeWithoutTheImport) {
  EXPECT_TRUE(torch_code(std::string("from .models import Net\n") + std::string(kStep)));
  // `self.opt.step()` and `zero_grad()` alone name the optimizer too.
  EXPECT_TRUE(
      torch_code("class T:\n    def s(self, l):\n        l.backward()\n        "
                 "self.opt.step()\n"));
  EXPECT_TRUE(torch_code("def s(l, m):\n    m.zero_grad()\n    l.backward()\n"));
  // A trainer whose backward is in another module still clears and steps its optimizer.
  EXPECT_TRUE(torch_code("def s(self):\n    self.model.zero_grad()\n    self.optim.step()\n"));
}

TEST(TorchCode, OneVerbIsNotATrainingStep) {
  EXPECT_FALSE(torch_code("def s(l):\n    l.backward()\n"));
  EXPECT_FALSE(torch_code("def s(scheduler, env):\n    scheduler.step()\n    env.step(0)\n"));
  // `step()` of something that is not an optimizer, with a backward: a scheduler, an environment.
  EXPECT_FALSE(torch_code("def s(l, env):\n    l.backward()\n    env.step(0)\n"));
}

TEST(TorchCode, AnotherFrameworksImportWins) {
  EXPECT_FALSE(torch_code(std::string("from mxnet import autograd\n") + std::string(kStep)));
  EXPECT_FALSE(torch_code(std::string("import paddle\n") + std::string(kStep)));
  EXPECT_FALSE(torch_code("import tensorflow as tf\nfrom transformers import TFAutoModel\n"));
  // torch itself, imported, always counts.
  EXPECT_TRUE(torch_code("import torch\nimport tensorflow as tf\n"));
}

TEST(ImportFramework, ReadsTheTopLevelPackage) {
  using knowledge::import_framework;
  using knowledge::ImportFramework;
  EXPECT_EQ(import_framework("torchvision.models.resnet18"), ImportFramework::Torch);
  EXPECT_EQ(import_framework("transformers"), ImportFramework::Torch);
  EXPECT_EQ(import_framework("mxnet.gluon.nn"), ImportFramework::Other);
  EXPECT_EQ(import_framework("jax.numpy"), ImportFramework::Other);
  EXPECT_EQ(import_framework("torchy"), ImportFramework::None);
  EXPECT_EQ(import_framework(".models.Net"), ImportFramework::None);
  EXPECT_EQ(import_framework(""), ImportFramework::None);
}

}  // namespace
}  // namespace sealint
