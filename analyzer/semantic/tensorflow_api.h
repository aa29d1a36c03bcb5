#pragma once
// Which TensorFlow or Keras API an expression names, through the file's imports (a local
// variable called `tf` is not TensorFlow), and the calls rules ask about by what they do:
// sessions, graph resets, Keras models, `tf.function`. What each API does is
// knowledge/tensorflow.h's table.
#include <string>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

enum class TfApi { None, Tf, Keras };

// `tf.nn.relu` -> {Tf, "nn.relu"}; `tf.compat.v1.placeholder` -> {Tf, "placeholder"};
// `tf.keras.models.Sequential`, `keras.Sequential`, `K.clear_session` -> {Keras, "keras...."}.
struct TfApiRef {
  TfApi api = TfApi::None;
  std::string path;
};

[[nodiscard]] TfApiRef tf_api_of(const ir::Module& module, const ir::Expr* expr);
// The API a call's callee names; {} for an expression that is not a call.
[[nodiscard]] TfApiRef tf_callee_api(const ir::Module& module, const ir::Expr& call);

// The file imports `tensorflow`, `keras` or `tf_keras` (or a module of one).
[[nodiscard]] bool imports_tensorflow(const ir::Module& module);

// `tf.Session()`, `tf.compat.v1.InteractiveSession()`, `K.get_session()`.
[[nodiscard]] bool is_tf_session_call(const ir::Module& module, const ir::Expr& expr);
// `tf.reset_default_graph()`, `tf.Graph()` (ops built under it go to a new graph),
// `keras.backend.clear_session()`.
[[nodiscard]] bool is_tf_graph_reset_call(const ir::Module& module, const ir::Expr& expr);
// `keras.backend.clear_session()` or `tf.reset_default_graph()`: Keras's global state is dropped.
[[nodiscard]] bool is_clear_session_call(const ir::Module& module, const ir::Expr& expr);
// `keras.Sequential(...)`, `tf.keras.Model(inputs, outputs)`, `keras.models.clone_model(m)`,
// `load_model(path)`, `keras.applications.ResNet50(...)`.
[[nodiscard]] bool is_keras_model_call(const ir::Module& module, const ir::Expr& expr);
// A class of the file that subclasses `keras.Model` (or `Sequential`).
[[nodiscard]] bool is_keras_model_class(const ir::Module& module, const ir::ClassDef& cls);
// `@tf.function`, `@tf.function(jit_compile=True)`, or the callee of `tf.function(f)`.
[[nodiscard]] bool is_tf_function(const ir::Module& module, const ir::Expr* expr);

}  // namespace sealint::semantic
