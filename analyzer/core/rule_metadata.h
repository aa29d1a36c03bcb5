#pragma once
// Text about a rule generated from its RuleInfo, so that the docs page, the README, `sealint
// rules` and SARIF never disagree with the code (registry_test.cpp checks the checked-in copies).
#include <string>
#include <string_view>

#include "analyzer/core/rule_info.h"

namespace sealint {

// "Python, C++"
[[nodiscard]] std::string languages_text(const RuleInfo& info);
// "fix sometimes available (unsafe)", "no fix"
[[nodiscard]] std::string fix_text(const RuleInfo& info);
// The docs page's second line: "error · Python, C++ · fix sometimes available (unsafe)".
[[nodiscard]] std::string docs_metadata_line(const RuleInfo& info);
// The README rules table: its header and one row per rule.
[[nodiscard]] std::string readme_table_header();
[[nodiscard]] std::string readme_table_row(const RuleInfo& info);
// "pytorch", "tensorflow"; empty for a rule about any framework's code (SL012).
[[nodiscard]] std::string_view framework_tag(Framework framework);
// The project's public address (the build setting SEALINT_LINK_BASE): SARIF's informationUri.
[[nodiscard]] std::string_view project_url();
// Where a rule's documentation is published (SARIF's helpUri, JSON's url, the editor's link), as
// of the version that made the report: `<base>/blob/v0.1.0/docs/rules/SL001.md`.
[[nodiscard]] std::string rule_docs_url(std::string_view id);
// SARIF's words: "low", "medium", "high".
[[nodiscard]] std::string_view precision_word(Precision precision);

}  // namespace sealint
