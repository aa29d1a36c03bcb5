#pragma once
// CST -> IR for one parsed Python file.
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/core/diagnostic.h"
#include "analyzer/ir/ir.h"
#include "analyzer/python/grammar.h"

namespace sealint::python {

// Fills `module` (whose top-level Function is created here) from the tree's root, and appends
// the first syntax error and any nesting note to `problems`.
void lower_tree(const PythonGrammar& grammar, TSNode root, ir::Module& module,
                std::vector<InputError>& problems);

}  // namespace sealint::python
