#pragma once
// One run of Clang over the user's file, in memory: the file and any mapped headers are served
// from an in-memory file system, missing headers are skipped (include_recovery.h), and the AST
// is handed to a callback before Clang frees it, unless the caller decides, once the parse is
// over, that it wants another parse instead.
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/IntrusiveRefCntPtr.h>

#include "analyzer/cpp/include_recovery.h"
#include "analyzer/cpp/parse_diagnostics.h"

namespace clang {
class ASTContext;
class Decl;
class FileManager;
}  // namespace clang

namespace sealint::cpp {

// The AST and the declarations parsed at file scope (those of the main file and of the headers it
// includes, not those read from a PCH): walking the translation unit instead would deserialise
// the whole precompiled LibTorch.
using AstCallback = std::function<void(clang::ASTContext&, std::span<clang::Decl* const>)>;

struct ClangRun {
  bool ran = false;      // Clang parsed the file to its end (false: it could not run)
  bool lowered = false;  // the callback was called
  IncludeLog includes;
  // The real files the parse read (files_read.h): the user's headers, the system's, a PCH's.
  std::vector<std::string> files_read;
};

// Files as Clang reads them: the real file system's regular files (regular_files.h), with `files`
// (path, content) in memory over it. The contents are copied.
[[nodiscard]] llvm::IntrusiveRefCntPtr<clang::FileManager> files_with(
    const std::vector<std::pair<std::string, std::string>>& files);

// Parses `code` as the file at `absolute` with `args` (no -fsyntax-only or file name),
// `mapped` (path, content) served from memory. `diagnostics` hears everything Clang says. Once
// the parse is over, `on_ast` gets the AST when `keep(diagnostics, includes)` is true.
[[nodiscard]] ClangRun run_clang(
    const std::string& code, const std::string& absolute, const std::vector<std::string>& args,
    const std::vector<std::pair<std::string, std::string>>& mapped, ParseDiagnostics& diagnostics,
    const std::string& model_root,
    const std::function<bool(const ParseDiagnostics&, const IncludeLog&)>& keep,
    const AstCallback& on_ast);

}  // namespace sealint::cpp
