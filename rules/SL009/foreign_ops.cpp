// SL009 on a loop that runs a TF1 session and calls a function of another file of the project
// that adds an op to the graph on every call: `model.summary()` in a training script whose
// `CycleGAN` class (model.py) builds `tf.summary.scalar(...)` in `summary()`. The script itself
// may never name TensorFlow: its session runs inside `model.train(...)`. What the other file's
// function does comes from its summary (semantic/tf_call_effects.h through ir::ForeignFunction).
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "analyzer/core/display_path.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "analyzer/semantic/tf_call_effects.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Function;

// What one loop's body, inner loops included, does to the session and the graph.
struct LoopSession {
  bool runs_session = false;  // `sess.run(...)`, or a call of a function that runs one
  bool fresh_graph = false;   // resets the graph or opens a session of its own
};

// Only what one pass through the loop's body runs outside its inner loops counts as running a
// session: a loop whose session runs in an inner loop only is a loop over stages or layers
// (`for layer in range(n): model.add_layer(layer); for batch in data: model.train_step(batch)`),
// each stage building its own part of the graph once.
LoopSession loop_session(const ir::FileAnalysis& analysis, const Function& function,
                         const ir::Stmt& loop) {
  const ir::Module& module = analysis.module();
  LoopSession out;
  if (semantic::iterates_fixed_handful(module, function, loop)) return out;
  ir::for_each_outside_loops(loop.body, [&](const ir::Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      out.fresh_graph = out.fresh_graph || semantic::is_tf_graph_reset_call(module, e) ||
                        semantic::is_tf_session_call(module, e);
      if (out.runs_session || semantic::is_session_run_call(e)) {
        out.runs_session = true;
        return;
      }
      const ir::Callee callee = analysis.resolve_callee_anywhere(function, e);
      out.runs_session = (callee.foreign != nullptr && callee.foreign->runs_tf_session) ||
                         (callee.local != nullptr &&
                          semantic::tf_call_effects(module, *callee.local).runs_session);
    });
  });
  return out;
}

// The call passes a value (not `None`) for `param`: positionally or by keyword.
bool passes(const Expr& call, const ir::Callee& callee, std::string_view name) {
  const ir::ForeignFunction& function = *callee.foreign;
  const int param = function.param_index(name);
  if (param < 0 || param >= 32) return false;
  // A method's receiver is its parameter 0, which the call's receiver fills.
  const size_t first_param = !function.params.empty() && function.params[0] == ir::kReceiver;
  bool passed = false;
  ir::for_each_argument_in(call, callee, first_param, 1U << static_cast<unsigned>(param),
                           [&](const Expr& arg) {
                             passed = !ir::is_none_literal(&arg);
                             return true;
                           });
  return passed;
}

// The call builds no op: it passes the parameter the op stands in for (`train_op=model.train_step`
// to a `run_epoch` that builds `tf.no_op()` only when `train_op is None`), or does not pass the
// one the op is built from only when given (the `else` of that test).
bool builds_nothing(const Expr& call, const ir::Callee& callee) {
  const ir::ForeignFunction& function = *callee.foreign;
  if (!function.tf_op_unless_passed.empty() && passes(call, callee, function.tf_op_unless_passed))
    return true;
  return !function.tf_op_if_passed.empty() && !passes(call, callee, function.tf_op_if_passed);
}

}  // namespace

void check_foreign_ops(const ir::FileAnalysis& analysis, DiagnosticSink& sink) {
  if (analysis.project() == nullptr) return;
  const ir::Module& module = analysis.module();
  std::unordered_map<const ir::Stmt*, LoopSession> loops;
  ir::walk_statements_in_loops(module, [&](const Function& function, const ir::Stmt& stmt,
                                           const ir::StmtContext& where) {
    const ir::Stmt& loop = *where.loops.back();
    // `if step == 0:` or a lazy initialisation: the op is added once.
    if (semantic::under_once_branch(where, loop)) return;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& call) {
      if (call.kind != ExprKind::Call) return;
      const ir::Callee callee = analysis.resolve_callee_anywhere(function, call);
      if (callee.foreign == nullptr || callee.foreign->tf_op_per_call.empty() ||
          builds_nothing(call, callee))
        return;
      auto it = loops.find(&loop);
      if (it == loops.end())
        it = loops.emplace(&loop, loop_session(analysis, function, loop)).first;
      if (!it->second.runs_session || it->second.fresh_graph) return;
      const ir::ForeignFunction& builder = *callee.foreign;
      // `CycleGAN.summary()` for a method of an imported class's instance.
      std::string builder_name = builder.name;
      if (call.callee()->kind == ExprKind::Attr) {
        const ir::Fact& receiver = analysis.fact(*call.callee()->base());
        if (receiver.foreign != nullptr) builder_name = receiver.foreign->name + "." + builder.name;
      }
      sink.report(
          info(), call.range,
          fmt::format("`{}` adds a new op to the TensorFlow graph on every iteration of a loop "
                      "that runs a session: `{}()` builds `tf.{}(...)` on every call ({}:{}), so "
                      "the graph keeps growing and every run gets slower",
                      quote_call(module, call), builder_name, builder.tf_op_per_call,
                      path_beside(module.file().path(), builder.file), builder.tf_op_line),
          fmt::format("build the op once, with the model (in `__init__` or where the graph is "
                      "built), and only run it in `{}()`",
                      builder_name),
          {{ir::loop_header(loop), "the loop runs a TensorFlow session on every iteration"}});
    });
  });
}

}  // namespace sealint::rules::sl009
