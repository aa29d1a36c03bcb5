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

// The loops measured without a finding of growth, after the findings: `path:line: what: verdict`,
// and what holds a growth no finding explains.
void write_watched(std::ostream& out, const WatchedVerdicts& watched) {
  for (size_t i = 0; i < watched.loops.size(); ++i) {
    const WatchedLoop& loop = watched.loops[i];
    const Confirmation& c = watched.verdicts[i];
    const std::string trend = sparkline(c.trend);
    std::string whose;
    if (c.verdict == Verdict::Confirmed) {
      if (!watched.runs_flagged[i].empty()) {
        whose = fmt::format(" (it calls {})", watched.runs_flagged[i]);
      } else {
        whose = c.held_by.empty() ? " (a leak no finding explains)"
                                  : fmt::format(" (a leak no finding explains, held by `{}`)",
                                                c.held_by.front().name);
      }
    }
    const std::string what = loop.findings_there.empty()
                                 ? "without a finding"
                                 : fmt::format("whose growth no finding measures ({})",
                                               fmt::join(loop.findings_there, ", "));
    const std::string region =
        loop.probe.region == ProbeRegion::Calls
            ? fmt::format("`{}()`, a step a framework runs,", loop.probe.function)
        : loop.trains ? std::string("training loop")
                      : std::string("loop that runs a model");
    out << fmt::format("{}:{}: {} {}: {}{}{}\n", loop.path, loop.probe.loop_line, region, what,
                       confirmation_line(c), whose, trend.empty() ? "" : "  " + trend);
    if (c.verdict == Verdict::Confirmed && !c.held_by.empty()) {
      std::vector<std::string> links;
      for (const HeldLink& link : c.held_by) links.push_back(held_link_text(link));
      out << fmt::format("   = held by: {}\n", fmt::join(links, " → "));
    }
  }
}

}  // namespace

void write_lint_text(std::ostream& out, const LintReport& report) {
  if (report.parse_only) return;
  if (report.statistics) {
    write_statistics(
        out, {report.active, report.text.unsafe_fixes, report.left_out_tests, report.rules});
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
