#pragma once
// Where each name is bound in one function, from one walk of its body: what defined_outside and
// binding_before (escape.h) answer with a walk of the whole function per question, which made a
// script of N leaking loops take N walks of the module. Built once per function and kept by the
// FileAnalysis (grad_flow.h); the answers are the walks' own.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::ir {

class BindingIndex {
 public:
  explicit BindingIndex(const Function& function);

  // defined_outside(function, loop, key) for this index's function.
  [[nodiscard]] bool defined_outside(const Stmt& loop, std::string_view key) const;
  // binding_before(function, before, key) for this index's function.
  [[nodiscard]] const Stmt* binding_before(const Stmt& before, std::string_view key) const;

 private:
  struct Binder {
    const Stmt* stmt = nullptr;
    size_t position = 0;             // in the walk's order
    std::vector<const Stmt*> loops;  // the loops whose body holds it
  };
  const Function& function_;
  std::unordered_map<std::string, std::vector<Binder>> binders_;  // by name bound, walk order
  std::unordered_map<const Stmt*, size_t> positions_;             // every statement's
};

}  // namespace sealint::ir
