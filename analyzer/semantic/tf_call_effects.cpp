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

namespace {

// The parameter `if param is None:` tests, for a branch of `function`; empty otherwise.
std::string_view parameter_tested_for_none(const ir::Function& function, const ir::Stmt& branch) {
  const ir::Expr* cond = branch.value;
  if (branch.kind != ir::StmtKind::If || cond == nullptr || cond->kind != ir::ExprKind::Compare ||
      cond->items.size() != 2 || cond->text != "is")
    return {};
  const ir::Expr* tested = ir::is_none_literal(cond->items[1])   ? cond->items[0]
                           : ir::is_none_literal(cond->items[0]) ? cond->items[1]
                                                                 : nullptr;
  if (tested == nullptr || tested->kind != ir::ExprKind::Name) return {};
  for (const ir::Param& param : function.params) {
    if (param.name == tested->text) return param.name;
  }
  return {};
}

// `stmt` is one of the statements of `branch`'s body (an `if`'s, not its `else`'s).
bool in_body_of(const ir::Stmt& branch, const ir::Stmt& stmt) {
  return !branch.body.empty() && stmt.range.begin >= branch.body.front()->range.begin &&
         stmt.range.end <= branch.body.back()->range.end;
}

}  // namespace

bool starts_own_graph(const ir::Module& module, const ir::Function& function) {
  bool fresh = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& e) {
      fresh = fresh || (e.kind == ir::ExprKind::Call &&
                        (is_tf_graph_reset_call(module, e) || is_tf_session_call(module, e)));
    });
  });
  return fresh;
}

TfCallEffects tf_call_effects(const ir::Module& module, const ir::Function& function) {
  TfCallEffects effects;
  if (function.is_module || !imports_tensorflow(module)) return effects;
  const ir::Expr* op = nullptr;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    const bool once = under_once_per_call_branch(where, function);
    ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& e) {
      if (e.kind != ir::ExprKind::Call) return;
      effects.runs_session = effects.runs_session || is_session_run_call(e);
      if (op != nullptr || once) return;
      const TfApiRef ref = tf_callee_api(module, e);
      if (ref.api != TfApi::Tf || !knowledge::tf_adds_graph_nodes(ref.path)) return;
      op = &e;
      // Directly in the body of `if train_op is None:` (not its `else`): built only when the
      // caller passes none.
      if (!where.branches.empty() && !where.branches.back().handler) {
        const ir::Stmt& branch = *where.branches.back().stmt;
        (in_body_of(branch, stmt) ? effects.unless_passed : effects.if_passed) =
            parameter_tested_for_none(function, branch);
      }
    });
  });
  if (op != nullptr && function.name != "__init__" && !may_skip_body(function) &&
      !starts_own_graph(module, function))
    effects.op_per_call = op;
  return effects;
}

}  // namespace sealint::semantic
