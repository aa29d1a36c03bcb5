#include "rules/SL006/inference_entries.h"

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/accumulators.h"
#include "analyzer/semantic/hooks.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/request_handlers.h"
#include "rules/SL006/framework_steps.h"
#include "rules/SL006/mode_switches.h"
#include "rules/support/quote.h"

namespace sealint::rules::sl006 {

namespace {

// The object's entry for inference: called, it runs the model on what its caller passes.
bool is_inference_entry(const ir::Function& function) {
  return function.name == "__call__" ||
         (!function.name.starts_with("_") && knowledge::is_evaluation_name(function.name) &&
          !function.name.starts_with("test"));
}

}  // namespace

void check_inference_entry(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink) {
  if (function.parent_class == nullptr || !is_inference_entry(function) ||
      function.params.size() < 2 || analysis.runs_without_grad(function))
    return;
  const semantic::ModelRuns::Helper run = runs.per_call(function);
  if (run.model_call == nullptr) return;
  const ir::Expr* model_expr = model_of(*run.model_call);
  const std::string model = ir::place_key(model_expr);
  // Only a model the object froze when it was built (and never trains): whatever the caller
  // does with the result, this forward needs no graph.
  const ir::Stmt* frozen = eval_held_by_class(analysis, function, model);
  if (frozen == nullptr) return;
  const std::string name = model.empty() ? quote(module, *model_expr).text : model;
  std::vector<Related> related;
  if (run.step_call != run.model_call)
    related.push_back({run.model_call->range, fmt::format("`{}` runs here", name)});
  related.push_back(
      {frozen->range, fmt::format("`{}` is put in eval mode here, and nothing switches it back",
                                  switched_name(*frozen))});
  related.push_back({function.name_range,
                     fmt::format("`{}()` runs once per input its callers pass", function.name)});
  sink.report(info(), run.step_call->range,
              fmt::format("`{}` runs with autograd on in `{}()`, which serves inference with a "
                          "model kept in eval mode; every call records activations for a "
                          "backward that never runs",
                          name, function.name),
              fmt::format("decorate `{}()` with `@torch.no_grad()` (or "
                          "`@torch.inference_mode()`)",
                          function.name),
              std::move(related));
}

void check_request_handler(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink) {
  const ir::Expr* route = semantic::request_route(module, function);
  if (route == nullptr || analysis.runs_without_grad(function)) return;
  // A model run once per call, with autograd on, by a handler that does not train.
  const semantic::ModelRuns::Helper run = runs.per_call(function);
  if (run.model_call == nullptr) return;
  const ir::Expr* model_expr = model_of(*run.model_call);
  const std::string model = ir::place_key(model_expr);
  const std::string name = model.empty() ? quote(module, *model_expr).text : model;
  std::vector<Related> related;
  if (run.step_call != run.model_call)
    related.push_back({run.step_call->range,
                       fmt::format("`{}()` runs `{}` through this call", function.name, name)});
  related.push_back({route->range, fmt::format("`{}()` handles every request sent to this route",
                                               function.name)});
  sink.report(info(), run.model_call->range,
              fmt::format("`{}` runs with autograd on in `{}()`, a request handler the server "
                          "calls on every request; each one records activations for a backward "
                          "that never runs",
                          name, function.name),
              fmt::format("decorate `{}()` with `@torch.inference_mode()` (or "
                          "`@torch.no_grad()`)",
                          function.name),
              std::move(related));
}

namespace {

// Evidence that a method runs again and again though no loop of the file calls it: it counts
// its own calls, or it adds to a list of `self` that another method of the class drains
// (semantic/accumulators.h). The evidence's statement, or nullptr.
const ir::Stmt* repeated_method(const ir::FileAnalysis& analysis, const ir::Function& function,
                                const ir::Function*& drain) {
  drain = nullptr;
  if (const ir::Stmt* counter = semantic::counts_own_calls(function)) return counter;
  const ir::Stmt* found = nullptr;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& call) {
      if (found != nullptr || call.kind != ir::ExprKind::Call ||
          call.callee()->kind != ir::ExprKind::Attr ||
          (call.callee()->text != "append" && call.callee()->text != "extend"))
        return;
      drain = semantic::drained_by(analysis, function, ir::place_key(call.callee()->base()));
      if (drain != nullptr) found = &stmt;
    });
  });
  return found;
}

}  // namespace

void check_repeated_method(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink) {
  if (function.parent_class == nullptr || function.name == "__init__" ||
      analysis.runs_without_grad(function) ||
      semantic::repeated_by_framework(analysis, function).has_value())
    return;
  // The method switches the model to eval mode itself and runs it once per call, not training.
  const semantic::ModelRuns::Helper run = runs.per_call(function);
  if (run.model_call == nullptr) return;
  const ir::Expr* model_expr = model_of(*run.model_call);
  const std::string model = ir::place_key(model_expr);
  const ir::Stmt* eval_call =
      eval_in_force(mode_switches(function), model, run.step_call->range.begin);
  if (eval_call == nullptr) return;
  const ir::Function* drain = nullptr;
  const ir::Stmt* evidence = repeated_method(analysis, function, drain);
  if (evidence == nullptr) return;
  const std::string name = model.empty() ? quote(module, *model_expr).text : model;
  std::vector<Related> related;
  related.push_back(
      {eval_call->range, fmt::format("`{}` is put in eval mode here", switched_name(*eval_call))});
  related.push_back(
      {evidence->range,
       drain != nullptr
           ? fmt::format("`{}()` collects here what `{}()` reads and empties after many calls",
                         function.name, drain->name)
           : fmt::format("`{}()` counts its calls here: it runs again and again", function.name)});
  sink.report(info(), run.model_call->range,
              fmt::format("`{}` runs with autograd on after `{}.eval()` in `{}()`, which runs "
                          "again and again; every call records activations for a backward that "
                          "never runs",
                          name, switched_name(*eval_call), function.name),
              fmt::format("decorate `{}()` with `@torch.no_grad()` (or "
                          "`@torch.inference_mode()`)",
                          function.name),
              std::move(related));
}

}  // namespace sealint::rules::sl006
