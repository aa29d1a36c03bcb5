#pragma once
// Kinds from what a function does with a name (GENERALIZE.md, "kinds from use"): only a module
// answers `net.eval()`, `net.train(flag)` or `net.parameters()`; a value that is both zeroed and
// stepped (`opt.zero_grad()`, `opt.step()`) is an optimizer. Flow-insensitive over the whole
// body, so that a call before the evidence (`out = net(x)` above `net.eval()` in a loop) sees it.
#include <string_view>

#include "analyzer/ir/facts.h"
#include "analyzer/ir/ir.h"

namespace sealint::ir {

// The kind `function`'s uses give the plain name `name` (a parameter), or Unknown.
[[nodiscard]] ValueKind kind_from_use(const Function& function, std::string_view name);

}  // namespace sealint::ir
