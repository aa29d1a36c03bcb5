#include "analyzer/semantic/request_handlers.h"

#include <string>

#include "analyzer/ir/escape.h"
#include "analyzer/knowledge/web_servers.h"

namespace sealint::semantic {

namespace {

// Is `name` bound at the module's top level to an application or router (`app = Flask(...)`)?
bool names_router(const ir::Module& module, std::string_view name) {
  bool router = false;
  for (const ir::Stmt* stmt : module.top_level().body) {
    if (stmt->kind != ir::StmtKind::Assign || stmt->value == nullptr ||
        stmt->value->kind != ir::ExprKind::Call)
      continue;
    for (const ir::Expr* target : stmt->targets) {
      if (target->kind == ir::ExprKind::Name && target->text == name)
        router =
            knowledge::is_request_router_class(ir::qualified_name(module, stmt->value->callee()));
    }
  }
  return router;
}

}  // namespace

const ir::Expr* request_route(const ir::Module& module, const ir::Function& function) {
  if (function.parent_class != nullptr) return nullptr;
  for (const ir::Expr* decorator : function.decorators) {
    if (decorator->kind != ir::ExprKind::Call) continue;
    const ir::Expr* callee = decorator->callee();
    if (callee->kind != ir::ExprKind::Attr || callee->base()->kind != ir::ExprKind::Name ||
        !knowledge::is_request_route_decorator(callee->text))
      continue;
    if (names_router(module, callee->base()->text)) return decorator;
  }
  return nullptr;
}

}  // namespace sealint::semantic
