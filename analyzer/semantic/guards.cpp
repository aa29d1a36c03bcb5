#include "analyzer/semantic/guards.h"

#include <string>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::ir {

namespace {

bool is_torch_member(const std::string& qualified, std::string_view member) {
  if (!qualified.starts_with("torch.") || qualified.size() <= member.size()) return false;
  return qualified.ends_with(member) && qualified[qualified.size() - member.size() - 1] == '.';
}

// A literal False/0 (or `mode=False`) as the call's first argument.
bool first_arg_is_false(const Expr* call, std::string_view keyword) {
  const Expr* arg = call->arg(0);
  if (arg == nullptr) arg = call->keyword(keyword);
  if (arg == nullptr || arg->kind != ExprKind::Const) return false;
  return arg->text == "False" || arg->text == "0";
}

bool has_argument(const Expr* call, std::string_view keyword) {
  return call->arg(0) != nullptr || call->keyword(keyword) != nullptr;
}

// A decorator the file defines that runs the function it wraps under a grad guard:
//   def nograd(f):
//       def new_f(*args, **kwargs):
//           with torch.no_grad():
//               return f(*args, **kwargs)
//       return new_f
// The guard, or Other when `decorator` names no such function of the file's top level.
GuardKind wrapping_guard(const Module& module, const Expr* decorator) {
  if (decorator == nullptr || decorator->kind != ExprKind::Name) return GuardKind::Other;
  // The last `def` of that name among the top level's statements (a rebinding wins).
  const Function* wrapper = nullptr;
  for (const Stmt* stmt : module.top_level().body) {
    if (stmt->kind == StmtKind::FunctionDef && stmt->function != nullptr &&
        stmt->function->name == decorator->text)
      wrapper = stmt->function;
  }
  if (wrapper == nullptr || wrapper->params.empty()) return GuardKind::Other;
  const std::string_view wrapped = wrapper->params[0].name;
  GuardKind found = GuardKind::Other;
  for (const Stmt* inner : wrapper->body) {
    if (inner->kind != StmtKind::FunctionDef || inner->function == nullptr) continue;
    for_each_nested(inner->function->body, [&](const Stmt& guard) {
      if (found != GuardKind::Other || guard.kind != StmtKind::Guard || guard.items.empty()) return;
      const GuardKind kind = classify_guard(module, guard.items.front());
      if (!disables_grad(kind)) return;
      for_each_nested(guard.body, [&](const Stmt& stmt) {
        for_each_expr(stmt, [&](const Expr& call) {
          if (call.kind == ExprKind::Call && call.callee()->kind == ExprKind::Name &&
              call.callee()->text == wrapped)
            found = kind;
        });
      });
    });
  }
  return found;
}

}  // namespace

GuardKind classify_guard(const Module& module, const Expr* context) {
  if (context == nullptr) return GuardKind::Other;
  const Expr* call = context->kind == ExprKind::Call ? context : nullptr;
  const std::string name = qualified_name(module, call ? call->callee() : context);
  if (is_torch_member(name, "no_grad")) return GuardKind::NoGrad;
  if (is_torch_member(name, "enable_grad")) return GuardKind::EnableGrad;
  if (is_torch_member(name, "inference_mode")) {
    // inference_mode(False) turns inference mode off again.
    return call && first_arg_is_false(call, "mode") ? GuardKind::Other : GuardKind::InferenceMode;
  }
  if (is_torch_member(name, "set_grad_enabled") && call) {
    if (first_arg_is_false(call, "mode")) return GuardKind::SetGradEnabledFalse;
    return has_argument(call, "mode") && call->arg(0) && call->arg(0)->text == "True"
               ? GuardKind::EnableGrad
               : GuardKind::Other;
  }
  // A project's wrapper (yolov5's `@smart_inference_mode()`), unless it is told to stay off
  // (`inference_mode(False)` has the same argument convention).
  if (!name.starts_with("torch.") && !name.empty() &&
      knowledge::is_no_grad_like_name(knowledge::last_component(name))) {
    return call && first_arg_is_false(call, "mode") ? GuardKind::Other : GuardKind::NoGrad;
  }
  return GuardKind::Other;
}

GuardKind decorator_guard(const Module& module, const Function& function) {
  for (const Expr* decorator : function.decorators) {
    GuardKind kind = classify_guard(module, decorator);
    if (kind == GuardKind::Other) kind = wrapping_guard(module, decorator);
    if (kind != GuardKind::Other) return kind;
  }
  return GuardKind::Other;
}

}  // namespace sealint::ir
