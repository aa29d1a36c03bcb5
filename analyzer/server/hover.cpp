#include "analyzer/server/hover.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analyzer/core/rule_metadata.h"
#include "rules/rule_docs.h"

namespace sealint::server {

namespace {

// What a hover shows of a docs page: the rest (why it leaks, options, limitations) is one click
// away, and a hover window is small.
const std::vector<std::string_view> kHoverSections = {"What it does", "Example", "Fix"};

std::string finding_text(const Diagnostic& finding, bool first_of_rule) {
  std::string text = fmt::format("**{}** `{}` ({})\n\n{}\n", finding.rule_id, finding.rule_name,
                                 severity_name(finding.severity), finding.message);
  if (!finding.help.empty()) text += fmt::format("\nhelp: {}\n", finding.help);
  if (first_of_rule) {
    const std::string docs = doc_sections(rules::rule_doc(finding.rule_id), kHoverSections);
    if (!docs.empty()) text += "\n" + docs;
    text +=
        fmt::format("\n[{} documentation]({})\n", finding.rule_id, rule_docs_url(finding.rule_id));
  }
  return text;
}

}  // namespace

std::string doc_sections(std::string_view page, const std::vector<std::string_view>& headings) {
  std::string out;
  bool keep = false;
  while (!page.empty()) {
    const size_t newline = page.find('\n');
    const std::string_view line = page.substr(0, newline);
    page = newline == std::string_view::npos ? std::string_view() : page.substr(newline + 1);
    if (line.starts_with("## ")) {
      keep = std::find(headings.begin(), headings.end(), line.substr(3)) != headings.end();
    } else if (line.starts_with("# ")) {
      keep = false;
    }
    if (keep) {
      out += line;
      out += '\n';
    }
  }
  return out;
}

std::optional<Json> hover(const std::vector<Diagnostic>& findings, const Json& position,
                          const DocumentPositions& positions, bool markdown) {
  const Json at = {{"start", position}, {"end", position}};
  std::vector<std::string> parts;
  std::set<std::string> rules;
  Json range;
  for (const Diagnostic& finding : findings) {
    const Json finding_range = positions.range(finding.span);
    if (!ranges_meet(finding_range, at)) continue;
    if (range.is_null()) range = finding_range;
    parts.push_back(finding_text(finding, rules.insert(finding.rule_id).second));
  }
  if (parts.empty()) return std::nullopt;
  std::string value;
  for (const std::string& part : parts) {
    if (!value.empty()) value += "\n---\n\n";
    value += part;
  }
  return Json{{"contents", {{"kind", markdown ? "markdown" : "plaintext"}, {"value", value}}},
              {"range", range}};
}

}  // namespace sealint::server
