// Flags TensorFlow graph ops, Keras models, `predict` calls and `tf.function`s made again on every
// iteration of a loop. docs: docs/rules/SL009.md
//
// The rule's checks live in rules/SL009/, over one set of per-file facts (facts.h): TF1 ops in a
// session loop (session_ops.cpp), in a function run once per input or per batch
// (session_calls.cpp) or once per epoch or per checkpoint (periodic_functions.cpp), Keras `predict`
// per input (keras_predict.cpp), a Keras model per iteration or per hook call
// (keras_model_builds.cpp) and `tf.function` per iteration or per hook call (tf_function.cpp).
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/checks.h"
#include "rules/SL009/facts.h"
#include "rules/rule.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL009",
    .name = "tf-graph-growth",
    .severity = Severity::Error,
    .python = true,
    .cpp = false,
    .summary =
        "Flags TensorFlow graph ops, Keras models, `predict` calls and `tf.function`s created "
        "again on every iteration of a loop, so the graph or Keras's global state keeps growing.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::TensorFlow,
    .precision = Precision::Medium,  // 2 of 2 on bench/corpus (the survey's 10 false ones gone):
                                     // too few to say high
    .brief = "TensorFlow ops, Keras models, `predict` or `tf.function` created on every iteration",
};

class TfGraphGrowth final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    // A script that never names TensorFlow may still run a session and grow the graph through
    // another file's model class.
    sl009::check_foreign_ops(context.analysis, sink);
    // Every other check reads the file's own TensorFlow/Keras calls: files that import neither
    // (PyTorch code, plain Python) are quiet.
    if (!semantic::imports_tensorflow(module)) return;
    sl009::TfFacts facts(module, context.analysis);
    sl009::check_session_ops(facts, sink);
    sl009::check_session_calls(facts, sink);
    sl009::check_periodic_functions(facts, sink);
    sl009::check_keras_predict(facts, sink);
    sl009::check_keras_model_builds(facts, sink);
    sl009::check_tf_functions(context.analysis, sink);
  }
};

}  // namespace

const RuleInfo& sl009::info() {
  return kInfo;
}

std::unique_ptr<const Rule> make_sl009_tf_graph_growth() {
  return std::make_unique<TfGraphGrowth>();
}

}  // namespace sealint::rules
