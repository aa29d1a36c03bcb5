#pragma once
// One analysis of one document's text, as `sealint <file>` would analyse it: the configuration in
// force for its path (found afresh each time, so that an edited pyproject.toml or .sealint.toml
// applies at once, with the client's settings on top), the driver on the buffer's bytes, and only
// the findings no comment suppresses.
#include <memory>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/python/grammar.h"
#include "analyzer/server/documents.h"
#include "analyzer/server/settings.h"
#include "rules/registry.h"

namespace sealint::server {

struct AnalysisJob {
  std::string uri;
  std::string path;
  DocumentLanguage language = DocumentLanguage::None;
  int64_t version = 0;
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const ServerSettings> settings;
};

struct AnalysisResult {
  std::vector<Diagnostic> diagnostics;  // sorted, none suppressed
  // A syntax error, a configuration that could not be read, a file too large: shown at their
  // position (or on the first line).
  std::vector<InputError> errors;
  // Test functions of this document whose findings were left out (analyse-tests off): each is
  // shown as a hint at its definition, as the command line's summary counts them.
  std::vector<LeftOutTest> left_out_tests;
};

class Analyzer {
 public:
  Analyzer(const rules::RuleRegistry& registry, const python::PythonGrammar& grammar)
      : registry_(registry), grammar_(grammar) {}

  // Safe to call from several threads at once: each call has its own frontends.
  [[nodiscard]] AnalysisResult analyse(const AnalysisJob& job) const;

 private:
  const rules::RuleRegistry& registry_;
  const python::PythonGrammar& grammar_;
};

// The folder of the compile_commands.json for a C++ file: `setting` (a folder, or the file
// itself) when given, else the nearest up the tree from `path`, in a folder or its `build/`, as
// clangd looks, but never above the workspace folder (of `roots`) holding the file, nor above the
// file's own folder when no workspace folder holds it: a database another user leaves in /tmp or
// in a parent of a cloned repository does not apply to it. Empty when there is none.
[[nodiscard]] std::string compile_commands_for(const std::string& path, const std::string& setting,
                                               const std::vector<std::string>& roots);

}  // namespace sealint::server
