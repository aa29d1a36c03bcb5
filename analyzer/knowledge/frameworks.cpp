#include "analyzer/knowledge/frameworks.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

constexpr std::string_view kLightning = "PyTorch Lightning";
constexpr std::string_view kTransformers = "Hugging Face Transformers";
constexpr std::string_view kKeras = "Keras";

constexpr std::array kHooks = {
    // Lightning 1.x keeps each training_step output for `training_epoch_end` and detaches only
    // its "loss" (removed in 2.0, with the hook).
    FrameworkHook{kLightning, "LightningModule", "lightning", "training_step", true, -1,
                  "training_epoch_end", "loss"},
    FrameworkHook{kLightning, "LightningModule", "lightning", "on_train_batch_end", true},
    FrameworkHook{kLightning, "LightningModule", "lightning", "validation_step", false},
    FrameworkHook{kLightning, "LightningModule", "lightning", "test_step", false},
    FrameworkHook{kLightning, "LightningModule", "lightning", "predict_step", false},
    FrameworkHook{
        kTransformers, "Trainer", "transformers", "compute_loss", true, -1, {}, {}, "batch", 1},
    FrameworkHook{
        kTransformers, "Trainer", "transformers", "training_step", true, -1, {}, {}, "batch", 1},
    // `evaluation_loop` calls it with autograd on; the base's own `torch.no_grad()` block is
    // what an override replaces.
    FrameworkHook{
        kTransformers, "Trainer", "transformers", "prediction_step", true, -1, {}, {}, "batch", 1},
    FrameworkHook{"skorch", "NeuralNet", "skorch", "train_step", true},
    FrameworkHook{"skorch", "NeuralNet", "skorch", "train_step_single", true},
    // `run_single_epoch` calls it with autograd on; the base turns it off inside, which an
    // override replaces.
    FrameworkHook{"skorch", "NeuralNet", "skorch", "validation_step", true},
    FrameworkHook{"torchmetrics", "Metric", "torchmetrics", "update", false},
    // A metric attached to a trainer engine gets the training step's output, graph and all
    // (ignite detaches it in its own metrics since 0.4.x).
    FrameworkHook{"ignite", "Metric", "ignite", "update", true, 1, {}, {}, "batch", -1, true},
    // A Keras callback's hooks, which `fit`, `evaluate` and `predict` call once per batch or
    // epoch (the once-per-run `on_train_begin` and `set_model` are where a callback builds what
    // it reuses). No torch autograd: the torch rules leave them alone.
    FrameworkHook{kKeras, "Callback", "keras", "on_batch_begin", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_batch_end", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_train_batch_begin", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_train_batch_end", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_test_batch_begin", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_test_batch_end", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_predict_batch_begin", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_predict_batch_end", false},
    FrameworkHook{kKeras, "Callback", "keras", "on_epoch_begin", false, -1, {}, {}, "epoch"},
    FrameworkHook{kKeras, "Callback", "keras", "on_epoch_end", false, -1, {}, {}, "epoch"},
};

// A framework's own subclasses of a base, which run the base's hooks: skorch's classifier and
// regressor nets are `NeuralNet`s; Keras's own callbacks, which users extend
// (`class MyBoard(TensorBoard)`), are `Callback`s.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kBaseSubclasses = {{
    {"NeuralNetBinaryClassifier", "NeuralNet"},
    {"NeuralNetClassifier", "NeuralNet"},
    {"NeuralNetRegressor", "NeuralNet"},
    {"BackupAndRestore", "Callback"},
    {"BaseLogger", "Callback"},
    {"CSVLogger", "Callback"},
    {"EarlyStopping", "Callback"},
    {"History", "Callback"},
    {"LambdaCallback", "Callback"},
    {"LearningRateScheduler", "Callback"},
    {"ModelCheckpoint", "Callback"},
    {"ProgbarLogger", "Callback"},
    {"ReduceLROnPlateau", "Callback"},
    {"RemoteMonitor", "Callback"},
    {"TensorBoard", "Callback"},
    {"TerminateOnNaN", "Callback"},
}};

// ignite's `Engine(process_function)`: the engine calls the function once per batch, with
// autograd on (ignite's evaluators turn it off only in the step functions ignite writes).
constexpr std::array kStepTakers = {
    StepTaker{"ignite", "ignite.engine.Engine", 0},
    StepTaker{"ignite", "ignite.engine.engine.Engine", 0},
};

}  // namespace

const StepTaker* step_taker(std::string_view qualified) {
  const auto* found =
      std::find_if(kStepTakers.begin(), kStepTakers.end(),
                   [&](const StepTaker& taker) { return taker.callee == qualified; });
  return found == kStepTakers.end() ? nullptr : &*found;
}

std::span<const StepTaker> step_takers() {
  return kStepTakers;
}

std::span<const FrameworkHook> framework_hooks() {
  return kHooks;
}

const FrameworkHook* framework_hook(std::string_view base_qualified, std::string_view method) {
  std::string_view last = last_component(base_qualified);
  for (const auto& [subclass, base] : kBaseSubclasses) {
    if (last == subclass) last = base;
  }
  const std::string qualified = lowercase(base_qualified);
  const auto* found = std::find_if(kHooks.begin(), kHooks.end(), [&](const FrameworkHook& hook) {
    return hook.method == method && hook.base == last &&
           (hook.package.empty() || qualified.find(hook.package) != std::string::npos);
  });
  return found == kHooks.end() ? nullptr : &*found;
}

}  // namespace sealint::knowledge
