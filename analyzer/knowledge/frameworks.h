#pragma once
// Methods that a training framework calls for you, once per batch: the loop that repeats them
// lives in the framework, not in the user's file (SEMANTIC.md, "iteration regions"). What a hook
// keeps in `self` from one call to the next accumulates exactly as a variable bound before a loop
// does.
#include <span>
#include <string_view>

namespace sealint::knowledge {

struct FrameworkHook {
  std::string_view framework;  // as a message names it: "PyTorch Lightning"
  // The class a user's class derives from: the last component of its qualified name, and a word
  // the qualified name must contain (lower-case; empty: any), so that a `Callback` of another
  // library is not taken for Lightning's.
  std::string_view base;
  std::string_view package;
  std::string_view method;
  // The framework runs the hook with autograd on. Lightning runs validation, test and predict
  // steps under no_grad or inference_mode; torchmetrics runs `update` with grad off.
  bool autograd_on = true;
  // The parameter (the receiver is 0) the framework fills with the step's output, its graph
  // included: ignite's `Metric.update(self, output)`. -1: none.
  int graph_param = -1;
  // When the class also defines this hook, the framework keeps what every call returns until
  // it runs that hook at the epoch's end (Lightning 1.x hands `training_epoch_end(outputs)` the
  // list of every `training_step` output); empty: it keeps nothing.
  std::string_view outputs_kept_for = {};
  // The key of a returned dict that the framework detaches itself before keeping it ("loss").
  std::string_view detached_key = {};
  // What the framework runs it once per, as a message says it: "batch", "epoch".
  std::string_view unit = "batch";
  // The parameter the framework fills with the model it trains or evaluates (Transformers'
  // `compute_loss(self, model, inputs)`), whatever the override calls it. -1: none.
  int model_param = -1;
  // The graph parameter is a `(prediction, labels)` pair by the framework's convention (ignite's
  // default `output_transform`): unpacked, only its first element carries the step's graph,
  // whatever the override calls the second.
  bool graph_param_is_pair = false;
};

// A framework's call that takes the user's per-batch step function and runs it in its own loop,
// with autograd on: `Engine(process_function)` (ignite).
struct StepTaker {
  std::string_view framework;  // as a message names it: "ignite"
  std::string_view callee;     // qualified: "ignite.engine.Engine"
  size_t argument = 0;         // the position of the step function
};

// The taker `qualified` (a callee's qualified name through the file's imports) is, or nullptr.
[[nodiscard]] const StepTaker* step_taker(std::string_view qualified);
[[nodiscard]] std::span<const StepTaker> step_takers();

// The table: every hook sealint knows, with the base it belongs to.
[[nodiscard]] std::span<const FrameworkHook> framework_hooks();

// The hook `method` is when its class derives from a class qualified as `base_qualified`
// (`pytorch_lightning.LightningModule`, `lightning.LightningModule`, `transformers.Trainer`), or
// nullptr.
[[nodiscard]] const FrameworkHook* framework_hook(std::string_view base_qualified,
                                                  std::string_view method);

}  // namespace sealint::knowledge
