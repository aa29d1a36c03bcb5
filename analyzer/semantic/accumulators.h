#pragma once
// Attributes a class accumulates across calls: one method adds to `self.items` on every call, and
// another method of the class drains it, reading it whole (`torch.cat(self.items)`, iterating it)
// and then emptying it (`self.items = []`, `self.items.clear()`). The design says the adding
// method runs many times between two drains (a validation step per batch, a logging step per
// epoch) even when no loop of the file calls it: a framework, a server or another file does.
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// The method of `adder`'s class (or of a base class of the same file) that drains the receiver
// attribute `key` (`self.val_loss`) after `adder` added to it, or nullptr: `adder` is not a
// method, is the constructor, or empties `key` itself.
[[nodiscard]] const ir::Function* drained_by(const ir::FileAnalysis& analysis,
                                             const ir::Function& adder, std::string_view key);

}  // namespace sealint::semantic
