// SL009 on TF1 functions that run one epoch (`run_epoch(self, session, data, train_op=None)`):
// their caller, often in another module, calls them once per epoch, so an op they build outside
// their own session loop (`if train_op is None: train_op = tf.no_op()`) is added to the graph
// again every epoch. The loop check sees only what is built inside the loop; the per-call check
// leaves functions with a session loop to it.
#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl009 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Function;

// Starts a graph of its own (`tf.reset_default_graph()`, `with tf.Graph().as_default():`) or a
// session of its own: what it builds does not pile up in one graph across epochs.
bool starts_afresh(const ir::Module& module, const Function& function) {
  bool fresh = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      fresh = fresh || (e.kind == ExprKind::Call && (semantic::is_tf_graph_reset_call(module, e) ||
                                                     semantic::is_tf_session_call(module, e)));
    });
  });
  return fresh;
}

// The first `tf.` op the function builds outside its loops on every call, or nullptr.
const Expr* op_built_per_call(const ir::Module& module, const Function& function) {
  const Expr* found = nullptr;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    // `if self.op is None:` builds on the first call only; a parameter's `is None` test holds
    // again on every call.
    if (found != nullptr || !where.loops.empty() ||
        semantic::under_once_per_call_branch(where, function))
      return;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (found != nullptr || e.kind != ExprKind::Call) return;
      const semantic::TfApiRef ref = semantic::tf_callee_api(module, e);
      if (ref.api == semantic::TfApi::Tf && knowledge::tf_adds_graph_nodes(ref.path)) found = &e;
    });
  });
  return found;
}

}  // namespace

void check_epoch_functions(TfFacts& facts, DiagnosticSink& sink) {
  const ir::Module& module = facts.module();
  for (const Function& function : module.functions()) {
    if (function.is_module || !knowledge::is_one_epoch_name(function.name) ||
        semantic::may_skip_body(function) || !facts.has_session_loop(function) ||
        starts_afresh(module, function))
      continue;
    const Expr* op = op_built_per_call(module, function);
    if (op == nullptr) continue;
    sink.report(info(), op->range,
                fmt::format("`{}` adds a new op to the TensorFlow graph on every call of `{}()`, "
                            "which runs one epoch and so is called once per epoch: the graph "
                            "keeps growing and every run gets slower",
                            quote_call(module, *op), function.name),
                fmt::format("build the op once, with the model (in `__init__` or where the graph "
                            "is built), and only run it in `{}()`",
                            function.name),
                {{function.name_range,
                  fmt::format("`{}()` runs one epoch: its callers call it once per epoch",
                              function.name)}});
  }
}

}  // namespace sealint::rules::sl009
