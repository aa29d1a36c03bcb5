#include "rules/SL006/comprehension_passes.h"

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "rules/SL006/evaluation_evidence.h"
#include "rules/SL006/framework_steps.h"

namespace sealint::rules::sl006 {

namespace {

using ir::Expr;
using ir::ExprKind;

// The comprehension goes over a data loader: one known as one, or named as one.
const Expr* loader_iterated(const ir::FileAnalysis& analysis, const Expr& comprehension) {
  for (const ir::ComprehensionFor& generator : comprehension.generators) {
    if (generator.iter == nullptr) continue;
    bool loader = false;
    ir::for_each_subexpr(*generator.iter, [&](const Expr& sub) {
      loader = loader || analysis.fact(sub).kind == ir::ValueKind::Loader ||
               ((sub.kind == ExprKind::Name || sub.kind == ExprKind::Attr) &&
                knowledge::is_loader_like_name(sub.text));
    });
    if (loader) return generator.iter;
  }
  return nullptr;
}

// Without a loader: the generator over a value the function was handed or keeps (`for u, _ in
// rows`, `for b in self.batches`) whose items `run` takes (`f(u)`, `m.validation_step(b)`): one
// pass of the model over data, not a look at a few written-out inputs or a walk over layers.
const Expr* items_run(const ir::Function& function, const Expr& comprehension, const Expr& run) {
  for (const ir::ComprehensionFor& generator : comprehension.generators) {
    const Expr* iter = generator.iter;
    if (iter == nullptr || generator.target == nullptr) continue;
    const bool handed = (iter->kind == ExprKind::Name && function.has_param(iter->text)) ||
                        (iter->kind == ExprKind::Attr && iter->base()->kind == ExprKind::Name &&
                         iter->base()->text == ir::kReceiver);
    if (!handed) continue;
    bool takes = false;
    for (size_t i = 0; i < run.arg_count() && !takes; ++i) {
      ir::for_each_subexpr(*run.arg(i), [&](const Expr& arg) {
        if (arg.kind != ExprKind::Name) return;
        ir::for_each_subexpr(*generator.target, [&](const Expr& bound) {
          takes = takes || (bound.kind == ExprKind::Name && bound.text == arg.text);
        });
      });
    }
    if (takes) return iter;
  }
  return nullptr;
}

// A function of the file that trains calls `helper` too (`infer()` serving the training step and
// inference alike): its name says nothing of this pass.
bool serves_training(const ir::Module& module, const ir::FileAnalysis& analysis,
                     const ir::Function& helper) {
  for (const ir::Function& f : module.functions()) {
    if (&f == &helper || !analysis.summary(f).trains) continue;
    for (const Expr* call : ir::calls_in(f.body)) {
      if (analysis.resolve_callee_or_unique_method(f, *call) == &helper) return true;
    }
  }
  return false;
}

}  // namespace

void check_comprehension_passes(const ir::Module& module, const ir::FileAnalysis& analysis,
                                semantic::ModelRuns& runs, const ir::Function& function,
                                bool evaluation_function, const std::vector<ModeSwitch>& switches,
                                DiagnosticSink& sink) {
  if (analysis.summary(function).trains) return;
  ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
    if (where.no_grad) return;
    ir::for_each_expr(stmt, [&](const Expr& comprehension) {
      if (comprehension.kind != ExprKind::Comprehension || comprehension.items.empty()) return;
      const Expr* loader = loader_iterated(analysis, comprehension);
      // The first model run of the element, directly or through a step helper of the file.
      const Expr* run = nullptr;
      semantic::ModelRuns::Helper helper;
      ir::for_each_subexpr(*comprehension.items[0], [&](const Expr& call) {
        if (run != nullptr || call.kind != ExprKind::Call) return;
        if (semantic::is_model_call(analysis, call) && analysis.fact(call).grad == ir::Grad::Yes) {
          run = &call;
          return;
        }
        if (auto h = runs.helper_called(function, call); h.function != nullptr) {
          run = &call;
          helper = h;
          return;
        }
        // `model.validation_step(batch)` on a model handed in, whose class is not known here:
        // the file's one method of that name.
        const ir::Function* callee = analysis.resolve_callee_or_unique_method(function, call);
        if (callee != nullptr && callee != &function) {
          if (const auto h = runs.per_call(*callee); h.function != nullptr) {
            run = &call;
            helper = h;
          }
        }
      });
      if (run == nullptr) return;
      if (loader == nullptr) loader = items_run(function, comprehension, *run);
      if (loader == nullptr) return;
      const Expr& model_call = helper.function != nullptr ? *helper.model_call : *run;
      const std::string name = model_name(module, model_call);
      // Evidence of evaluation: the function's or the step's name, or `model.eval()` before.
      const ir::Stmt* eval_call =
          eval_in_force(switches, ir::place_key(model_of(model_call)), run->range.begin);
      const ir::Function* step = helper.function != nullptr
                                     ? analysis.resolve_callee_or_unique_method(function, *run)
                                     : nullptr;
      const bool evaluation_step = step != nullptr &&
                                   is_evaluation_function(module, analysis, *step) &&
                                   !serves_training(module, analysis, *step);
      if (!evaluation_function && !evaluation_step && eval_call == nullptr) return;
      std::vector<Related> related;
      if (helper.function != nullptr)
        related.push_back({run->range, fmt::format("`{}()` is called here, once per batch",
                                                   ir::dotted_name(run->callee()))});
      if (eval_call != nullptr)
        related.push_back({eval_call->range, fmt::format("`{}` is put in eval mode here",
                                                         switched_name(*eval_call))});
      related.push_back({loader->range, "the comprehension over the batches that repeats it"});
      sink.report(info(), model_call.range,
                  fmt::format("`{}` runs with autograd on for every batch of a comprehension in "
                              "{}, an evaluation pass; activations are kept for a backward that "
                              "never runs",
                              name, shown_name(module, function)),
                  helper.function != nullptr
                      ? fmt::format("decorate `{}()` with `@torch.no_grad()`, or build the list "
                                    "under `with torch.no_grad():`",
                                    helper.function->name)
                      : "build the list under `with torch.no_grad():`",
                  std::move(related));
    });
  });
}

}  // namespace sealint::rules::sl006
