#include "analyzer/semantic/model_runs.h"

#include "analyzer/ir/walk.h"

namespace sealint::semantic {

namespace {

constexpr int kMaxDepth = 3;

}  // namespace

bool is_model_call(const ir::FileAnalysis& analysis, const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return false;
  const ir::Expr* callee = call.callee();
  if (analysis.fact(*callee).kind == ir::ValueKind::Module) return true;
  return callee->kind == ir::ExprKind::Attr && callee->text == "forward" &&
         analysis.fact(*callee->base()).kind == ir::ValueKind::Module;
}

bool is_model_class(const ir::FileAnalysis& analysis, const ir::ClassDef& cls) {
  return analysis.is_module_class(&cls) || analysis.method_of(cls, "forward") != nullptr;
}

const ir::Expr* ModelRuns::per_call(const ir::Function& function) {
  return search(function, 0);
}

ModelRuns::Helper ModelRuns::helper_called(const ir::Function& caller, const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return {};
  const ir::Function* target = analysis_.resolve_callee(caller, call);
  if (target == nullptr || target == &caller) return {};
  const ir::Expr* model_call = search(*target, 1);
  return model_call == nullptr ? Helper{} : Helper{target, model_call};
}

const ir::Expr* ModelRuns::search(const ir::Function& function, int depth) {
  auto [it, inserted] = functions_.try_emplace(&function);
  if (!inserted) return it->second;  // known, or being searched (a cycle): nothing more
  if (analysis_.runs_without_grad(function) || analysis_.summary(function).trains) return nullptr;
  const ir::Expr* found = nullptr;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    // A model run in a loop of its own makes `function` a whole pass (an evaluation routine
    // with its own finding), not the step of its caller's loop.
    if (found != nullptr || where.no_grad || !where.loops.empty()) return;
    ir::for_each_expr(stmt, [&](const ir::Expr& expr) {
      if (found != nullptr || expr.kind != ir::ExprKind::Call) return;
      if (is_model_call(analysis_, expr)) {
        if (analysis_.fact(expr).grad == ir::Grad::Yes) found = &expr;
        return;
      }
      if (depth >= kMaxDepth) return;
      const ir::Function* target = analysis_.resolve_callee(function, expr);
      if (target != nullptr && target != &function) found = search(*target, depth + 1);
    });
  });
  // The recursive searches' insertions may have invalidated `it`.
  functions_[&function] = found;
  return found;
}

}  // namespace sealint::semantic
