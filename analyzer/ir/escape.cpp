#include "analyzer/ir/escape.h"

#include <algorithm>
#include <functional>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/walk.h"

namespace sealint::ir {

std::string place_key(const Expr* expr) {
  if (expr == nullptr) return {};
  switch (expr->kind) {
    case ExprKind::Name:
      return std::string(expr->text);
    case ExprKind::Attr: {
      std::string base = place_key(expr->base());
      return base.empty() ? base : base + "." + std::string(expr->text);
    }
    case ExprKind::Subscript: {
      std::string base = place_key(expr->base());
      if (base.empty() || expr->items.size() != 2) return {};
      const Expr* index = expr->items[1];
      if (index->kind == ExprKind::Const) return base + "[" + std::string(index->text) + "]";
      return base + "[*]";
    }
    default:
      return {};
  }
}

std::string_view place_root(std::string_view key) {
  const size_t end = key.find_first_of(".[");
  return key.substr(0, end);
}

namespace {

// Is `target` the place `key`, or its root (rebinding `stats` resets `stats["loss"]`), or a
// tuple holding one of them?
bool binds(const Expr* target, std::string_view key) {
  if (target == nullptr) return false;
  if (target->kind == ExprKind::Collection || target->kind == ExprKind::Starred) {
    return std::any_of(target->items.begin(), target->items.end(),
                       [&](const Expr* e) { return binds(e, key); });
  }
  const std::string bound = place_key(target);
  if (bound.empty()) return false;
  if (bound == key) return true;
  // A prefix ending at a component boundary: `stats` for `stats["loss"]`, `self.m` for
  // `self.m.sum`.
  return key.size() > bound.size() && key.starts_with(bound) &&
         (key[bound.size()] == '.' || key[bound.size()] == '[');
}

bool is_clear_slice(const Expr* target, std::string_view key) {
  // `del xs[:]` / `xs[:] = []`
  return target != nullptr && target->kind == ExprKind::Subscript && target->items.size() == 2 &&
         target->items[1]->kind == ExprKind::Slice && target->items[1]->items.empty() &&
         place_key(target->base()) == key;
}

// Does `stmt` bind the name `root` (bindings.h), or declare it `global` (then the name lives at
// the module level, outside every loop of the function)?
bool names_bound_in(const Stmt& stmt, std::string_view root) {
  if (stmt.kind == StmtKind::Global) {
    return std::any_of(stmt.targets.begin(), stmt.targets.end(),
                       [&](const Expr* t) { return t->kind == ExprKind::Name && t->text == root; });
  }
  return stmt_binds(stmt, root);
}

bool contains(const std::vector<Stmt*>& body, const Stmt* wanted) {
  bool found = false;
  for_each_nested(body, [&](const Stmt& s) { found = found || &s == wanted; });
  return found;
}

// Does `expr` read `key` other than through `.detach()`? (`h.detach()` carries no history.)
bool reads_with_history(const Expr* expr, std::string_view key) {
  bool found = false;
  for_each_read_with_history(expr, [&](std::string_view read, const Expr&) {
    found = read == key;
    return found;
  });
  return found;
}

}  // namespace

void for_each_read_with_history(
    const Expr* expr, const std::function<bool(std::string_view key, const Expr& read)>& visit) {
  if (expr == nullptr) return;
  std::vector<const Expr*> stack = {expr};
  while (!stack.empty()) {
    const Expr* sub = stack.back();
    stack.pop_back();
    if (sub->kind == ExprKind::Call && sub->callee()->kind == ExprKind::Attr &&
        sub->callee()->text == "detach" && sub->arg_count() == 0) {
      continue;
    }
    if (sub->kind == ExprKind::Name || sub->kind == ExprKind::Attr ||
        sub->kind == ExprKind::Subscript) {
      const std::string key = place_key(sub);
      if (!key.empty() && visit(key, *sub)) return;
    }
    for (const Expr* item : sub->items) stack.push_back(item);
    for (const Keyword& keyword : sub->keywords) stack.push_back(keyword.value);
    for (const ComprehensionFor& gen : sub->generators) {
      stack.push_back(gen.target);
      stack.push_back(gen.iter);
      for (const Expr* cond : gen.conditions) stack.push_back(cond);
    }
  }
}

bool reads_place(const Expr* expr, std::string_view key) {
  if (expr == nullptr) return false;
  bool found = false;
  for_each_subexpr(*expr, [&](const Expr& sub) {
    if (found || (sub.kind != ExprKind::Name && sub.kind != ExprKind::Attr &&
                  sub.kind != ExprKind::Subscript))
      return;
    const std::string k = place_key(&sub);
    if (!k.empty() && k == key) found = true;
  });
  return found;
}

bool resets_in(const std::vector<Stmt*>& body, std::string_view key,
               const std::vector<std::string_view>& reset_methods, const Stmt* skip) {
  bool reset = false;
  for_each_every_iteration(body, [&](const Stmt& stmt) {
    if (reset || &stmt == skip) return;
    switch (stmt.kind) {
      case StmtKind::Assign:
      case StmtKind::AnnAssign:
        for (const Expr* target : stmt.targets) {
          if (is_clear_slice(target, key)) reset = true;
          if (binds(target, key) && !reads_with_history(stmt.value, key)) reset = true;
        }
        break;
      case StmtKind::Del:
        for (const Expr* target : stmt.targets) {
          if (binds(target, key) || is_clear_slice(target, key)) reset = true;
        }
        break;
      case StmtKind::Loop:
      case StmtKind::Guard:
        for (const Expr* target : stmt.targets) {
          if (binds(target, key)) reset = true;
        }
        break;
      case StmtKind::ExprStmt: {
        const Expr* call = stmt.value;
        if (call == nullptr || call->kind != ExprKind::Call ||
            call->callee()->kind != ExprKind::Attr)
          break;
        const Expr* callee = call->callee();
        const std::string receiver = place_key(callee->base());
        if (receiver == key && callee->text == "clear") reset = true;
        // `meter.reset()` resets `meter.sum` when the class's reset() rebinds self.sum.
        const bool owner = key.size() > receiver.size() && key.starts_with(receiver) &&
                           key[receiver.size()] == '.';
        if (owner && std::find(reset_methods.begin(), reset_methods.end(), callee->text) !=
                         reset_methods.end()) {
          reset = true;
        }
        break;
      }
      default:
        break;
    }
  });
  return reset;
}

bool defined_outside(const Function& function, const Stmt& loop, std::string_view key) {
  const std::string_view root = place_root(key);
  if (root == kReceiver) return true;
  if (function.has_param(root)) return true;
  bool bound_anywhere = false;
  bool bound_outside = false;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (!names_bound_in(stmt, root)) return;
    bound_anywhere = true;
    if (stmt.kind == StmtKind::Global || (&stmt != &loop && !contains(loop.body, &stmt)))
      bound_outside = true;
  });
  // Not bound in this function: a module-level name (or an attribute of one), which outlives it.
  return bound_outside || !bound_anywhere;
}

bool bound_in(const Stmt& loop, std::string_view name) {
  bool found = names_bound_in(loop, name);
  for_each_nested(loop.body,
                  [&](const Stmt& stmt) { found = found || names_bound_in(stmt, name); });
  return found;
}

const Stmt* binding_before(const Function& function, const Stmt& loop, std::string_view key) {
  const Stmt* last = nullptr;
  bool passed = false;
  for_each_nested(function.body, [&](const Stmt& stmt) {
    if (&stmt == &loop) passed = true;
    if (passed) return;
    if (names_bound_in(stmt, place_root(key))) last = &stmt;
  });
  return last;
}

}  // namespace sealint::ir
