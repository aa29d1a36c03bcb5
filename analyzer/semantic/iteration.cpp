#include "analyzer/semantic/iteration.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/definitions.h"

namespace sealint::semantic {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

namespace {

// How many of `where.loops` enclose `loop` and `loop` itself; 0 when `loop` is not around it.
size_t depth_of(const ir::StmtContext& where, const Stmt& loop) {
  const auto at = std::find(where.loops.begin(), where.loops.end(), &loop);
  if (at == where.loops.end()) return 0;
  return static_cast<size_t>(at - where.loops.begin()) + 1;
}

}  // namespace

namespace {

// `if op is None: op = ...`, `if not hasattr(self, "op"):`, `if not self.op: self.op = ...`:
// the branch makes what it tests for, so it runs until that exists. With `across_calls`, only a
// place that outlives a call counts (`self.op`; a local or a parameter is None again on the next
// call: `if train_op is None: train_op = tf.no_op()` builds one on every call).
bool lazy_initialisation(const Stmt& branch, bool across_calls = false) {
  const Expr* cond = branch.value;
  if (cond == nullptr) return false;
  auto body_binds = [&](const Expr* place) {
    const std::string key = ir::place_key(place);
    if (key.empty()) return false;
    if (across_calls && !key.starts_with(std::string(ir::kReceiver) + ".")) return false;
    bool bound = false;
    ir::for_each_nested(branch.body,
                        [&](const Stmt& s) { bound = bound || ir::stmt_binds(s, key); });
    return bound;
  };
  if (cond->kind == ExprKind::Compare && cond->items.size() == 2 && cond->text == "is") {
    const Expr* a = cond->items[0];
    const Expr* b = cond->items[1];
    if (ir::is_none_literal(a) || ir::is_none_literal(b))
      return body_binds(ir::is_none_literal(a) ? b : a);
  }
  if (cond->kind == ExprKind::UnaryOp && cond->text == "not" && !cond->items.empty()) {
    const Expr* operand = cond->items[0];
    if (operand->kind == ExprKind::Call && operand->callee()->kind == ExprKind::Name &&
        operand->callee()->text == "hasattr")
      return true;
    return body_binds(operand);
  }
  return false;
}

// The name `if step == 0:` compares with a literal, or nullptr.
const Expr* compared_to_literal(const Expr* cond) {
  if (cond == nullptr || cond->kind != ExprKind::Compare || cond->items.size() != 2 ||
      cond->text != "==")
    return nullptr;
  const Expr* a = cond->items[0];
  const Expr* b = cond->items[1];
  const Expr* counter = a->kind == ExprKind::Const ? b : a;
  const Expr* other = counter == a ? b : a;
  return other->kind == ExprKind::Const && counter->kind == ExprKind::Name ? counter : nullptr;
}

}  // namespace

bool runs_once_per_loop(const Stmt& branch, const Stmt& loop) {
  if (lazy_initialisation(branch)) return true;
  const Expr* counter = compared_to_literal(branch.value);
  return counter != nullptr &&
         std::any_of(loop.targets.begin(), loop.targets.end(),
                     [&](const Expr* t) { return ir::target_binds(t, counter->text); });
}

bool under_once_branch(const ir::StmtContext& where, const Stmt& loop) {
  const size_t depth = depth_of(where, loop);
  if (depth == 0) return false;
  return std::any_of(where.branches.begin(), where.branches.end(), [&](const ir::Branch& branch) {
    return !branch.handler && branch.loop_depth >= depth && runs_once_per_loop(*branch.stmt, loop);
  });
}

bool under_once_per_call_branch(const ir::StmtContext& where, const ir::Function& function) {
  return std::any_of(where.branches.begin(), where.branches.end(), [&](const ir::Branch& branch) {
    if (branch.handler) return false;
    if (lazy_initialisation(*branch.stmt, true)) return true;
    const Expr* counter = compared_to_literal(branch.stmt->value);
    return counter != nullptr && function.has_param(counter->text);
  });
}

bool under_periodic_branch(const ir::StmtContext& where, const Stmt& loop) {
  const size_t depth = depth_of(where, loop);
  if (depth == 0) return false;
  return std::any_of(where.branches.begin(), where.branches.end(), [&](const ir::Branch& branch) {
    if (branch.handler || branch.loop_depth < depth || branch.stmt->value == nullptr) return false;
    bool modulo = false;
    ir::for_each_evaluated_subexpr(*branch.stmt->value, [&](const Expr& e) {
      modulo = modulo || (e.kind == ExprKind::BinOp && e.text == "%");
    });
    return modulo;
  });
}

bool iterates_display(const Stmt& loop) {
  return loop.loop_kind == ir::LoopKind::For && loop.value != nullptr &&
         loop.value->kind == ExprKind::Collection;
}

namespace {

// A display, or `range(k)` / `range(a, b)` with literals spanning at most kHandful.
bool handful_iterable(const Expr* e) {
  if (e == nullptr) return false;
  if (e->kind == ExprKind::Collection) return true;
  if (e->kind != ExprKind::Call || e->callee()->kind != ExprKind::Name ||
      e->callee()->text != "range" || !e->keywords.empty())
    return false;
  auto literal = [](const Expr* arg) -> std::optional<int64_t> {
    if (arg == nullptr || arg->kind != ExprKind::Const || arg->const_kind != ir::ConstKind::Int)
      return std::nullopt;
    const auto folded = ir::parse_int_literal(arg->text);
    if (!folded || folded->huge) return std::nullopt;
    return folded->value;
  };
  // `range(2 if jit else 1)`: either count is written out.
  if (e->arg_count() == 1 && e->arg(0)->kind == ExprKind::IfExp && e->arg(0)->items.size() == 3) {
    const std::optional<int64_t> one = literal(e->arg(0)->items[0]);
    const std::optional<int64_t> other = literal(e->arg(0)->items[2]);
    return one && other && *one <= kHandful && *other <= kHandful;
  }
  std::optional<int64_t> first = literal(e->arg(0));
  if (e->arg_count() == 1) return first && *first <= kHandful;
  std::optional<int64_t> last = literal(e->arg(1));
  return e->arg_count() == 2 && first && last && *last - *first <= kHandful;
}

}  // namespace

const Expr* advanced_iterable(const ir::Function& function, const Stmt& loop) {
  if (loop.loop_kind == ir::LoopKind::For) return loop.value;
  // `it = iter(xs)` bound once, and `x = next(it)` in the body of a `while`.
  const Expr* advanced = nullptr;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (advanced == nullptr && is_next_call(call) && call.arg(0)->kind == ExprKind::Name)
        advanced = call.arg(0);
    });
  });
  if (advanced == nullptr || function.has_param(advanced->text)) return nullptr;
  Definitions definitions;
  const std::vector<Definition>& bound = definitions.of(function, std::string(advanced->text));
  if (bound.size() != 1 || bound.front().element) return nullptr;
  const Expr* made = bound.front().value;
  if (made == nullptr || made->kind != ExprKind::Call || made->callee()->kind != ExprKind::Name ||
      made->callee()->text != "iter" || made->arg_count() != 1)
    return nullptr;
  return made->arg(0);
}

