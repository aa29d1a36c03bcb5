#include "analyzer/semantic/hooks.h"

#include <string>

namespace sealint::semantic {

std::string_view RepeatedCall::caller() const {
  return hook != nullptr ? hook->framework : "every forward pass";
}

namespace {

// The hook `method` is in a class deriving from `cls`'s bases, followed through classes of the
// same file (bounded by the number of classes: a cycle of same-file bases ends there).
const knowledge::FrameworkHook* inherited_hook(const ir::FileAnalysis& analysis,
                                               const ir::ClassDef& cls, std::string_view method,
                                               size_t depth) {
  if (depth > analysis.module().classes().size()) return nullptr;
  for (const ir::Expr* base : cls.bases) {
    const std::string qualified = ir::qualified_name(analysis.module(), base);
    if (qualified.empty()) continue;
    if (const knowledge::FrameworkHook* hook = knowledge::framework_hook(qualified, method))
      return hook;
    if (base->kind != ir::ExprKind::Name) continue;
    if (const ir::ClassDef* local = analysis.class_named(base->text); local && local != &cls) {
      if (const knowledge::FrameworkHook* hook =
              inherited_hook(analysis, *local, method, depth + 1))
        return hook;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<RepeatedCall> repeated_by_framework(const ir::FileAnalysis& analysis,
                                                  const ir::Function& function) {
  const ir::ClassDef* cls = function.parent_class;
  if (cls == nullptr || function.params.empty()) return std::nullopt;
  RepeatedCall call;
  call.hook = inherited_hook(analysis, *cls, function.name, 0);
  if (call.hook != nullptr) {
    call.autograd_on = call.hook->autograd_on && !analysis.runs_without_grad(function);
    return call;
  }
  if (function.name == "forward" && analysis.is_module_class(cls)) {
    call.forward = true;
    call.autograd_on = !analysis.runs_without_grad(function);
    return call;
  }
  return std::nullopt;
}

}  // namespace sealint::semantic
