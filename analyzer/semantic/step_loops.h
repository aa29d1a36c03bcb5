#pragma once
// Which loops run one training step per iteration: the region in which "built on every step"
// means a new allocation per step. An epoch loop around a step loop, a sweep over written-out
// settings, and an iteration that builds its own model (an independent run) are not step loops.
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

class StepLoops {
 public:
  explicit StepLoops(const ir::FileAnalysis& analysis) : analysis_(analysis) {}

  // A loop of `function` that runs one training step per iteration: it trains through its own
  // statements (a backward, an optimizer step, or a call of a function of the file that does
  // one step) or iterates the batches of a data loader; no loop nested in it trains; it does not
  // iterate written-out settings; and it uses a model or optimizer that outlives its iterations.
  [[nodiscard]] bool is_step_loop(const ir::Function& function, const ir::Stmt& loop);

 private:
  enum class Steps { None, One, Many };

  Steps body_steps(const ir::Function& function, const std::vector<ir::Stmt*>& body, int depth);
  Steps call_steps(const ir::Function& function, const ir::Expr& call, int depth);
  Steps function_steps(const ir::Function& function, int depth);
  bool uses_outer_model(const ir::Function& function, const ir::Stmt& loop) const;
  bool iterates_batches(const ir::Function& function, const ir::Stmt& loop) const;

  const ir::FileAnalysis& analysis_;
  std::unordered_map<const ir::Stmt*, bool> step_loops_;
  std::unordered_map<const ir::Function*, Steps> functions_;
};

}  // namespace sealint::semantic
