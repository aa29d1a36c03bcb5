#include "analyzer/semantic/tensorflow_api.h"

#include <algorithm>
#include <string_view>

#include "analyzer/knowledge/tensorflow.h"

namespace sealint::semantic {

TfApiRef tf_api_of(const ir::Module& module, const ir::Expr* expr) {
  const std::string dotted = ir::dotted_name(expr);
  if (dotted.empty()) return {};
  if (!module.is_import_alias(std::string_view(dotted).substr(0, dotted.find('.')))) return {};
  const std::string qualified = ir::qualified_name(module, expr);
  std::string_view rest = qualified;
  auto strip = [&](std::string_view prefix) {
    if (!rest.starts_with(prefix)) return false;
    rest.remove_prefix(prefix.size());
    return true;
  };
  if (strip("tensorflow.")) {
    if (!strip("compat.v1.")) strip("compat.v2.");
    strip("python.");
    if (rest.starts_with("keras.")) return {TfApi::Keras, std::string(rest)};
    return {TfApi::Tf, std::string(rest)};
  }
  if (rest.starts_with("keras.")) return {TfApi::Keras, std::string(rest)};
  if (strip("tf_keras.")) return {TfApi::Keras, "keras." + std::string(rest)};
  return {};
}

TfApiRef tf_callee_api(const ir::Module& module, const ir::Expr& call) {
  if (call.kind != ir::ExprKind::Call) return {};
  return tf_api_of(module, call.callee());
}

bool imports_tensorflow(const ir::Module& module) {
  // Asked once per function of the file: an index lookup, not a scan of every import.
  return module.imports_package("tensorflow") || module.imports_package("keras") ||
         module.imports_package("tf_keras");
}

bool is_tf_session_call(const ir::Module& module, const ir::Expr& expr) {
  const TfApiRef ref = tf_callee_api(module, expr);
  if (ref.api == TfApi::Tf) return knowledge::is_tf_session_api(ref.path);
  return ref.api == TfApi::Keras && knowledge::is_keras_session_getter(ref.path);
}

bool is_tf_graph_reset_call(const ir::Module& module, const ir::Expr& expr) {
  const TfApiRef ref = tf_callee_api(module, expr);
  if (ref.api == TfApi::Tf) return knowledge::is_tf_graph_reset_api(ref.path);
  return ref.api == TfApi::Keras && knowledge::is_keras_clear_session(ref.path);
}

bool is_clear_session_call(const ir::Module& module, const ir::Expr& expr) {
  const TfApiRef ref = tf_callee_api(module, expr);
  if (ref.api == TfApi::Tf) return ref.path == "reset_default_graph";
  return ref.api == TfApi::Keras && knowledge::is_keras_clear_session(ref.path);
}

bool is_keras_model_call(const ir::Module& module, const ir::Expr& expr) {
  const TfApiRef ref = tf_callee_api(module, expr);
  return ref.api == TfApi::Keras && knowledge::is_keras_model_maker(ref.path);
}

bool is_keras_model_class(const ir::Module& module, const ir::ClassDef& cls) {
  return std::any_of(cls.bases.begin(), cls.bases.end(), [&](const ir::Expr* base) {
    const TfApiRef ref = tf_api_of(module, base);
    return ref.api == TfApi::Keras && knowledge::is_keras_model_base(ref.path);
  });
}

bool is_tf_function(const ir::Module& module, const ir::Expr* expr) {
  if (expr == nullptr) return false;
  if (expr->kind == ir::ExprKind::Call) expr = expr->callee();
  const TfApiRef ref = tf_api_of(module, expr);
  return ref.api == TfApi::Tf && ref.path == "function";
}

}  // namespace sealint::semantic
