#include "analyzer/semantic/training_calls.h"

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/builtins.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::ValueKind;
using knowledge::last_component;

bool is_module_or_loss(ValueKind kind) {
  return kind == ValueKind::Module || kind == ValueKind::LossFn;
}

bool function_trains(const ir::FileAnalysis& analysis, const ir::Function& function, int depth) {
  // The summary's `trains` also counts `zero_grad()`: a first filter, then the calls decide.
  if (depth <= 0 || !analysis.summary(function).trains) return false;
  bool trains = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (trains || expr.kind != ExprKind::Call) return;
      trains = is_step_call(analysis, expr) ||
               calls_training_function(analysis, function, expr, depth - 1);
    });
  });
  return trains;
}

}  // namespace

bool calls_training_function(const ir::FileAnalysis& analysis, const ir::Function& caller,
                             const Expr& call, int depth) {
  const ir::Function* target = analysis.resolve_callee(caller, call);
  if (target == nullptr) {
    const ir::Fact& fact = analysis.fact(*call.callee());
    if (call.callee()->kind == ExprKind::Name && fact.kind == ValueKind::Function)
      target = fact.function;
  }
  return target != nullptr && function_trains(analysis, *target, depth);
}

bool is_step_call(const ir::FileAnalysis& analysis, const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Attr) return false;
  const std::string_view method = callee->text;
  if (method == "backward" || method == "manual_backward") return true;
  if (method != "step") return false;
  auto is_optimizer = [&](const Expr* expr) {
    return analysis.fact(*expr).kind == ValueKind::Optimizer ||
           knowledge::is_optimizer_like_name(last_component(ir::dotted_name(expr)));
  };
  if (is_optimizer(callee->base())) return true;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (is_optimizer(call.arg(i))) return true;
  }
  return false;
}

bool is_training_call(const ir::FileAnalysis& analysis, const ir::Function& function,
                      const Expr& call) {
  constexpr int kCallDepth = 4;
  const Expr* callee = call.callee();
  if (is_step_call(analysis, call)) return true;
  if (callee->kind == ExprKind::Name && (is_module_or_loss(analysis.fact(*callee).kind) ||
                                         knowledge::is_model_running_name(callee->text))) {
    return true;
  }
  if (callee->kind == ExprKind::Attr) {
    const std::string_view method = callee->text;
    const ir::Fact& base = analysis.fact(*callee->base());
    if ((method == "forward" || method == "__call__") && is_module_or_loss(base.kind)) return true;
    // `self.model(x)`, `trainer.criterion(out, y)`: an attribute holding a module.
    if (base.kind == ValueKind::Instance && base.instance_of != nullptr &&
        is_module_or_loss(analysis.class_attr(base.instance_of, method).kind)) {
      return true;
    }
    if ((base.kind == ValueKind::Instance || base.kind == ValueKind::Module ||
         base.kind == ValueKind::Unknown) &&
        (knowledge::is_model_like_name(method) || knowledge::is_loss_fn_like_name(method))) {
      return true;
    }
  }
  const std::string q = ir::qualified_name(analysis.module(), callee);
  if (q.starts_with("torch.nn.functional.")) {
    const std::string_view last = last_component(q);
    if (last.ends_with("loss") || last.ends_with("entropy")) return true;
  }
  return calls_training_function(analysis, function, call, kCallDepth);
}

std::string step_like_callee(const ir::FileAnalysis& analysis, const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind != ExprKind::Name && callee->kind != ExprKind::Attr) return {};
  if (!knowledge::is_step_like_name(callee->text)) return {};
  if (callee->kind == ExprKind::Attr && callee->text == "train") {
    const Expr* base = callee->base();
    if (analysis.fact(*base).kind == ValueKind::Module ||
        knowledge::is_model_like_name(last_component(ir::dotted_name(base)))) {
      return {};
    }
  }
  return ir::dotted_name(callee);
}

bool may_train_out_of_sight(const ir::FileAnalysis& analysis, const ir::Function& function) {
  bool unknown = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const ir::Expr& call) {
      if (unknown || call.kind != ir::ExprKind::Call) return;
      if (is_model_call(analysis, call)) return;
      if (analysis.resolve_callee_anywhere(function, call)) return;
      // A method of a tensor, a module or a container: `x.to(device)`, `out.argmax(1)`.
      const ir::Fact& callee = analysis.fact(*call.callee());
      if (call.callee()->kind == ir::ExprKind::Attr) {
        const ir::Fact& receiver = analysis.fact(*call.callee()->base());
        if (receiver.kind == ir::ValueKind::Tensor || receiver.kind == ir::ValueKind::Module ||
            receiver.kind == ir::ValueKind::Container || receiver.kind == ir::ValueKind::Number)
          return;
      }
      if (callee.kind == ir::ValueKind::LossFn) return;
      // A builtin that runs no step (`len(batch)`, `print(...)`); any other name (a local bound
      // to one of several functions, another library's) may train.
      if (call.callee()->kind == ir::ExprKind::Name &&
          knowledge::kBuiltinsRunningNoStep.contains(call.callee()->text))
        return;
      unknown = true;
    });
  });
  return unknown;
}

}  // namespace sealint::semantic