const Expr* read_root(const Expr* expr, const std::function<bool(const Expr&)>& stop) {
  while (expr != nullptr) {
    if (stop && stop(*expr)) break;
    if (expr->kind == ExprKind::Call && expr->callee()->kind == ExprKind::Attr) {
      expr = expr->callee()->base();
    } else if (expr->kind == ExprKind::Attr || expr->kind == ExprKind::Subscript) {
      expr = expr->base();
    } else {
      break;
    }
  }
  return expr;
}

bool is_next_call(const Expr& expr) {
  return expr.kind == ExprKind::Call && expr.callee()->kind == ExprKind::Name &&
         expr.callee()->text == "next" && expr.arg_count() >= 1;
}

bool returns_next_item(const ir::Function& function,
                       const std::function<bool(const ir::Expr&)>& draws) {
  // The names bound to a next item, and to what is read from one (flow-insensitive: a helper
  // that draws an item is a few lines).
  std::vector<std::string_view> items;
  auto read_from_item = [&](const Expr* expr) {
    auto drawn = [&](const Expr& e) {
      return is_next_call(e) || (draws && e.kind == ExprKind::Call && draws(e));
    };
    const Expr* root = read_root(expr, drawn);
    if (root == nullptr) return false;
    if (root->kind == ExprKind::Name)
      return std::find(items.begin(), items.end(), root->text) != items.end();
    return drawn(*root);
  };
  bool returns = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind == ir::StmtKind::Assign && stmt.value != nullptr && read_from_item(stmt.value)) {
      for (const Expr* target : stmt.targets) {
        ir::for_each_subexpr(*target, [&](const Expr& sub) {
          if (sub.kind == ExprKind::Name) items.push_back(sub.text);
        });
      }
    }
    if (stmt.kind != ir::StmtKind::Return || stmt.value == nullptr) return;
    const Expr& value = *stmt.value;
    returns = returns || read_from_item(&value) ||
              (value.kind == ExprKind::Collection &&
               std::any_of(value.items.begin(), value.items.end(),
                           [&](const Expr* item) { return read_from_item(item); }));
  });
  return returns;
}

