#pragma once
// Clang AST -> IR for the declarations of one file's main source.
#include <span>

#include "analyzer/ir/ir.h"

namespace clang {
class ASTContext;
class Decl;
}  // namespace clang

namespace sealint::cpp {

// Lowers every function, method and class defined in the main file into `module` (whose top-level
// Function is created here), from the file-scope declarations Clang parsed (`top_level`): the
// translation unit's own list would pull in every declaration of a PCH. Nesting past the IR's
// bound becomes ir::Other.
void lower_translation_unit(clang::ASTContext& context, std::span<clang::Decl* const> top_level,
                            ir::Module& module);

}  // namespace sealint::cpp
