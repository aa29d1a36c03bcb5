#pragma once
// The bases a class has through the classes of its own file: `class Model(Base)` with `class
// Base(pl.LightningModule)` in the same file derives from `pytorch_lightning.LightningModule`.
// Test-code detection and framework hooks both ask which outside class a class derives from.
#include <functional>
#include <string>
#include <string_view>

#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// The outside base a class derives from, through the classes of its file (semantic/resolve.cpp).
using ir::inherited_base;

// `cls`, then the class of the same file it derives from first, and so on up: the classes whose
// methods an instance of `cls` runs, most derived first. Ends at the first base that is not a
// class of the file, and at a cycle. (Which method of the chain a call runs:
// FileAnalysis::method_of.)
[[nodiscard]] std::vector<const ir::ClassDef*> same_file_chain(const ir::FileAnalysis& analysis,
                                                               const ir::ClassDef& cls);

}  // namespace sealint::semantic
