// Flags a model run with autograd on in an evaluation loop: activations are kept for a backward
// that never runs. docs: docs/rules/SL006.md
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/framework_of.h"
#include "analyzer/semantic/grad_switches.h"
#include "analyzer/semantic/mode_test.h"
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
    .precision = Precision::High,  // 0.96 on bench/corpus (24 of 25)
    .brief = "a model run with autograd on in an evaluation loop",
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// evaluate, validate, test, predict, inference... but not pytest's `test_*` functions.
bool is_evaluation_name(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kExact = {
      "evaluate",  "evaluation", "eval",     "validate",      "validation",
      "valid",     "val",        "test",     "predict",       "predictions",
      "inference", "infer",      "run_eval", "run_validation"};
  if (std::find(kExact.begin(), kExact.end(), name) != kExact.end()) return true;
  static constexpr std::array<std::string_view, 8> kPrefixes = {
      "evaluate_", "eval_", "validate_", "validation_", "val_", "predict_", "inference_", "infer_"};
  static constexpr std::array<std::string_view, 6> kSuffixes = {
      "_evaluate", "_eval", "_validate", "_validation", "_predict", "_inference"};
  for (std::string_view prefix : kPrefixes) {
    if (name.starts_with(prefix)) return true;
  }
  for (std::string_view suffix : kSuffixes) {
    if (name.ends_with(suffix)) return true;
  }
  return name == "test_epoch" || name == "test_model" || name == "run_test";
}

// The first call of a module in the loop body that records a graph (its result has grad).
const Expr* first_model_call(const ir::FileAnalysis& analysis, const Stmt& loop) {
  const Expr* found = nullptr;
  ir::walk_statements_in(loop.body, [&](const Stmt& stmt, bool no_grad) {
    if (found != nullptr || no_grad) return;
    ir::for_each_expr(stmt, [&](const Expr& expr) {
      if (found != nullptr || expr.kind != ExprKind::Call) return;
      if (is_model_call(analysis, expr) && analysis.fact(expr).grad == ir::Grad::Yes) found = &expr;
    });
  });
  return found;
}

// The model a call runs: `model` in `model(x)` and in `model->forward(x)` (which names the
// model, not its method).
const Expr* model_of(const Expr& call) {
  const Expr* callee = call.callee();
  return callee->kind == ExprKind::Attr && callee->text == "forward" ? callee->base() : callee;
}

