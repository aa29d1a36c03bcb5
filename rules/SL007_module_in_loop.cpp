// Flags a module or optimizer constructed on every step of a training loop, or a submodule
// constructed in a method a framework runs on every step. docs: docs/rules/SL007.md
//
// What a call constructs is semantic/constructions, which loops run one step per iteration
// semantic/step_loops; the wording lives in rules/SL007/report.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/constructions.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/step_loops.h"
#include "rules/SL007/report.h"
#include "rules/rule.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL007",
    .name = "module-in-loop",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a module or optimizer constructed on every step of a training loop, or a "
        "submodule constructed in `forward()`.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus (its one false one was fixed)
    .brief =
        "a module or optimizer built on every training step, or a submodule built in `forward()`",
};

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;
using semantic::Built;
using semantic::Construction;

// How many loops had been entered at the innermost one-time branch around a statement (-1:
// none). An `except` handler is a recovery path, not every step; an `if` is one unless its
// condition holds every time. In `forward()` only an `if` that caches on `self` (`if
// self.proj is None: self.proj = ...`) runs once: a local built under `if x.size(1) != d:` is
// rebuilt on every such call.
int one_time_guard_depth(const ir::StmtContext& where, bool per_step_method) {
  int depth = -1;
  for (const ir::Branch& branch : where.branches) {
    const Stmt& stmt = *branch.stmt;
    // The body that may rebind the condition's flag: the innermost loop's, or the function's.
    const std::vector<Stmt*>& scope =
        branch.loop_depth == 0 ? where.function->body : where.loops[branch.loop_depth - 1]->body;
    const bool once =
        branch.handler || (!semantic::holds_every_time(stmt.value, scope) &&
                           (!per_step_method || semantic::stores_on_receiver(stmt.body) ||
                            semantic::stores_on_receiver(stmt.orelse)));
    if (once) depth = std::max(depth, static_cast<int>(branch.loop_depth));
  }
  return depth;
}

// The innermost of `loops` that runs one training step per iteration, with no one-time guard
// between it and the statement; nullptr when none.
const Stmt* step_loop(semantic::StepLoops& step_loops, const ir::Function& function,
                      const std::vector<const Stmt*>& loops, int guard_depth) {
  for (size_t i = loops.size(); i-- > 0;) {
    if (!step_loops.is_step_loop(function, *loops[i])) continue;
    // A guard entered inside this loop (`if step == 0:`) runs the construction once.
    if (guard_depth > static_cast<int>(i)) return nullptr;
    return loops[i];
  }
  return nullptr;
}

// The step loop of the file that runs `function` on every iteration: a call of it in a caller's
// step loop, outside any one-time branch there (`train_step(model, batch)`, a helper that builds
// the module each time it is called); the loop and the call, or nullptrs.
struct CallingLoop {
  const Stmt* loop = nullptr;
  const Expr* call = nullptr;
};
CallingLoop calling_step_loop(semantic::CallSites& calls, semantic::StepLoops& step_loops,
                              const ir::Function& function) {
  for (const semantic::CallSite& site : calls.of(function)) {
    if (site.caller == &function) continue;  // recursion adds no repetition
    CallingLoop found;
    ir::walk_statements(*site.caller, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
      if (found.loop != nullptr || where.loops.empty()) return;
      bool holds = false;
      ir::for_each_expr(stmt, [&](const Expr& expr) { holds = holds || &expr == site.call; });
      if (!holds) return;
      const int guard_depth = one_time_guard_depth(where, false);
      if (const Stmt* loop = step_loop(step_loops, *site.caller, where.loops, guard_depth))
        found = {loop, site.call};
    });
    if (found.loop != nullptr) return found;
  }
  return {};
}

// A constructor or `__init__`: it builds a module's submodules once, loops included (a
// ModuleList).
bool is_constructor(const ir::Module& module, const ir::Function& function) {
  if (function.name == "__init__") return true;
  return module.language() == ir::Language::Cpp && function.parent_class != nullptr &&
         function.name == function.parent_class->name;
}

class ModuleInLoop final : public Rule {
 public:
  const RuleInfo& info() const override { return kInfo; }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    const ir::FileAnalysis& analysis = context.analysis;
    // Without torch in the file, `nn.Linear` and `optim.Adam` are some other library's.
    if (!analysis.has_torch()) return;
    semantic::Constructions constructions(analysis);
    semantic::StepLoops step_loops(analysis);
    semantic::CallSites calls(module, analysis);
    for (const ir::Function& function : module.functions()) {
      if (is_constructor(module, function)) continue;
      const bool per_step_method = function.parent_class != nullptr &&
                                   knowledge::kPerStepModuleMethods.contains(function.name) &&
                                   analysis.is_module_class(function.parent_class);
      ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
        const std::vector<Construction> built = constructions.in_statement(stmt);
        if (built.empty()) return;
        const int guard_depth = one_time_guard_depth(where, per_step_method);
        for (const Construction& c : built) {
          if (per_step_method && c.built != Built::Optimizer && guard_depth < 0) {
            sl007::report_in_method(module, function, stmt, c, sink);
            continue;
          }
          if (c.built == Built::Parameter) continue;
          if (const Stmt* loop = step_loop(step_loops, function, where.loops, guard_depth)) {
            sl007::report_in_loop(module, *loop, analysis.loop_trains(*loop), stmt, c, sink);
          } else if (where.loops.empty() && guard_depth < 0 && !per_step_method) {
            // Built each time the function runs, and a step loop runs it on every iteration.
            if (const CallingLoop caller = calling_step_loop(calls, step_loops, function);
                caller.loop != nullptr)
              sl007::report_in_loop(module, *caller.loop, analysis.loop_trains(*caller.loop), stmt,
                                    c, sink, caller.call, &function);
          }
        }
      });
    }
  }
};

}  // namespace

const RuleInfo& sl007::info() {
  return kInfo;
}

std::unique_ptr<const Rule> make_sl007_module_in_loop() {
  return std::make_unique<ModuleInLoop>();
}

}  // namespace sealint::rules
