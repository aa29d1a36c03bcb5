#include "rules/SL008/kept_errors.h"

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"

namespace sealint::rules::sl008 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Handler;
using ir::Stmt;
using ir::StmtKind;

Holds holds_error(const ir::Module& module, const Handler& handler, const Expr* value) {
  if (value == nullptr) return Holds::Nothing;
  switch (value->kind) {
    case ExprKind::Name:
      return !handler.name.empty() && value->text == handler.name ? Holds::Error : Holds::Nothing;
    case ExprKind::Attr:
      return value->text == "__traceback__" ? Holds::Traceback : Holds::Nothing;
    case ExprKind::Call: {
      const Expr* callee = value->callee();
      if (ir::qualified_name(module, callee) == "sys.exc_info") return Holds::ExcInfo;
      if (callee->kind == ExprKind::Attr && callee->text == "with_traceback")
        return holds_error(module, handler, callee->base());
      return Holds::Nothing;
    }
    case ExprKind::Subscript:  // `sys.exc_info()[2]`
      return holds_error(module, handler, value->base()) == Holds::ExcInfo ? Holds::ExcInfo
                                                                           : Holds::Nothing;
    case ExprKind::Collection:
      for (const Expr* item : value->items) {
        const Holds held = holds_error(module, handler, item);
        if (held != Holds::Nothing) return held;
      }
      return Holds::Nothing;
    default:
      return Holds::Nothing;
  }
}

}  // namespace

std::vector<Kept> kept_errors(const ir::Module& module, const Handler& handler) {
  std::vector<Kept> out;
  ir::for_each_nested(handler.body, [&](const Stmt& stmt) {
    if ((stmt.kind == StmtKind::Assign || stmt.kind == StmtKind::AnnAssign ||
         stmt.kind == StmtKind::AugAssign) &&
        stmt.value != nullptr) {
      const Holds held = holds_error(module, handler, stmt.value);
      if (held != Holds::Nothing) {
        for (const Expr* target : stmt.targets) {
          // `e = e` keeps nothing past the handler: Python deletes the `as` name.
          if (target->kind == ExprKind::Name && target->text == handler.name) continue;
          if (ir::place_key(target).empty()) continue;
          out.push_back({target, stmt.range, held, &stmt});
        }
      }
    }
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return;
      const bool store = knowledge::container_store(call.callee()->text) != nullptr;
      if (!store || call.arg_count() == 0) return;
      const Expr* value = call.arg(call.arg_count() - 1);
      const Holds held = holds_error(module, handler, value);
      if (held == Holds::Nothing) return;
      const Expr* container = call.callee()->base();
      if (ir::place_key(container).empty()) return;
      out.push_back({container, call.range, held, &stmt});
    });
  });
  return out;
}

bool dropped_later(const ir::Function& function, const Stmt& after, std::string_view key) {
  bool dropped = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (dropped || stmt.range.begin <= after.range.begin) return;
    const bool drops = stmt.kind == StmtKind::Del ||
                       (stmt.kind == StmtKind::Assign && ir::is_none_literal(stmt.value));
    if (!drops) return;
    for (const Expr* target : stmt.targets) dropped = dropped || ir::place_key(target) == key;
  });
  return dropped;
}

}  // namespace sealint::rules::sl008
