#include "analyzer/output/run_text.h"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/output/json_output.h"
#include "analyzer/output/sparkline.h"
#include "analyzer/output/text_output.h"

namespace sealint::output {

namespace {

// "2 confirmed, 1 not reached": the findings' verdicts, strongest first.
std::string verdict_summary(const std::vector<Diagnostic>& findings) {
  constexpr std::array kOrder{Verdict::Confirmed, Verdict::NotConfirmed, Verdict::TooFewIterations,
                              Verdict::NotReached, Verdict::NotMeasured};
  std::array<size_t, kOrder.size()> counts{};
  for (const Diagnostic& d : findings)
    if (d.confirmation) ++counts[static_cast<size_t>(d.confirmation->verdict)];
  std::vector<std::string> parts;
  for (Verdict v : kOrder) {
    if (counts[static_cast<size_t>(v)] != 0)
      parts.push_back(fmt::format("{} {}", counts[static_cast<size_t>(v)], verdict_name(v)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The loops measured without a finding, after the findings: `path:line: loop: verdict: ...`.
void write_watched(std::ostream& out, const WatchedVerdicts& watched) {
  for (size_t i = 0; i < watched.loops.size(); ++i) {
    const Confirmation& c = watched.verdicts[i];
    const std::string trend = sparkline(c.trend);
    std::string whose;
    if (c.verdict == Verdict::Confirmed) {
      whose =
          watched.runs_flagged[i].empty()
              ? " (a leak no rule reported)"
              : fmt::format(" (it calls the code of the finding at {})", watched.runs_flagged[i]);
    }
    out << fmt::format("{}:{}: training loop without a finding: {}{}{}\n", watched.loops[i].path,
                       watched.loops[i].probe.loop_line, confirmation_line(c), whose,
                       trend.empty() ? "" : "  " + trend);
  }
}

}  // namespace

void write_lint_text(std::ostream& out, const LintReport& report) {
  if (report.parse_only) return;
  if (report.statistics) {
    write_statistics(out, report.active);
  } else {
    write_text(out, report.shown, report.lines, report.text);
  }
  write_fixed(out, report.fixed, report.show_fixes);
  const size_t suppressed = report.diagnostics.size() - report.active.size();
  out << summary_line(report.active, report.files, report.errors, suppressed) << '\n';
  if (const std::string left_out = left_out_tests_line(report.left_out_tests); !left_out.empty())
    out << left_out << '\n';
  if (const std::string hint =
          fix_hint_line(report.active, report.fixing, report.text.unsafe_fixes);
      !hint.empty()) {
    out << hint << '\n';
  }
}

void write_confirm_text(std::ostream& out, const ConfirmReport& report) {
  const std::vector<Diagnostic>& findings = report.findings;
  write_text(out, findings, report.lines, {report.color});
  write_watched(out, report.watched);
  const std::string ran =
      fmt::format("{}{}", report.run_summary,
                  report.seconds ? fmt::format(", {:.1f} s", *report.seconds) : std::string());
  if (findings.empty()) {
    // A loop the run never reached was not measured, whatever the plan said.
    const std::vector<Confirmation>& verdicts = report.watched.verdicts;
    const auto measured = static_cast<size_t>(
        std::count_if(verdicts.begin(), verdicts.end(),
                      [](const Confirmation& c) { return c.verdict != Verdict::NotReached; }));
    out << fmt::format("No findings in {}; {} loop{} measured ({}).\n", report.script,
                       measured == 0 ? std::string("no") : std::to_string(measured),
                       measured == 1 ? "" : "s", ran);
  } else {
    out << fmt::format("Found {} finding{} in {}: {} ({}).\n", findings.size(),
                       findings.size() == 1 ? "" : "s", report.found_in, verdict_summary(findings),
                       ran);
  }
}

}  // namespace sealint::output
