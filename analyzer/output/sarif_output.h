#pragma once
// `--format sarif`: SARIF 2.1.0 for GitHub code scanning and editors' SARIF viewers, checked in
// `make test` by Microsoft's validator with GitHub's ingestion rules and against the schema.
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/output/text_output.h"

namespace sealint::output {

// What SARIF says about each rule (from RuleInfo and docs/rules/<ID>.md).
struct SarifRule {
  std::string id;
  std::string name;
  std::string summary;
  std::string help_markdown;
  Severity severity = Severity::Error;
  std::string framework_tag;  // "pytorch", "tensorflow"
  std::string precision;      // "low", "medium", "high": measured on bench/corpus
};

struct SarifOptions {
  std::string tool_version;
  std::string source_root;  // absolute folder that %SRCROOT% names (the working directory)
  std::vector<InputError> input_errors;  // the run's input problems: tool notifications
  // Test functions whose findings were left out (analyse-tests off): a note and a count.
  std::vector<LeftOutTest> left_out_tests = {};
};

void write_sarif(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                 const std::vector<SarifRule>& rules, const LineLookup& lines,
                 const SarifOptions& options);

// A hash of a finding's line that survives edits elsewhere in the file: the rule, the line's text
// without whitespace, and which occurrence of that pair in the file it is ("<hex>:<n>").
[[nodiscard]] std::string line_hash(std::string_view rule_id, std::string_view line_text,
                                    size_t occurrence);

// `train dir/a b.py` -> `train%20dir/a%20b.py`: a relative URI reference (RFC 3986).
[[nodiscard]] std::string uri_escape(std::string_view path);

}  // namespace sealint::output
