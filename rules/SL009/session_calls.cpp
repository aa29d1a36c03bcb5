// SL009 on TF1 functions that run a session on an op they build on each call: the loop that
// repeats them is in the caller, often in another module, or the function is an API method or a
// closure handed out (`pred_fun = make_predictor(...)`). `self.sess.run(tf.nn.softmax(logits))`
// in `reshape(self, logits)` adds a softmax node (and a constant holding `logits`) to the graph
// on every call. Evidence that the function runs once per input: it is a method or a closure, the
// op is built from a name the function binds (a parameter or a local) or the run feeds a
// parameter, no loop of its own runs the session, and the file does not call it just once.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/tensorflow.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/hooks.h"
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

bool is_param(const Function& function, std::string_view name) {
  for (const ir::Param& param : function.params) {
    if (param.name == name && name != ir::kReceiver) return true;
  }
  return false;
}

// `expr` reads a value `function` binds: a parameter, a local, or an attribute of the receiver
// that the function itself assigns (`self.val_loss = e[0]` before `tf.assign(self.val_loss_T,
// self.val_loss)`): a value of this call. A name equal to `except` (the session a top-level
// function is handed) does not count.
bool reads_own_name(TfFacts& facts, const Function& function, const Expr& expr,
                    std::string_view except = {}) {
  bool reads = false;
  ir::for_each_evaluated_subexpr(expr, [&](const Expr& e) {
    if (reads) return;
    if (e.kind == ExprKind::Name) {
      reads = e.text != except &&
              (is_param(function, e.text) || facts.binds_anywhere(function, e.text));
    } else if (e.kind == ExprKind::Attr) {
      const std::string key = ir::place_key(&e);
      reads = key.starts_with("self.") && facts.binds_anywhere(function, key);
    }
  });
  return reads;
}

bool reads_param(const Function& function, const Expr& expr) {
  bool reads = false;
  ir::for_each_evaluated_subexpr(expr, [&](const Expr& e) {
    if (!reads && e.kind == ExprKind::Name) reads = is_param(function, e.text);
  });
  return reads;
}

// The feed reads a parameter: directly, or through a local dict the function fills
// (`feed_dict = {seq_in: x}` before `sess.run(op, feed_dict=feed_dict)`).
bool feeds_param(const Function& function, const Expr& feed) {
  if (reads_param(function, feed)) return true;
  if (feed.kind != ExprKind::Name) return false;
  bool reads = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (reads || stmt.kind != ir::StmtKind::Assign || stmt.value == nullptr) return;
    for (const Expr* target : stmt.targets) {
      if (target->kind == ExprKind::Name && target->text == feed.text)
        reads = reads_param(function, *stmt.value);
    }
  });
  return reads;
}

// The first call in `fetches` that adds a node to the graph: a `tf.` op or `var.assign(v)`.
const Expr* op_built_in(const ir::Module& module, const Expr& fetches) {
  const Expr* found = nullptr;
  ir::for_each_evaluated_subexpr(fetches, [&](const Expr& e) {
    if (found != nullptr || e.kind != ExprKind::Call) return;
    const semantic::TfApiRef ref = semantic::tf_callee_api(module, e);
    if (ref.api == semantic::TfApi::Tf && knowledge::tf_adds_graph_nodes(ref.path)) {
      found = &e;
    } else if (e.callee()->kind == ExprKind::Attr && e.arg_count() > 0 &&
               knowledge::is_tf_variable_assign_method(e.callee()->text)) {
      found = &e;
    }
  });
  return found;
}

// The op that `fetches` builds: a call in it, or the value a name in it was bound to earlier in
// the function (`summary = tf.summary.scalar(...)` before `sess.run(summary)`), or an op added to
// a list the name holds (`update_ops.append(v2.assign(v1))`, also through `op = ...`).
const Expr* op_fetched(const ir::Module& module, const Function& function, const ir::Stmt& at,
                       const Expr& fetches, bool in_lists) {
  if (const Expr* op = op_built_in(module, fetches)) return op;
  if (fetches.kind != ExprKind::Name) return nullptr;
  const ir::Stmt* binding = ir::binding_before(function, at, fetches.text);
  const Expr* value = binding != nullptr ? ir::assigned_value(*binding, fetches.text) : nullptr;
  if (value == nullptr) return nullptr;
  if (const Expr* op = op_built_in(module, *value)) return op;
  if (!in_lists || value->kind != ExprKind::Collection || !value->items.empty()) return nullptr;
  const Expr* added = nullptr;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const Expr& call) {
      if (added != nullptr || call.kind != ExprKind::Call ||
          call.callee()->kind != ExprKind::Attr || call.callee()->text != "append" ||
          call.arg_count() != 1 || ir::place_key(call.callee()->base()) != fetches.text)
        return;
      const Expr* item = call.arg(0);
      if (item->kind == ExprKind::Name) {
        const ir::Stmt* bound = ir::binding_before(function, stmt, item->text);
        item = bound != nullptr ? ir::assigned_value(*bound, item->text) : nullptr;
      }
      if (item != nullptr) added = op_built_in(module, *item);
    });
  });
  return added;
}

