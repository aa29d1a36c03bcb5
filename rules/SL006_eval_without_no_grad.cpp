// Flags a model run with autograd on in an evaluation loop: activations are kept for a backward
// that never runs. docs: docs/rules/SL006.md
#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/discarded_outputs.h"
#include "analyzer/semantic/framework_of.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/model_runs.h"
#include "rules/SL006/comprehension_passes.h"
#include "rules/SL006/eval_in_training.h"
#include "rules/SL006/evaluation_evidence.h"
#include "rules/SL006/framework_steps.h"
#include "rules/SL006/inference_entries.h"
#include "rules/SL006/mode_switches.h"
#include "rules/SL006/shared_passes.h"
#include "rules/rule.h"
#include "rules/support/growth.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL006",
    .name = "eval-without-no-grad",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a model run with autograd on in an evaluation loop, where no backward ever "
        "uses the graph it records.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::High,  // 1.00 on bench/corpus (36 of 36)
    .brief = "a model run with autograd on in an evaluation loop",
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Where the loop body runs a model with autograd on: the first call of a module whose result
// has grad, else the first call of a function of the file that runs one (`self._forward(batch)`,
// `self.run_iter(i, batch)`).
struct ModelRun {
  const Expr* call = nullptr;               // in the loop body
  semantic::ModelRuns::Helper helper = {};  // the function `call` runs, when it is not a model
};

ModelRun first_model_run(const ir::FileAnalysis& analysis, semantic::ModelRuns& runs,
                         const ir::Function& function, const Stmt& loop) {
  ModelRun direct;
  ModelRun through_helper;
  ir::walk_statements_in(loop.body, [&](const Stmt& stmt, bool no_grad) {
    if (direct.call != nullptr || no_grad) return;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (direct.call != nullptr || expr.kind != ExprKind::Call) return;
      if (is_model_call(analysis, expr)) {
        if (analysis.fact(expr).grad == ir::Grad::Yes) direct.call = &expr;
        return;
      }
      if (through_helper.call != nullptr) return;
      if (const auto helper = runs.helper_called(function, expr); helper.function != nullptr)
        through_helper = {&expr, helper};
    });
  });
  return direct.call != nullptr ? direct : through_helper;
}

using sl006::eval_held_by_class;
using sl006::eval_in_force;
using sl006::is_evaluation_function;
using sl006::is_evaluation_script;
using sl006::mode_switches;
using sl006::model_of;
using sl006::ModeSwitch;
using sl006::shown_name;
using sl006::switched_name;

