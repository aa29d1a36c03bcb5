#include "analyzer/semantic/discarded_outputs.h"

#include <algorithm>
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

// Does `expr`, evaluated in an iteration of `loop`, take something of that iteration: a loop
// target, what `next(...)` yields, the model run's own result carried to the next iteration
// (`hidden`, a sampled token), or a name the body binds from one of those? Names the body binds
// only from loop-invariant values and tensor factories (`x = torch.randn(2, 8)`) do not count:
// a run on the same or random input every time is a smoke test or a warm-up, not a pass over
// data. `depth` bounds the chase through the body's bindings, and `seen` (the names chased
// already) keeps it linear in the names of the body.
bool takes_iteration(const Expr& expr, const Stmt& loop, const Expr& run, int depth,
                     std::vector<std::string_view>& seen) {
  if (depth > 6) return false;
  bool takes = false;
  ir::for_each_subexpr(expr, [&](const Expr& sub) {
    if (takes) return;
    if (&sub == &run) {
      takes = true;
      return;
    }
    if (sub.kind == ExprKind::Call && sub.callee()->kind == ExprKind::Name &&
        sub.callee()->text == "next") {
      takes = true;
      return;
    }
    if (sub.kind != ExprKind::Name) return;
    if (std::find(seen.begin(), seen.end(), sub.text) != seen.end()) return;
    seen.push_back(sub.text);
    for (const Expr* target : loop.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& t) {
        takes = takes || (t.kind == ExprKind::Name && t.text == sub.text);
      });
    }
    if (takes) return;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (takes || stmt.value == nullptr ||
          (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AugAssign))
        return;
      bool binds = false;
      for (const Expr* target : stmt.targets) {
        ir::for_each_subexpr(*target, [&](const Expr& t) {
          binds = binds || (t.kind == ExprKind::Name && t.text == sub.text);
        });
      }
      if (binds && stmt.value != &expr && takes_iteration(*stmt.value, loop, run, depth + 1, seen))
        takes = true;
    });
  });
  return takes;
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

// What `function` does with the result of `call` (in `stmt`) keeps no graph: drops it, reads it
// as values, or (`returned`: a helper whose caller's use is judged there) returns it whole.
bool keeps_no_graph(const ir::Function& function, const Stmt& stmt, const Expr& call,
                    bool returned) {
  // `model(x)`, `print(model(x).shape)` as a statement: the result is dropped, or read as a
  // value and dropped.
  if (stmt.kind == StmtKind::ExprStmt) {
    return stmt.value != nullptr &&
           only_value_reads(
               *stmt.value, nullptr, [&](const Expr& e) { return &e == &call; }, true);
  }
  if (stmt.kind == StmtKind::Return) return returned && stmt.value == &call;
  // `out, hidden = model(x, hidden)`: names bound to the result, every later use of which
  // (anywhere in the function) reads a value; the run's own statement may feed them back.
  if (stmt.kind != StmtKind::Assign || stmt.value != &call) return false;
  std::vector<std::string_view> names;
  bool plain = true;
  for (const Expr* target : stmt.targets) {
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
    if (!only_values || &other == &stmt) return;
    for (const std::string_view name : names) {
      const auto is_name = [&](const Expr& e) { return names_value(e, name); };
      // `return out`, `return out, hidden`: handed whole to the caller, whose use is judged there.
      if (returned && other.kind == StmtKind::Return && other.value != nullptr) {
        const Expr& value = *other.value;
        const bool whole =
            (value.kind == ExprKind::Name && value.text == name) ||
            (value.kind == ExprKind::Collection &&
             std::any_of(value.items.begin(), value.items.end(), [&](const Expr* item) {
               return item->kind == ExprKind::Name && item->text == name;
             }));
        if (whole) continue;
      }
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

}  // namespace

bool graph_is_discarded(const ir::FileAnalysis& analysis, const ir::Function& function,
                        const Stmt& loop, const Expr& call) {
  if (analysis.loop_trains(loop) || analysis.summary(function).trains) return false;
  // A few written-out items (`for u in [a, b]`, `range(2)`): a demonstration or a warm-up.
  if (iterates_fixed_handful(analysis.module(), function, loop)) return false;
  const Stmt* stmt = statement_of(loop.body, call);
  if (stmt == nullptr) return false;
  // The run's input must change with the iteration (the data of the pass), not a warm-up on one
  // tensor or a smoke test on random ones.
  bool takes = false;
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < call.arg_count() && !takes; ++i)
    takes = takes_iteration(*call.arg(i), loop, call, 0, seen);
  for (const ir::Keyword& keyword : call.keywords) {
    if (!takes && keyword.value != nullptr)
      takes = takes_iteration(*keyword.value, loop, call, 0, seen);
  }
  if (!takes) return false;
  return keeps_no_graph(function, *stmt, call, false);
}

bool helper_keeps_no_graph(const ir::Function& helper, const Expr& call) {
  const Stmt* stmt = statement_of(helper.body, call);
  return stmt != nullptr && keeps_no_graph(helper, *stmt, call, true);
}

}  // namespace sealint::semantic
