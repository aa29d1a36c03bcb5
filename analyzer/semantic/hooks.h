#pragma once
// Functions a framework runs once per batch, with no loop in the user's file: a hook of a
// training framework (knowledge/frameworks.h) and `nn.Module.forward`, which every step calls.
// What such a function keeps in `self` from one call to the next grows as a variable bound before
// a loop does.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/knowledge/frameworks.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

struct RepeatedCall {
  const knowledge::FrameworkHook* hook = nullptr;  // a framework's hook, by its method name
  const knowledge::StepTaker* taker = nullptr;     // an engine the function is handed to
  bool forward = false;                            // `nn.Module.forward`
  // A base class's method whose loop calls it once per iteration (semantic/base_loops.h):
  // "BaseRunner.train", and the file defining it when it is another file of the project.
  std::string loop_caller;
  std::string loop_caller_file;
  const ir::Expr* loop_call = nullptr;  // the call in that loop, when this file has it
  bool autograd_on = true;  // the framework (or every caller in the file) runs it with grad on
  // Another method of the class drains what this one accumulates on `self` (accumulators.h):
  // whoever calls it, it runs many times between two drains.
  const ir::Function* drained_by = nullptr;
  // How a message names the caller: "PyTorch Lightning", "ignite", "every forward pass".
  [[nodiscard]] std::string_view caller() const;
};

// How a framework repeats `function`, or nullopt: a method of a class deriving (here or through
// classes of the same file) from a framework's base, named as one of its hooks, `forward` of
// an nn.Module, or a method a base class (of this file or another) calls in its loop.
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

// A function of the file handed to a call as a callback, by keyword: the callee calls it back
// again and again (`minimize(loss, step_callback=self._scipy_callback)`, once per optimiser step;
// `LambdaCallback(on_epoch_end=self.report)`, once per epoch).
struct CallbackHandoff {
  const ir::Function* function = nullptr;
  const ir::Expr* call = nullptr;  // the call it is handed to
  std::string_view keyword;        // `step_callback`
};

// Every function of the file handed over that way.
[[nodiscard]] std::vector<CallbackHandoff> callback_handoffs(const ir::FileAnalysis& analysis);

}  // namespace sealint::semantic
