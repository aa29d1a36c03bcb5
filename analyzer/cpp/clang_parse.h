#pragma once
// Runs Clang on one file and hands the AST to a callback: the only place that knows how
// arguments, the compilation database and the in-memory model headers are put together.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/cpp/frontend.h"

namespace clang {
class ASTContext;
}

namespace sealint::cpp {

struct ParseProblems {
  std::optional<InputError>
      first_error;                  // Clang's first error (see clang_parse.cpp for which count)
  std::optional<std::string> note;  // e.g. "no compile_commands.json entry: defaults used"
};

// Parses `code` as the file at `real_path` and calls `on_ast` with the AST (also when Clang
// reported errors: its recovery keeps what parsed). Fails only when Clang could not run.
[[nodiscard]] Result<ParseProblems> parse_cpp(
    const std::string& code, const std::string& real_path, const std::string& shown_path,
    const CppOptions& options, const std::function<void(clang::ASTContext&)>& on_ast);

}  // namespace sealint::cpp