bool runs_at_most_once(const ir::Stmt& loop) {
  if (loop.kind != ir::StmtKind::Loop) return false;
  return std::any_of(loop.body.begin(), loop.body.end(), [](const ir::Stmt* stmt) {
    return stmt->kind == ir::StmtKind::Return || stmt->kind == ir::StmtKind::Raise ||
           (stmt->kind == ir::StmtKind::Other && stmt->text.starts_with("break"));
  });
}

namespace {

// What the loop iterates, through a name bound once (here or, for a name the function does not
// bind, at the module's top level) to its value; `items = []` filled by `items.append(...)` is no
// written-out display. False when it cannot be told.
bool iterated_value(const ir::Module& module, const ir::Function& function, const Stmt& loop,
                    const Expr*& iterable) {
  iterable = advanced_iterable(function, loop);
  if (iterable == nullptr) return false;
  if (iterable->kind != ExprKind::Name || function.has_param(iterable->text)) return true;
  Definitions definitions;
  const std::string name(iterable->text);
  const std::vector<Definition>* bound = &definitions.of(function, name);
  if (bound->empty() && &function != &module.top_level())
    bound = &definitions.of(module.top_level(), name);
  if (bound->size() != 1 || bound->front().element) return false;
  iterable = bound->front().value;
  return !(iterable != nullptr && iterable->kind == ExprKind::Collection &&
           (iterable->items.empty() || module.has_method_called_on(name)));
}

}  // namespace

bool iterates_fixed_handful(const ir::Module& module, const ir::Function& function,
                            const Stmt& loop) {
  const Expr* iterable = nullptr;
  if (!iterated_value(module, function, loop, iterable)) return false;
  // `range(n_steps)`, `n_steps = 10` bound once (here or at the module's top level).
  if (iterable != nullptr && iterable->kind == ExprKind::Call &&
      iterable->callee()->kind == ExprKind::Name && iterable->callee()->text == "range" &&
      iterable->arg_count() == 1 && iterable->arg(0)->kind == ExprKind::Name &&
      !function.has_param(iterable->arg(0)->text)) {
    Definitions definitions;
    const std::string name(iterable->arg(0)->text);
    const std::vector<Definition>* bound = &definitions.of(function, name);
    if (bound->empty() && &function != &module.top_level())
      bound = &definitions.of(module.top_level(), name);
    if (bound->size() != 1 || bound->front().element || bound->front().value == nullptr ||
        bound->front().value->kind != ExprKind::Const ||
        bound->front().value->const_kind != ir::ConstKind::Int)
      return false;
    const auto count = ir::parse_int_literal(bound->front().value->text);
    return count && !count->huge && count->value <= kHandful;
  }
  return handful_iterable(iterable);
}

namespace {

// Data written out in the code: a number, a string that names no file (`"pytorch"`, not
// `"imgs/*.jpg"`), a display of such values, or a call whose arguments are all such values
// (`torch.LongTensor([1, 2, 3])`, `str2tensor("pytorch")`), `depth` calls deep.
bool written_out_data(const Expr* e, int depth) {
  if (e == nullptr) return false;
  switch (e->kind) {
    case ExprKind::Const:
      return e->const_kind != ir::ConstKind::Str ||
             e->text.find_first_of("/\\*.") == std::string_view::npos;
    case ExprKind::Collection:
      return std::all_of(e->items.begin(), e->items.end(),
                         [&](const Expr* item) { return written_out_data(item, depth); });
    case ExprKind::Call: {
      if (depth <= 0 || e->arg_count() == 0) return false;
      for (size_t i = 0; i < e->arg_count(); ++i) {
        if (!written_out_data(e->arg(i), depth - 1)) return false;
      }
      return std::all_of(e->keywords.begin(), e->keywords.end(), [&](const ir::Keyword& k) {
        return written_out_data(k.value, depth - 1);
      });
    }
    default:
      return false;
  }
}

}  // namespace

