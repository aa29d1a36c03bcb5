#include "rules/SL006/shared_passes.h"

#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/grad_switches.h"
#include "analyzer/semantic/mode_test.h"
#include "rules/SL006/framework_steps.h"
#include "rules/support/growth.h"

namespace sealint::rules::sl006 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;

struct SharedLoop {
  const Expr* forward = nullptr;      // the first run outside every mode test: a model call, or the
                                      // call of the file's function that makes one
  const Expr* model_call = nullptr;   // the model call itself (in that function, for a helper)
  const Expr* mode_test = nullptr;    // the test whose training side trains
  bool trains_in_every_pass = false;  // a backward or a step outside every mode test
};

void report(const ir::Module& module, const Region& loop, const SharedLoop& facts,
            DiagnosticSink& sink) {
  const std::string name = model_name(module, *facts.model_call);
  const std::string test = quote(module, *facts.mode_test).text;
  std::vector<Related> related = {
      {facts.mode_test->range, fmt::format("the backward runs only when `{}`", test)},
      loop.repetition("the loop that serves every pass")};
  const bool helper = facts.forward != facts.model_call;
  if (helper) {
    related.push_back({facts.model_call->range, fmt::format("`{}` runs here", name)});
  }
  const std::string runs =
      helper ? fmt::format("`{}` runs `{}`", ir::dotted_name(facts.forward->callee()), name)
             : fmt::format("`{}` runs", name);
  sink.report(info(), facts.forward->range,
              fmt::format("{} with autograd on in every pass of this loop, but a backward runs "
                          "only when `{}`; the other passes keep activations for a backward that "
                          "never runs",
                          runs, test),
              fmt::format("run the forward under `with torch.set_grad_enabled({}):`", test),
              std::move(related))
      .probe =
      loop.probe(module, ProbeMeasure::Graph, ir::places_bound_to(loop.body(), *facts.forward));
}

}  // namespace

void check_shared_passes(const ir::Module& module, const ir::FileAnalysis& analysis,
                         semantic::ModelRuns& runs, const ir::Function& function,
                         DiagnosticSink& sink) {
  if (module.language() != ir::Language::Python) return;
  const semantic::GradSwitches switches(module, function);
  if (switches.whole_function()) return;
  std::vector<std::pair<const Stmt*, SharedLoop>> loops;  // in the order they are met
  std::unordered_map<const Stmt*, size_t> loop_index;     // a function may hold thousands
  auto facts_of = [&](const Stmt* loop) -> SharedLoop& {
    const auto [it, added] = loop_index.emplace(loop, loops.size());
    if (added) loops.emplace_back(loop, SharedLoop{});
    return loops[it->second].second;
  };
  ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
    if (where.loops.empty()) return;
    const semantic::TrainingBranch branch = semantic::training_branch(where, stmt);
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (expr.kind != ExprKind::Call) return;
      if (analysis.call_trains(expr)) {
        // For each enclosing loop: trained only under a mode test inside it, or in every pass.
        for (size_t i = 0; i < where.loops.size(); ++i) {
          SharedLoop& facts = facts_of(where.loops[i]);
          if (branch.test != nullptr && branch.loop_depth > i)
            facts.mode_test = branch.test;
          else
            facts.trains_in_every_pass = true;
        }
        return;
      }
      if (branch.test != nullptr || where.no_grad || switches.switched(stmt)) return;
      SharedLoop& facts = facts_of(where.loops.back());
      if (facts.forward != nullptr) return;
      if (is_model_call(analysis, expr) && analysis.fact(expr).grad == ir::Grad::Yes) {
        facts.forward = &expr;
        facts.model_call = &expr;
        return;
      }
      // The step moved into a function of the file (`loss, out = step(model, x, y)`): the model
      // runs there, once per call.
      if (const semantic::ModelRuns::Helper helper = runs.helper_called(function, expr);
          helper.function != nullptr && helper.model_call != nullptr) {
        facts.forward = &expr;
        facts.model_call = helper.model_call;
      }
    });
  });
  for (const auto& [loop, facts] : loops) {
    if (facts.forward == nullptr || facts.mode_test == nullptr || facts.trains_in_every_pass)
      continue;
    report(module, Region::loop(function, *loop), facts, sink);
  }
}

}  // namespace sealint::rules::sl006
