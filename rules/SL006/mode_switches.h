#pragma once
// `model.eval()` and `model.train()` for SL006: which mode a model is in where a loop runs it.
// `eval()` does not turn autograd off, but it says the code that follows runs the model for
// inference.
#include <string>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules::sl006 {

// A `model.eval()` or `model.train()` statement, in source order.
struct ModeSwitch {
  const ir::Stmt* stmt;
  std::string model;
  bool eval;
};

[[nodiscard]] std::vector<ModeSwitch> mode_switches(const ir::Function& function);

// The model a switch statement switches: `self.asr` for `self.asr.eval()`.
[[nodiscard]] std::string switched_name(const ir::Stmt& mode_switch);

// The `model.eval()` in force where the call at offset `at` runs `model`: the last switch of that
// model (or of a model holding it: `self.asr.eval()` for `self.asr.encoder`) before it.
[[nodiscard]] const ir::Stmt* eval_in_force(const std::vector<ModeSwitch>& switches,
                                            const std::string& model, uint32_t at);

// The `eval()` in force where the call at offset `at` runs `model` on a model `model` was built
// from in `function`: a wrapper handed the switched model (`wrapper = Distill(student=net)`,
// `wrapper = FSDP(wrapper)`, then `net.eval()` and `wrapper(x)`) runs it in that mode. Null when
// none is.
[[nodiscard]] const ir::Stmt* eval_of_wrapped_model(const std::vector<ModeSwitch>& switches,
                                                    const ir::Function& function,
                                                    const std::string& model, uint32_t at);

// The `self.model.eval()` in `__init__` of the class of `function` that leaves `model` (or the
// model holding it) in eval mode for good: no method of the class switches it back to `train()`.
// An object that holds a model frozen that way runs it for inference (an embedding wrapper, a
// feature extractor). Null otherwise, and in a model's own class (an nn.Module's methods run with
// whatever grad mode their caller picked).
[[nodiscard]] const ir::Stmt* eval_held_by_class(const ir::FileAnalysis& analysis,
                                                 const ir::Function& function,
                                                 const std::string& model);

}  // namespace sealint::rules::sl006
