#include "analyzer/semantic/discarded_outputs.h"

#include <string_view>
#include <vector>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::semantic {
namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Builtins that read a value and keep no tensor: `int(top_i)`, `print(out)`, `len(out)`.
bool reads_as_value(std::string_view builtin) {
  return knowledge::kBuiltinsWithPlainResult.contains(builtin);
}

// `out`, `out[0]`, `out[:, -1]`: the name's value, or a part of it.
bool names_value(const Expr& expr, std::string_view name) {
  if (expr.kind == ExprKind::Name) return expr.text == name;
  return expr.kind == ExprKind::Subscript && expr.base() != nullptr &&
         names_value(*expr.base(), name);
}

// Is every occurrence of what `is_value` picks inside `expr` a read that keeps no graph?
// `parent` is the expression holding `expr` (nullptr at a statement's top, where the value is
// dropped when `dropped`, and escapes otherwise: returned, stored, bound whole).
template <typename Pick>
bool only_value_reads(const Expr& expr, const Expr* parent, const Pick& is_value, bool dropped) {
  if (is_value(expr)) {
    if (parent == nullptr) return dropped;
    switch (parent->kind) {
      case ExprKind::Attr:
        // `out.data`, `out.shape`, and `out.argmax(1)` (the callee of the call).
        return parent->text == "data" || parent->text == "detach" ||
               knowledge::kTensorAttributesWithoutGraph.contains(parent->text) ||
               knowledge::kTensorMethodsWithoutGraph.contains(parent->text);
      case ExprKind::Compare:
        return true;
      case ExprKind::Call:
        // An argument of a builtin that reads a value (`int(x)`, `print(out)`).
        return parent->callee() != &expr && parent->callee()->kind == ExprKind::Name &&
               reads_as_value(parent->callee()->text);
      default:
        return false;
    }
  }
  for (const Expr* item : expr.items) {
    if (item != nullptr && !only_value_reads(*item, &expr, is_value, dropped)) return false;
  }
  for (const ir::Keyword& keyword : expr.keywords) {
    if (keyword.value != nullptr && !only_value_reads(*keyword.value, &expr, is_value, dropped))
      return false;
  }
  return true;
}

// The statement of `body` (at any depth) that holds `call`, or nullptr.
const Stmt* statement_of(const std::vector<Stmt*>& body, const Expr& call) {
  const Stmt* found = nullptr;
  ir::for_each_nested(body, [&](const Stmt& stmt) {
    if (found != nullptr) return;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (&expr == &call) found = &stmt;
    });
  });
  return found;
}

}  // namespace

bool graph_is_discarded(const ir::FileAnalysis& analysis, const ir::Function& function,
                        const Stmt& loop, const Expr& call) {
  if (analysis.loop_trains(loop) || analysis.summary(function).trains) return false;
  // A few written-out items (`for u in [a, b]`, `range(2)`): a demonstration or a warm-up.
  if (iterates_fixed_handful(analysis.module(), function, loop)) return false;
  const Stmt* stmt = statement_of(loop.body, call);
  if (stmt == nullptr) return false;
  // `model(x)`, `print(model(x).shape)` as a statement: the result is dropped, or read as a
  // value and dropped.
  if (stmt->kind == StmtKind::ExprStmt) {
    return stmt->value != nullptr &&
           only_value_reads(
               *stmt->value, nullptr, [&](const Expr& e) { return &e == &call; }, true);
  }
  // `out, hidden = model(x, hidden)`: names bound to the result, every later use of which
  // (anywhere in the function) reads a value; the run's own statement may feed them back.
  if (stmt->kind != StmtKind::Assign || stmt->value != &call) return false;
  std::vector<std::string_view> names;
  bool plain = true;
  for (const Expr* target : stmt->targets) {
    ir::for_each_subexpr(*target, [&](const Expr& sub) {
      if (sub.kind == ExprKind::Name) names.push_back(sub.text);
      if (sub.kind == ExprKind::Attr || sub.kind == ExprKind::Subscript) plain = false;
    });
  }
  if (!plain || names.empty()) return false;
  // A parameter bound to the result may be the caller's (a C++ output reference, `Tensor& last`).
  for (const std::string_view name : names) {
    if (function.has_param(name)) return false;
  }
  bool only_values = true;
  ir::for_each_nested(function.body, [&](const Stmt& other) {
    if (!only_values || &other == stmt) return;
    for (const std::string_view name : names) {
      const auto is_name = [&](const Expr& e) { return names_value(e, name); };
      // Rebinding the name is no use of it; what is assigned from it is.
      if (other.value != nullptr && !only_value_reads(*other.value, nullptr, is_name, false))
        only_values = false;
      for (const Expr* item : other.items) {
        if (!only_value_reads(*item, nullptr, is_name, false)) only_values = false;
      }
      for (const Expr* target : other.targets) {
        if (target->kind != ExprKind::Name && !only_value_reads(*target, nullptr, is_name, false))
          only_values = false;
      }
    }
  });
  return only_values;
}

}  // namespace sealint::semantic
