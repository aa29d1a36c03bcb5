#pragma once
// Runs Clang on one file and hands the AST to a callback: the only place that knows how
// arguments, the compilation database and the in-memory model headers are put together.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/cpp/frontend.h"
#include "analyzer/cpp/pch_cache.h"

namespace clang {
class ASTContext;
class Decl;
}  // namespace clang

namespace sealint::cpp {

struct ParseProblems {
  std::optional<InputError>
      first_error;                  // Clang's first error (see clang_parse.cpp for which count)
  std::optional<std::string> note;  // e.g. "no compile_commands.json entry: defaults used"
  // --torch-headers=system: why the precompiled LibTorch headers were not used (the file was
  // parsed from source, about 10 s, and still analysed).
  std::optional<std::string> pch_note;
};

// What a worker remembers between files: the PCHs it could not make or use (each try costs a full
// parse of the headers, so a failing one is tried once per worker, not once per file), and the
// file each PCH path held when its digest was last checked (about 0.2 s for 120 MB).
struct PchAttempts {
  std::set<std::string> failed;
  std::map<std::string, FileIdentity> verified;
};

// The AST and the declarations parsed at file scope (those of the main file and of the headers it
// includes, not those read from a PCH): walking the translation unit instead would deserialise
// the whole precompiled LibTorch.
using AstCallback = std::function<void(clang::ASTContext&, std::span<clang::Decl* const>)>;

// Parses `code` as the file at `real_path` and calls `on_ast` with the AST (also when Clang
// reported errors: its recovery keeps what parsed). With the system's LibTorch headers, parses
// with the cached PCH of <torch/torch.h> (made on first use). Fails only when Clang could not run.
[[nodiscard]] Result<ParseProblems> parse_cpp(const std::string& code, const std::string& real_path,
                                              const std::string& shown_path,
                                              const CppOptions& options, PchAttempts& attempts,
                                              const AstCallback& on_ast);

}  // namespace sealint::cpp
