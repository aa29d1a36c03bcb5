#include "analyzer/semantic/regions.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/accumulators.h"
#include "analyzer/semantic/iteration.h"
#include "analyzer/semantic/model_runs.h"
#include "analyzer/semantic/training_loops.h"

namespace sealint::semantic {

Region Region::loop(const ir::Function& function, const ir::Stmt& loop) {
  return Region(function, &loop, RepeatedCall{});
}

Region Region::calls(const ir::Function& function, const RepeatedCall& call) {
  return Region(function, nullptr, call);
}

Region Region::handed(const HandedStep& step) {
  RepeatedCall call;
  call.taker = step.taker;
  return Region(*step.function, nullptr, call);
}

std::string_view Region::caller() const {
  return is_loop() ? "" : repeated_.caller();
}

const std::vector<ir::Stmt*>& Region::body() const {
  return is_loop() ? loop_->body : function_->body;
}

std::string_view Region::unit() const {
  if (is_loop() || !repeated_.loop_caller.empty()) return "iteration";
  if (repeated_.drained_by != nullptr) return "call";
  if (repeated_.hook != nullptr) return repeated_.hook->unit;
  return repeated_.forward ? "step" : "batch";
}

std::string Region::repeats_clause() const {
  if (is_loop()) return {};
  if (repeated_.drained_by != nullptr)
    return fmt::format(", and it collects over the calls of `{}()` until `{}()` empties it",
                       function_->name, repeated_.drained_by->name);
  if (!repeated_.loop_caller.empty())
    return fmt::format(", and `{}()` runs once per iteration of the loop in `{}()`",
                       function_->name, repeated_.loop_caller);
  return fmt::format(
      ", and `{}()` runs {}", function_->name,
      repeated_.forward ? std::string("on every step") : fmt::format("once per {}", unit()));
}

Related Region::repetition(std::string_view loop_note) const {
  if (is_loop()) return {ir::loop_header(*loop_), std::string(loop_note)};
  if (repeated_.drained_by != nullptr) {
    return {repeated_.drained_by->name_range,
            fmt::format("`{}()` reads and empties what `{}()` collects over many calls",
                        repeated_.drained_by->name, function_->name)};
  }
  if (repeated_.loop_call != nullptr) {
    return {repeated_.loop_call->range,
            fmt::format("`{}()` calls `{}()` here, once per iteration of its loop",
                        repeated_.loop_caller, function_->name)};
  }
  if (!repeated_.loop_caller.empty()) {
    const std::string where = repeated_.loop_caller_file.empty()
                                  ? std::string()
                                  : fmt::format(" (in {})", repeated_.loop_caller_file);
    return {function_->name_range,
            fmt::format("`{}()`{} calls `{}()` once per iteration of its loop",
                        repeated_.loop_caller, where, function_->name)};
  }
  return {function_->name_range,
          repeated_.forward ? fmt::format("the model calls `{}()` on every step", function_->name)
                            : fmt::format("{} calls `{}()` once per {}", repeated_.caller(),
                                          function_->name, unit())};
}

namespace {

// `self.total = 0` or `self.register_buffer("total", ...)` for the place `self.total`.
bool creates_attribute(const ir::Stmt& stmt, std::string_view key) {
  if (stmt.kind == ir::StmtKind::Assign) {
    return std::any_of(stmt.targets.begin(), stmt.targets.end(),
                       [&](const ir::Expr* target) { return ir::place_key(target) == key; });
  }
  const ir::Expr* call = stmt.value;
  if (stmt.kind != ir::StmtKind::ExprStmt || call == nullptr || call->kind != ir::ExprKind::Call ||
      call->callee()->kind != ir::ExprKind::Attr || call->callee()->text != "register_buffer" ||
      call->arg(0) == nullptr || call->arg(0)->kind != ir::ExprKind::Const) {
    return false;
  }
  const std::string_view literal = call->arg(0)->text;  // with its quotes
  return literal.size() > 2 && key.size() > ir::kReceiver.size() + 1 &&
         literal.substr(1, literal.size() - 2) == key.substr(ir::kReceiver.size() + 1);
}

// Where `__init__` of the function's class creates the attribute `key`.
std::optional<Related> created_in_init(const ir::Function& function, std::string_view key) {
  if (function.parent_class == nullptr) return std::nullopt;
  for (const ir::Function* method : function.parent_class->methods) {
    if (method->name != "__init__") continue;
    std::optional<Related> created;
    ir::for_each_nested(method->body, [&](const ir::Stmt& stmt) {
      if (!created && creates_attribute(stmt, key))
        created = Related{stmt.range, fmt::format("`{}` is created here", key)};
    });
    if (created) return created;
  }
  return std::nullopt;
}

// Where a place that outlives the loop comes from: its binding before the loop, or the caller.
std::vector<Related> made_before(const ir::FileAnalysis& analysis, const ir::Function& function,
                                 const ir::Stmt& loop, std::string_view key) {
  const std::string_view root = ir::place_root(key);
  if (const ir::Stmt* binding = analysis.bindings(function).binding_before(loop, key))
    return {{binding->range, fmt::format("`{}` is created here, before the loop", root)}};
  std::vector<Related> related;
  for (const ir::Param& param : function.params) {
    if (param.name == root && root != "self") {
      related.push_back(
          {param.range, fmt::format("`{}` comes from the caller and outlives the loop", root)});
    }
  }
  return related;
}

}  // namespace

std::vector<Related> Region::growth_evidence(const ir::FileAnalysis& analysis,
                                             std::string_view key) const {
  std::vector<Related> related;
  if (is_loop()) {
    related = made_before(analysis, *function_, *loop_, key);
  } else if (std::optional<Related> created = created_in_init(*function_, key)) {
    related.push_back(std::move(*created));
  }
  related.push_back(repetition());
  return related;
}

ProbeHint Region::probe(const ir::Module& module, ProbeMeasure measure,
                        const std::vector<std::string>& keys) const {
  return is_loop() ? ir::probe_hint(module, *loop_, measure, keys)
                   : ir::calls_probe_hint(module, *function_, measure, keys);
}

namespace {

bool is_receiver_attribute(std::string_view key) {
  return key.starts_with(ir::kReceiver) && key.size() > ir::kReceiver.size() &&
         key[ir::kReceiver.size()] == '.';
}

}  // namespace

void walk_statements_in_repeated_calls(
    const ir::FileAnalysis& analysis,
    const std::function<void(const ir::Function&, const ir::Stmt&, const ir::StmtContext&,
                             const Region&)>& visit) {
  for (const ir::Function& function : analysis.module().functions()) {
    if (function.parent_class == nullptr) continue;  // hooks and forward() are methods
    const std::optional<RepeatedCall> call = repeated_by_framework(analysis, function);
    if (!call) continue;
    const Region region = Region::calls(function, *call);
    ir::walk_statements(function, false, [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
      if (where.loops.empty()) visit(function, stmt, where, region);
    });
  }
}

namespace {

// `loss = 0; for p, t in zip(preds, targets): loss += crit(p, t)` then `return loss`: the loop
// combines the terms of one value the function returns (a loss over a detector's output scales,
// a dict of per-part losses), and runs no model: the caller gets the sum and its graph on
// purpose, and whether that leaks is for the caller's loop to say. A loop over a loader, or one
// that runs a model or trains, is a pass over data, whose sum leaks whether it is returned or not.
bool combines_returned_terms(const ir::FileAnalysis& analysis, const ir::Function& function,
                             const ir::Stmt& loop, std::string_view key) {
  if (analysis.summary(function).trains || analysis.iterates_data(loop)) return false;
  const std::string_view root = ir::place_root(key);
  if (root == ir::kReceiver) return false;
  bool returned = false;
  bool returns_value = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind != ir::StmtKind::Return || stmt.value == nullptr ||
        ir::is_none_literal(stmt.value))
      return;
    returns_value = true;
    if (ir::reads_place(stmt.value, root)) returned = true;
  });
  // Runs of a model on the items of a loop that is nothing more (no loader, no loss) may be one
  // pass's computation over its inputs, whenever what the function returns may carry their
  // graph (a forward hook that mixes them into its output).
  if (analysis.repeats_only_model_runs(loop) &&
      (returned || (returns_value && analysis.summary(function).returns.grad != ir::Grad::No)))
    return true;
  if (!returned) return false;
  ModelRuns runs(analysis);
  for (const ir::Expr* call : ir::calls_in(loop.body)) {
    if (is_model_call(analysis, *call) || analysis.call_trains(*call) ||
        runs.helper_called(function, *call).function != nullptr)
      return false;
  }
  return true;
}

}  // namespace

