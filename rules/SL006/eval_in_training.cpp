#include "rules/SL006/eval_in_training.h"

#include <fmt/format.h>

#include <unordered_set>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/discarded_outputs.h"
#include "analyzer/semantic/regions.h"
#include "rules/SL006/framework_steps.h"

namespace sealint::rules::sl006 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;

// How many training steps deep a loop's iteration is followed (`for t in ...: self.step(obs)`,
// whose `step()` acts with one helper and learns with another).
constexpr int kMaxStepDepth = 2;

// `stmt` runs once per iteration of `loop` (in `function`), inside `step` (the function whose
// body holds it: `function` itself, or a training step the loop calls through `step_call`).
void check_statement(const ir::Module& module, const ir::FileAnalysis& analysis,
                     semantic::ModelRuns& runs, const ir::Function& function, const Stmt& loop,
                     const ir::Function& step, const Expr* step_call, const Stmt& stmt, int depth,
                     std::unordered_set<const Expr*>& reported, DiagnosticSink& sink) {
  if (stmt.value == nullptr) return;
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
  // A training step of the file the loop calls (`a, r = step(env, obs, self)`) runs its
  // statements once per iteration too: what it runs besides its own backward is read the same.
  if (stmt.value->kind == ExprKind::Call && (found == nullptr || found == stmt.value)) {
    const ir::Function* target = analysis.resolve_callee(step, *stmt.value);
    if (target != nullptr && target != &step && depth < kMaxStepDepth &&
        analysis.summary(*target).trains && !analysis.runs_without_grad(*target)) {
      for (const Stmt* inner : target->body)
        check_statement(module, analysis, runs, function, loop, *target,
                        step_call != nullptr ? step_call : stmt.value, *inner, depth + 1, reported,
                        sink);
      return;
    }
  }
  if (found == nullptr) return;
  const Expr& call = *found;
  const semantic::Region region = semantic::Region::loop(function, loop);
  std::vector<Related> related;
  if (step_call != nullptr)
    related.push_back(Related{step_call->range, fmt::format("`{}()` is called here",
                                                            ir::dotted_name(step_call->callee()))});
  if (semantic::is_model_call(analysis, call)) {
    // In a training step the loop calls, the step's own statement says what becomes of it.
    const bool unused =
        &step == &function
            ? semantic::graph_unused_in_training(analysis, function, loop, call)
            : semantic::graph_unused_in_step(analysis, function, loop, step, stmt, call);
    if (analysis.fact(call).grad != ir::Grad::Yes || !unused) return;
    if (!reported.insert(&call).second) return;
    related.push_back(region.repetition("the loop that trains"));
    sink.report(info(), call.range,
                fmt::format("`{}` runs with autograd on in a loop that trains, but its result is "
                            "only read as values: its activations are kept for a backward that "
                            "never runs",
                            model_name(module, call)),
                "run it under `with torch.no_grad():` (or `torch.inference_mode()`)", related);
    return;
  }
  // A helper of the file that runs the model and keeps nothing of it (`a = self.act(obs)`): what
  // it returns is values, whatever the loop does with them.
  // Through helpers that only hand on what an inner one returns (`a = step(obs)`, whose
  // `step()` calls `self.pick(obs)`): the finding is where the model runs.
  const semantic::ModelRuns::Helper called = runs.helper_called(step, call);
  semantic::ModelRuns::Helper helper = called;
  std::vector<Related> calls{
      Related{call.range, fmt::format("`{}()` is called here", ir::dotted_name(call.callee()))}};
  for (int hop = 0;
       hop < kMaxStepDepth && helper.function != nullptr && helper.step_call != helper.model_call;
       ++hop) {
    calls.push_back(
        Related{helper.step_call->range,
                fmt::format("`{}()` is called here", ir::dotted_name(helper.step_call->callee()))});
    helper = runs.helper_called(*helper.function, *helper.step_call);
  }
  if (helper.function == nullptr || helper.step_call != helper.model_call ||
      analysis.summary(*helper.function).trains ||
      !runs.keeps_no_graph_through(called, /*returns_it=*/false))
    return;
  // One finding per model run, however many loops reach it.
  if (!reported.insert(helper.model_call).second) return;
  related.insert(related.begin(), calls.rbegin(), calls.rend());
  related.push_back(region.repetition("the loop that trains"));
  sink.report(info(), helper.model_call->range,
              fmt::format("`{}()` runs `{}` with autograd on once per iteration of a loop that "
                          "trains, and only reads its result as values; activations are kept for "
                          "a backward that never runs",
                          helper.function->name, model_name(module, *helper.model_call)),
              fmt::format("decorate `{}()` with `@torch.no_grad()`", helper.function->name),
              related);
}

}  // namespace

void check_in_training_loop(const ir::Module& module, const ir::FileAnalysis& analysis,
                            semantic::ModelRuns& runs, const ir::Function& function,
                            const Stmt& loop, const Stmt& stmt,
                            std::unordered_set<const Expr*>& reported, DiagnosticSink& sink) {
  // A result bound to names, or handed to a function as a statement (`save_grid(gen(z), path)`);
  // not a run dropped at once (`features(image)`), whose forward hooks may feed the loss.
  // Python only for now: on LibTorch projects whose headers are found, C++ results read through
  // the project's own types (`std::get<0>(out)`, a loss functor) were taken for values-only.
  if (module.language() != ir::Language::Python || stmt.value == nullptr ||
      !analysis.loop_trains(loop))
    return;
  check_statement(module, analysis, runs, function, loop, function, nullptr, stmt, 0, reported,
                  sink);
}

}  // namespace sealint::rules::sl006
