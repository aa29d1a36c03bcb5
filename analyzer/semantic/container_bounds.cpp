#include "analyzer/semantic/container_bounds.h"

#include "analyzer/knowledge/containers.h"

namespace sealint::semantic {

const ir::Expr* container_bound(const ir::Module& module, const ir::FileAnalysis& analysis,
                                const ir::Function& function, const ir::Stmt& loop,
                                std::string_view key) {
  const ir::Stmt* binding = analysis.bindings(function).binding_before(loop, key);
  if (binding == nullptr || binding->kind != ir::StmtKind::Assign || binding->value == nullptr)
    return nullptr;
  const ir::Expr& made = *binding->value;
  if (made.kind != ir::ExprKind::Call) return nullptr;
  std::string qualified = ir::qualified_name(module, made.callee());
  // `from collections import deque` resolves; a bare `deque` the file never imports is taken as
  // the same type.
  if (qualified.empty() || qualified == "deque")
    qualified = "collections." + ir::dotted_name(made.callee());
  const knowledge::BoundedContainer* bounded = knowledge::bounded_container(qualified);
  if (bounded == nullptr) return nullptr;
  const ir::Expr* bound = made.keyword(bounded->keyword);
  if (bound == nullptr) bound = made.arg(bounded->position);
  if (bound == nullptr || (bound->kind == ir::ExprKind::Const && bound->text == "None"))
    return nullptr;
  return bound;
}

}  // namespace sealint::semantic