class EvalWithoutNoGrad final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file.
    if (!analysis.has_torch()) return;
    semantic::ModelRuns runs(analysis);
    semantic::CallSites calls(module, analysis);
    std::unordered_set<const Expr*> reported_in_training;
    for (const ir::Function& function : module.functions()) {
      // A function decorated with no_grad, or called only under it, records no graph.
      if (analysis.runs_without_grad(function)) continue;
      // A constructor runs once per object: a model it runs in a loop (a sample batch through
      // each new layer to infer a size) is set-up, not an evaluation pass.
      if (function.name == "__init__") continue;
      const bool evaluation_function = is_evaluation_function(module, analysis, function);
      const std::vector<ModeSwitch> switches = mode_switches(function);
      ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
        if (where.no_grad) return;
        if (!where.loops.empty())
          sl006::check_in_training_loop(module, analysis, runs, function, *where.loops.back(), stmt,
                                        reported_in_training, sink);
        if (stmt.kind != StmtKind::Loop) return;
        // One finding per evaluation: its outermost loop. An enclosing loop that trains (the
        // epoch loop around an inline validation pass) is not part of the evaluation.
        const bool inside_evaluation =
            std::any_of(where.loops.begin(), where.loops.end(),
                        [&](const Stmt* outer) { return !analysis.loop_trains(*outer); });
        if (inside_evaluation) return;
        // `for c in range(len(word)):` over `word = str2tensor("pytorch")` or over a parameter
        // every call passes written out: a demonstration; a look at the first batch runs once; a
        // few written-out items (`for flag in [True, False]`) check a handful of settings.
        if (semantic::iterates_literal_value(function, stmt) || semantic::runs_at_most_once(stmt) ||
            semantic::iterates_written_out_argument(function, stmt, calls) ||
            semantic::iterates_written_out_items(module, function, stmt))
          return;
        check_loop({module, analysis, runs, calls}, function, stmt, evaluation_function, switches,
                   sink);
      });
      sl006::check_comprehension_passes(module, analysis, runs, function, evaluation_function,
                                        switches, sink);
      sl006::check_shared_passes(module, analysis, runs, function, sink);
      sl006::check_hook(module, analysis, runs, function, sink);
      sl006::check_inference_entry(module, analysis, runs, function, sink);
      sl006::check_request_handler(module, analysis, runs, function, sink);
      sl006::check_repeated_method(module, analysis, runs, function, sink);
    }
    for (const semantic::HandedStep& step : semantic::handed_steps(analysis))
      sl006::check_handed_step(module, analysis, runs, step, sink);
  }

 private:
  // What check_loop reads beside the loop.
  struct Scope {
    const ir::Module& module;
    const ir::FileAnalysis& analysis;
    semantic::ModelRuns& runs;
    semantic::CallSites& calls;
  };

  void check_loop(const Scope& scope, const ir::Function& function, const Stmt& loop,
                  bool evaluation_function, const std::vector<ModeSwitch>& switches,
                  DiagnosticSink& sink) const {
    const ir::Module& module = scope.module;
    // A loop that calls backward or steps an optimizer needs the graph (training, attacks,
    // saliency).
    if (scope.analysis.loop_trains(loop)) return;
    const ModelRun run = first_model_run(scope.analysis, scope.runs, function, loop);
    if (run.call == nullptr) return;
    // A method that calls only TensorFlow or Keras runs Keras layers: no torch autograd. Asked
    // only here, where a finding is near: it reads the whole function.
    if (const semantic::FrameworksUsed used = semantic::frameworks_used(module, function);
        used.tensorflow && !used.torch) {
      return;
    }
    const Expr* model_call = run.helper.function != nullptr ? run.helper.model_call : run.call;
    const ir::Expr* model_expr = model_of(*model_call);
    // A method of the model itself (`policy.pi(obs)` running `self.head`): the model is the
    // method's receiver, which the loop's function switches (`policy.eval()`).
    if (const ir::Function* helper = run.helper.function;
        helper != nullptr && helper->parent_class != nullptr &&
        semantic::is_model_class(scope.analysis, *helper->parent_class) &&
        run.call->callee()->kind == ExprKind::Attr &&
        ir::place_root(ir::place_key(model_expr)) == semantic::receiver_name(*helper))
      model_expr = run.call->callee()->base();
    const std::string model = ir::place_key(model_expr);
    // `model.eval()` counts where the loop runs the model: a helper's model is named in the
    // helper (`self.model`), the switch in the loop's function.
    const Stmt* eval_call = eval_in_force(switches, model, run.call->range.begin);
    if (eval_call == nullptr)
      eval_call = sl006::eval_of_wrapped_model(switches, function, model, run.call->range.begin);
    // A model the object froze when it was built (and never trains): an inference wrapper's.
    bool held_by_class = false;
    if (eval_call == nullptr) {
      eval_call = eval_held_by_class(scope.analysis, function, model);
      held_by_class = eval_call != nullptr;
    }
    // The step the loop hands each batch to drives evaluation by its name: skorch's `fit_loop`
    // runs `self.train_step(...)` in one loop and `self.validation_step(...)` in the next.
    const bool evaluation_step =
        run.helper.function != nullptr &&
        is_evaluation_function(module, scope.analysis, *run.helper.function);
    // What the loop does with the run's result: dropped, or only read as values (`.item()`,
    // `.argmax()`, `int(...)`), no backward can reach its graph, whatever anything is called.
    // A helper that lets only values out (it detaches or reads the run) discards the graph
    // whatever the loop does with them.
    const bool values_only = run.helper.function != nullptr &&
                             scope.runs.keeps_no_graph_through(run.helper, /*returns_it=*/false);
    const bool discarded =
        !evaluation_function && !evaluation_step && eval_call == nullptr &&
        semantic::graph_is_discarded(scope.analysis, function, loop, *run.call, values_only) &&
        (run.helper.function == nullptr ||
         scope.runs.keeps_no_graph_through(run.helper, /*returns_it=*/true));
    // Neither an evaluation function or step nor after `model.eval()` nor a result no backward
    // reaches: nothing says this is evaluation.
    if (!evaluation_function && !evaluation_step && eval_call == nullptr && !discarded) return;
    const std::string name = model.empty() ? quote(module, *model_expr).text : model;
    std::vector<Related> related;
    if (eval_call != nullptr)
      related.push_back({eval_call->range,
                         fmt::format("`{}` is put in eval mode here", switched_name(*eval_call))});
    if (discarded)
      related.push_back({run.call->range,
                         "its result is only read as values here: no backward "
                         "can reach the graph"});
    const Region region = Region::loop(function, loop);
    related.push_back(region.repetition("the evaluation loop"));
    // The strongest evidence names the place: the `.eval()` call, else the function's name (the
    // loop's own; a step's is named by the message).
    const bool by_name = eval_call == nullptr && evaluation_function;
    // The switch may be on a model holding the one that runs (`self.asr.eval()`), and made when
    // the object is built for a model it keeps frozen.
    std::string where;
    if (eval_call != nullptr) {
      where = fmt::format("after `{}.eval()`", switched_name(*eval_call));
      if (held_by_class) where += " when the object is built, which nothing switches back";
    } else {
      where =
          is_evaluation_script(module, function) && !knowledge::is_evaluation_name(function.name)
              ? fmt::format("in {}, a script named for {}", shown_name(module, function),
                            sl006::script_purpose(module))
              : fmt::format("in {}", shown_name(module, function));
    }
    const ProbeHint probe =
        region.probe(module, ProbeMeasure::Graph, ir::places_bound_to(loop.body, *run.call));
    if (run.helper.function == nullptr) {
      sink.report(kInfo, run.call->range,
                  fmt::format("`{}` runs with autograd on {}; activations are kept for a backward "
                              "that never runs",
                              name, where),
                  help(module, function, by_name), std::move(related))
          .probe = probe;
      return;
    }
    report_helper(scope, function, run, name, where, std::move(related), by_name, sink).probe =
        probe;
  }

  // The loop hands each batch to a function of the file that runs the model. When the loop is
  // that function's only caller in the file, the finding is at the model call inside it (where a
  // reader of the step looks; `@torch.no_grad()` on it fixes it); a helper the training loop
  // calls too (`self._forward(batch)`) is reported at the call in the evaluation loop, the one
  // place to fix.
  Diagnostic& report_helper(const Scope& scope, const ir::Function& function, const ModelRun& run,
                            const std::string& name, const std::string& where,
                            std::vector<Related> related, bool by_name,
                            DiagnosticSink& sink) const {
    const ir::Function& helper = *run.helper.function;
    const std::string callee = ir::dotted_name(run.call->callee());
    const bool only_caller = scope.calls.of(helper).size() == 1;
    if (only_caller) {
      // At the call in the step that runs the model (`y_pred = self.infer(Xi)`), where the fix
      // goes: the function that makes the model call may serve the training step too.
      const Expr* at = run.helper.step_call;
      related.insert(related.begin(),
                     {run.call->range, fmt::format("`{}()` is called here, once per batch of the "
                                                   "evaluation loop in {}",
                                                   callee, shown_name(scope.module, function))});
      if (at != run.helper.model_call) {
        related.insert(related.begin(),
                       {run.helper.model_call->range, fmt::format("`{}` runs here", name)});
      }
      return sink.report(
          kInfo, at->range,
          fmt::format("`{}` runs with autograd on: `{}()` is the step of an evaluation loop {}; "
                      "activations are kept for a backward that never runs",
                      name, helper.name, where),
          fmt::format("decorate `{}()` with `@torch.no_grad()`, or run the loop in {} under "
                      "`with torch.no_grad():`",
                      helper.name, shown_name(scope.module, function)),
          std::move(related));
    }
    related.insert(related.begin(), {run.helper.model_call->range,
                                     fmt::format("`{}()` runs `{}` here", helper.name, name)});
    return sink.report(kInfo, run.call->range,
                       fmt::format("`{}()` runs `{}` with autograd on {}; activations are kept "
                                   "for a backward that never runs",
                                   callee, name, where),
                       help(scope.module, function, by_name), std::move(related));
  }

  static std::string help(const ir::Module& module, const ir::Function& function, bool by_name) {
    if (module.language() == ir::Language::Cpp) {
      return "declare `torch::NoGradGuard no_grad;` at the top of the loop body, or in a block "
             "around the loop (or `c10::InferenceMode guard;`)";
    }
    if (by_name && !function.is_module) {
      return fmt::format(
          "decorate `{}()` with `@torch.no_grad()`, or run the loop under `with torch.no_grad():`",
          function.name);
    }
    return "run the loop under `with torch.no_grad():` (or `torch.inference_mode()`)";
  }
};

}  // namespace

const RuleInfo& sl006::info() {
  return kInfo;
}

const Expr* sl006::model_of(const Expr& call) {
  const Expr* callee = call.callee();
  return callee->kind == ExprKind::Attr && knowledge::kForwardMethods.contains(callee->text)
             ? callee->base()
             : callee;
}

std::string sl006::model_name(const ir::Module& module, const Expr& call) {
  const Expr* model_expr = model_of(call);
  const std::string model = ir::place_key(model_expr);
  return model.empty() ? quote(module, *model_expr).text : model;
}

std::unique_ptr<const Rule> make_sl006_eval_without_no_grad() {
  return std::make_unique<EvalWithoutNoGrad>();
}

}  // namespace sealint::rules
