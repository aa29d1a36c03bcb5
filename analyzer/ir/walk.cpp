#include "analyzer/ir/walk.h"

#include <algorithm>

namespace sealint::ir {

namespace {

void walk_body(const std::vector<Stmt*>& body, StmtContext& context, const StmtVisitor& visit) {
  const std::vector<Stmt*>* outer_block = context.block;
  for (const Stmt* stmt : body) {
    context.block = &body;
    visit(*stmt, context);
    // `torch.set_grad_enabled(False)` as a statement turns grad off for what follows.
    if (stmt->kind == StmtKind::ExprStmt && stmt->guard_kind != GuardKind::Other) {
      context.no_grad = disables_grad(stmt->guard_kind);
    }
    switch (stmt->kind) {
      case StmtKind::Loop:
        context.loops.push_back(stmt);
        walk_body(stmt->body, context, visit);
        context.loops.pop_back();
        walk_body(stmt->orelse, context, visit);
        break;
      case StmtKind::Guard: {
        const bool saved = context.no_grad;
        if (disables_grad(stmt->guard_kind)) context.no_grad = true;
        if (stmt->guard_kind == GuardKind::EnableGrad) context.no_grad = false;
        context.guards.push_back(stmt);
        walk_body(stmt->body, context, visit);
        context.guards.pop_back();
        context.no_grad = saved;
        break;
      }
      case StmtKind::If:
        context.branches.push_back({stmt, context.loops.size(), false});
        walk_body(stmt->body, context, visit);
        walk_body(stmt->orelse, context, visit);
        context.branches.pop_back();
        break;
      case StmtKind::Other:
        walk_body(stmt->body, context, visit);
        walk_body(stmt->orelse, context, visit);
        break;
      case StmtKind::Try:
        walk_body(stmt->body, context, visit);
        context.branches.push_back({stmt, context.loops.size(), true});
        for (const Handler& handler : stmt->handlers) walk_body(handler.body, context, visit);
        context.branches.pop_back();
        walk_body(stmt->orelse, context, visit);
        walk_body(stmt->finalbody, context, visit);
        break;
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::AnnAssign:
      case StmtKind::ExprStmt:
      case StmtKind::Del:
      case StmtKind::Return:
      case StmtKind::FunctionDef:
      case StmtKind::ClassDef:
      case StmtKind::Import:
      case StmtKind::Global:
      case StmtKind::Raise:
        break;
    }
  }
  context.block = outer_block;
}

}  // namespace

void walk_statements(const Function& function, bool starts_without_grad, const StmtVisitor& visit) {
  StmtContext context;
  context.function = &function;
  context.no_grad = starts_without_grad;
  walk_body(function.body, context, visit);
}

void walk_block(const std::vector<Stmt*>& body, const StmtVisitor& visit) {
  StmtContext context;
  walk_body(body, context, visit);
}

void walk_statements_in(const std::vector<Stmt*>& body,
                        const std::function<void(const Stmt&, bool)>& visit) {
  StmtContext context;
  walk_body(body, context,
            [&](const Stmt& stmt, const StmtContext& where) { visit(stmt, where.no_grad); });
}

void for_each_nested(const std::vector<Stmt*>& body,
                     const std::function<void(const Stmt&)>& visit) {
  StmtContext context;
  walk_body(body, context, [&](const Stmt& stmt, const StmtContext&) { visit(stmt); });
}

void for_each_outside_loops(const std::vector<Stmt*>& body,
                            const std::function<void(const Stmt&)>& visit) {
  for (const Stmt* stmt : body) {
    visit(*stmt);
    switch (stmt->kind) {
      case StmtKind::Loop:
      case StmtKind::FunctionDef:
      case StmtKind::ClassDef:
        break;
      case StmtKind::Try:
        for_each_outside_loops(stmt->body, visit);
        for (const Handler& handler : stmt->handlers) for_each_outside_loops(handler.body, visit);
        for_each_outside_loops(stmt->orelse, visit);
        for_each_outside_loops(stmt->finalbody, visit);
        break;
      case StmtKind::Guard:
      case StmtKind::If:
      case StmtKind::Other:
        for_each_outside_loops(stmt->body, visit);
        for_each_outside_loops(stmt->orelse, visit);
        break;
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::AnnAssign:
      case StmtKind::ExprStmt:
      case StmtKind::Del:
      case StmtKind::Return:
      case StmtKind::Import:
      case StmtKind::Global:
      case StmtKind::Raise:
        break;
    }
  }
}

std::vector<const Expr*> calls_in(const std::vector<Stmt*>& body) {
  std::vector<const Expr*> calls;
  for_each_nested(body, [&](const Stmt& stmt) {
    const size_t first = calls.size();
    for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind == ExprKind::Call) calls.push_back(&expr);
    });
    std::stable_sort(calls.begin() + static_cast<std::ptrdiff_t>(first), calls.end(),
                     [](const Expr* a, const Expr* b) {
                       return a->range.begin != b->range.begin ? a->range.begin < b->range.begin
                                                               : a->range.end > b->range.end;
                     });
  });
  return calls;
}

