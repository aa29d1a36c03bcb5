#include "analyzer/output/formats.h"

#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/run_text.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/statistics.h"

namespace sealint::output {

namespace {

// Suppressed findings are printed only with --show-suppressed; input errors are array elements.
void write_lint_json(std::ostream& out, const LintReport& report) {
  // --statistics: the counts instead of the findings, as the text format prints them.
  if (report.statistics) {
    write_statistics_json(
        out, {report.active, report.text.unsafe_fixes, report.left_out_tests, report.rules});
    return;
  }
  write_json(out, report.shown, report.errors);
}

// A confirm run's input errors went to stderr before it ran.
void write_confirm_json(std::ostream& out, const ConfirmReport& report) {
  write_json(out, report.findings);
}

// SARIF keeps suppressed results, marked, as code scanning expects.
void write_lint_sarif(std::ostream& out, const LintReport& report) {
  write_sarif(out, report.diagnostics, report.rules, report.lines,
              {report.tool_version, report.source_root, report.errors, report.left_out_tests});
}

void write_confirm_sarif(std::ostream& out, const ConfirmReport& report) {
  write_sarif(out, report.findings, report.rules, report.lines,
              {report.tool_version, report.source_root, {}});
}

// An annotation for a suppressed finding would show on the pull request: never printed.
void write_lint_github(std::ostream& out, const LintReport& report) {
  write_github(out, report.active, report.errors);
}

void write_confirm_github(std::ostream& out, const ConfirmReport& report) {
  write_github(out, report.findings);
}

constexpr std::array kFormats{
    Format{"text", "compiler-style findings and a summary", write_lint_text, write_confirm_text,
           true},
    Format{"json", "a stable array of findings", write_lint_json, write_confirm_json, false},
    Format{"sarif", "SARIF 2.1.0 for code scanning", write_lint_sarif, write_confirm_sarif, false},
    Format{"github", "GitHub Actions annotations", write_lint_github, write_confirm_github, false},
};

bool offers(const Format& format, FormatUser user) {
  switch (user) {
    case FormatUser::Lint:
      return format.write_lint != nullptr;
    case FormatUser::Confirm:
      return format.write_confirm != nullptr;
  }
  return false;
}

}  // namespace

std::span<const Format> formats() {
  return kFormats;
}

const Format* find_format(std::string_view name, FormatUser user) {
  for (const Format& format : kFormats)
    if (format.name == name && offers(format, user)) return &format;
  return nullptr;
}

std::vector<std::string> format_names(FormatUser user) {
  std::vector<std::string> names;
  for (const Format& format : kFormats)
    if (offers(format, user)) names.emplace_back(format.name);
  return names;
}

std::string format_help(FormatUser user) {
  std::vector<std::string> entries;
  for (const Format& format : kFormats)
    if (offers(format, user))
      entries.push_back(fmt::format("{} ({})", format.name, format.description));
  return fmt::format("Output format: {}", fmt::join(entries, ", "));
}

}  // namespace sealint::output
