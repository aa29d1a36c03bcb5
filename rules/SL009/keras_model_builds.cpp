// Keras: a new model built on every iteration of a loop without `clear_session()`. Keras keeps
// every model's layers and graph in its global state, so memory grows with each one.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/regions.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::StmtKind;

// Does the call store `key` in a container (`models.append(model)`, `zoo.update({k: model})`)?
bool stores_in_container(const Expr& call, const std::string& key) {
  if (call.kind != ExprKind::Call || call.callee()->kind != ExprKind::Attr) return false;
  if (knowledge::container_store(call.callee()->text) == nullptr) return false;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    const Expr* arg = call.arg(i);
    if (ir::place_key(arg) == key) return true;
    if (arg->kind == ExprKind::Collection) {
      for (const Expr* item : arg->items) {
        if (ir::place_key(item) == key) return true;
      }
    }
  }
  return false;
}

// Models kept on purpose (an ensemble): `models.append(build())`, `models[i] = build()`, or
// `model = build(); models.append(model)` / `zoo[name] = model` in the same repeated `scope` (a
// loop statement, or a hook's function: whatever has the `body` that repeats).
template <typename Scope>
bool kept_in_container(const Stmt& stmt, const Scope& scope) {
  if (stmt.kind == StmtKind::ExprStmt && stmt.value != nullptr &&
      stmt.value->kind == ExprKind::Call && stmt.value->callee()->kind == ExprKind::Attr)
    return true;
  if (stmt.kind != StmtKind::Assign || stmt.targets.size() != 1) return false;
  const Expr* target = stmt.targets[0];
  if (target->kind == ExprKind::Subscript) return true;
  const std::string key = ir::place_key(target);
  if (key.empty()) return false;
  bool kept = false;
  ir::for_each_nested(scope.body, [&](const Stmt& s) {
    if (kept) return;
    if (s.kind == StmtKind::Assign && s.targets.size() == 1 &&
        s.targets[0]->kind == ExprKind::Subscript && s.value != nullptr &&
        ir::place_key(s.value) == key)
      kept = true;
    ir::for_each_evaluated_expr(s,
                                [&](const Expr& e) { kept = kept || stores_in_container(e, key); });
  });
  return kept;
}

// The statement's outermost, first call that builds a Keras model, directly or in a helper.
struct Build {
  const Expr* call = nullptr;
  const Expr* made_in_helper = nullptr;
  const Function* helper = nullptr;
};

class KerasModelBuilds {
 public:
  explicit KerasModelBuilds(TfFacts& facts) : facts_(facts), module_(facts.module()) {}

  void run(DiagnosticSink& sink) {
    ir::walk_statements_in_loops(
        module_, [&](const Function& function, const Stmt& stmt, const ir::StmtContext& at) {
          check(function, stmt, at, sink);
        });
    semantic::walk_statements_in_repeated_calls(
        facts_.analysis(),
        [&](const Function& function, const Stmt& stmt, const ir::StmtContext& at,
            const semantic::Region& region) { check_in_calls(function, stmt, at, region, sink); });
  }

