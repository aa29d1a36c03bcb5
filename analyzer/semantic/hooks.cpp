#include "analyzer/semantic/hooks.h"

#include <string>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/base_loops.h"
#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

std::string_view RepeatedCall::caller() const {
  if (hook != nullptr) return hook->framework;
  if (taker != nullptr) return taker->framework;
  if (!loop_caller.empty()) return loop_caller;
  if (drained_by != nullptr) return "its callers";
  return "every forward pass";
}

std::optional<RepeatedCall> repeated_by_framework(const ir::FileAnalysis& analysis,
                                                  const ir::Function& function) {
  const ir::ClassDef* cls = function.parent_class;
  if (cls == nullptr || function.params.empty()) return std::nullopt;
  RepeatedCall call;
  call.hook = ir::framework_hook_of(analysis.module(), function);
  if (call.hook != nullptr) {
    call.autograd_on = call.hook->autograd_on && !analysis.runs_without_grad(function);
    return call;
  }
  if (function.name == "forward" && analysis.is_module_class(cls)) {
    call.forward = true;
    call.autograd_on = !analysis.runs_without_grad(function);
    return call;
  }
  if (std::optional<LoopCaller> caller = base_loop_caller(analysis, function)) {
    call.loop_caller = std::move(caller->name);
    call.loop_caller_file = std::move(caller->file);
    call.loop_call = caller->call;
    return call;
  }
  return std::nullopt;
}

std::vector<HandedStep> handed_steps(const ir::FileAnalysis& analysis) {
  std::vector<HandedStep> steps;
  const ir::Module& module = analysis.module();
  for (const ir::Function& function : module.functions()) {
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const ir::Expr& call) {
        if (call.kind != ir::ExprKind::Call) return;
        const knowledge::StepTaker* taker =
            knowledge::step_taker(ir::qualified_name(module, call.callee()));
        if (taker == nullptr) return;
        const ir::Expr* argument = call.arg(taker->argument);
        if (argument == nullptr || argument->kind != ir::ExprKind::Name) return;
        const ir::Function* step = analysis.function_named(argument->text);
        if (step == nullptr) return;
        HandedStep handed{step, taker, &call, {}};
        if (stmt.kind == ir::StmtKind::Assign && stmt.value == &call && stmt.targets.size() == 1)
          handed.bound_to = ir::place_key(stmt.targets[0]);
        steps.push_back(std::move(handed));
      });
    });
  }
  return steps;
}

namespace {

// The function of the file that `value` names where `caller` hands it over: a function by its
// name, or `self.method` of the caller's class.
const ir::Function* named_function(const ir::FileAnalysis& analysis, const ir::Function& caller,
                                   const ir::Expr& value) {
  if (value.kind == ir::ExprKind::Name) return analysis.function_named(value.text);
  if (value.kind == ir::ExprKind::Attr && value.base()->kind == ir::ExprKind::Name &&
      value.base()->text == ir::kReceiver && caller.parent_class != nullptr)
    return analysis.method_of(*caller.parent_class, value.text);
  return nullptr;
}

}  // namespace

std::vector<CallbackHandoff> callback_handoffs(const ir::FileAnalysis& analysis) {
  std::vector<CallbackHandoff> handoffs;
  for (const ir::Function& caller : analysis.module().functions()) {
    ir::for_each_nested(caller.body, [&](const ir::Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const ir::Expr& call) {
        if (call.kind != ir::ExprKind::Call) return;
        for (const ir::Keyword& keyword : call.keywords) {
          if (keyword.value == nullptr || !knowledge::is_repeated_callback_keyword(keyword.name))
            continue;
          if (const ir::Function* function = named_function(analysis, caller, *keyword.value))
            handoffs.push_back({function, &call, keyword.name});
        }
      });
    });
  }
  return handoffs;
}

}  // namespace sealint::semantic