// `name` is read by a `return` of the function.
bool returned(const Function& function, std::string_view name) {
  bool read = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (read || stmt.kind != ir::StmtKind::Return || stmt.value == nullptr) return;
    ir::for_each_evaluated_subexpr(*stmt.value, [&](const Expr& e) {
      read = read || (e.kind == ExprKind::Name && e.text == name);
    });
  });
  return read;
}

// What the run computes is what the function returns: `return sess.run(...)`, or
// `noise = sigma * sess.run(...)` before `return data + noise`.
bool run_result_returned(const Function& function, const ir::Stmt& stmt) {
  if (stmt.kind == ir::StmtKind::Return) return true;
  if (stmt.kind != ir::StmtKind::Assign) return false;
  return std::any_of(stmt.targets.begin(), stmt.targets.end(), [&](const Expr* target) {
    return target->kind == ExprKind::Name && returned(function, target->text);
  });
}

// A top-level function that takes the session from its caller, builds the op from another
// parameter and returns what the run computes (`add_noise(data, sigma, sess)` returning `data +
// sigma * sess.run(tf.truncated_normal(data.shape))`) is a transform its callers apply to each
// input, often from a loop in another module. A top-level function that makes its own session
// (a script's `main(args)`) or returns nothing (a start-up `sync_from_root(sess, variables)`)
// may run once.
bool transforms_each_input(TfFacts& facts, const Function& function, const ir::Stmt& stmt,
                           const SessionUse& use, const Expr& op) {
  if (use.session->kind != ExprKind::Name || !is_param(function, use.session->text) ||
      !run_result_returned(function, stmt))
    return false;
  // The op reads another value of the call: a parameter, a local (`correct` built from
  // `model.logits` before `sess.run(tf.reduce_mean(correct))`), an attribute it assigns.
  return reads_own_name(facts, function, op, use.session->text);
}

}  // namespace

