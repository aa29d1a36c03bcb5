#pragma once
// Files in, diagnostics out: reads and checks each file, lowers it, analyses it, runs the rules.
// Files are independent: workers take them in parallel, each with its own parser, and results
// are sorted so that any --jobs prints the same bytes.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/cache/result_cache.h"
#include "analyzer/core/config.h"
#include "analyzer/core/diagnostic.h"
#include "analyzer/core/display_path.h"
#include "analyzer/cpp/frontend.h"
#include "analyzer/python/grammar.h"
#include "rules/registry.h"

namespace sealint {

// Files past this size are reported, not analysed: tree-sitter takes about a second per 5 MB.
inline constexpr uintmax_t kMaxFileBytes = 64ULL * 1024 * 1024;

struct FileInput {
  std::string path;                    // as the user named it (or --stdin-filename)
  std::optional<std::string> content;  // stdin's bytes; read from `path` when absent
  const Config* config = nullptr;      // which rules and severities to report (default: all)
  const rules::RuleRegistry* registry =
      nullptr;  // rules with that config's options (default: the driver's)
};

struct DriverOptions {
  unsigned jobs = 0;         // 0: all cores
  bool parse_only = false;   // the speed floor: parse, nothing else
  cpp::CppOptions cpp;       // how C++ files are parsed (-p, --torch-headers)
  bool watch_loops = false;  // confirm mode: also list the training loops no finding is in
  // Python files see what the files they import from their project define (project/): a meter
  // class, a helper that runs the model, a function that trains.
  bool project_scope = true;
  // Confirm mode: list the project files the inputs import (RunResult::imported); needs
  // project_scope.
  bool list_imports = false;
  // Files read from disk take their result from here while their entry holds, and store it when
  // it does not (docs/cache.md): a C++ file's entry holds while every file its parse read does.
  // Not for stdin, --parse-only or confirm mode's listings.
  const cache::ResultCache* cache = nullptr;
};

struct RunResult {
  std::vector<Diagnostic> diagnostics;  // sorted
  std::vector<InputError> errors;       // sorted
  size_t files = 0;
  std::vector<WatchedLoop> watched;  // with DriverOptions::watch_loops, in file order
  // Each analysed file's content digest, by the path findings name it with: `--fix` writes
  // no file that changed since it was read.
  std::map<std::string, uint64_t> digests;
  // With DriverOptions::list_imports: the project files the inputs import, each once, absolute.
  std::vector<std::filesystem::path> imported;
  // Test functions whose findings were left out (Config::analyse_tests off), in input order.
  std::vector<LeftOutTest> left_out_tests;
};

class Driver {
 public:
  Driver(const rules::RuleRegistry& registry, const python::PythonGrammar& grammar)
      : registry_(registry), grammar_(grammar) {}

  [[nodiscard]] RunResult run(const std::vector<FileInput>& inputs,
                              const DriverOptions& options) const;

 private:
  const rules::RuleRegistry& registry_;
  const python::PythonGrammar& grammar_;
};

}  // namespace sealint
