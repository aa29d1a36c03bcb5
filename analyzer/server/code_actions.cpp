#include "analyzer/server/code_actions.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/core/fixes.h"

namespace sealint::server {

namespace {

constexpr std::string_view kQuickFix = "quickfix";
constexpr std::string_view kFixAll = "source.fixAll.sealint";

Json text_edit(const DocumentPositions& positions, ByteRange range, std::string_view text) {
  return {{"range", positions.range(range.begin, range.end)}, {"newText", text}};
}

Json workspace_edit(const ActionDocument& document, const ActionOptions& options, Json edits) {
  if (options.document_changes) {
    return {{"documentChanges",
             Json::array({{{"textDocument", {{"uri", document.uri}, {"version", document.version}}},
                           {"edits", std::move(edits)}}})}};
  }
  return {{"changes", {{document.uri, std::move(edits)}}}};
}

// Does `kind` fall under one of the kinds the client asked for (LSP kinds are dotted
// hierarchies: `source.fixAll` asks for `source.fixAll.sealint`)?
bool wanted(std::string_view kind, const Json& only) {
  if (!only.is_array()) return true;
  return std::any_of(only.begin(), only.end(), [&](const Json& asked) {
    if (!asked.is_string()) return false;
    const std::string& prefix = asked.get_ref<const std::string&>();
    return kind == prefix ||
           (kind.starts_with(prefix) && kind.size() > prefix.size() && kind[prefix.size()] == '.');
  });
}

Json fix_edits(const Fix& fix, const DocumentPositions& positions) {
  Json edits = Json::array();
  for (const Edit& edit : fix.edits)
    edits.push_back(text_edit(positions, edit.range, edit.replacement));
  return edits;
}

std::optional<Json> fix_all(const std::vector<Diagnostic>& findings, const ActionDocument& document,
                            const ActionOptions& options) {
  // `--fix`'s own choice of fixes: suppressed and overlapping ones are left out.
  const size_t bom = document.positions.text_offset(0);
  const AppliedFixes applied =
      apply_fixes(document.text.substr(bom), findings, options.unsafe_fixes);
  if (applied.fixed.empty()) return std::nullopt;
  std::vector<Edit> edits;
  for (size_t index : applied.fixed) {
    const std::vector<Edit>& more = findings[index].fix->edits;
    edits.insert(edits.end(), more.begin(), more.end());
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.range.begin < b.range.begin; });
  Json lsp_edits = Json::array();
  for (const Edit& edit : edits)
    lsp_edits.push_back(text_edit(document.positions, edit.range, edit.replacement));
  return Json{{"title", fmt::format("Fix all sealint findings ({})", applied.fixed.size())},
              {"kind", kFixAll},
              {"edit", workspace_edit(document, options, std::move(lsp_edits))}};
}

}  // namespace

std::optional<Json> suppression_edit(const Diagnostic& finding, const ActionDocument& document) {
  const LineIndex& index = document.positions.index();
  const uint32_t line =
      index.position(document.positions.text_offset(finding.span.begin.offset)).line;
  const size_t start = index.line_start(line);
  const size_t end = index.line_end(line);
  const std::string_view text = document.text.substr(start, end - start);
  auto at_range = [&](size_t begin, size_t stop, std::string_view insert) {
    return Json{{"range", text_range(index, begin, stop)}, {"newText", insert}};
  };
  // A list on the line already (`# sealint: ignore[SL002]`): the rule joins it.
  if (const size_t marker = text.find("sealint: ignore["); marker != std::string_view::npos) {
    if (const size_t close = text.find(']', marker); close != std::string_view::npos)
      return at_range(start + close, start + close, fmt::format(", {}", finding.rule_id));
  }
  size_t code_end = text.size();
  while (code_end > 0 && (text[code_end - 1] == ' ' || text[code_end - 1] == '\t')) --code_end;
  // After a backslash the line goes on: a comment there would be a syntax error.
  if (code_end > 0 && text[code_end - 1] == '\\') return std::nullopt;
  const std::string_view comment = document.language == DocumentLanguage::Cpp ? "//" : "#";
  return at_range(
      start + code_end, end,
      fmt::format("{}{} sealint: ignore[{}]", code_end == 0 ? "" : "  ", comment, finding.rule_id));
}

Json code_actions(const std::vector<Diagnostic>& findings, const Json& range, const Json& only,
                  const ActionDocument& document, const ActionOptions& options) {
  Json actions = Json::array();
  const bool quick_fixes = wanted(kQuickFix, only);
  for (const Diagnostic& finding : findings) {
    if (!quick_fixes) break;
    const Json lsp = lsp_diagnostic(finding, document.positions, document.uri);
    if (!ranges_meet(lsp["range"], range)) continue;
    if (finding.fix && !finding.fix->edits.empty()) {
      // Unsafe fixes are offered too, one at a time and named so: choosing one is the review
      // that `--unsafe-fixes` stands for on the command line.
      const std::string title = finding.fix->safe
                                    ? finding.fix->title
                                    : fmt::format("{} (unsafe fix)", finding.fix->title);
      actions.push_back({{"title", fmt::format("{}: {}", finding.rule_id, title)},
                         {"kind", kQuickFix},
                         {"diagnostics", Json::array({lsp})},
                         {"isPreferred", finding.fix->safe},
                         {"edit", workspace_edit(document, options,
                                                 fix_edits(*finding.fix, document.positions))}});
    }
    if (auto edit = suppression_edit(finding, document)) {
      actions.push_back(
          {{"title", fmt::format("{}: suppress on this line", finding.rule_id)},
           {"kind", kQuickFix},
           {"diagnostics", Json::array({lsp})},
           {"edit", workspace_edit(document, options, Json::array({std::move(*edit)}))}});
    }
  }
  if (wanted(kFixAll, only)) {
    if (auto all = fix_all(findings, document, options)) actions.push_back(std::move(*all));
  }
  return actions;
}

}  // namespace sealint::server
