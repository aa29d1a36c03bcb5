#pragma once
// The files of its project that a Python file imports, for confirm mode: the regions a script's
// run passes through are often in the modules it imports (a Trainer class in trainer.py).
#include <filesystem>
#include <vector>

#include "analyzer/ir/ir.h"

namespace sealint::project {

// The project files `module` (lowered from `importer`, an absolute normal path) imports, each
// once, in the order of its imports: every import resolved as module_locator resolves it (a
// package's `__init__.py` for a package), the importer itself left out. Names that resolve to no
// file of the project (torch, numpy, the standard library) give nothing.
[[nodiscard]] std::vector<std::filesystem::path> imported_files(
    const ir::Module& module, const std::filesystem::path& importer);

}  // namespace sealint::project
