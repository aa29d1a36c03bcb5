#include "analyzer/semantic/tf_call_effects.h"

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"

namespace sealint::semantic {

bool is_session_run_call(const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return false;
  const ir::Expr* callee = call.callee();
  if (callee == nullptr || callee->kind != ir::ExprKind::Attr || callee->text != "run")
    return false;
  const ir::Expr* receiver = callee->base();
  return receiver != nullptr &&
         (receiver->kind == ir::ExprKind::Name || receiver->kind == ir::ExprKind::Attr) &&
         knowledge::is_session_like_name(receiver->text);
}

TfCallEffects tf_call_effects(const ir::Module& module, const ir::Function& function) {
  TfCallEffects effects;
  if (function.is_module || !imports_tensorflow(module)) return effects;
  bool own_graph = false;
  const ir::Expr* op = nullptr;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    const bool once = under_once_per_call_branch(where, function);
    ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& e) {
      if (e.kind != ir::ExprKind::Call) return;
      effects.runs_session = effects.runs_session || is_session_run_call(e);
      own_graph = own_graph || is_tf_graph_reset_call(module, e) || is_tf_session_call(module, e);
      if (op != nullptr || once) return;
      const TfApiRef ref = tf_callee_api(module, e);
      if (ref.api == TfApi::Tf && knowledge::tf_adds_graph_nodes(ref.path)) op = &e;
    });
  });
  if (!own_graph && function.name != "__init__" && !may_skip_body(function))
    effects.op_per_call = op;
  return effects;
}

}  // namespace sealint::semantic