namespace {

// The names that count `loop`'s passes: `i` of `for i, x in enumerate(xs)` and of
// `for i in range(n)`.
std::string_view pass_counter(const ir::Function& function, const Stmt& loop) {
  const Expr* iterable = advanced_iterable(function, loop);
  if (iterable == nullptr || iterable->kind != ExprKind::Call ||
      iterable->callee()->kind != ExprKind::Name)
    return {};
  // The loop's target, or for a `while` the target of `x = next(it)` in its body.
  const Expr* target =
      loop.loop_kind == ir::LoopKind::For && !loop.targets.empty() ? loop.targets.front() : nullptr;
  if (loop.loop_kind == ir::LoopKind::While) {
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (target == nullptr && stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 &&
          stmt.value != nullptr && stmt.value->kind == ExprKind::Call &&
          stmt.value->callee()->kind == ExprKind::Name && stmt.value->callee()->text == "next")
        target = stmt.targets.front();
    });
  }
  if (target == nullptr) return {};
  if (iterable->callee()->text == "enumerate" && target->kind == ExprKind::Collection &&
      !target->items.empty() && target->items[0]->kind == ExprKind::Name)
    return target->items[0]->text;
  if (iterable->callee()->text == "range" && target->kind == ExprKind::Name) return target->text;
  return {};
}

// Does `e` count passes: the counter, the counter plus or minus a literal (`i + 1`), or
// `len(filled)`?
bool counts_passes(const Expr* e, std::string_view counter, std::string_view filled) {
  if (e->kind == ExprKind::Name) return !counter.empty() && e->text == counter;
  if (e->kind == ExprKind::BinOp && (e->text == "+" || e->text == "-"))
    return counts_passes(e->items[0], counter, filled) && e->items[1]->kind == ExprKind::Const;
  return e->kind == ExprKind::Call && e->callee()->kind == ExprKind::Name &&
         e->callee()->text == "len" && e->arg_count() == 1 && !filled.empty() &&
         ir::place_key(e->arg(0)) == filled;
}

// The N of `count < N` when `holds` is true (`count >= N` when false: the arm that a `break`
// leaves), for a counting side and a literal or module constant N.
std::optional<int64_t> count_limit(const ir::Module& module, const Expr& condition, bool holds,
                                   std::string_view counter, std::string_view filled) {
  if (condition.kind != ExprKind::Compare || condition.items.size() != 2) return std::nullopt;
  std::string_view op = condition.text;
  const Expr* count = condition.items[0];
  const Expr* limit = condition.items[1];
  if (!counts_passes(count, counter, filled)) {
    std::swap(count, limit);
    // `N > i` is `i < N`.
    if (op == "<")
      op = ">";
    else if (op == ">")
      op = "<";
    else if (op == "<=")
      op = ">=";
    else if (op == ">=")
      op = "<=";
    if (!counts_passes(count, counter, filled)) return std::nullopt;
  }
  const bool below = holds ? (op == "<" || op == "<=") : (op == ">=" || op == ">");
  if (!below) return std::nullopt;
  const ir::ModuleConstants constants(module);
  const auto folded = ir::fold_int(*limit, [&](const Expr& name) -> std::optional<ir::FoldedInt> {
    const ir::ModuleConstant* constant = constants.find(name.text);
    return constant ? std::optional(constant->value) : std::nullopt;
  });
  if (!folded || folded->huge || folded->value < 0) return std::nullopt;
  return folded->value + 1;
}

bool in_true_arm(const Stmt& branch, const Stmt& stmt) {
  return !branch.body.empty() && stmt.range.begin >= branch.body.front()->range.begin &&
         stmt.range.end <= branch.body.back()->range.end;
}

bool breaks(const Stmt& branch) {
  return std::any_of(branch.body.begin(), branch.body.end(), [](const Stmt* s) {
    return s->kind == StmtKind::Other && s->text.starts_with("break");
  });
}

}  // namespace

