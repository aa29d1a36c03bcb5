#pragma once
// Methods a base class runs once per iteration of its own loop: `BaseRunner.train()` runs
// `for batch in self.train_loader: self.train_step(batch)`, and a subclass overrides
// `train_step()`. The subclass's file (often not the base's) has no loop around its
// `train_step()`, yet it runs once per batch: what it keeps in `self` grows as a hook's does.
// The base may be in the same file or in another file of the project (its summary says which
// `self.` methods its loops call: ir::ForeignFunction::self_calls_in_loops).
#include <optional>
#include <string>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// The names of the `self.NAME(...)` methods `function` calls inside one of its loops with
// autograd on, once per iteration of a loop that is not a written-out handful (a sweep over
// three settings is not a step loop); sorted, without repeats.
[[nodiscard]] std::vector<std::string> self_calls_in_loops(const ir::FileAnalysis& analysis,
                                                           const ir::Function& function);

// A base class's method whose loop calls `method` (through `self`) once per iteration.
struct LoopCaller {
  std::string name;  // "BaseRunner.train": the base and the method holding the loop
  std::string file;  // the file defining it, beside this one (path_beside), when another file
                     // of the project does; else empty
  const ir::Expr* call = nullptr;  // the call in the loop, when this file defines the base
};

// The base method (of a same-file base, then of an imported one) whose loop runs `method`, a
// method of a class, on an instance of that class: nullopt when none is known, when `method` is
// the base's own (its class's loop already shows it), or when it runs without grad.
[[nodiscard]] std::optional<LoopCaller> base_loop_caller(const ir::FileAnalysis& analysis,
                                                         const ir::Function& method);

}  // namespace sealint::semantic
