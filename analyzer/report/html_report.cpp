#include "analyzer/report/html_report.h"

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/units.h"
#include "analyzer/output/json_output.h"
#include "analyzer/report/html_text.h"
#include "analyzer/report/report_charts.h"
#include "analyzer/report/source_excerpt.h"
#include "analyzer/report/svg_chart.h"

namespace sealint::report {

namespace {

using nlohmann::json;

// Lines either side of a finding's own lines in its source excerpt.
constexpr uint32_t kContextLines = 3;

constexpr std::string_view kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 24px auto; max-width: 980px; padding: 0 16px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 36px; border-top: 1px solid #ccc; padding-top: 14px; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f6f6f6; padding: 8px 10px; overflow-x: auto; }
.verdict { font-weight: 600; } .confirmed { color: #b00020; } .not-confirmed { color: #2b7a0b; }
.line.marked { background: #ffe7a3; display: inline-block; width: 100%; }
.removed { background: #ffd7d5; display: inline-block; width: 100%; }
.added { background: #d2f4d3; display: inline-block; width: 100%; }
.note { color: #555; margin: 2px 0 14px; } svg.chart { display: block; margin-top: 10px; }
table.run td { padding: 1px 12px 1px 0; vertical-align: top; }
)";

std::string verdict_class(Verdict verdict) {
  std::string name(verdict_name(verdict));
  for (char& ch : name)
    if (ch == ' ') ch = '-';
  return name;
}

std::string verdict_paragraph(std::string_view label, const Confirmation& c) {
  return fmt::format(R"(<p class="verdict {}">{}{}</p>)", verdict_class(c.verdict),
                     html_text(label), html_text(output::confirmation_line(c)));
}

std::string held_by_list(const std::vector<HeldLink>& held) {
  if (held.empty()) return {};
  std::string out = R"(<p class="held-by">held by: )";
  for (size_t i = 0; i < held.size(); ++i) {
    if (i != 0) out += " → ";
    out += fmt::format("<code>{}</code>", html_text(held_link_text(held[i])));
  }
  return out + "</p>";
}

std::string numbered_lines(const std::vector<SourceLine>& lines, std::string_view marked_class,
                           char sign) {
  std::string out;
  for (const SourceLine& line : lines) {
    const std::string text =
        fmt::format("{:>5} {} {}", line.number, line.marked ? sign : ' ', line.text);
    out += line.marked ? fmt::format(R"(<span class="{}">{}</span>)", marked_class, html_text(text))
                       : html_text(text);
    out += '\n';
  }
  return out;
}

std::string source_section(const Diagnostic& d, const std::optional<std::string>& code) {
  if (!code) return "<p class=\"note\">the source could not be read</p>";
  std::string out = fmt::format(
      R"(<pre class="source">{}</pre>)",
      numbered_lines(lines_around(*code, d.span.begin.line, d.span.end.line, kContextLines),
                     "line marked", '>'));
  if (!d.fix) return out;
  const std::optional<FixExcerpt> fix = fix_excerpt(*code, *d.fix);
  if (!fix) return out;
  out +=
      fmt::format(R"(<p>fix{}: {}</p><pre class="fix">{}{}</pre>)", d.fix->safe ? "" : " (unsafe)",
                  html_text(d.fix->title), numbered_lines(fix->before, "removed", '-'),
                  numbered_lines(fix->after, "added", '+'));
  return out;
}

std::string cuda_section(const Confirmation& c) {
  if (!c.cuda_line) return {};
  return fmt::format(
      R"(<p class="cuda-blocks">on the GPU: {} allocated at this line {} live, {}{}{}</p>)",
      html_text(confirm::counted(static_cast<double>(c.cuda_line->count), "block")),
      c.cuda_line->count == 1 ? "is" : "are",
      html_text(confirm::bytes_text(static_cast<double>(c.cuda_line->bytes))),
      c.cuda_line->bytes_per_iteration
          ? html_text(fmt::format(", +{} per iteration",
                                  confirm::bytes_text(*c.cuda_line->bytes_per_iteration)))
          : std::string(),
      c.cuda_line->at_end ? " (counted at the end of the run)" : "");
}

std::string charts_section(const json& result, size_t id, const Confirmation& c,
                           const std::string& prefix, std::string_view step) {
  std::string out;
  const std::vector<Chart> charts = charts_for(result, id, c, prefix, step);
  if (charts.empty()) return R"(<p class="note">the probe measured no series here</p>)";
  for (const Chart& chart : charts) {
    out += fmt::format(R"(<h3>{}</h3>)", html_text(chart.title)) + svg_chart(chart);
    if (!chart.note.empty()) out += fmt::format(R"(<p class="note">{}</p>)", html_text(chart.note));
  }
  return out;
}

std::string_view step_of(const ProbeHint& probe) {
  return probe.region == ProbeRegion::Calls ? "call" : "iteration";
}

std::string finding_section(const HtmlReport& report, size_t id) {
  const Diagnostic& d = report.confirm.findings[id];
  const std::string anchor = fmt::format("finding-{}", id);
  std::string out =
      fmt::format(R"(<section class="finding" id="{}"><h2>{}:{}:{}: {}[{}] {}</h2><p>{}</p>)",
                  anchor, html_text(d.path), d.span.begin.line, d.span.begin.column,
                  html_text(severity_name(d.severity)), html_text(d.rule_id),
                  html_text(d.rule_name), html_text(d.message));
  if (!d.help.empty()) out += fmt::format(R"(<p class="note">help: {}</p>)", html_text(d.help));
  if (d.confirmation) out += verdict_paragraph("", *d.confirmation);
  if (d.after_fix) out += verdict_paragraph("after the fix: ", *d.after_fix);
  if (d.confirmation) {
    out += held_by_list(d.confirmation->held_by) + cuda_section(*d.confirmation);
    if (d.probe)
      out += charts_section(report.result, id, *d.confirmation, anchor, step_of(*d.probe));
  }
  out += source_section(d, report.read_source(d.path));
  return out + "</section>";
}

std::string watched_section(const HtmlReport& report, size_t index) {
  const output::WatchedVerdicts& watched = report.confirm.watched;
  const WatchedLoop& loop = watched.loops[index];
  const Confirmation& c = watched.verdicts[index];
  const size_t id = report.watched_ids[index];
  const std::string anchor = fmt::format("loop-{}", id);
  std::string out = fmt::format(
      R"(<section class="watched" id="{}"><h2>{}:{}: {} without a finding</h2>)", anchor,
      html_text(loop.path), loop.probe.loop_line,
      loop.probe.region == ProbeRegion::Calls
          ? fmt::format("`{}()`, a step a framework runs,", html_text(loop.probe.function))
          : std::string(loop.trains ? "training loop" : "loop that runs a model"));
  out += verdict_paragraph("", c);
  if (index < watched.runs_flagged.size() && !watched.runs_flagged[index].empty()) {
    out +=
        fmt::format(R"(<p class="note">it calls {}</p>)", html_text(watched.runs_flagged[index]));
  }
  out +=
      held_by_list(c.held_by) + charts_section(report.result, id, c, anchor, step_of(loop.probe));
  if (const std::optional<std::string> code = report.read_source(loop.path)) {
    out += fmt::format(R"(<pre class="source">{}</pre>)",
                       numbered_lines(lines_around(*code, loop.probe.loop_line,
                                                   loop.probe.loop_line, kContextLines),
                                      "line marked", '>'));
  }
  return out + "</section>";
}

// A file's absolute path as a `file:` URL: the bytes a URL may not hold bare percent-encoded.
std::string file_url(std::string_view path) {
  std::string out = "file://";
  for (const char ch : path) {
    const auto byte = static_cast<unsigned char>(ch);
    const bool bare = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') ||
                      std::string_view("/-._~").find(ch) != std::string_view::npos;
    out += bare ? std::string(1, ch) : fmt::format("%{:02X}", byte);
  }
  return out;
}

std::string run_table(const HtmlReport& report) {
  const output::ConfirmReport& run = report.confirm;
  std::string rows;
  const auto row = [&rows](std::string_view name, const std::string& value) {
    if (!value.empty())
      rows += fmt::format("<tr><td>{}</td><td>{}</td></tr>", name, html_text(value));
  };
  row("script", run.script);
  row("findings in", run.found_in);
  row("how the run ended", run.run_summary);
  if (run.seconds) row("time", fmt::format("{:.1f} s", *run.seconds));
  row("device", confirm::text_field(report.result, "device"));
  row("python", confirm::text_field(report.result, "python"));
  row("torch", confirm::text_field(report.result, "torch"));
  row("sealint", run.tool_version);
  std::string out = fmt::format(R"(<table class="run">{}</table>)", rows);
  if (!report.snapshot.empty()) {
    out += fmt::format(
        R"(<p>CUDA memory snapshot: <a class="snapshot" href="{}">{}</a> (drop it on <a href="https://pytorch.org/memory_viz">pytorch.org/memory_viz</a> to see its timeline)</p>)",
        html_text(file_url(report.snapshot)), html_text(report.snapshot));
  }
  return out;
}

}  // namespace

void write_html_report(std::ostream& out, const HtmlReport& report) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << fmt::format("<title>sealint confirm: {}</title>", html_text(report.confirm.script))
      << "<style>" << kStyle << "</style></head><body>\n"
      << fmt::format("<h1>sealint confirm: {}</h1>\n", html_text(report.confirm.script))
      << run_table(report) << '\n';
  if (report.confirm.findings.empty() && report.confirm.watched.loops.empty())
    out << "<p>No findings and no measured loop.</p>\n";
  for (size_t id = 0; id < report.confirm.findings.size(); ++id)
    out << finding_section(report, id) << '\n';
  for (size_t i = 0; i < report.confirm.watched.loops.size() && i < report.watched_ids.size(); ++i)
    out << watched_section(report, i) << '\n';
  out << "</body></html>\n";
}

}  // namespace sealint::report
