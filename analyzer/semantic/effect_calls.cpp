#include "analyzer/semantic/effect_calls.h"

#include <optional>
#include <vector>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/hooks.h"

namespace sealint::semantic {

std::string_view EffectCall::owner() const {
  if (method.local != nullptr && method.local->parent_class != nullptr)
    return method.local->parent_class->name;
  return ir::class_name_of(receiver);
}

void for_each_effect_call(const ir::FileAnalysis& analysis, const ir::Stmt& stmt,
                          ir::SelfEffect::Kind kind,
                          const std::function<bool(const EffectCall&)>& visit) {
  ir::for_each_expr(stmt, [&](const ir::Expr& call) {
    if (call.kind != ir::ExprKind::Call || call.callee()->kind != ir::ExprKind::Attr) return;
    const ir::Fact& receiver = analysis.fact(*call.callee()->base());
    const std::string_view name = call.callee()->text;
    // `self._update(...)` in a base class's hook runs the override of the instance's class:
    // ignite's `_BaseRegression.update` hands each batch to `_update`, which
    // `_BaseRegressionEpoch` (same file) defines to append it. Each override that keeps
    // something is visited.
    std::vector<ir::Callee> methods;
    for (const ir::Function* target : analysis.self_call_targets(call)) {
      // An override that a base's loop calls is a region of its own (base_loops.h), reported
      // where it keeps the value.
      const std::optional<RepeatedCall> repeated = repeated_by_framework(analysis, *target);
      if (repeated && !repeated->loop_caller.empty()) continue;
      methods.push_back(ir::Callee{target, nullptr});
    }
    if (methods.empty()) {
      if (const ir::Callee method = analysis.resolve_method_anywhere(receiver, name))
        methods.push_back(method);
    }
    for (const ir::Callee& method : methods) {
      for (const ir::SelfEffect& effect : analysis.summary(method).self_effects) {
        if (effect.kind == kind && visit(EffectCall{call, receiver, method, effect})) return;
      }
    }
  });
}

}  // namespace sealint::semantic
