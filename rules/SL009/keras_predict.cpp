// Keras: `model.predict(x)` called in a loop on a new input each time. Each call builds a data
// adapter and runs a full predict loop, and memory grows over many calls.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/iteration.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;

bool is_predict(const Expr& call) {
  return call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Attr &&
         knowledge::is_keras_predict_method(call.callee()->text);
}

const Expr* predict_input(const Expr& call) {
  if (const Expr* x = call.keyword("x")) return x;
  return call.arg(0);
}

// A call of the loop, and what makes it a `predict()` per input.
struct Predict {
  const Expr* call = nullptr;            // `model.predict(x)`, or the helper's call
  const Expr* helper_predict = nullptr;  // the helper's own `predict()`
  const Function* helper = nullptr;
  const Stmt* loop = nullptr;  // the loop whose iterations change the input
};

class KerasPredict {
 public:
  explicit KerasPredict(TfFacts& facts) : facts_(facts), module_(facts.module()) {}

  void run(DiagnosticSink& sink) {
    ir::walk_statements_in_loops(
        module_, [&](const Function& function, const Stmt& stmt, const ir::StmtContext& at) {
          check(function, stmt, at, sink);
        });
  }

 private:
  // The first `model.predict(x)` in `function` (a helper called from a loop) on a Keras model,
  // whose input comes from the helper's parameters, so each call predicts what it is handed.
  const Expr* predicts_per_call(const Function& function) {
    if (semantic::may_skip_body(function)) return nullptr;
    if (auto it = predicting_helpers_.find(&function); it != predicting_helpers_.end())
      return it->second;
    predicting_helpers_[&function] = nullptr;
    const Expr* found = nullptr;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
        if (found != nullptr || !is_predict(e)) return;
        const Expr* input = predict_input(e);
        if (input == nullptr) return;
        bool varies = false;
        ir::for_each_evaluated_subexpr(*input, [&](const Expr& n) {
          if (n.kind != ExprKind::Name || n.text == ir::kReceiver) return;
          if (function.has_param(n.text)) varies = true;
        });
        if (varies && facts_.keras_model(function, *e.callee()->base(), stmt, kMaxValueDepth))
          found = &e;
      });
    });
    predicting_helpers_[&function] = found;
    return found;
  }

  // Does the call's input (its arguments, for a helper) read a name `loop` rebinds?
  bool varies_in(const Expr& call, const Expr* input, const Stmt& loop) {
    if (input != &call) return facts_.reads_name_bound_in_loop(*input, loop);
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (facts_.reads_name_bound_in_loop(*call.arg(i), loop)) return true;
    }
    for (const ir::Keyword& k : call.keywords) {
      if (facts_.reads_name_bound_in_loop(*k.value, loop)) return true;
    }
    return false;
  }

  // The statement's first predict call whose input changes each iteration of one of its loops.
  Predict find_predict(const Function& function, const Stmt& stmt, const ir::StmtContext& where) {
    Predict found;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (found.call != nullptr || e.kind != ExprKind::Call) return;
      const Expr* input = nullptr;
      const Expr* inner = nullptr;
      const Function* target = nullptr;
      if (is_predict(e)) {
        input = predict_input(e);
        // Without Keras evidence `clf.predict(x)` may be scikit-learn's.
        if (input == nullptr ||
            !facts_.keras_model(function, *e.callee()->base(), stmt, kMaxValueDepth))
          return;
      } else if ((target = facts_.analysis().resolve_callee_or_unique_method(function, e)) !=
                     nullptr &&
                 target != &function && (inner = predicts_per_call(*target)) != nullptr &&
                 // A helper that also builds the model it predicts with is reported for the
                 // build (keras_model_builds.cpp), the larger cost and the one to fix.
                 facts_.builds_keras_model(*target, kMaxCallDepth) == nullptr) {
        input = &e;
      } else {
        return;
      }
      // The input changes each iteration (the loop's item, a state the loop updates): the loop
      // iterates over data. A fixed input (`model.predict(x_val)` once per epoch) is quiet.
      for (auto it = where.loops.rbegin(); it != where.loops.rend(); ++it) {
        if (varies_in(e, input, **it)) {
          found = {&e, inner, target, *it};
          return;
        }
      }
    });
    return found;
  }

  void check(const Function& function, const Stmt& stmt, const ir::StmtContext& where,
             DiagnosticSink& sink) {
    const Predict predict = find_predict(function, stmt, where);
    // The statement makes nothing of the kind.
    if (predict.call == nullptr) return;
    // `clear_session()` in the loop releases what each `predict()` call left behind.
    if (facts_.loop_facts(function, *predict.loop).clears_session) return;
    // `if epoch % 200 == 0:` samples now and then: a few calls, not one per input; and
    // `for step in range(10):` makes a handful.
    if (semantic::under_periodic_branch(where, *predict.loop) ||
        std::all_of(where.loops.begin(), where.loops.end(), [&](const Stmt* loop) {
          return semantic::iterates_fixed_handful(module_, function, *loop);
        }))
      return;
    // A function the file calls only on a few written-out inputs (a demonstration) makes a few
    // calls per input, unless its loop says it repeats many times.
    if (semantic::called_only_on_written_out_data(module_, function, calls_) &&
        std::none_of(where.loops.begin(), where.loops.end(), [&](const Stmt* loop) {
          return semantic::iterates_many_written_out(function, *loop, calls_);
        }))
      return;
    report(predict, sink);
  }

  void report(const Predict& predict, DiagnosticSink& sink) const {
    const std::string text = quote_call(module_, *predict.call);
    std::vector<Related> related;
    std::string message;
    std::string help;
    if (predict.helper_predict != nullptr) {
      const std::string inner = quote_call(module_, *predict.helper_predict);
      message = fmt::format(
          "`{}` calls `{}` in a loop, on a new input each time; each `predict()` call builds a "
          "data adapter and runs a full predict loop, and memory grows over many calls",
          text, inner);
      help = fmt::format(
          "in `{}()`, call the model directly: `{}(..., training=False)`, or batch the inputs "
          "into one `predict()` call",
          predict.helper->name, quote(module_, *predict.helper_predict->callee()->base()).text);
      related.push_back({predict.helper_predict->range,
                         fmt::format("`{}()` calls `predict()` here", predict.helper->name)});
    } else {
      const std::string model = quote(module_, *predict.call->callee()->base()).text;
      message = fmt::format(
          "`{}` is called in a loop, on a new input each time; each `predict()` call builds a "
          "data adapter and runs a full predict loop, and memory grows over many calls",
          text);
      const QuotedExpr input = quote(module_, *predict_input(*predict.call));
      help = fmt::format(
          "call the model directly: `{}({}, training=False)`, or batch the inputs into one "
          "`predict()` call",
          model, input.complete ? input.text : std::string("x"));
    }
    related.push_back({ir::loop_header(*predict.loop), "the loop that repeats it"});
    sink.report(info(), predict.call->range, std::move(message), std::move(help),
                std::move(related), std::nullopt, Severity::Warning);
  }

  TfFacts& facts_;
  const ir::Module& module_;
  semantic::CallSites calls_{module_, facts_.analysis()};
  std::unordered_map<const Function*, const Expr*> predicting_helpers_;
};

}  // namespace

void check_keras_predict(TfFacts& facts, DiagnosticSink& sink) {
  KerasPredict(facts).run(sink);
}

}  // namespace sealint::rules::sl009
