// TF1: ops built on every iteration of a loop that runs a session, so the default graph grows
// (`sess.run(tf.assign(v, x))`, `loss = a + b` on graph tensors, `opt.minimize(loss)`).
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/SL009/session_ops.h"

namespace sealint::rules::sl009 {

namespace {

using ir::assigned_value;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;
using semantic::TfApi;

bool arithmetic_operator(std::string_view op) {
  return op == "+" || op == "-" || op == "*" || op == "/" || op == "//" || op == "%" ||
         op == "**" || op == "@" || op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
}

bool is_str_const(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::Const && e->const_kind == ir::ConstKind::Str;
}

// Arithmetic on graph tensors adds an op (`"%d" % n` formats a string).
bool graph_arithmetic(const Expr& e) {
  return e.kind == ExprKind::BinOp && arithmetic_operator(e.text) && !is_str_const(e.items[0]);
}

bool negation(const Expr& e) {
  return e.kind == ExprKind::UnaryOp && (e.text == "-" || e.text == "~");
}

Growth make_growth(GrowthKind kind, const Expr* primary, std::string operand = {}) {
  Growth growth;
  growth.kind = kind;
  growth.primary = primary;
  growth.operand = std::move(operand);
  return growth;
}

class SessionOps {
 public:
  explicit SessionOps(TfFacts& facts) : facts_(facts), module_(facts.module()) {}

  void run(DiagnosticSink& sink) {
    ir::walk_statements_in_loops(
        module_, [&](const Function& function, const Stmt& stmt, const ir::StmtContext& at) {
          check(function, stmt, at);
        });
    for (const auto& [loop, growth] : growths_) report_growth(facts_, *loop, growth, sink);
  }

 private:
  // ---- Graph tensors ----

  // Is `expr`, evaluated just before `before` in `function`, a tensor of the graph: a builder's
  // result, arithmetic on one, or a name or `self.x` bound to one?
  bool graph_tensor(const Function& function, const Expr& expr, const Stmt& before, int depth) {
    switch (expr.kind) {
      case ExprKind::Call: {
        const semantic::TfApiRef ref = semantic::tf_callee_api(module_, expr);
        return ref.api == TfApi::Tf && knowledge::tf_returns_graph_tensor(ref.path);
      }
      case ExprKind::BinOp:
        if (!graph_arithmetic(expr)) return false;
        return graph_tensor(function, *expr.items[0], before, depth) ||
               graph_tensor(function, *expr.items[1], before, depth);
      case ExprKind::UnaryOp:
        return negation(expr) && graph_tensor(function, *expr.items[0], before, depth);
      case ExprKind::Name:
      case ExprKind::Attr:
        return depth > 0 && graph_place(function, ir::place_key(&expr), before, depth - 1);
      default:
        return false;
    }
  }

  // Every binding of `key` in `scopes` is a graph tensor, and there is one.
  bool all_bindings_graph(const std::vector<const Function*>& scopes, const std::string& key,
                          int depth) {
    bool any = false;
    bool all = true;
    for (const Function* scope : scopes) {
      ir::for_each_nested(scope->body, [&](const Stmt& stmt) {
        if (!all || !ir::stmt_binds(stmt, key)) return;
        any = true;
        const Expr* value = assigned_value(stmt, key);
        all = value != nullptr && graph_tensor(*scope, *value, stmt, depth);
      });
    }
    return any && all;
  }

  bool graph_place(const Function& function, const std::string& key, const Stmt& before,
                   int depth) {
    if (key.empty()) return false;
    if (key.starts_with("self.")) {
      // `self.loss` when every assignment of it in the class's methods is a graph tensor.
      const ir::ClassDef* cls = function.parent_class;
      return cls != nullptr &&
             all_bindings_graph({cls->methods.begin(), cls->methods.end()}, key, depth);
    }
    if (key.find('.') != std::string::npos || key.find('[') != std::string::npos) return false;
    if (function.has_param(key)) return false;
    if (const Stmt* binding = ir::binding_before(function, before, key)) {
      const Expr* value = assigned_value(*binding, key);
      return value != nullptr && graph_tensor(function, *value, *binding, depth);
    }
    if (function.is_module || facts_.binds_anywhere(function, key)) return false;
    // A module-level name: every binding of it at the top level must be a graph tensor.
    return all_bindings_graph({&module_.top_level()}, key, depth);
  }

