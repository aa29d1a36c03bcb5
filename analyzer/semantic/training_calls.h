#pragma once
// Which calls run part of a training step: a model or loss call, `.backward()`, an optimizer's
// `.step()`, or a function of the file that does one of these; and which calls are named as a
// whole step (`train_step(batch)`, `trainer.fit()`). SL008 asks whether the work an `except`
// handler runs again is a training step.
#include <string>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// `.backward()` (also Lightning's `manual_backward`), or an optimizer's `.step()` (also
// `scaler.step(optimizer)`).
[[nodiscard]] bool is_step_call(const ir::FileAnalysis& analysis, const ir::Expr& call);

// A call of a function of the file that trains: it calls backward or an optimizer's step,
// itself or through its callees up to `depth` calls deep (an optimizer's `zero_grad()` alone
// does not count).
[[nodiscard]] bool calls_training_function(const ir::FileAnalysis& analysis,
                                           const ir::Function& caller, const ir::Expr& call,
                                           int depth);

// A call, in `function`, that runs part of a training step: a model or loss call, a step call,
// a torch loss function, or a function of the file that trains.
[[nodiscard]] bool is_training_call(const ir::FileAnalysis& analysis, const ir::Function& function,
                                    const ir::Expr& call);

// The name a call named as a whole step is known by (`train_step`, `self.train_step`,
// `trainer.train`), or empty. `model.train()` switches a module's mode: not a step.
[[nodiscard]] std::string step_like_callee(const ir::FileAnalysis& analysis, const ir::Expr& call);

// Some call of `function` runs code whose training sealint cannot see (a method of another
// library's object, an imported helper with no summary): a backward may run out of sight.
// False when every call is a model or loss call, a function of the project, a tensor's,
// module's or container's method, or a builtin.
[[nodiscard]] bool may_train_out_of_sight(const ir::FileAnalysis& analysis,
                                          const ir::Function& function);

}  // namespace sealint::semantic