void check_session_calls(TfFacts& facts, DiagnosticSink& sink) {
  const ir::Module& module = facts.module();
  if (!semantic::imports_tensorflow(module)) return;
  const std::vector<semantic::CallbackHandoff> handoffs =
      semantic::callback_handoffs(facts.analysis());
  semantic::CallSites calls(module, facts.analysis());
  for (const Function& function : module.functions()) {
    // Methods and closures: an object's method or a function handed out runs once per input.
    // A top-level function may be a one-time step of a script (`main(args)`, a
    // `sync_from_root(sess, variables)` at start-up) whose callers this file does not show.
    const bool method_or_closure =
        function.parent_class != nullptr ||
        (function.parent_function != nullptr && !function.parent_function->is_module);
    // A method that counts its own calls (`self.calls += 1`) runs again and again.
    const ir::Stmt* counter = semantic::counts_own_calls(function);
    if (function.is_module || function.name == "__init__" ||
        (counter == nullptr &&
         !std::any_of(function.params.begin(), function.params.end(),
                      [](const ir::Param& p) { return p.name != ir::kReceiver; })))
      continue;
    // A hook a framework calls once per batch or epoch (a Keras callback's `on_batch_end`):
    // the framework's loop repeats it, whatever the op is built from.
    const std::optional<semantic::RepeatedCall> repeated =
        semantic::repeated_by_framework(facts.analysis(), function);
    // Handed to a call as a callback (`step_callback=self._scipy_callback`): the callee calls it
    // back on every step.
    const auto handoff =
        std::find_if(handoffs.begin(), handoffs.end(),
                     [&](const semantic::CallbackHandoff& h) { return h.function == &function; });
    const bool called_back = handoff != handoffs.end();
    const Expr* reported = nullptr;
    std::optional<semantic::LoopCall> looped;
    ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
      // `if epoch == 0:`, `if self.op is None:` in a hook: built on one call only.
      if (reported != nullptr ||
          ((repeated || called_back) && semantic::under_once_per_call_branch(where, function)))
        return;
      ir::for_each_evaluated_expr(stmt, [&](const Expr& call) {
        if (reported != nullptr || call.kind != ExprKind::Call ||
            call.callee()->kind != ExprKind::Attr || call.callee()->text != "run" ||
            call.arg_count() == 0)
          return;
        const std::optional<SessionUse> use = facts.session_use(function, call);
        if (!use || use->session == nullptr) return;
        const Expr* op = op_fetched(module, function, stmt, *call.arg(0), false);
        if (!method_or_closure) {
          if (op != nullptr && transforms_each_input(facts, function, stmt, *use, *op)) {
            reported = op;
            return;
          }
          // The evidence below is the loop, whatever the op: also one kept in a list.
          if (op == nullptr) op = op_fetched(module, function, stmt, *call.arg(0), true);
          if (op == nullptr) return;
          // A loop of the file calls it, directly or through other functions of the file
          // (`copy_model_parameters(sess, q, target)` every n-th step of the training loop).
          looped = semantic::called_from_loop(module, calls, function, kMaxCallDepth);
          // A `tf.` op called for from a loop that runs the session is the loop check's
          // (session_ops.cpp), reported at the call there; it does not see a variable's
          // `assign` or an op kept in a list.
          if (looped && facts.session_loop(*looped->caller, *looped->loop) &&
              semantic::tf_callee_api(module, *op).api == semantic::TfApi::Tf)
            looped.reset();
          if (looped) reported = op;
          return;
        }
        if (op == nullptr) return;
        if (repeated || called_back || counter != nullptr) {
          reported = op;
          return;
        }
        const Expr* feed = call.keyword("feed_dict");
        if (feed == nullptr && call.arg_count() > 1) feed = call.arg(1);
        // The op reads the call's input: a name the function binds, a parameter anywhere in the
        // fetches (`[v.assign(x) for v, x in zip(self.variables, values)]`), or through the feed.
        if (!reads_own_name(facts, function, *op) && !reads_param(function, *call.arg(0)) &&
            (feed == nullptr || !feeds_param(function, *feed)))
          return;
        reported = op;
      });
    });
    // A loop of the function that runs the session is the loop check's; a single call outside
    // loops builds the op once.
    if (reported == nullptr || facts.has_session_loop(function)) continue;
    // Repeated by a framework or by the callee it is handed to: that repetition is the evidence,
    // named in the message and pointed at.
    if (repeated || called_back || counter != nullptr) {
      std::string clause;
      Related repetition;
      if (!repeated && !called_back) {
        clause = ", which counts its own calls";
        repetition = {counter->range, fmt::format("`{}()` counts its calls here: it runs again "
                                                  "and again",
                                                  function.name)};
      } else if (repeated) {
        const semantic::Region region = semantic::Region::calls(function, *repeated);
        clause = region.repeats_clause();
        repetition = region.repetition();
      } else {
        clause = fmt::format(", which is handed over as `{}` and called back again and again",
                             handoff->keyword);
        repetition = {handoff->call->range, fmt::format("`{}()` is handed over here as `{}`",
                                                        function.name, handoff->keyword)};
      }
      sink.report(info(), reported->range,
                  fmt::format("`{}` adds a new op to the TensorFlow graph on every call of "
                              "`{}()`{}: the graph keeps growing and every run gets slower",
                              quote_call(module, *reported), function.name, clause),
                  fmt::format("build the op once, outside `{}()` (in `__init__`, or when "
                              "training begins, feeding the value through a `tf.placeholder`), "
                              "and only run it here",
                              function.name),
                  {std::move(repetition)});
      continue;
    }
    if (looped) {
      sink.report(info(), reported->range,
                  fmt::format("`{}` adds a new op to the TensorFlow graph on every call of `{}()`, "
                              "which a loop of the file calls again and again: the graph keeps "
                              "growing and every run gets slower",
                              quote_call(module, *reported), function.name),
                  fmt::format("build the op once, outside `{}()` (feed the value through a "
                              "`tf.placeholder`), and only run it here",
                              function.name),
                  {{looped->call->range, fmt::format("`{}()` runs here, in a loop", function.name)},
                   {ir::loop_header(*looped->loop), "the loop that repeats it"}});
      continue;
    }
    if (facts.called_once_in_file(function)) continue;
    sink.report(info(), reported->range,
                fmt::format("`{}` adds a new op to the TensorFlow graph on every call of `{}()`, "
                            "which builds it from what the call passes in and runs it at once: "
                            "the graph keeps growing and every run gets slower",
                            quote_call(module, *reported), function.name),
                fmt::format("build the op once, outside `{}()` (feed the value through a "
                            "`tf.placeholder`), and only run it here",
                            function.name),
                {{function.name_range,
                  fmt::format("`{}()` runs once per input its callers pass", function.name)}});
  }
}

}  // namespace sealint::rules::sl009