std::optional<Region> growth_region(const ir::FileAnalysis& analysis, const ir::Function& function,
                                    const std::vector<const ir::Stmt*>& loops, std::string_view key,
                                    const std::vector<std::string_view>& reset_methods) {
  // A graph that a backward consumes later is the point of the sum (a loss over time steps).
  if (analysis.consumed_by_backward(function, key)) return std::nullopt;
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    const ir::Stmt& loop = **it;
    // Reset inside this loop: the place holds at most one iteration's worth; and a loop that
    // stops after its first pass holds one.
    if (ir::resets_in(loop.body, key, reset_methods) || runs_at_most_once(loop))
      return std::nullopt;
    if (analysis.is_iteration_loop(loop) &&
        analysis.bindings(function).defined_outside(loop, key)) {
      if (combines_returned_terms(analysis, function, loop, key)) return std::nullopt;
      return Region::loop(function, loop);
    }
  }
  if (!is_receiver_attribute(key)) return std::nullopt;
  std::optional<RepeatedCall> call = repeated_by_framework(analysis, function);
  // No framework, but the class drains what the method collects: it runs many times between.
  if (!call) {
    if (const ir::Function* drain = drained_by(analysis, function, key)) {
      call = RepeatedCall{};
      call->drained_by = drain;
      call->autograd_on = !analysis.runs_without_grad(function);
    }
  }
  if (!call || !call->autograd_on) return std::nullopt;
  if (ir::resets_in(function.body, key, reset_methods)) return std::nullopt;
  return Region::calls(function, *call);
}

}  // namespace sealint::semantic
