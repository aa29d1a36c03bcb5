#pragma once
// Clang AST -> IR for the declarations of one file's main source.
#include "analyzer/ir/ir.h"

namespace clang {
class ASTContext;
}

namespace sealint::cpp {

// Lowers every function, method and class defined in the main file of `context` into `module`
// (whose top-level Function is created here). Nesting past the IR's bound becomes ir::Other.
void lower_translation_unit(clang::ASTContext& context, ir::Module& module);

}  // namespace sealint::cpp
