#pragma once
// What one call of a TF1 function does to the default graph, for the summaries other files of
// the project read (ir::ForeignFunction): whether it runs a session, and the first op it adds to
// the graph on every call. A training script that calls `model.train(...)` and `model.summary()`
// in its loop learns from these that the loop runs a session and grows the graph, though the
// script itself never names TensorFlow.
#include <string_view>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

struct TfCallEffects {
  // `self.sess.run(...)`, `session.run(...)`: a `.run` on a receiver named for a session.
  bool runs_session = false;
  // The first `tf.` call that adds nodes to the graph on every call: outside branches that hold
  // on one call only (`if self.op is None:`); null when the function builds under a graph or a
  // session of its own, in `__init__`, or behind a caching decorator.
  const ir::Expr* op_per_call = nullptr;
  // The parameter whose default the op stands in for: `if train_op is None: train_op =
  // tf.no_op()` builds it only on calls that pass no `train_op`. Empty when the op is built
  // whatever the call passes.
  std::string_view unless_passed;
  // The parameter in whose `else` the op is built (`if train_op is None: ... else: fetch =
  // tf.group(train_op, ...)`): built only on calls that pass one.
  std::string_view if_passed;
};

// `.run(...)` on a receiver named for a session: `sess.run(op)`, `self.session.run(op)`.
[[nodiscard]] bool is_session_run_call(const ir::Expr& call);

// Starts a graph of its own (`tf.reset_default_graph()`, `with tf.Graph().as_default():`) or a
// session of its own: what it builds does not pile up in one graph across calls.
[[nodiscard]] bool starts_own_graph(const ir::Module& module, const ir::Function& function);

[[nodiscard]] TfCallEffects tf_call_effects(const ir::Module& module, const ir::Function& function);

}  // namespace sealint::semantic
