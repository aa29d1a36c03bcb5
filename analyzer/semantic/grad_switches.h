#pragma once
// Where a function turns autograd on or off itself, by a mode it computes: a decorator, a
// statement (`torch.set_grad_enabled(is_train)`), or a `with` block that names a switch
// (`with torch.set_grad_enabled(phase == "train"):`) or a context chosen elsewhere
// (`context = nullcontext() if train else torch.no_grad()`, then `with context:`). Unlike the
// walk's `no_grad` (ir/walk.h), which knows only switches that turn grad off for certain, this
// says where the function decided about grad at all.
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

class GradSwitches {
 public:
  GradSwitches(const ir::Module& module, const ir::Function& function);

  // A decorator or a statement switches the whole function.
  [[nodiscard]] bool whole_function() const { return whole_function_; }
  // `stmt` runs inside a `with` block that switches grad.
  [[nodiscard]] bool switched(const ir::Stmt& stmt) const;

 private:
  bool whole_function_ = false;
  std::vector<const ir::Stmt*> blocks_;
};

}  // namespace sealint::semantic