std::optional<int64_t> bounded_pass_count(const ir::Module& module, const ir::StmtContext& where,
                                          const Stmt& stmt, std::string_view filled) {
  if (where.loops.empty()) return std::nullopt;
  const Stmt& loop = *where.loops.back();
  const std::string_view counter =
      where.function != nullptr ? pass_counter(*where.function, loop) : std::string_view{};
  for (const ir::Branch& branch : where.branches) {
    if (branch.handler || branch.loop_depth != where.loops.size() ||
        branch.stmt->kind != StmtKind::If || branch.stmt->value == nullptr ||
        !in_true_arm(*branch.stmt, stmt))
      continue;
    if (auto limit = count_limit(module, *branch.stmt->value, true, counter, filled)) return limit;
  }
  // `if i >= N: break` before the statement, in the loop's own body.
  for (const Stmt* before : loop.body) {
    if (before->range.begin >= stmt.range.begin) break;
    if (before->kind != StmtKind::If || before->value == nullptr || !breaks(*before)) continue;
    if (auto limit = count_limit(module, *before->value, false, counter, filled)) return limit;
  }
  return std::nullopt;
}

bool iterates_written_out_items(const ir::Module& module, const ir::Function& function,
                                const Stmt& loop) {
  const Expr* iterable = nullptr;
  if (!iterated_value(module, function, loop, iterable)) return false;
  return iterable != nullptr && iterable->kind == ExprKind::Collection &&
         !iterable->items.empty() && written_out_data(iterable, 0);
}

bool iterates_literal_value(const ir::Function& function, const Stmt& loop) {
  constexpr int kCallDepth = 3;
  // `range(len(x))` only: a loop over a list of configurations or over `range(n_classes)` runs
  // real work per item.
  const Expr* range = advanced_iterable(function, loop);
  if (range == nullptr) return false;
  auto is_call_of = [](const Expr* e, std::string_view name) {
    return e->kind == ExprKind::Call && e->callee()->kind == ExprKind::Name &&
           e->callee()->text == name && e->arg_count() == 1 && e->keywords.empty();
  };
  if (!is_call_of(range, "range") || !is_call_of(range->arg(0), "len")) return false;
  const Expr* sized = range->arg(0)->arg(0);
  if (sized->kind != ExprKind::Name || function.has_param(sized->text)) return false;
  // Bound once in the function, to a call made of written-out data.
  Definitions definitions;
  const std::vector<Definition>& bound = definitions.of(function, std::string(sized->text));
  return bound.size() == 1 && !bound.front().element && bound.front().value != nullptr &&
         bound.front().value->kind == ExprKind::Call &&
         written_out_data(bound.front().value, kCallDepth);
}

bool iterates_written_out_argument(const ir::Function& function, const Stmt& loop,
                                   CallSites& calls) {
  constexpr int kCallDepth = 2;
  const Expr* iterable = advanced_iterable(function, loop);
  if (iterable != nullptr && iterable->kind == ExprKind::Call &&
      iterable->callee()->kind == ExprKind::Name && iterable->callee()->text == "enumerate" &&
      iterable->arg_count() >= 1)
    iterable = iterable->arg(0);
  if (iterable == nullptr || iterable->kind != ExprKind::Name) return false;
  const std::optional<size_t> index = parameter_index(function, iterable->text);
  if (!index) return false;
  const std::vector<CallSite>& sites = calls.of(function);
  if (sites.empty()) return false;
  const Expr* fallback = function.params[*index].default_value;
  const bool written_out = std::all_of(sites.begin(), sites.end(), [&](const CallSite& site) {
    bool unknown = false;
    const Expr* passed = argument_for(function, *site.call, *index, unknown);
    if (unknown) return false;
    return written_out_data(passed != nullptr ? passed : fallback, kCallDepth);
  });
  // Rebound in the body: the loop may not see what the callers pass. Asked last: the index of
  // the function's definitions is one walk of it, and this question comes once per loop (a
  // function of N loops over a parameter took N walks of itself).
  Definitions definitions;
  return written_out && definitions.of(function, std::string(iterable->text)).empty();
}

bool called_only_on_written_out_data(const ir::Module& module, const ir::Function& function,
                                     CallSites& calls) {
  constexpr int kCallDepth = 2;
  const std::vector<CallSite>& sites = calls.of(function);
  if (sites.empty()) return false;
  const ir::Function& top = module.top_level();
  return std::all_of(sites.begin(), sites.end(), [&](const CallSite& site) {
    if (site.caller != &top) return false;
    bool in_loop = false;
    ir::for_each_nested(top.body, [&](const Stmt& stmt) {
      in_loop =
          in_loop || (stmt.kind == StmtKind::Loop && stmt.range.begin <= site.call->range.begin &&
                      site.call->range.end <= stmt.range.end);
    });
    if (in_loop) return false;
    for (size_t i = 0; i < site.call->arg_count(); ++i) {
      if (!written_out_data(site.call->arg(i), kCallDepth)) return false;
    }
    return std::all_of(site.call->keywords.begin(), site.call->keywords.end(),
                       [&](const ir::Keyword& k) { return written_out_data(k.value, kCallDepth); });
  });
}

