#include "rules/SL006/framework_steps.h"

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/training_calls.h"
#include "analyzer/semantic/training_loops.h"

namespace sealint::rules::sl006 {

namespace {

void report_step(const ir::Module& module, semantic::ModelRuns& runs, const semantic::Region& step,
                 DiagnosticSink& sink) {
  const ir::Function& function = step.function();
  const semantic::ModelRuns::Helper run = runs.per_call(function);
  if (run.model_call == nullptr) return;
  const std::string name = model_name(module, *run.model_call);
  // Reported in the step, where the fix goes: at the call that runs the model.
  std::vector<Related> related;
  if (run.step_call != run.model_call)
    related.push_back({run.model_call->range, fmt::format("`{}` runs here", name)});
  related.push_back(step.repetition());
  sink.report(info(), run.step_call->range,
              fmt::format("`{}` runs with autograd on in `{}()`, which {} calls once per batch "
                          "of its evaluation loop; activations are kept for a backward that "
                          "never runs",
                          name, function.name, step.caller()),
              fmt::format("decorate `{}()` with `@torch.no_grad()`, or run the forward under "
                          "`with torch.no_grad():`",
                          function.name),
              std::move(related))
      .probe =
      step.probe(module, ProbeMeasure::Graph, ir::places_bound_to(function.body, *run.step_call));
}

}  // namespace

void check_hook(const ir::Module& module, const ir::FileAnalysis& analysis,
                semantic::ModelRuns& runs, const ir::Function& function, DiagnosticSink& sink) {
  const std::optional<semantic::RepeatedCall> repeated =
      semantic::repeated_by_framework(analysis, function);
  if (!repeated || repeated->hook == nullptr || !repeated->autograd_on ||
      !knowledge::is_evaluation_name(repeated->hook->method))
    return;
  report_step(module, runs, semantic::Region::calls(function, *repeated), sink);
}

void check_handed_step(const ir::Module& module, const ir::FileAnalysis& analysis,
                       semantic::ModelRuns& runs, const semantic::HandedStep& step,
                       DiagnosticSink& sink) {
  const ir::Function& function = *step.function;
  if (analysis.runs_without_grad(function)) return;
  // An engine that evaluates: the step never trains (no backward, no optimizer step, in it or
  // in a function of the project it calls), whatever it is called; or by the step's name or the
  // engine's (`evaluator`).
  if (analysis.summary(function).trains) return;
  if (semantic::may_train_out_of_sight(analysis, function) &&
      !knowledge::is_evaluation_name(function.name) &&
      !knowledge::is_evaluation_class_name(knowledge::last_component(step.bound_to)))
    return;
  report_step(module, runs, semantic::Region::handed(step), sink);
}

}  // namespace sealint::rules::sl006
