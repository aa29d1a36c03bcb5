#include "rules/SL006/eval_in_training.h"

#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/discarded_outputs.h"
#include "analyzer/semantic/regions.h"
#include "rules/SL006/framework_steps.h"

namespace sealint::rules::sl006 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;

}  // namespace

void check_in_training_loop(const ir::Module& module, const ir::FileAnalysis& analysis,
                            semantic::ModelRuns& runs, const ir::Function& function,
                            const Stmt& loop, const Stmt& stmt, DiagnosticSink& sink) {
  // A result bound to names, or handed to a function as a statement (`save_grid(gen(z), path)`);
  // not a run dropped at once (`features(image)`), whose forward hooks may feed the loss.
  // Python only for now: on LibTorch projects whose headers are found, C++ results read through
  // the project's own types (`std::get<0>(out)`, a loss functor) were taken for values-only.
  if (module.language() != ir::Language::Python || stmt.value == nullptr ||
      !analysis.loop_trains(loop))
    return;
  const Expr* found = nullptr;
  if (stmt.kind == ir::StmtKind::Assign && stmt.value->kind == ExprKind::Call) {
    found = stmt.value;
  } else if (stmt.kind == ir::StmtKind::ExprStmt) {
    ir::for_each_expr(stmt, [&](const Expr& e) {
      if (found == nullptr && &e != stmt.value && e.kind == ExprKind::Call &&
          semantic::is_model_call(analysis, e))
        found = &e;
    });
  }
  if (found == nullptr) return;
  const Expr& call = *found;
  const semantic::Region region = semantic::Region::loop(function, loop);
  if (semantic::is_model_call(analysis, call)) {
    if (analysis.fact(call).grad != ir::Grad::Yes ||
        !semantic::graph_unused_in_training(analysis, function, loop, call))
      return;
    sink.report(info(), call.range,
                fmt::format("`{}` runs with autograd on in a loop that trains, but its result is "
                            "only read as values: its activations are kept for a backward that "
                            "never runs",
                            model_name(module, call)),
                "run it under `with torch.no_grad():` (or `torch.inference_mode()`)",
                {region.repetition("the loop that trains")});
    return;
  }
  // A helper of the file that runs the model and keeps nothing of it (`a = self.act(obs)`): what
  // it returns is values, whatever the loop does with them.
  const semantic::ModelRuns::Helper helper = runs.helper_called(function, call);
  if (helper.function == nullptr || helper.step_call != helper.model_call ||
      analysis.summary(*helper.function).trains ||
      !semantic::helper_keeps_no_graph(analysis, *helper.function, *helper.model_call,
                                       /*returns_it=*/false))
    return;
  sink.report(info(), helper.model_call->range,
              fmt::format("`{}()` runs `{}` with autograd on once per iteration of a loop that "
                          "trains, and only reads its result as values; activations are kept for "
                          "a backward that never runs",
                          helper.function->name, model_name(module, *helper.model_call)),
              fmt::format("decorate `{}()` with `@torch.no_grad()`", helper.function->name),
              {{call.range, fmt::format("`{}()` is called here", ir::dotted_name(call.callee()))},
               region.repetition("the loop that trains")});
}

}  // namespace sealint::rules::sl006
