#pragma once
// The bases a class has through the classes of its own file: `class Model(Base)` with `class
// Base(pl.LightningModule)` in the same file derives from `pytorch_lightning.LightningModule`.
// Test-code detection and framework hooks both ask which outside class a class derives from.
#include <functional>
#include <string>
#include <string_view>

#include "analyzer/ir/ir.h"

namespace sealint::semantic {

// The qualified name (through the file's imports) of the first base of `cls`, or of a class of
// the same file it derives from, that `matches`; empty when none does. Bounded by the number of
// classes, so a cycle of same-file bases (invalid Python) ends.
[[nodiscard]] std::string inherited_base(const ir::Module& module, const ir::ClassDef& cls,
                                         const std::function<bool(std::string_view)>& matches);

}  // namespace sealint::semantic
