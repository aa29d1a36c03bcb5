#pragma once
// Regions: code that runs once per training or evaluation step. A region is the body of a loop,
// or a whole function that a framework calls once per batch (a hook of a training framework,
// `nn.Module.forward`, a step handed to an engine: `Engine(train_step)`). Rules ask a region the
// same questions whatever its kind: what one run of it is called, where to point the user, and
// what confirm mode counts; and "does this place keep growing across its runs" has one answer
// for every kind (growth_region).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/confirmation.h"
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/hooks.h"

namespace sealint::semantic {

class Region {
 public:
  // The iterations of `loop`, a loop statement of `function`.
  [[nodiscard]] static Region loop(const ir::Function& function, const ir::Stmt& loop);
  // The calls a framework makes of `function` (a hook, `forward()`).
  [[nodiscard]] static Region calls(const ir::Function& function, const RepeatedCall& call);
  // The calls an engine makes of a step handed to it.
  [[nodiscard]] static Region handed(const HandedStep& step);

  [[nodiscard]] const ir::Function& function() const { return *function_; }
  // The loop statement; nullptr for a region of calls.
  [[nodiscard]] const ir::Stmt* loop_stmt() const { return loop_; }
  [[nodiscard]] bool is_loop() const { return loop_ != nullptr; }
  // `forward()` of an nn.Module, which the model's caller runs on every step.
  [[nodiscard]] bool is_forward() const { return repeated_.forward; }
  // Who repeats it: "PyTorch Lightning", "ignite", "every forward pass"; empty for a loop.
  [[nodiscard]] std::string_view caller() const;
  // The statements one run executes: the loop's body, or the function's.
  [[nodiscard]] const std::vector<ir::Stmt*>& body() const;

  // What one run is called in a message: "iteration", "batch", "step".
  [[nodiscard]] std::string_view unit() const;
  // How a message says that the function is repeated: ", and `training_step()` runs once per
  // batch"; empty for a loop, whose repetition needs no words.
  [[nodiscard]] std::string repeats_clause() const;
  // The related location naming the repetition: the loop's header ("the loop that repeats
  // it"), or the function's name ("PyTorch Lightning calls `training_step()` once per batch").
  [[nodiscard]] Related repetition(std::string_view loop_note = "the loop that repeats it") const;
  // Related locations for the place `key` that grows across runs: where it is created (before
  // the loop, by the caller, in `__init__`), then the repetition. `analysis` is the file's, which
  // keeps where the function binds each name.
  [[nodiscard]] std::vector<Related> growth_evidence(const ir::FileAnalysis& analysis,
                                                     std::string_view key) const;
  // What confirm mode measures for a finding here: the places `keys` across the region's runs.
  [[nodiscard]] ProbeHint probe(const ir::Module& module, ProbeMeasure measure,
                                const std::vector<std::string>& keys) const;

 private:
  Region(const ir::Function& function, const ir::Stmt* loop, RepeatedCall repeated)
      : function_(&function), loop_(loop), repeated_(repeated) {}

  const ir::Function* function_;
  const ir::Stmt* loop_;
  RepeatedCall repeated_;
};

// Calls `visit` on every statement of every function of the file that a framework calls once per
// batch or epoch (hooks.h), outside the function's own loops (a loop is a region of its own, and
// `walk_statements_in_loops` visits it), with the region of calls that repeats it. Rules that
// flag something built "on every iteration" ask the same of a hook: `clone_model(self.model)` in
// a Keras callback's `on_epoch_end` builds a model per epoch.
void walk_statements_in_repeated_calls(
    const ir::FileAnalysis& analysis,
    const std::function<void(const ir::Function&, const ir::Stmt&, const ir::StmtContext&,
                             const Region&)>& visit);

// The region across whose runs the place `key`, written by a statement of `function` inside
// `loops` (innermost last), keeps growing, or nullopt:
// - the innermost loop that runs training or evaluation steps, outside of which `key` lives,
//   with no loop between the statement and it resetting `key` (nor a call of one of
//   `reset_methods` on its owner);
// - else the function itself, when a framework runs it once per batch with autograd on, `key`
//   lives in the receiver (`self.total`) and the function does not reset it on every call.
//   Clearing it in another hook (an epoch-end one) does not help: every batch's graph is kept
//   until then.
// Never when a backward in the function consumes `key` (a loss summed over time steps).
[[nodiscard]] std::optional<Region> growth_region(
    const ir::FileAnalysis& analysis, const ir::Function& function,
    const std::vector<const ir::Stmt*>& loops, std::string_view key,
    const std::vector<std::string_view>& reset_methods = {});

}  // namespace sealint::semantic