bool iterates_many_written_out(const ir::Function& function, const Stmt& loop, CallSites& calls) {
  const Expr* iterable = advanced_iterable(function, loop);
  if (iterable == nullptr || iterable->kind != ExprKind::Call ||
      iterable->callee()->kind != ExprKind::Name || iterable->callee()->text != "range" ||
      iterable->arg_count() != 1)
    return false;
  auto many = [](const Expr* count) {
    if (count == nullptr || count->kind != ExprKind::Const) return false;
    const auto value = ir::parse_int_literal(count->text);
    return value && (value->huge || value->value > kHandful);
  };
  const Expr* count = iterable->arg(0);
  if (many(count)) return true;
  const std::optional<size_t> index =
      count->kind == ExprKind::Name ? parameter_index(function, count->text) : std::nullopt;
  if (!index) return false;
  if (many(function.params[*index].default_value)) return true;
  const std::vector<CallSite>& sites = calls.of(function);
  return std::any_of(sites.begin(), sites.end(), [&](const CallSite& site) {
    bool unknown = false;
    return many(argument_for(function, *site.call, *index, unknown));
  });
}

const Stmt* counts_own_calls(const ir::Function& function) {
  if (function.parent_class == nullptr || function.name == "__init__") return nullptr;
  const std::string prefix = std::string(ir::kReceiver) + ".";
  const Stmt* counter = nullptr;
  ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
    if (counter != nullptr || !where.loops.empty() || stmt.kind != StmtKind::AugAssign ||
        stmt.text != "+=" || stmt.targets.size() != 1 || stmt.value == nullptr ||
        stmt.value->kind != ExprKind::Const || stmt.value->const_kind != ir::ConstKind::Int)
      return;
    const std::string key = ir::place_key(stmt.targets[0]);
    if (key.starts_with(prefix) && key.find_first_of(".[", prefix.size()) == std::string::npos)
      counter = &stmt;
  });
  return counter;
}

bool may_skip_body(const ir::Function& function) {
  return std::any_of(function.decorators.begin(), function.decorators.end(), [](const Expr* d) {
    const std::string name = ir::dotted_name(d);
    return name != "staticmethod" && name != "classmethod";
  });
}

bool holds_every_time(const Expr* condition, const std::vector<Stmt*>& scope) {
  if (condition == nullptr) return false;
  if (condition->kind == ExprKind::BoolOp) {
    return holds_every_time(condition->items[0], scope) &&
           holds_every_time(condition->items[1], scope);
  }
  if (condition->kind != ExprKind::Name && condition->kind != ExprKind::Attr) return false;
  const std::string key = ir::place_key(condition);
  if (key.empty()) return false;
  bool rebound = false;
  ir::for_each_nested(scope, [&](const Stmt& stmt) {
    if (stmt.kind != StmtKind::Assign && stmt.kind != StmtKind::AugAssign &&
        stmt.kind != StmtKind::AnnAssign)
      return;
    for (const Expr* target : stmt.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& sub) {
        if (ir::place_key(&sub) == key) rebound = true;
      });
    }
  });
  return !rebound;
}

bool stores_on_receiver(const std::vector<Stmt*>& body) {
  bool stores = false;
  ir::for_each_nested(body, [&](const Stmt& stmt) {
    for (const Expr* target : stmt.targets) {
      if (stmt.kind != StmtKind::Del &&
          ir::place_key(target).starts_with(std::string(ir::kReceiver) + "."))
        stores = true;
    }
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      const Expr* callee = call.callee();
      if (callee->kind == ExprKind::Name && callee->text == "setattr") stores = true;
      if (callee->kind == ExprKind::Attr &&
          (callee->text == "add_module" || callee->text == "register_module") &&
          ir::dotted_name(callee->base()) == ir::kReceiver) {
        stores = true;
      }
    });
  });
  return stores;
}

}  // namespace sealint::semantic
