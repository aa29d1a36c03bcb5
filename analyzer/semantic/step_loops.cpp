#include "analyzer/semantic/step_loops.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// `for mode in ["a", "b"]:`, `for lr, wd in itertools.product([...], [...]):`: the loop runs one
// configuration per iteration (a test or a sweep), not a training step.
bool iterates_literal(const ir::Function& function, const Stmt& loop) {
  const Expr* over = advanced_iterable(function, loop);
  if (over == nullptr) return false;
  auto literal = [](const Expr* e) {
    return e->kind == ExprKind::Collection && e->collection_kind != ir::CollectionKind::Dict;
  };
  if (literal(over)) return true;
  if (over->kind != ExprKind::Call || over->arg_count() == 0) return false;
  for (size_t i = 0; i < over->arg_count(); ++i) {
    if (!literal(over->arg(i))) return false;
  }
  return true;
}

}  // namespace

bool StepLoops::is_step_loop(const ir::Function& function, const Stmt& loop) {
  if (auto it = step_loops_.find(&loop); it != step_loops_.end()) return it->second;
  bool result = false;
  bool nested_trains = false;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Loop && analysis_.loop_trains(stmt)) nested_trains = true;
  });
  // `for device in ["cpu", "cuda"]:` sweeps a few written-out settings, one run each.
  if (!nested_trains && !iterates_literal(function, loop)) {
    const Steps steps = body_steps(function, loop.body, 0);
    // A pass over data that takes no step (an evaluation) still runs once per batch: it
    // iterates a loader, or computes a loss or runs a model on its items (FileAnalysis).
    result = steps == Steps::One || (steps == Steps::None && (iterates_batches(function, loop) ||
                                                              analysis_.is_iteration_loop(loop)));
    // An iteration that builds its own model and optimizer and uses nothing that outlives it is
    // an independent run (a seed sweep, a test), not a step of one training.
    result = result && uses_outer_model(function, loop);
  }
  step_loops_[&loop] = result;
  return result;
}

// How many training steps one run of `body` takes, not counting its nested loops: One for a
// backward or an optimizer step, Many when it calls a function of the file that loops over
// training steps itself.
StepLoops::Steps StepLoops::body_steps(const ir::Function& function, const std::vector<Stmt*>& body,
                                       int depth) {
  Steps steps = Steps::None;
  ir::for_each_outside_loops(body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      steps = std::max(steps, call_steps(function, call, depth));
    });
  });
  return steps;
}

StepLoops::Steps StepLoops::call_steps(const ir::Function& function, const Expr& call, int depth) {
  const Expr* callee = call.callee();
  if (callee->kind == ExprKind::Attr) {
    const std::string_view method = callee->text;
    if (method == "backward" || method == "manual_backward") return Steps::One;
    if (method == "step" || method == "zero_grad") {
      const Expr* receiver = callee->base();
      if (analysis_.fact(*receiver).kind == ir::ValueKind::Optimizer ||
          knowledge::is_optimizer_like_name(ir::dotted_name(receiver))) {
        return Steps::One;
      }
    }
  }
  const ir::Function* target = analysis_.resolve_callee(function, call);
  if (target == nullptr || target == &function || !analysis_.summary(*target).trains)
    return Steps::None;
  return function_steps(*target, depth + 1);
}

// A function of the file that trains: Many when a loop of its own (or of a callee) trains.
StepLoops::Steps StepLoops::function_steps(const ir::Function& function, int depth) {
  constexpr int kMaxDepth = 4;
  if (auto it = functions_.find(&function); it != functions_.end()) return it->second;
  functions_[&function] = Steps::One;  // a recursive call adds no evidence
  bool loops = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    if (stmt.kind == StmtKind::Loop && analysis_.loop_trains(stmt)) loops = true;
  });
  Steps steps = Steps::Many;
  if (!loops) {
    steps = depth >= kMaxDepth ? Steps::None : body_steps(function, function.body, depth);
    // It trains (its summary says so) without a loop of its own: one step per call.
    if (steps == Steps::None) steps = Steps::One;
  }
  functions_[&function] = steps;
  return steps;
}

