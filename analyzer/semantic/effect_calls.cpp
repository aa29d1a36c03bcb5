#include "analyzer/semantic/effect_calls.h"

#include "analyzer/ir/walk.h"

namespace sealint::semantic {

void for_each_effect_call(const ir::FileAnalysis& analysis, const ir::Stmt& stmt,
                          ir::SelfEffect::Kind kind,
                          const std::function<bool(const EffectCall&)>& visit) {
  ir::for_each_expr(stmt, [&](const ir::Expr& call) {
    if (call.kind != ir::ExprKind::Call || call.callee()->kind != ir::ExprKind::Attr) return;
    const ir::Fact& receiver = analysis.fact(*call.callee()->base());
    const ir::Callee method = analysis.resolve_method_anywhere(receiver, call.callee()->text);
    if (!method) return;
    for (const ir::SelfEffect& effect : analysis.summary(method).self_effects) {
      if (effect.kind == kind && visit(EffectCall{call, receiver, method, effect})) return;
    }
  });
}

}  // namespace sealint::semantic