 private:
  Build find_build(const Function& function, const Stmt& stmt) {
    Build found;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      Build build{&e};
      if (!facts_.constructs_keras_model(e)) {
        build.helper = facts_.analysis().resolve_callee(function, e);
        if (build.helper == nullptr || build.helper == &function) return;
        build.made_in_helper = facts_.builds_keras_model(*build.helper, kMaxCallDepth);
        if (build.made_in_helper == nullptr) return;
      }
      if (found.call == nullptr || e.range.begin < found.call->range.begin ||
          (e.range.begin == found.call->range.begin && e.range.end > found.call->range.end))
        found = build;
    });
    return found;
  }

  // Does `function` return a Keras model (`return model`, `return Sequential(...)`)?
  bool returns_keras_model(const Function& function) {
    bool returns = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (returns || stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
      returns = facts_.keras_model(function, *stmt.value, stmt, kMaxCallDepth);
    });
    return returns;
  }

  // The function returns a Keras model built after `loop` (`return Model(inputs, outputs)`):
  // the loop assembles that model's parts.
  bool returns_model_built_after(const Function& function, const Stmt& loop) {
    bool returns = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (returns || stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
      const Expr* value = stmt.value;
      const Stmt* at = &stmt;
      if (value->kind == ExprKind::Name) {
        at = ir::binding_before(function, stmt, value->text);
        value = at != nullptr ? ir::assigned_value(*at, value->text) : nullptr;
      }
      if (value == nullptr || value->kind != ExprKind::Call || at->range.begin < loop.range.end)
        return;
      returns = facts_.makes_keras_model(function, *value, kMaxCallDepth) != nullptr;
    });
    return returns;
  }

  void check(const Function& function, const Stmt& stmt, const ir::StmtContext& where,
             DiagnosticSink& sink) {
    const Stmt& loop = *where.loops.back();
    const Build build = find_build(function, stmt);
    // The statement makes nothing of the kind.
    if (build.call == nullptr) return;
    // A helper that builds a model for its own use and hands back something else
    // (`preds.append(self.predict_chunk(x))` loading a model to predict): whatever the loop does
    // with the result, the model is not kept by it, and a new one is built on every call.
    const bool transient = build.helper != nullptr && !returns_keras_model(*build.helper);
    // `TimeDistributed(Sequential(...))`, or a tower per branch in a function that returns the
    // whole model: parts of a bigger model, built on purpose.
    if ((!transient && build.call != stmt.value) || returns_model_built_after(function, loop))
      return;
    // `clear_session()` in the loop drops what the previous models left in Keras's state.
    if (facts_.loop_facts(function, loop).clears_session) return;
    // Models kept on purpose (an ensemble) are not a leak.
    if (!transient && kept_in_container(stmt, loop)) return;
    // `if model is None: model = build()` builds once.
    if (semantic::under_once_branch(where, loop)) return;
    // A fixed handful of models (`for units in [32, 64]:`) is bounded.
    if (const ir::Expr* over = semantic::advanced_iterable(function, loop);
        over != nullptr && over->kind == ir::ExprKind::Collection)
      return;
    std::vector<Related> related;
    if (build.made_in_helper != nullptr) {
      related.push_back({build.made_in_helper->range,
                         fmt::format("`{}()` builds a Keras model here", build.helper->name)});
    }
    related.push_back({ir::loop_header(loop), "the loop that repeats it"});
    sink.report(
        info(), build.call->range,
        fmt::format("`{}` builds a new Keras model on every iteration without `clear_session()`; "
                    "Keras keeps every model's layers and graph in its global state, so memory "
                    "grows with each one",
                    quote_call(module_, *build.call)),
        "call `tf.keras.backend.clear_session()` at the start of each iteration, before the new "
        "model is built",
        std::move(related), std::nullopt, Severity::Warning);
  }

  // A model built in a hook a framework calls again and again (a Keras callback's
  // `on_epoch_end`), outside the hook's loops.
  void check_in_calls(const Function& function, const Stmt& stmt, const ir::StmtContext& where,
                      const semantic::Region& region, DiagnosticSink& sink) {
    const Build build = find_build(function, stmt);
    if (build.call == nullptr || build.call != stmt.value) return;
    if (clears_session(function) || kept_in_container(stmt, function) ||
        semantic::under_once_per_call_branch(where, function))
      return;
    std::vector<Related> related;
    if (build.made_in_helper != nullptr) {
      related.push_back({build.made_in_helper->range,
                         fmt::format("`{}()` builds a Keras model here", build.helper->name)});
    }
    related.push_back(region.repetition());
    sink.report(
        info(), build.call->range,
        fmt::format("`{}` builds a new Keras model on every call of `{}()`{}; nothing "
                    "clears the old ones, and Keras keeps every model's layers and graph "
                    "in its global state, so memory grows with each one",
                    quote_call(module_, *build.call), function.name, region.repeats_clause()),
        fmt::format("build the model once, outside `{}()` (a Keras callback can build it "
                    "in `on_train_begin` or `set_model`), and only copy weights into it "
                    "here with `set_weights()`",
                    function.name),
        std::move(related), std::nullopt, Severity::Warning);
  }

  // `clear_session()` anywhere in the hook drops what earlier calls left in Keras's state.
  bool clears_session(const Function& function) const {
    bool clears = false;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
        clears =
            clears || (e.kind == ExprKind::Call && semantic::is_clear_session_call(module_, e));
      });
    });
    return clears;
  }

  TfFacts& facts_;
  const ir::Module& module_;
};

}  // namespace

void check_keras_model_builds(TfFacts& facts, DiagnosticSink& sink) {
  KerasModelBuilds(facts).run(sink);
}

}  // namespace sealint::rules::sl009