void for_each_subexpr(const Expr& expr, const std::function<void(const Expr&)>& visit) {
  // Expression depth is bounded by lowering; an explicit stack keeps this cheap anyway.
  std::vector<const Expr*> stack = {&expr};
  while (!stack.empty()) {
    const Expr* current = stack.back();
    stack.pop_back();
    visit(*current);
    for (const Expr* item : current->items) stack.push_back(item);
    for (const Keyword& keyword : current->keywords) stack.push_back(keyword.value);
    for (const ComprehensionFor& gen : current->generators) {
      stack.push_back(gen.target);
      stack.push_back(gen.iter);
      for (const Expr* cond : gen.conditions) stack.push_back(cond);
    }
  }
}

void walk_statements_in_loops(
    const Module& module,
    const std::function<void(const Function&, const Stmt&, const StmtContext&)>& visit) {
  for (const Function& function : module.functions()) {
    walk_statements(function, false, [&](const Stmt& stmt, const StmtContext& at) {
      if (!at.loops.empty()) visit(function, stmt, at);
    });
  }
}

void for_each_evaluated_subexpr(const Expr& expr, const std::function<void(const Expr&)>& visit) {
  std::vector<const Expr*> stack = {&expr};
  while (!stack.empty()) {
    const Expr* current = stack.back();
    stack.pop_back();
    if (current->kind == ExprKind::Lambda) continue;
    visit(*current);
    for (const Expr* item : current->items) stack.push_back(item);
    for (const Keyword& keyword : current->keywords) stack.push_back(keyword.value);
    for (const ComprehensionFor& gen : current->generators) {
      stack.push_back(gen.iter);
      for (const Expr* cond : gen.conditions) stack.push_back(cond);
    }
  }
}

void for_each_evaluated_expr(const Stmt& stmt, const std::function<void(const Expr&)>& visit) {
  for (const Expr* target : stmt.targets) for_each_evaluated_subexpr(*target, visit);
  if (stmt.value != nullptr) for_each_evaluated_subexpr(*stmt.value, visit);
  for (const Expr* item : stmt.items) for_each_evaluated_subexpr(*item, visit);
}

void for_each_every_iteration(const std::vector<Stmt*>& body,
                              const std::function<void(const Stmt&)>& visit) {
  for (const Stmt* stmt : body) {
    visit(*stmt);
    switch (stmt->kind) {
      case StmtKind::Guard:
      case StmtKind::Loop:
        for_each_every_iteration(stmt->body, visit);
        break;
      case StmtKind::Try:
        for_each_every_iteration(stmt->body, visit);
        for_each_every_iteration(stmt->finalbody, visit);
        break;
      default:
        break;
    }
  }
}

void for_each_expr(const Stmt& stmt, const std::function<void(const Expr&)>& visit) {
  for (const Expr* target : stmt.targets) for_each_subexpr(*target, visit);
  if (stmt.value != nullptr) for_each_subexpr(*stmt.value, visit);
  for (const Expr* item : stmt.items) for_each_subexpr(*item, visit);
}

// The blocks from the function's body down to the one holding `target`, each with the index of
// the statement on the way; empty when `target` is not in `body`.
static bool path_to(const std::vector<Stmt*>& body, const Stmt& target,
                    std::vector<std::pair<const std::vector<Stmt*>*, size_t>>& path) {
  for (size_t i = 0; i < body.size(); ++i) {
    path.emplace_back(&body, i);
    if (body[i] == &target) return true;
    const Stmt& stmt = *body[i];
    if (stmt.kind != StmtKind::FunctionDef && stmt.kind != StmtKind::ClassDef) {
      if (path_to(stmt.body, target, path) || path_to(stmt.orelse, target, path) ||
          path_to(stmt.finalbody, target, path)) {
        return true;
      }
      for (const Handler& handler : stmt.handlers) {
        if (path_to(handler.body, target, path)) return true;
      }
    }
    path.pop_back();
  }
  return false;
}

std::vector<const Stmt*> statements_after(const Function& function, const Stmt& loop) {
  std::vector<std::pair<const std::vector<Stmt*>*, size_t>> path;
  if (!path_to(function.body, loop, path)) return {};
  std::vector<const Stmt*> out;
  for (auto level = path.rbegin(); level != path.rend(); ++level) {
    const auto& [block, index] = *level;
    for (size_t i = index + 1; i < block->size(); ++i) {
      out.push_back((*block)[i]);
      for_each_nested({(*block)[i]}, [&](const Stmt& s) { out.push_back(&s); });
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Stmt* a, const Stmt* b) { return a->range.begin < b->range.begin; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool block_contains(const std::vector<Stmt*>& block, const Stmt& stmt) {
  return std::any_of(block.begin(), block.end(), [&](const Stmt* s) {
    return s->range.begin <= stmt.range.begin && stmt.range.end <= s->range.end;
  });
}

}  // namespace sealint::ir