class EvalWithoutNoGrad final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Grad evidence needs torch in the file.
    if (!analysis.has_torch()) return;
    for (const ir::Function& function : module.functions()) {
      // A function decorated with no_grad, or called only under it, records no graph.
      if (analysis.runs_without_grad(function)) continue;
      // Unit tests (`test_*`) run models in eval mode with autograd on to check autograd itself.
      if (function.name.starts_with("test_")) continue;
      const bool evaluation_function = is_evaluation_name(function.name);
      const std::vector<ModeSwitch> switches = mode_switches(function);
      ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
        if (stmt.kind != StmtKind::Loop || where.no_grad) return;
        // One finding per evaluation: its outermost loop. An enclosing loop that trains (the
        // epoch loop around an inline validation pass) is not part of the evaluation.
        const bool inside_evaluation =
            std::any_of(where.loops.begin(), where.loops.end(),
                        [&](const Stmt* outer) { return !analysis.loop_trains(*outer); });
        if (inside_evaluation) return;
        check_loop(module, analysis, function, stmt, evaluation_function, switches, sink);
      });
      check_shared_passes(module, analysis, function, sink);
    }
  }

 private:
  // A `model.eval()` or `model.train()` statement, in source order.
  struct ModeSwitch {
    const Stmt* stmt;
    std::string model;
    bool eval;
  };

  static std::vector<ModeSwitch> mode_switches(const ir::Function& function) {
    std::vector<ModeSwitch> out;
    ir::for_each_nested(function.body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::ExprStmt || stmt.value == nullptr ||
          stmt.value->kind != ExprKind::Call)
        return;
      const Expr* callee = stmt.value->callee();
      if (callee->kind != ExprKind::Attr || stmt.value->arg_count() != 0) return;
      if (callee->text == "eval" || callee->text == "train") {
        out.push_back({&stmt, ir::place_key(callee->base()), callee->text == "eval"});
      }
    });
    return out;
  }

  // The `model.eval()` in force where `call` runs: the last switch of that model before it.
  static const Stmt* eval_in_force(const std::vector<ModeSwitch>& switches,
                                   const std::string& model, uint32_t at) {
    const Stmt* last = nullptr;
    bool eval = false;
    for (const ModeSwitch& s : switches) {
      if (s.model != model || s.stmt->range.begin >= at) continue;
      last = s.stmt;
      eval = s.eval;
    }
    return eval ? last : nullptr;
  }

  void check_loop(const ir::Module& module, const ir::FileAnalysis& analysis,
                  const ir::Function& function, const Stmt& loop, bool evaluation_function,
                  const std::vector<ModeSwitch>& switches, DiagnosticSink& sink) const {
    // A loop that calls backward or steps an optimizer needs the graph (training, attacks,
    // saliency).
    if (analysis.loop_trains(loop)) return;
    const Expr* call = first_model_call(analysis, loop);
    if (call == nullptr) return;
    // A method that calls only TensorFlow or Keras runs Keras layers: no torch autograd. Asked
    // only here, where a finding is near: it reads the whole function.
    if (const semantic::FrameworksUsed used = semantic::frameworks_used(module, function);
        used.tensorflow && !used.torch) {
      return;
    }
    const ir::Expr* model_expr = model_of(*call);
    const std::string model = ir::place_key(model_expr);
    const Stmt* eval_call = eval_in_force(switches, model, call->range.begin);
    // Neither an evaluation function nor after `model.eval()`: nothing says this is evaluation.
    if (!evaluation_function && eval_call == nullptr) return;
    const std::string name = model.empty() ? quote(module, *model_expr).text : model;
    std::vector<Related> related;
    if (eval_call != nullptr)
      related.push_back({eval_call->range, fmt::format("`{}` is put in eval mode here", name)});
    related.push_back({ir::loop_header(loop), "the evaluation loop"});
    // The strongest evidence names the place: the `.eval()` call, else the function's name.
    const bool by_name = eval_call == nullptr;
    const std::string where =
        by_name ? fmt::format("in `{}()`", function.name) : fmt::format("after `{}.eval()`", name);
    sink.report(
            kInfo, call->range,
            fmt::format("`{}` runs with autograd on {}; activations are kept for a backward that "
                        "never runs",
                        name, where),
            help(module, function, by_name), std::move(related))
        .probe = probe_hint(sink.file(), loop, ProbeMeasure::Graph, bound_outputs(loop, *call));
  }

  // A loop that one function runs for the training pass and the evaluation passes alike: every
  // backward and optimizer step sits under a test of the mode (`if mode == "train":`,
  // `if is_train:`, `if optimizer is not None:`) inside the loop, while the model runs outside
  // it, with autograd on in every pass. A function that switches grad itself
  // (`torch.set_grad_enabled(is_train)`, a `no_grad` context picked by the mode) is quiet.
  struct SharedLoop {
    const Expr* forward = nullptr;      // the first model call outside every mode test
    const Expr* mode_test = nullptr;    // the test whose training side trains
    bool trains_in_every_pass = false;  // a backward or a step outside every mode test
  };

  void check_shared_passes(const ir::Module& module, const ir::FileAnalysis& analysis,
                           const ir::Function& function, DiagnosticSink& sink) const {
    if (module.language() != ir::Language::Python) return;
    const semantic::GradSwitches switches(module, function);
    if (switches.whole_function()) return;
    std::vector<std::pair<const Stmt*, SharedLoop>> loops;  // in the order they are met
    auto facts_of = [&](const Stmt* loop) -> SharedLoop& {
      for (auto& [stmt, facts] : loops) {
        if (stmt == loop) return facts;
      }
      return loops.emplace_back(loop, SharedLoop{}).second;
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
        if (facts.forward == nullptr && is_model_call(analysis, expr) &&
            analysis.fact(expr).grad == ir::Grad::Yes) {
          facts.forward = &expr;
        }
      });
    });
    for (const auto& [loop, facts] : loops) {
      if (facts.forward == nullptr || facts.mode_test == nullptr || facts.trains_in_every_pass)
        continue;
      report_shared_loop(module, *loop, facts, sink);
    }
  }

  void report_shared_loop(const ir::Module& module, const Stmt& loop, const SharedLoop& facts,
                          DiagnosticSink& sink) const {
    const Expr* model_expr = model_of(*facts.forward);
    const std::string model = ir::place_key(model_expr);
    const std::string name = model.empty() ? quote(module, *model_expr).text : model;
    const std::string test = quote(module, *facts.mode_test).text;
    std::vector<Related> related = {
        {facts.mode_test->range, fmt::format("the backward runs only when `{}`", test)},
        {ir::loop_header(loop), "the loop that serves every pass"}};
    sink.report(kInfo, facts.forward->range,
                fmt::format("`{}` runs with autograd on in every pass of this loop, but a backward "
                            "runs only when `{}`; the other passes keep activations for a "
                            "backward that never runs",
                            name, test),
                fmt::format("run the forward under `with torch.set_grad_enabled({}):`", test),
                std::move(related))
        .probe =
        probe_hint(sink.file(), loop, ProbeMeasure::Graph, bound_outputs(loop, *facts.forward));
  }

  // C++ has a guard, not a decorator or a `with` block.
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

  // The names the model's output is bound to in the loop (`out = model(x)`), where confirm mode
  // looks for the graph it records.
  static std::vector<std::string> bound_outputs(const Stmt& loop, const Expr& call) {
    std::vector<std::string> names;
    ir::for_each_nested(loop.body, [&](const Stmt& stmt) {
      if (stmt.kind != StmtKind::Assign || stmt.value == nullptr ||
          stmt.value->range.begin > call.range.begin || stmt.value->range.end < call.range.end)
        return;
      for (const Expr* target : stmt.targets) {
        if (std::string key = ir::place_key(target); !key.empty()) names.push_back(key);
      }
    });
    return names;
  }
};

}  // namespace

std::unique_ptr<const Rule> make_sl006_eval_without_no_grad() {
  return std::make_unique<EvalWithoutNoGrad>();
}

}  // namespace sealint::rules
