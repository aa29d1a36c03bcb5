#include "analyzer/ir/bindings.h"

#include <algorithm>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"

namespace sealint::ir {

void target_keys(const Expr* target, std::vector<std::string>& out) {
  if (target == nullptr) return;
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    for (const Expr* item : target->items) target_keys(item, out);
    return;
  }
  std::string key = place_key(target);
  if (!key.empty()) out.push_back(std::move(key));
}

bool target_binds(const Expr* target, std::string_view key) {
  if (target == nullptr) return false;
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    return std::any_of(target->items.begin(), target->items.end(),
                       [&](const Expr* item) { return target_binds(item, key); });
  }
  return place_key(target) == key;
}

void bound_keys(const Stmt& stmt, std::vector<std::string>& out) {
  switch (stmt.kind) {
    case StmtKind::Assign:
    case StmtKind::AugAssign:
    case StmtKind::AnnAssign:
    case StmtKind::Loop:
    case StmtKind::Guard:
    case StmtKind::Del:
      for (const Expr* target : stmt.targets) target_keys(target, out);
      break;
    case StmtKind::Import:
      for (const ImportAlias& alias : stmt.imports) out.emplace_back(alias.local);
      break;
    case StmtKind::FunctionDef:
      if (stmt.function != nullptr) out.emplace_back(stmt.function->name);
      break;
    case StmtKind::ClassDef:
      if (stmt.class_def != nullptr) out.emplace_back(stmt.class_def->name);
      break;
    case StmtKind::Try:
      for (const Handler& handler : stmt.handlers) {
        if (!handler.name.empty()) out.emplace_back(handler.name);
      }
      break;
    case StmtKind::ExprStmt:
    case StmtKind::Return:
    case StmtKind::If:
    case StmtKind::Global:
    case StmtKind::Raise:
    case StmtKind::Other:
      break;
  }
  for_each_evaluated_expr(stmt, [&](const Expr& e) {
    if (e.kind == ExprKind::NamedExpr && !e.items.empty()) target_keys(e.items[0], out);
  });
}

bool stmt_binds(const Stmt& stmt, std::string_view key) {
  std::vector<std::string> keys;
  bound_keys(stmt, keys);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

const Expr* assigned_value(const Stmt& stmt, std::string_view key) {
  if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AnnAssign) return nullptr;
  for (const Expr* target : stmt.targets) {
    if (place_key(target) == key) return stmt.value;
  }
  return nullptr;
}

SourceRange binding_range(const Stmt& stmt) {
  if (stmt.kind != StmtKind::Guard) return stmt.range;
  uint32_t end = stmt.range.begin;
  for (const Expr* e : stmt.items) end = std::max(end, e->range.end);
  for (const Expr* e : stmt.targets) end = std::max(end, e->range.end);
  return {stmt.range.begin, end};
}

}  // namespace sealint::ir
