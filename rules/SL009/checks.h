#pragma once
// SL009's checks, each over every loop of the file and every function a framework repeats. A check
// reports through the sink under SL009's RuleInfo.
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "rules/SL009/facts.h"

namespace sealint::rules::sl009 {

// SL009's metadata (defined with the rule in SL009_tf_graph_growth.cpp).
const RuleInfo& info();

// TF1: ops built in a loop that runs a session (session_ops.cpp).
void check_session_ops(TfFacts& facts, DiagnosticSink& sink);
// TF1: a function that builds an op from what its call passes in and runs it at once, so that
// every call adds to the graph (session_calls.cpp).
void check_session_calls(TfFacts& facts, DiagnosticSink& sink);
// TF1: a function its callers call again and again (it runs one epoch, or saves a numbered
// checkpoint) that builds an op outside its loops, so that every call adds to the graph
// (periodic_functions.cpp).
void check_periodic_functions(TfFacts& facts, DiagnosticSink& sink);
// Keras: `model.predict(x)` called on a new input each iteration (keras_predict.cpp).
void check_keras_predict(TfFacts& facts, DiagnosticSink& sink);
// Keras: a new model per iteration without `clear_session()` (keras_model_builds.cpp).
void check_keras_model_builds(TfFacts& facts, DiagnosticSink& sink);
// TF1: a loop that runs a session and calls a function of another file of the project that
// builds an op on every call (foreign_ops.cpp).
void check_foreign_ops(const ir::FileAnalysis& analysis, DiagnosticSink& sink);
// `tf.function` made inside a loop, or in a hook a framework repeats (tf_function.cpp).
void check_tf_functions(const ir::FileAnalysis& analysis, DiagnosticSink& sink);

}  // namespace sealint::rules::sl009
