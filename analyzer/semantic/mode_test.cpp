#include "analyzer/semantic/mode_test.h"

#include <string_view>

#include "analyzer/knowledge/naming.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;

// A flag read as it is: `is_train`, `self.training`, `args.do_train`.
bool is_flag(const Expr* expr) {
  return expr != nullptr && (expr->kind == ExprKind::Name || expr->kind == ExprKind::Attr);
}

// The source text of a string literal (quotes included); empty for anything else.
std::string_view string_literal(const Expr* expr) {
  if (expr == nullptr || expr->kind != ExprKind::Const || expr->const_kind != ir::ConstKind::Str)
    return {};
  return expr->text;
}

// `mode == "train"`, `phase in ("train",)`, `split != "val"`, `optimizer is not None`.
bool is_mode_comparison(const Expr& compare) {
  if (compare.items.size() != 2) return false;
  const std::string_view op = compare.text;
  const bool positive = op == "==" || op == "in" || op == "is";
  const bool negative = op == "!=" || op == "not in" || op == "is not";
  for (const Expr* side : compare.items) {
    const std::string_view literal = string_literal(side);
    if (!literal.empty()) {
      if (positive && knowledge::is_training_mode_name(literal)) return true;
      if (negative && knowledge::is_evaluation_mode_name(literal) &&
          !knowledge::is_training_mode_name(literal))
        return true;
    }
    // A collection of literals: `phase in ("train", "finetune")`.
    if (side->kind == ExprKind::Collection && positive && !side->items.empty()) {
      bool all_training = true;
      for (const Expr* item : side->items)
        all_training = all_training && knowledge::is_training_mode_name(string_literal(item));
      if (all_training) return true;
    }
  }
  // `optimizer is not None`: the pass that is handed an optimizer trains.
  const Expr* lhs = compare.items[0];
  const Expr* rhs = compare.items[1];
  return op == "is not" && is_flag(lhs) && knowledge::is_optimizer_like_name(lhs->text) &&
         rhs->kind == ExprKind::Const && rhs->text == "None";
}

// Does `loop` bind `name`: a target of the loop itself or of an assignment in its body?
bool binds_in(const ir::Stmt& loop, std::string_view name) {
  bool binds = false;
  auto check = [&](const Expr* target) {
    ir::for_each_subexpr(*target, [&](const Expr& sub) {
      binds = binds || (sub.kind == ExprKind::Name && sub.text == name);
    });
  };
  for (const Expr* target : loop.targets) check(target);
  ir::for_each_nested(loop.body, [&](const ir::Stmt& stmt) {
    for (const Expr* target : stmt.targets) check(target);
  });
  return binds;
}

// A plain name the loop does not bind: the same in every iteration (a parameter, a local set
// before the loop). Attributes are left out: `self.x` may change under a call in the loop.
bool is_invariant_name(const Expr* expr, const ir::Stmt& loop) {
  return expr != nullptr && expr->kind == ExprKind::Name && !binds_in(loop, expr->text);
}

// A condition on a flag that holds the same value in every iteration of `loop`, whatever the
// flag is called: `if train:`, `if not evaluating:`, `if mode == "fit":`, `if opt is not None:`.
// A backward only under it runs in every pass or in none, while the forward runs in all.
const Expr* invariant_flag_test(const Expr* condition, const ir::Stmt& loop) {
  switch (condition->kind) {
    case ExprKind::Name:
      return is_invariant_name(condition, loop) ? condition : nullptr;
    case ExprKind::UnaryOp:
      return condition->text == "not" && is_invariant_name(condition->base(), loop) ? condition
                                                                                    : nullptr;
    case ExprKind::Compare: {
      if (condition->items.size() != 2) return nullptr;
      const Expr* lhs = condition->items[0];
      const Expr* rhs = condition->items[1];
      const bool literal = rhs->kind == ExprKind::Const || lhs->kind == ExprKind::Const;
      return literal && (is_invariant_name(lhs, loop) || is_invariant_name(rhs, loop)) ? condition
                                                                                       : nullptr;
    }
    case ExprKind::BoolOp:
      if (condition->text != "and") return nullptr;
      for (const Expr* side : condition->items) {
        if (const Expr* test = invariant_flag_test(side, loop)) return test;
      }
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

const Expr* training_mode_test(const Expr* condition) {
  if (condition == nullptr) return nullptr;
  switch (condition->kind) {
    case ExprKind::Name:
    case ExprKind::Attr:
      return knowledge::is_training_mode_name(condition->text) ||
                     knowledge::is_optimizer_like_name(condition->text)
                 ? condition
                 : nullptr;
    case ExprKind::UnaryOp:
      // `not is_eval`
      return condition->text == "not" && is_flag(condition->base()) &&
                     knowledge::is_evaluation_mode_name(condition->base()->text) &&
                     !knowledge::is_training_mode_name(condition->base()->text)
                 ? condition
                 : nullptr;
    case ExprKind::Compare:
      return is_mode_comparison(*condition) ? condition : nullptr;
    case ExprKind::BoolOp:
      // `is_train and (step + 1) % accum == 0`: the branch runs only in the training pass.
      if (condition->text != "and") return nullptr;
      for (const Expr* side : condition->items) {
        if (const Expr* test = training_mode_test(side)) return test;
      }
      return nullptr;
    default:
      return nullptr;
  }
}

TrainingBranch training_branch(const ir::StmtContext& where, const ir::Stmt& stmt) {
  TrainingBranch found;
  for (const ir::Branch& branch : where.branches) {
    if (branch.handler || branch.stmt->kind != ir::StmtKind::If ||
        !ir::block_contains(branch.stmt->body, stmt))
      continue;
    if (const Expr* test = training_mode_test(branch.stmt->value)) {
      found = {test, branch.loop_depth};
    } else if (branch.loop_depth > 0 && branch.loop_depth <= where.loops.size()) {
      // The structure, whatever the flag is called: a test the innermost loop around the `if`
      // cannot change.
      if (const Expr* flag =
              invariant_flag_test(branch.stmt->value, *where.loops[branch.loop_depth - 1]))
        found = {flag, branch.loop_depth};
    }
  }
  return found;
}

}  // namespace sealint::semantic
