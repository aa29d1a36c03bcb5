#include "analyzer/semantic/grad_switches.h"

#include <algorithm>
#include <string>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/guards.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

bool names_grad_switch(const ir::Module& module, const Expr& expr) {
  bool found = false;
  ir::for_each_subexpr(expr, [&](const Expr& e) {
    if (found || (e.kind != ExprKind::Name && e.kind != ExprKind::Attr)) return;
    const std::string q = ir::qualified_name(module, &e);
    const std::string_view last = knowledge::last_component(q);
    found = knowledge::kGradModeSwitches.contains(last) || knowledge::is_no_grad_like_name(last);
  });
  return found;
}

}  // namespace

GradSwitches::GradSwitches(const ir::Module& module, const ir::Function& function) {
  for (const Expr* decorator : function.decorators) {
    if (ir::classify_guard(module, decorator) != ir::GuardKind::Other) whole_function_ = true;
  }
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::ExprStmt && stmt.value != nullptr &&
        names_grad_switch(module, *stmt.value)) {
      whole_function_ = true;
    }
    if (stmt.kind != StmtKind::Guard) return;
    const bool switches = std::any_of(stmt.items.begin(), stmt.items.end(), [&](const Expr* item) {
      return item->kind == ExprKind::Name || item->kind == ExprKind::Attr ||
             names_grad_switch(module, *item);
    });
    if (switches) blocks_.push_back(&stmt);
  });
}

bool GradSwitches::switched(const ir::Stmt& stmt) const {
  return std::any_of(blocks_.begin(), blocks_.end(),
                     [&](const Stmt* block) { return ir::block_contains(block->body, stmt); });
}

}  // namespace sealint::semantic