// Does the loop use a model or optimizer that lives across its iterations: a parameter,
// `self.*`, or a name bound before the loop and not rebound in it?
bool StepLoops::uses_outer_model(const ir::Function& function, const Stmt& loop) const {
  std::vector<std::string> rebound;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    for (const Expr* target : stmt.targets) {
      ir::for_each_subexpr(*target, [&](const Expr& sub) {
        std::string key = ir::place_key(&sub);
        if (!key.empty()) rebound.push_back(std::move(key));
      });
    }
  });
  // What the loop steps or zeroes (`opt.step()`, `opt.zero_grad()`), and what it hands to a
  // function of the file that trains (`train_step(net, batch, opt)`): the model and optimizer
  // by what is done with them, whatever they are called.
  std::unordered_set<const Expr*> stepped;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      if (call.callee()->kind == ExprKind::Attr) {
        const std::string_view method = call.callee()->text;
        if ((method == "step" || method == "zero_grad") && call.arg_count() == 0)
          stepped.insert(call.callee()->base());
      }
      const ir::Function* target = analysis_.resolve_callee(function, call);
      if (target == nullptr || target == &function || !analysis_.summary(*target).trains) return;
      for (size_t i = 0; i < call.arg_count(); ++i) stepped.insert(call.arg(i));
      for (const ir::Keyword& keyword : call.keywords) stepped.insert(keyword.value);
    });
  });
  // A callable the caller hands in and the loop calls (`head(q(batch))`): a model or a function
  // that outlives the iteration, whatever the file knows of it.
  std::unordered_set<const Expr*> called;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& call) {
      if (call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Name &&
          function.has_param(call.callee()->text) && call.arg_count() > 0)
        called.insert(call.callee());
    });
  });
  bool uses = false;
  ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (uses || (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr)) return;
      const ir::ValueKind kind = analysis_.fact(expr).kind;
      const bool model = kind == ir::ValueKind::Module || kind == ir::ValueKind::Optimizer ||
                         kind == ir::ValueKind::LossFn || stepped.contains(&expr) ||
                         called.contains(&expr) || knowledge::is_model_like_name(expr.text) ||
                         knowledge::is_optimizer_like_name(expr.text);
      if (!model) return;
      const std::string key = ir::place_key(&expr);
      if (key.empty() || ir::root_name(&expr) == nullptr) return;
      if (std::find(rebound.begin(), rebound.end(), key) != rebound.end()) return;
      if (std::find(rebound.begin(), rebound.end(), std::string(ir::place_root(key))) !=
          rebound.end())
        return;
      if (ir::defined_outside(function, loop, key)) uses = true;
    });
  });
  return uses;
}

// `for x, y in loader:`: iterates a data loader's batches (not `for loader in loaders:`).
bool StepLoops::iterates_batches(const ir::Function& function, const Stmt& loop) const {
  const Expr* over = advanced_iterable(function, loop);
  if (over == nullptr) return false;
  bool loader = false;
  ir::for_each_subexpr(*over, [&](const Expr& sub) {
    if ((sub.kind == ExprKind::Name || sub.kind == ExprKind::Attr) &&
        knowledge::is_loader_like_name(sub.text))
      loader = true;
    if (analysis_.fact(sub).kind == ir::ValueKind::Loader) loader = true;
  });
  bool target_is_loader = false;
  for (const Expr* target : loop.targets) {
    ir::for_each_subexpr(*target, [&](const Expr& sub) {
      if (sub.kind == ExprKind::Name && knowledge::is_loader_like_name(sub.text))
        target_is_loader = true;
    });
  }
  return loader && !target_is_loader;
}

}  // namespace sealint::semantic
