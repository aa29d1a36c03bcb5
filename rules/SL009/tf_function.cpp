// `tf.function` made inside a loop: every iteration traces and builds a new graph instead of
// reusing one.
#include <optional>
#include <string>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/regions.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Is the function `name` called in a loop nested in `scope` (a loop statement, or a hook's
// function)? One trace then serves many steps (a fresh step function per model of a search is
// the point).
template <typename Scope>
bool called_in_a_loop_of(const Scope& scope, std::string_view name) {
  bool called = false;
  ir::for_each_nested(scope.body, [&](const Stmt& inner) {
    if (called || inner.kind != StmtKind::Loop) return;
    ir::for_each_nested(inner.body, [&](const Stmt& s) {
      ir::for_each_evaluated_expr(s, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && ir::place_key(e.callee()) == name) called = true;
      });
    });
  });
  return called;
}

// The `@tf.function` decorator or `tf.function(f)` call the statement makes, and the name it
// binds (empty when it binds none).
const Expr* made_function(const ir::Module& module, const Stmt& stmt, std::string& name) {
  if (stmt.kind == StmtKind::FunctionDef && stmt.function != nullptr) {
    for (const Expr* decorator : stmt.function->decorators) {
      if (semantic::is_tf_function(module, decorator)) {
        name = std::string(stmt.function->name);
        return decorator;
      }
    }
    return nullptr;
  }
  const Expr* made = nullptr;
  ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
    if (made != nullptr || e.kind != ExprKind::Call || e.arg_count() == 0) return;
    const semantic::TfApiRef ref = semantic::tf_api_of(module, e.callee());
    if (ref.api != semantic::TfApi::Tf || ref.path != "function") return;
    made = &e;
    if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value == &e)
      name = ir::place_key(stmt.targets[0]);
  });
  return made;
}

// How a message names what the statement makes: "a new function `step`".
std::string made_what(const std::string& name) {
  return name.empty() ? std::string("a new function") : fmt::format("a new function `{}`", name);
}

// Does `e` read a name that `outer` binds by assignment (`outer_bound`, less its parameters) and
// the nested code does not bind itself (`own`)?
bool reads_outer_local(const ir::Function& outer,
                       const std::unordered_set<std::string_view>& outer_bound,
                       const std::unordered_set<std::string_view>& own, const Expr& e) {
  bool reads = false;
  ir::for_each_subexpr(e, [&](const Expr& sub) {
    reads = reads || (sub.kind == ExprKind::Name && !own.contains(sub.text) &&
                      outer_bound.contains(sub.text) && !outer.has_param(sub.text));
  });
  return reads;
}

// Does the function `def` defines read a name its enclosing `outer` binds by assignment (a model
// `outer` builds, a dataset it makes)? Then each call of `outer` makes a function over new
// objects, which needs its own trace: a fresh step function per model is the point. Reading
// only `outer`'s parameters and `self.` attributes, it traces the same work again per call.
bool closes_over_locals(const ir::Function& outer, const ir::Function& def) {
  const std::unordered_set<std::string_view> outer_bound = ir::locally_bound_names(outer);
  const std::unordered_set<std::string_view> own = ir::locally_bound_names(def);
  bool reads = false;
  ir::for_each_nested(def.body, [&](const Stmt& stmt) {
    for (const Expr* part : stmt.items)
      reads = reads || reads_outer_local(outer, outer_bound, own, *part);
    if (stmt.value != nullptr)
      reads = reads || reads_outer_local(outer, outer_bound, own, *stmt.value);
  });
  return reads;
}

// The same for `tf.function(f)`: `f` a lambda reading such names (`lambda x: keras_model(x)`), or
// a name or attribute rooted in one.
bool closes_over_locals(const ir::Function& outer, const Expr& made) {
  if (made.kind != ExprKind::Call || made.arg_count() == 0) return false;
  return reads_outer_local(outer, ir::locally_bound_names(outer), {}, *made.arg(0));
}

}  // namespace

void check_tf_functions(const ir::FileAnalysis& analysis, DiagnosticSink& sink) {
  const ir::Module& module = analysis.module();
  // A hook a framework calls once per batch or epoch makes a new function on each call.
  semantic::walk_statements_in_repeated_calls(
      analysis, [&](const ir::Function& function, const Stmt& stmt, const ir::StmtContext& where,
                    const semantic::Region& region) {
        std::string name;
        const Expr* primary = made_function(module, stmt, name);
        if (primary == nullptr || semantic::under_once_per_call_branch(where, function)) return;
        // Called in a loop of the hook: one trace serves its steps.
        if (!name.empty() && called_in_a_loop_of(function, name)) return;
        sink.report(info(), primary->range,
                    fmt::format("`{}` makes {} on every call of `{}()`{}, so every call traces "
                                "and builds a new graph instead of reusing one",
                                quote(module, *primary).text, made_what(name), function.name,
                                region.repeats_clause()),
                    fmt::format("define the `tf.function` once, outside `{}()` (in `__init__`, "
                                "or as a method), and call it here",
                                function.name),
                    {region.repetition()}, std::nullopt, Severity::Warning);
      });

  // A function that makes a new `tf.function` on each call (outside its own loops), called from
  // a loop of the file: every call traces again (`run_predictions()` defining `predict_step`,
  // called by `test()` from the training loop).
  semantic::CallSites calls(module, analysis);
  for (const ir::Function& function : module.functions()) {
    if (function.is_module) continue;
    std::optional<semantic::LoopCall> repeated;
    bool asked = false;
    ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
      if (!where.loops.empty()) return;
      std::string name;
      const Expr* primary = made_function(module, stmt, name);
      if (primary == nullptr || semantic::under_once_per_call_branch(where, function)) return;
      if (stmt.kind == StmtKind::FunctionDef && stmt.function != nullptr
              ? closes_over_locals(function, *stmt.function)
              : closes_over_locals(function, *primary))
        return;
      if (!asked) {
        asked = true;
        repeated = semantic::called_from_loop(module, calls, function, kMaxCallDepth);
      }
      if (!repeated) return;
      sink.report(
          info(), primary->range,
          fmt::format("`{}` makes {} on every call of `{}()`, which a loop calls "
                      "again and again, so every call traces and builds a new graph "
                      "instead of reusing one",
                      quote(module, *primary).text, made_what(name), function.name),
          fmt::format("define the `tf.function` once, outside `{}()` (in `__init__`, "
                      "or as a method), and call it here",
                      function.name),
          {{repeated->call->range, fmt::format("`{}()` runs here, in a loop", function.name)},
           {ir::loop_header(*repeated->loop), "the loop that repeats it"}},
          std::nullopt, Severity::Warning);
    });
  }

  ir::walk_statements_in_loops(
      module, [&](const ir::Function&, const Stmt& stmt, const ir::StmtContext& where) {
        const Stmt& loop = *where.loops.back();
        std::string name;
        const Expr* primary = made_function(module, stmt, name);
        // The statement makes nothing of the kind.
        if (primary == nullptr) return;
        // Called in an inner loop: one trace serves many steps.
        if (!name.empty() && called_in_a_loop_of(loop, name)) return;
        sink.report(info(), primary->range,
                    fmt::format("`{}` makes {} on every iteration, so every iteration traces and "
                                "builds a new graph instead of reusing one",
                                quote(module, *primary).text, made_what(name)),
                    "define the `tf.function` once, outside the loop, and call it inside",
                    {{ir::loop_header(loop), "the loop that repeats it"}}, std::nullopt,
                    Severity::Warning);
      });
}

}  // namespace sealint::rules::sl009
