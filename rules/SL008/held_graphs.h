#pragma once
// What a C++ `catch` handler runs beside, for SL008. C++ unwinds the stack before a handler runs:
// every local of the `try` block and of the functions it called is destroyed, and a c10::Error
// holds text, not frames. What survives is what the `try` block stored in a variable declared
// before it: `loss = criterion(output, y)` with `torch::Tensor loss;` above the `try` still holds
// the failed step's autograd graph while the handler retries.
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules::sl008 {

// The first assignment in the `try` body of `try_stmt` that stores a value holding a graph into a
// name the body does not declare itself; nullptr when there is none.
[[nodiscard]] const ir::Stmt* graph_kept_past_try(const ir::FileAnalysis& analysis,
                                                  const ir::Stmt& try_stmt);

// Whether the handler rebinds `name` (`loss = torch::Tensor();`) before `offset`, dropping the
// graph before the retry runs.
[[nodiscard]] bool rebound_before(const ir::Handler& handler, std::string_view name,
                                  uint32_t offset);

}  // namespace sealint::rules::sl008
