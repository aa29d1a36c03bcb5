// SL009 on TF1 functions that their callers, often in another module, call again and again as
// training goes on, so an op they build outside their own loops is added to the graph on every
// call. Two kinds are known by what they do:
// - a function that runs one epoch (`run_epoch(self, session, data, train_op=None)` building
//   `tf.no_op()` when `train_op is None`): called once per epoch. The loop check sees only what
//   is built inside the loop; the per-call check leaves functions with a session loop to it.
// - a function that saves a numbered checkpoint with a Saver it builds itself
//   (`saver = tf.train.Saver(); saver.save(sess, path, global_step=counter)`): a numbered
//   checkpoint is written every few steps or epochs, and each call adds a Saver's save and
//   restore ops for every variable.
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/tensorflow.h"
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

// A call `saver.save(sess, path, global_step=step)` on a Saver the function binds itself
// (`saver = tf.train.Saver(...)`, in either branch of an `if`), with a checkpoint number that is
// not a literal; nullptr if none.
const Expr* numbered_save_with_own_saver(const ir::Module& module, const Function& function) {
  std::vector<std::string_view> savers;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind != ir::StmtKind::Assign || stmt.value == nullptr || stmt.targets.size() != 1 ||
        stmt.targets[0]->kind != ExprKind::Name || stmt.value->kind != ExprKind::Call)
      return;
    const semantic::TfApiRef ref = semantic::tf_callee_api(module, *stmt.value);
    if (ref.api == semantic::TfApi::Tf && knowledge::is_tf_saver_class(ref.path))
      savers.push_back(stmt.targets[0]->text);
  });
  if (savers.empty()) return nullptr;
  const Expr* found = nullptr;
  // A save inside the function's own loop (`if step % 1000 == 0: saver.save(...)` in `train()`)
  // numbers the checkpoints of that loop: the function is the training driver, called once.
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    if (found != nullptr || !where.loops.empty()) return;
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (found != nullptr || e.kind != ExprKind::Call || e.callee()->kind != ExprKind::Attr ||
          e.callee()->text != knowledge::kSaverSaveMethod)
        return;
      const Expr* receiver = e.callee()->base();
      if (receiver == nullptr || receiver->kind != ExprKind::Name ||
          std::find(savers.begin(), savers.end(), receiver->text) == savers.end())
        return;
      const Expr* step = e.keyword(knowledge::kSaverStepKeyword);
      if (step == nullptr) step = e.arg(knowledge::kSaverStepPosition);
      // A number the call computes (`counter`, `self.global_step`): a literal (`0`, `None`)
      // writes one checkpoint file over and over, or none.
      if (step != nullptr && step->kind != ExprKind::Const) found = &e;
    });
  });
  return found;
}

void report(const ir::Module& module, const Function& function, const Expr& op,
            std::string_view called_when, Related evidence, DiagnosticSink& sink) {
  sink.report(info(), op.range,
              fmt::format("`{}` adds a new op to the TensorFlow graph on every call of `{}()`, "
                          "{}: the graph keeps growing and every run gets slower",
                          quote_call(module, op), function.name, called_when),
              fmt::format("build it once, with the model (in `__init__` or where the graph is "
                          "built), and only use it in `{}()`",
                          function.name),
              {std::move(evidence)});
}

}  // namespace

void check_periodic_functions(TfFacts& facts, DiagnosticSink& sink) {
  const ir::Module& module = facts.module();
  for (const Function& function : module.functions()) {
    if (function.is_module || function.name == "__init__" || semantic::may_skip_body(function) ||
        semantic::starts_own_graph(module, function))
      continue;
    if (knowledge::is_one_epoch_name(function.name) && facts.has_session_loop(function)) {
      if (const Expr* op = op_built_per_call(module, function)) {
        report(module, function, *op, "which runs one epoch and so is called once per epoch",
               {function.name_range,
                fmt::format("`{}()` runs one epoch: its callers call it once per epoch",
                            function.name)},
               sink);
      }
      continue;
    }
    // A function with a session loop of its own that saves after it is a training driver.
    if (facts.has_session_loop(function)) continue;
    // Called once, after training (`save_model(sess, num_steps)` at the end of the script).
    if (facts.called_once_in_file(function)) continue;
    if (const Expr* save = numbered_save_with_own_saver(module, function)) {
      if (const Expr* op = op_built_per_call(module, function)) {
        report(module, function, *op,
               "which saves a numbered checkpoint and so is called again as training goes on",
               {save->range, fmt::format("`{}` writes a numbered checkpoint: `{}()` is called "
                                         "every few steps or epochs",
                                         quote_call(module, *save), function.name)},
               sink);
      }
    }
  }
}

}  // namespace sealint::rules::sl009
