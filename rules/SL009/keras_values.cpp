// TfFacts: which values are Keras models, and which of the file's functions build one.
#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/tensorflow_api.h"
#include "rules/SL009/facts.h"

namespace sealint::rules::sl009 {

using ir::assigned_value;
using ir::Expr;
using ir::ExprKind;
using ir::Function;
using ir::Stmt;
using ir::stmt_binds;
using ir::StmtKind;

// Keys `.compile(...)`-d anywhere in the file: `model.compile(optimizer="adam", loss=...)`.
void TfFacts::collect_compiled_models() {
  for (const Function& function : module_.functions()) {
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
        if (e.kind != ExprKind::Call || e.callee()->kind != ExprKind::Attr ||
            e.callee()->text != "compile")
          return;
        const Expr* receiver = e.callee()->base();
        const ir::Expr* root = ir::root_name(receiver);
        if (root == nullptr || module_.is_import_alias(root->text)) return;
        const std::string key = ir::place_key(receiver);
        if (!key.empty()) compiled_.insert(key);
      });
    });
  }
}

bool TfFacts::constructs_keras_model(const Expr& call) const {
  if (semantic::is_keras_model_call(module_, call)) return true;
  if (call.callee()->kind != ExprKind::Name) return false;
  const ir::ClassDef* cls = analysis_.class_named(call.callee()->text);
  return cls != nullptr && semantic::is_keras_model_class(module_, *cls);
}

bool TfFacts::keras_model(const Function& function, const Expr& expr, const Stmt& before,
                          int depth) {
  if (expr.kind == ExprKind::Call) return makes_keras_model(function, expr, depth) != nullptr;
  if (expr.kind != ExprKind::Name && expr.kind != ExprKind::Attr) return false;
  const std::string key = ir::place_key(&expr);
  if (key.empty()) return false;
  if (compiled_.contains(key)) return true;
  if (depth <= 0) return false;
  // Some binding of the place in `scope` is a Keras model.
  auto bound_to_model = [&](const Function& scope) {
    bool found = false;
    ir::for_each_nested(scope.body, [&](const Stmt& stmt) {
      if (found || !stmt_binds(stmt, key)) return;
      const Expr* value = assigned_value(stmt, key);
      found = value != nullptr && keras_model(scope, *value, stmt, depth - 1);
    });
    return found;
  };
  if (key.starts_with("self.")) {
    const ir::ClassDef* cls = function.parent_class;
    if (cls == nullptr) return false;
    return std::any_of(cls->methods.begin(), cls->methods.end(),
                       [&](const Function* method) { return bound_to_model(*method); });
  }
  if (key.find('.') != std::string::npos || key.find('[') != std::string::npos) return false;
  if (const Stmt* binding = ir::binding_before(function, before, key)) {
    const Expr* value = assigned_value(*binding, key);
    return value != nullptr && keras_model(function, *value, *binding, depth - 1);
  }
  if (function.is_module || function.has_param(key) || binds_anywhere(function, key)) return false;
  return bound_to_model(module_.top_level());
}

const Expr* TfFacts::makes_keras_model(const Function& function, const Expr& call, int depth) {
  if (constructs_keras_model(call)) return &call;
  if (depth <= 0) return nullptr;
  const Function* target = analysis_.resolve_callee(function, call);
  if (target == nullptr || target == &function) return nullptr;
  const Expr* made = nullptr;
  ir::for_each_nested(target->body, [&](const Stmt& stmt) {
    if (made != nullptr || stmt.kind != StmtKind::Return || stmt.value == nullptr) return;
    if (keras_model(*target, *stmt.value, stmt, depth - 1)) made = stmt.value;
  });
  return made;
}

const Expr* TfFacts::builds_keras_model(const Function& function, int depth) {
  if (depth <= 0 || semantic::may_skip_body(function)) return nullptr;
  if (auto it = model_builders_.find(&function); it != model_builders_.end()) return it->second;
  // A recursive call builds nothing more than the call in progress.
  if (!in_progress_.insert(&function).second) return nullptr;
  const Expr* made = first_model_built(function, depth);
  in_progress_.erase(&function);
  // Only a full-depth answer is kept: a shallower one may have stopped short.
  if (depth == kMaxCallDepth) model_builders_[&function] = made;
  return made;
}

const Expr* TfFacts::first_model_built(const Function& function, int depth) {
  const Expr* made = nullptr;
  bool clears = false;
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const Expr& e) {
      if (e.kind != ExprKind::Call) return;
      if (semantic::is_clear_session_call(module_, e)) clears = true;
      if (made != nullptr) return;
      if (constructs_keras_model(e)) {
        made = &e;
        return;
      }
      if (const Function* callee = analysis_.resolve_callee(function, e);
          callee != nullptr && callee != &function && builds_keras_model(*callee, depth - 1))
        made = &e;
    });
  });
  return clears ? nullptr : made;
}

}  // namespace sealint::rules::sl009
