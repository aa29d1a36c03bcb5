#pragma once
// The functions a framework runs once per batch (a Lightning hook, `forward()`, a step handed to
// an engine) that run a model, which confirm mode watches per call with or without a finding:
// what they keep on `self` from one call to the next is where their growth would be.
#include <string>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

struct ModelStep {
  const ir::Function* function = nullptr;
  // The attributes of `self` the function accumulates into or appends to (`self.total += x`,
  // `self.outputs.append(y)`), place keys in source order.
  std::vector<std::string> carried;
};

[[nodiscard]] std::vector<ModelStep> model_steps(const ir::Module& module,
                                                 const ir::FileAnalysis& analysis);

}  // namespace sealint::semantic
