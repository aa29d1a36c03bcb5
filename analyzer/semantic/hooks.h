#pragma once
// Functions a framework runs once per batch, with no loop in the user's file: a hook of a
// training framework (knowledge/frameworks.h) and `nn.Module.forward`, which every step calls.
// What such a function keeps in `self` from one call to the next grows as a variable bound before
// a loop does.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/grad_flow.h"
#include "analyzer/knowledge/frameworks.h"

namespace sealint::semantic {

struct RepeatedCall {
  const knowledge::FrameworkHook* hook = nullptr;  // a framework's hook, by its method name
  const knowledge::StepTaker* taker = nullptr;     // an engine the function is handed to
  bool forward = false;                            // `nn.Module.forward`
  bool autograd_on = true;  // the framework (or every caller in the file) runs it with grad on
  // How a message names the caller: "PyTorch Lightning", "ignite", "every forward pass".
  [[nodiscard]] std::string_view caller() const;
};

// How a framework repeats `function`, or nullopt: a method of a class deriving (here or through
// classes of the same file) from a framework's base, named as one of its hooks, or `forward` of
// an nn.Module.
[[nodiscard]] std::optional<RepeatedCall> repeated_by_framework(const ir::FileAnalysis& analysis,
                                                                const ir::Function& function);

// A function of the file handed to a framework's loop as its per-batch step:
// `evaluator = Engine(validation_step)`.
struct HandedStep {
  const ir::Function* function = nullptr;
  const knowledge::StepTaker* taker = nullptr;
  const ir::Expr* call = nullptr;  // `Engine(validation_step)`
  std::string bound_to;            // `evaluator`; empty when the engine is not bound to a name
};

// Every function of the file that a step taker (knowledge/frameworks.h) is handed, by name.
[[nodiscard]] std::vector<HandedStep> handed_steps(const ir::FileAnalysis& analysis);

}  // namespace sealint::semantic
