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
#include "analyzer/cpp/clang_run.h"
#include "analyzer/cpp/frontend.h"
#include "analyzer/cpp/pch_cache.h"

namespace sealint::cpp {

struct ParseProblems {
  // Clang's first error (see parse_diagnostics.h for which count); nullopt when a skipped header
  // or a model gap may have caused it: then the errors are only where they fell, below.
  std::optional<InputError> first_error;
  std::vector<SkippedInclude> skipped;  // headers not found, skipped (include_recovery.h)
  // A name sealint's model of LibTorch lacks, and no real LibTorch headers to use instead.
  std::optional<ModelGap> model_gap;
  // A name the model lacks: the file was parsed with the real LibTorch headers instead.
  std::optional<ModelGap> fell_back;
  // Where Clang's errors fell, when a skipped header or a model gap may explain them: byte
  // offsets in the analysed file, and the user headers (as shown) with errors.
  std::vector<uint32_t> error_offsets;
  std::vector<std::string> headers_with_errors;
  std::optional<std::string> note;  // e.g. "no compile_commands.json entry: defaults used"
  // --torch-headers=system: why the precompiled LibTorch headers were not used (the file was
  // parsed from source, about 10 s, and still analysed).
  std::optional<std::string> pch_note;
  // For the result cache: the real files the parse read (the database among them, with -p), and
  // where a skipped header would have been found (IncludeLog::absent_candidates).
  std::vector<std::string> files_read;
  std::vector<std::string> absent_candidates;
};

// What a worker remembers between files: the PCHs it could not make or use (each try costs a full
// parse of the headers, so a failing one is tried once per worker, not once per file), and the
// file each PCH path held when its digest was last checked (about 0.2 s for 120 MB).
struct PchAttempts {
  std::set<std::string> failed;
  std::map<std::string, FileIdentity> verified;
};

// Parses `code` as the file at `real_path` and calls `on_ast` with the AST (also when Clang
// reported errors: its recovery keeps what parsed). With the system's LibTorch headers, parses
// with the cached PCH of <torch/torch.h> (made on first use). With sealint's model, a file that
// uses a name the model lacks is parsed again with the real headers when the flags reach them.
// Fails only when Clang could not run.
[[nodiscard]] Result<ParseProblems> parse_cpp(const std::string& code, const std::string& real_path,
                                              const std::string& shown_path,
                                              const CppOptions& options, PchAttempts& attempts,
                                              const AstCallback& on_ast);

}  // namespace sealint::cpp
