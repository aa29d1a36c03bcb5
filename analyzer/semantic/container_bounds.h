#pragma once
// Containers that hold only their last N items: `recent = deque(maxlen=100)` keeps what it is
// given for 100 appends, so values stored in it stop accumulating there.
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// The bound of the container the place `key` holds when `loop` starts, as written (`100`,
// `args.window`), when its binding before the loop constructs a bounded container with one
// (knowledge/containers.h); nullptr for any other container, or one given no bound (or `None`).
[[nodiscard]] const ir::Expr* container_bound(const ir::Module& module,
                                              const ir::FileAnalysis& analysis,
                                              const ir::Function& function, const ir::Stmt& loop,
                                              std::string_view key);

}  // namespace sealint::semantic
