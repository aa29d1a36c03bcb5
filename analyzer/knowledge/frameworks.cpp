#include "analyzer/knowledge/frameworks.h"

#include <algorithm>
#include <array>
#include <string>

#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

constexpr std::string_view kLightning = "PyTorch Lightning";
constexpr std::string_view kTransformers = "Hugging Face Transformers";

constexpr std::array kHooks = {
    FrameworkHook{kLightning, "LightningModule", "lightning", "training_step", true},
    FrameworkHook{kLightning, "LightningModule", "lightning", "on_train_batch_end", true},
    FrameworkHook{kLightning, "LightningModule", "lightning", "validation_step", false},
    FrameworkHook{kLightning, "LightningModule", "lightning", "test_step", false},
    FrameworkHook{kLightning, "LightningModule", "lightning", "predict_step", false},
    FrameworkHook{kTransformers, "Trainer", "transformers", "compute_loss", true},
    FrameworkHook{kTransformers, "Trainer", "transformers", "training_step", true},
    FrameworkHook{"skorch", "NeuralNet", "skorch", "train_step", true},
    FrameworkHook{"skorch", "NeuralNet", "skorch", "train_step_single", true},
    FrameworkHook{"skorch", "NeuralNet", "skorch", "validation_step", false},
    FrameworkHook{"torchmetrics", "Metric", "torchmetrics", "update", false},
};

}  // namespace

std::span<const FrameworkHook> framework_hooks() {
  return kHooks;
}

const FrameworkHook* framework_hook(std::string_view base_qualified, std::string_view method) {
  const std::string_view last = last_component(base_qualified);
  const std::string qualified = lowercase(base_qualified);
  const auto* found = std::find_if(kHooks.begin(), kHooks.end(), [&](const FrameworkHook& hook) {
    return hook.method == method && hook.base == last &&
           (hook.package.empty() || qualified.find(hook.package) != std::string::npos);
  });
  return found == kHooks.end() ? nullptr : &*found;
}

}  // namespace sealint::knowledge