  // A graph-tensor operand of an operator in the loop: a name or `self.x` bound to one before
  // the loop and not rebound in it (`stmt` aside: `x = x * 2` grows the graph too).
  std::optional<std::string> graph_operand(const Function& function, const Expr* operand,
                                           const Stmt& loop, const Stmt& stmt) {
    if (operand->kind != ExprKind::Name &&
        !(operand->kind == ExprKind::Attr && operand->base()->kind == ExprKind::Name &&
          operand->base()->text == "self"))
      return std::nullopt;
    const std::string key = ir::place_key(operand);
    if (key.empty() || facts_.bound_in_loop(loop, key, &stmt)) return std::nullopt;
    const auto cache_key = std::make_pair(&loop, key);
    auto it = graph_operands_.find(cache_key);
    if (it == graph_operands_.end())
      it = graph_operands_.emplace(cache_key, graph_place(function, key, loop, kMaxValueDepth))
               .first;
    if (!it->second) return std::nullopt;
    return key;
  }

  // ---- Functions of the file that build ops ----

  // The first op `function` builds on every call (not under an `if`: `if self.op is None:` builds
  // once), directly or through the file's functions; null when it builds none or starts a new
  // graph.
  const Expr* builds_graph(const Function& function, int depth) {
    // A cached or otherwise wrapped function may build once: not followed.
    if (semantic::may_skip_body(function) || depth <= 0) return nullptr;
    if (auto it = graph_builders_.find(&function); it != graph_builders_.end()) return it->second;
    // A recursive call builds nothing more than the call in progress.
    if (!in_progress_.insert(&function).second) return nullptr;
    const Expr* found = nullptr;
    bool resets = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && semantic::is_tf_graph_reset_call(module_, e)) resets = true;
      });
    });
    ir::for_each_every_iteration(function.body, [&](const Stmt& stmt) {
      if (found != nullptr || resets) return;
      ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
        if (found != nullptr || e.kind != ExprKind::Call) return;
        const semantic::TfApiRef ref = semantic::tf_callee_api(module_, e);
        if (ref.api == TfApi::Tf && knowledge::tf_adds_graph_nodes(ref.path)) {
          found = &e;
          return;
        }
        if (const Function* callee = facts_.analysis().resolve_callee(function, e)) {
          if (callee != &function && builds_graph(*callee, depth - 1) != nullptr) found = &e;
        }
      });
    });
    const Expr* result = resets ? nullptr : found;
    in_progress_.erase(&function);
    // Only a full-depth answer is kept: a shallower one may have stopped short.
    if (depth == kMaxCallDepth) graph_builders_[&function] = result;
    return result;
  }

  // ---- The check ----

  void check(const Function& function, const Stmt& stmt, const ir::StmtContext& where) {
    const Stmt* loop = nullptr;
    for (auto it = where.loops.rbegin(); it != where.loops.rend(); ++it) {
      if (facts_.session_loop(function, **it)) {
        loop = *it;
        break;
      }
    }
    // Ops built in a loop that runs no session are graph construction (towers, layers).
    if (loop == nullptr) return;
    const LoopFacts& facts = facts_.loop_facts(function, *loop);
    // A fresh graph every iteration: nothing piles up.
    if (facts.resets_graph) return;
    // A finalized graph raises on any new op instead of growing.
    if (facts.finalized_before) return;
    // An outer loop around a training loop builds one stage per iteration (a layer of
    // layer-wise pretraining, one op per epoch): growth bounded by a few iterations. Only a loop
    // that opens a session of its own rebuilds a whole model every time (one per fold or run).
    if (facts.inner_session_loop && !facts.creates_session) return;
    // `for dtype in [tf.float32, tf.float64]:` runs a fixed handful of times.
    if (semantic::iterates_fixed_handful(module_, function, *loop)) return;
    // `if summary_op is None:`, `if step == 0:` builds once, not every iteration.
    if (semantic::under_once_branch(where, *loop)) return;
    std::optional<Growth> growth = find_growth(function, stmt, *loop);
    // The statement adds no op.
    if (!growth) return;
    auto [it, inserted] = growths_.try_emplace(loop, *growth);
    if (!inserted) ++it->second.more;
  }

  std::optional<Growth> find_growth(const Function& function, const Stmt& stmt, const Stmt& loop) {
    std::vector<Growth> found;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind == ExprKind::Call) {
        if (auto g = growth_of_call(function, e, loop)) found.push_back(*g);
      } else if (graph_arithmetic(e)) {
        for (const Expr* operand : e.items) {
          if (auto key = graph_operand(function, operand, loop, stmt)) {
            found.push_back(make_growth(GrowthKind::Operator, &e, *key));
            break;
          }
        }
      } else if (negation(e)) {
        if (auto key = graph_operand(function, e.items[0], loop, stmt))
          found.push_back(make_growth(GrowthKind::Operator, &e, *key));
      }
    });
    if (stmt.kind == StmtKind::AugAssign &&
        arithmetic_operator(std::string_view(stmt.text).substr(0, stmt.text.size() - 1))) {
      for (const Expr* operand : {stmt.targets[0], stmt.value}) {
        if (auto key = graph_operand(function, operand, loop, stmt)) {
          found.push_back(make_growth(GrowthKind::Operator, nullptr, *key));
          break;
        }
      }
    }
    if (found.empty()) return std::nullopt;
    // The outermost of the first: `tf.reduce_mean(tf.square(x))` is one finding.
    auto begin = [&](const Growth& g) {
      return g.primary ? g.primary->range.begin : stmt.range.begin;
    };
    auto end = [&](const Growth& g) { return g.primary ? g.primary->range.end : stmt.range.end; };
    Growth best =
        *std::min_element(found.begin(), found.end(), [&](const Growth& a, const Growth& b) {
          if (begin(a) != begin(b)) return begin(a) < begin(b);
          return end(a) > end(b);
        });
    best.function = &function;
    best.stmt = &stmt;
    return best;
  }

  std::optional<Growth> growth_of_call(const Function& function, const Expr& call,
                                       const Stmt& loop) {
    const semantic::TfApiRef ref = semantic::tf_callee_api(module_, call);
    if (ref.api == TfApi::Tf) {
      if (knowledge::tf_adds_graph_nodes(ref.path)) return make_growth(GrowthKind::Op, &call);
      return std::nullopt;
    }
    if (ref.api != TfApi::None) return std::nullopt;
    const Expr* callee = call.callee();
    if (callee->kind == ExprKind::Attr) {
      const std::string_view method = callee->text;
      if (knowledge::is_tf_optimizer_graph_method(method) &&
          is_tf_optimizer(function, *callee->base(), loop))
        return make_growth(GrowthKind::Minimize, &call);
      if (method == "get_next" && is_tf_iterator(function, *callee->base(), loop))
        return make_growth(GrowthKind::GetNext, &call);
      if (knowledge::is_tf_variable_assign_method(method) && call.arg_count() > 0 &&
          is_tf_variable(function, *callee->base(), loop))
        return make_growth(GrowthKind::Assign, &call);
    }
    if (const Function* helper = facts_.analysis().resolve_callee(function, call)) {
      if (helper != &function) {
        if (const Expr* op = builds_graph(*helper, kMaxCallDepth)) {
          Growth g = make_growth(GrowthKind::Helper, &call);
          g.helper = helper;
          g.helper_op = op;
          return g;
        }
      }
    }
    return std::nullopt;
  }

  bool tf_call(const Expr* value) const {
    return value != nullptr && value->kind == ExprKind::Call &&
           semantic::tf_callee_api(module_, *value).api == TfApi::Tf;
  }

  // A TensorFlow variable: bound before the loop to a `tf.` call (`tf.Variable(...)`,
  // `tf.get_variable(...)`), or the loop's own target over one (`for var in
  // tf.trainable_variables():`, or a name bound to that list before the loop).
  bool is_tf_variable(const Function& function, const Expr& receiver, const Stmt& loop) {
    if (receiver.kind != ExprKind::Call && tf_call(facts_.value_before(function, receiver, loop)))
      return true;
    if (receiver.kind != ExprKind::Name || loop.targets.size() != 1 || loop.value == nullptr ||
        ir::place_key(loop.targets[0]) != receiver.text)
      return false;
    return tf_call(loop.value) || tf_call(facts_.value_before(function, *loop.value, loop));
  }

  // `tf.train.AdamOptimizer(lr)`, or a name bound to one, or named like one.
  bool is_tf_optimizer(const Function& function, const Expr& receiver, const Stmt& loop) {
    if (const Expr* value = facts_.value_before(function, receiver, loop);
        value != nullptr && value->kind == ExprKind::Call) {
      const semantic::TfApiRef ref = semantic::tf_callee_api(module_, *value);
      if (ref.api != TfApi::None) return knowledge::last_component(ref.path).ends_with("Optimizer");
    }
    const std::string key = ir::place_key(&receiver);
    const std::string_view last = knowledge::last_component(key);
    return last == "opt" || last.find("optim") != std::string_view::npos;
  }

  // `dataset.make_one_shot_iterator()`, `tf.data.make_initializable_iterator(ds)`, or a name bound
  // to one.
  bool is_tf_iterator(const Function& function, const Expr& receiver, const Stmt& loop) {
    const Expr* value = facts_.value_before(function, receiver, loop);
    if (value == nullptr || value->kind != ExprKind::Call) return false;
    return value->callee()->kind == ExprKind::Attr &&
           knowledge::is_tf_iterator_maker(value->callee()->text);
  }

  TfFacts& facts_;
  const ir::Module& module_;
  std::unordered_map<const Function*, const Expr*> graph_builders_;
  std::unordered_set<const Function*> in_progress_;  // builders being followed: recursion
  std::map<std::pair<const Stmt*, std::string>, bool> graph_operands_;
  std::map<const Stmt*, Growth> growths_;
};

}  // namespace

void check_session_ops(TfFacts& facts, DiagnosticSink& sink) {
  SessionOps(facts).run(sink);
}

}  // namespace sealint::rules::sl009
