#include "analyzer/server/lsp_diagnostics.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/core/rule_metadata.h"
#include "analyzer/core/utf8.h"

namespace sealint::server {

namespace {

constexpr std::string_view kSource = "sealint";

std::optional<LspPosition> read_position(const Json& json) {
  const auto line = integer_member(json, {"line"});
  const auto character = integer_member(json, {"character"});
  if (!line || !character || *line < 0 || *character < 0) return std::nullopt;
  return LspPosition{static_cast<uint32_t>(std::min<int64_t>(*line, UINT32_MAX)),
                     static_cast<uint32_t>(std::min<int64_t>(*character, UINT32_MAX))};
}

bool before(const LspPosition& a, const LspPosition& b) {
  return a.line < b.line || (a.line == b.line && a.character < b.character);
}

}  // namespace

DocumentPositions::DocumentPositions(std::string_view text, PositionEncoding encoding)
    : index_(text, encoding), bom_(text.starts_with(utf8::kBom) ? utf8::kBom.size() : 0) {}

Json text_range(const LineIndex& index, size_t begin, size_t end) {
  const LspPosition from = index.position(begin);
  const LspPosition to = index.position(std::max(begin, end));
  return {{"start", {{"line", from.line}, {"character", from.character}}},
          {"end", {{"line", to.line}, {"character", to.character}}}};
}

Json DocumentPositions::range(uint32_t begin, uint32_t end) const {
  return text_range(index_, text_offset(begin), text_offset(end));
}

int lsp_severity(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return 1;
    case Severity::Warning:
      return 2;
    case Severity::Note:
      return 3;
  }
  return 1;
}

Json lsp_diagnostic(const Diagnostic& diagnostic, const DocumentPositions& positions,
                    const std::string& uri) {
  Json related = Json::array();
  for (const RelatedLocation& location : diagnostic.related) {
    related.push_back({{"location", {{"uri", uri}, {"range", positions.range(location.span)}}},
                       {"message", location.message}});
  }
  // The help is the remedy: LSP has no field for it, and a client shows the message alone.
  std::string message = diagnostic.message;
  if (!diagnostic.help.empty()) message += "\nhelp: " + diagnostic.help;
  Json lsp = {{"range", positions.range(diagnostic.span)},
              {"severity", lsp_severity(diagnostic.severity)},
              {"code", diagnostic.rule_id},
              {"codeDescription", {{"href", rule_docs_url(diagnostic.rule_id)}}},
              {"source", kSource},
              {"message", message}};
  if (!related.empty()) lsp["relatedInformation"] = std::move(related);
  return lsp;
}

Json lsp_diagnostic(const InputError& error, const DocumentPositions& positions) {
  const LineIndex& index = positions.index();
  // A Python error's position has its byte offset; Clang's has a line and a byte column only.
  size_t begin = 0;
  if (error.at && error.at->offset != 0) {
    begin = positions.text_offset(error.at->offset);
  } else if (error.at) {
    const uint32_t line = error.at->line > 0 ? error.at->line - 1 : 0;
    begin = std::min(index.line_start(line) + (error.at->column > 0 ? error.at->column - 1 : 0),
                     index.line_end(line));
  }
  // To the end of its line: an editor draws a squiggle there, not a dot.
  return {{"range", text_range(index, begin, index.line_end(index.position(begin).line))},
          {"severity", error.warning ? 2 : 1},
          {"source", kSource},
          {"message", error.message}};
}

Json lsp_diagnostic(const LeftOutTest& test, const DocumentPositions& positions) {
  const LineIndex& index = positions.index();
  const uint32_t last = index.line_count() > 0 ? index.line_count() - 1 : 0;
  const uint32_t line = std::min(test.line > 0 ? test.line - 1 : 0, last);
  std::vector<std::string> rules = test.rules;
  std::sort(rules.begin(), rules.end());
  rules.erase(std::unique(rules.begin(), rules.end()), rules.end());
  const size_t findings = test.rules.size();
  return {{"range", text_range(index, index.line_start(line), index.line_end(line))},
          {"severity", 4},  // Hint: nothing to fix here
          {"source", kSource},
          {"message",
           fmt::format("{} {} ({}) left out in test function `{}`: tests run a few iterations; "
                       "`analyse-tests = true` reports them",
                       findings, findings == 1 ? "finding" : "findings", fmt::join(rules, ", "),
                       test.function)}};
}

bool ranges_meet(const Json& a, const Json& b) {
  const Json* a_start = member(a, {"start"});
  const Json* a_end = member(a, {"end"});
  const Json* b_start = member(b, {"start"});
  const Json* b_end = member(b, {"end"});
  if (!a_start || !a_end || !b_start || !b_end) return false;
  const auto as = read_position(*a_start);
  const auto ae = read_position(*a_end);
  const auto bs = read_position(*b_start);
  const auto be = read_position(*b_end);
  if (!as || !ae || !bs || !be) return false;
  // Closed ranges: a cursor right after the last character of a finding is still on it.
  return !before(*ae, *bs) && !before(*be, *as);
}

}  // namespace sealint::server
