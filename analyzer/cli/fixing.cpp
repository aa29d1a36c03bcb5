#include "analyzer/cli/fixing.h"

#include <fmt/format.h>

#include "analyzer/cli/file_rewrite.h"
#include "analyzer/cli/notebook_fixing.h"
#include "analyzer/core/bounded_read.h"
#include "analyzer/core/fixes.h"
#include "analyzer/core/source_file.h"
#include "analyzer/core/unified_diff.h"
#include "analyzer/core/utf8.h"
#include "analyzer/notebook/notebook.h"

namespace sealint::cli {

FixOutcome apply_fixes(const RunResult& result,
                       const std::map<std::string, std::string>& stdin_content,
                       const FixRequest& request, std::ostream& out) {
  FixOutcome outcome;
  // Findings of one file are adjacent: the results are sorted by path.
  size_t begin = 0;
  while (begin < result.diagnostics.size()) {
    const std::string& path = result.diagnostics[begin].path;
    size_t end = begin;
    while (end < result.diagnostics.size() && result.diagnostics[end].path == path) ++end;
    const std::vector<Diagnostic> findings(
        result.diagnostics.begin() + static_cast<std::ptrdiff_t>(begin),
        result.diagnostics.begin() + static_cast<std::ptrdiff_t>(end));
    const size_t first = begin;
    begin = end;

    const auto from_stdin = stdin_content.find(path);
    std::string bytes;
    if (from_stdin != stdin_content.end()) {
      bytes = from_stdin->second;
    } else if (auto read = read_file_bounded(path, path, kMaxFileBytes)) {
      bytes = std::move(*read);
    }  // else the digest differs: reported as changed
    auto digest = result.digests.find(path);
    if (digest == result.digests.end() || digest->second != content_digest(bytes)) {
      outcome.errors.push_back(
          {path, std::nullopt, fmt::format("'{}' changed since it was analysed; not fixed", path)});
      continue;
    }
    std::vector<size_t> applied;
    std::string fixed;
    std::string diff;
    if (notebook::is_notebook_path(path)) {
      auto notebook = fix_notebook(path, bytes, findings, request.unsafe);
      if (!notebook) {
        outcome.errors.push_back({path, std::nullopt, notebook.error()});
        continue;
      }
      applied = std::move(notebook->fixed);
      fixed = std::move(notebook->bytes);
      diff = std::move(notebook->diff);
    } else {
      const bool bom = std::string_view(bytes).starts_with(utf8::kBom);
      const std::string_view code = std::string_view(bytes).substr(bom ? utf8::kBom.size() : 0);
      AppliedFixes fixes = sealint::apply_fixes(code, findings, request.unsafe);
      applied = std::move(fixes.fixed);
      fixed = (bom ? std::string(utf8::kBom) : std::string()) + fixes.text;
      if (!applied.empty()) diff = unified_diff(path, bytes, fixed);
    }
    if (applied.empty()) continue;
    if (request.diff) {
      out << diff;
      outcome.changes = true;
    } else if (from_stdin != stdin_content.end()) {
      out << fixed;
    } else if (auto written = rewrite_file(path, fixed); !written) {
      outcome.errors.push_back({path, std::nullopt, written.error()});
      continue;
    }
    for (size_t index : applied) outcome.fixed.insert(first + index);
  }
  return outcome;
}

}  // namespace sealint::cli
