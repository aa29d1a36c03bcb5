#include "analyzer/output/text_output.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/core/display_path.h"
#include "analyzer/core/utf8.h"
#include "analyzer/output/sparkline.h"
#include "analyzer/output/statistics.h"

namespace sealint::output {

namespace {

struct Palette {
  std::string_view bold, red, yellow, cyan, blue, reset;
};

Palette palette(bool color) {
  if (!color) return {};
  return {"\x1b[1m", "\x1b[1;31m", "\x1b[1;33m", "\x1b[1;36m", "\x1b[1;34m", "\x1b[0m"};
}

std::string_view severity_color(const Palette& p, Severity severity) {
  switch (severity) {
    case Severity::Error:
      return p.red;
    case Severity::Warning:
      return p.yellow;
    case Severity::Note:
      return p.cyan;
  }
  return p.red;
}

// The underline's leading whitespace copies the line's tabs so the carets line up.
std::string underline(std::string_view line, uint32_t begin_column, uint32_t end_column) {
  std::string out;
  uint32_t column = 1;
  size_t i = 0;
  while (i < line.size() && column < begin_column) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    out += c == '\t' ? '\t' : ' ';
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0U) == 0x80U) ++i;
    ++column;
  }
  const uint32_t width = end_column > begin_column ? end_column - begin_column : 1;
  out.append(width, '^');
  return out;
}

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// A path or message as a terminal should show it: a newline in a file name could forge a finding
// line and an escape sequence could rewrite the screen, so control characters print as \xNN.
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

// A source line for the snippet: a control character other than a tab becomes U+FFFD, one column
// like the character it stands for, so that the underline stays under the span.
std::string printable_line(std::string_view line) {
  std::string out;
  for (const char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte < 0x20 && c != '\t') || byte == 0x7f ? std::string_view("\xEF\xBF\xBD")
                                                      : std::string_view(&c, 1);
  }
  return out;
}

bool fixable(const Diagnostic& d, const TextOptions& options) {
  return d.fix && (d.fix->safe || options.unsafe_fixes);
}

}  // namespace

std::string position_text(const Position& at) {
  if (at.cell == 0) return fmt::format("{}:{}", at.line, at.column);
  return fmt::format("cell {}:{}:{}", at.cell, at.line, at.column);
}

void write_fixed(std::ostream& out, const std::vector<Diagnostic>& fixed, bool show_fixes) {
  if (fixed.empty()) return;
  out << fmt::format("Fixed {}{}\n", plural(fixed.size(), "finding", "findings"),
                     show_fixes ? ":" : ".");
  if (!show_fixes) return;
  // Per file in path order (the findings are sorted), then per rule in id order.
  size_t begin = 0;
  while (begin < fixed.size()) {
    size_t end = begin;
    while (end < fixed.size() && fixed[end].path == fixed[begin].path) ++end;
    out << fmt::format("- {}:\n", printable(fixed[begin].path));
    std::map<std::string, std::pair<std::string, size_t>> by_rule;
    for (size_t i = begin; i < end; ++i) {
      auto& [name, count] = by_rule[fixed[i].rule_id];
      name = fixed[i].rule_name;
      ++count;
    }
    for (const auto& [id, named] : by_rule)
      out << fmt::format("    {} × {} ({})\n", named.second, id, named.first);
    begin = end;
  }
}

void write_text(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                const LineLookup& lines, const TextOptions& options) {
  const Palette p = palette(options.color);
  for (const Diagnostic& d : diagnostics) {
    out << fmt::format("{}{}:{}:{} {}{}[{}]{}{}: {}{}{}{}\n", p.bold, printable(d.path),
                       position_text(d.span.begin), p.reset, severity_color(p, d.severity),
                       severity_name(d.severity), d.rule_id, p.reset,
                       d.suppressed ? " (suppressed)" : "", p.bold,
                       fixable(d, options) ? "[*] " : "", printable(d.message), p.reset);
    const std::string line = printable_line(lines(d.path, d.span.begin));
    const std::string number = std::to_string(d.span.begin.line);
    const std::string gutter(number.size(), ' ');
    if (!line.empty()) {
      const uint32_t line_columns = utf8::count(line).code_points + 1;
      const uint32_t end_column =
          d.span.end.line == d.span.begin.line ? d.span.end.column : line_columns;
      out << fmt::format("{} {}|{}\n", gutter, p.blue, p.reset);
      out << fmt::format("{}{} |{} {}\n", p.blue, number, p.reset, line);
      out << fmt::format("{} {}|{} {}{}{}\n", gutter, p.blue, p.reset,
                         severity_color(p, d.severity),
                         underline(line, d.span.begin.column, end_column), p.reset);
    }
    for (const RelatedLocation& related : d.related) {
      out << fmt::format("{} {}={} {}note{}: {}:{}: {}\n", gutter, p.blue, p.reset, p.bold, p.reset,
                         printable(d.path), position_text(related.span.begin),
                         printable(related.message));
    }
    if (!d.help.empty())
      out << fmt::format("{} {}={} {}help{}: {}\n", gutter, p.blue, p.reset, p.bold, p.reset,
                         d.help);
    if (d.confirmation) {
      const Confirmation& c = *d.confirmation;
      const std::string_view color =
          c.verdict == Verdict::Confirmed ? severity_color(p, d.severity) : p.cyan;
      const std::string trend = sparkline(c.trend);
      out << fmt::format("{} {}={} {}{}{}: {}{}\n", gutter, p.blue, p.reset, color,
                         verdict_name(c.verdict), p.reset, c.detail,
                         trend.empty() ? "" : "  " + trend);
      if (!c.held_by.empty()) {
        std::vector<std::string> links;
        for (const HeldLink& link : c.held_by) links.push_back(held_link_text(link));
        out << fmt::format("{} {}={} {}held by{}: {}\n", gutter, p.blue, p.reset, p.bold, p.reset,
                           fmt::join(links, " → "));
      }
      if (d.after_fix) {
        const Confirmation& after = *d.after_fix;
        const std::string after_trend = sparkline(after.trend);
        out << fmt::format("{} {}={} {}after the fix{}: {}{}\n", gutter, p.blue, p.reset, p.bold,
                           p.reset,
                           fmt::format("{}: {}", verdict_name(after.verdict), after.detail),
                           after_trend.empty() ? "" : "  " + after_trend);
      }
    }
    out << '\n';
  }
}

void write_statistics(std::ostream& out, const StatisticsInput& input) {
  for (const RuleCount& c : rule_counts(input)) {
    // ruff's marks: `[*]` what `--fix` fixes as asked, `[ ]` fixes only --unsafe-fixes applies.
    std::string fixes;
    if (c.fixable != 0) {
      fixes = fmt::format("  [*] {} fixable{}", c.fixable,
                          c.unsafe_fixable == 0
                              ? ""
                              : fmt::format(" ({} more with `--unsafe-fixes`)", c.unsafe_fixable));
    } else if (c.unsafe_fixable != 0) {
      fixes = fmt::format("  [ ] {} fixable with `--unsafe-fixes`", c.unsafe_fixable);
    }
    const std::string left_out =
        c.left_out == 0 ? "" : fmt::format("  ({} left out in test functions)", c.left_out);
    out << fmt::format("{:>5}  {}  {}{}{}\n", c.findings, c.id, c.name, fixes, left_out);
  }
}

std::string fix_hint_line(const std::vector<Diagnostic>& diagnostics, bool fixing, bool unsafe) {
  size_t safe_fixes = 0;
  size_t unsafe_fixes = 0;
  for (const Diagnostic& d : diagnostics) {
    if (!d.fix) continue;
    ++(d.fix->safe ? safe_fixes : unsafe_fixes);
  }
  if (fixing) {
    // What is left after `--fix`: the unsafe fixes it was not allowed to apply.
    if (unsafe || unsafe_fixes == 0) return {};
    return fmt::format("{} available with `--fix --unsafe-fixes`.",
                       plural(unsafe_fixes, "fix", "fixes"));
  }
  const size_t with_fix = unsafe ? safe_fixes + unsafe_fixes : safe_fixes;
  const size_t hidden = unsafe ? 0 : unsafe_fixes;
  if (with_fix == 0 && hidden == 0) return {};
  if (with_fix == 0) {
    return fmt::format("{} available with `--fix --unsafe-fixes`.", plural(hidden, "fix", "fixes"));
  }
  const std::string more =
      hidden == 0 ? "" : fmt::format(" ({} more with `--unsafe-fixes`)", hidden);
  return fmt::format("{} fixable with `--fix`{}.", with_fix, more);
}

std::string summary_line(const std::vector<Diagnostic>& diagnostics, size_t files,
                         const std::vector<InputError>& errors, size_t suppressed) {
  size_t counts[3] = {0, 0, 0};
  for (const Diagnostic& d : diagnostics) ++counts[static_cast<size_t>(d.severity)];
  const auto warnings = static_cast<size_t>(
      std::count_if(errors.begin(), errors.end(), [](const InputError& e) { return e.warning; }));
  const size_t hard = errors.size() - warnings;
  std::vector<std::string> input;
  if (hard != 0) input.push_back(plural(hard, "input error", "input errors"));
  if (warnings != 0) input.push_back(plural(warnings, "input warning", "input warnings"));
  const std::string checked = plural(files, "file", "files");
  std::string problems =
      input.empty() ? "" : fmt::format("; {} (see stderr)", fmt::join(input, ", "));
  if (suppressed != 0) problems = fmt::format("; {} suppressed{}", suppressed, problems);
  if (diagnostics.empty()) return fmt::format("No findings in {}{}.", checked, problems);
  std::vector<std::string> parts;
  if (counts[2] != 0) parts.push_back(plural(counts[2], "error", "errors"));
  if (counts[1] != 0) parts.push_back(plural(counts[1], "warning", "warnings"));
  if (counts[0] != 0) parts.push_back(plural(counts[0], "note", "notes"));
  return fmt::format("Found {} ({}) in {}{}.", plural(diagnostics.size(), "finding", "findings"),
                     fmt::join(parts, ", "), checked, problems);
}

std::string left_out_tests_line(const std::vector<LeftOutTest>& left_out) {
  if (left_out.empty()) return {};
  size_t findings = 0;
  std::vector<std::string> rules;
  for (const LeftOutTest& test : left_out) {
    findings += test.rules.size();
    rules.insert(rules.end(), test.rules.begin(), test.rules.end());
  }
  std::sort(rules.begin(), rules.end());
  rules.erase(std::unique(rules.begin(), rules.end()), rules.end());
  return fmt::format(
      "Left out {} ({}) in {}: tests run a few iterations; `--analyse-tests` reports them.",
      plural(findings, "finding", "findings"), fmt::join(rules, ", "),
      plural(left_out.size(), "test function", "test functions"));
}

namespace {

// Past this many, the headers of the missing-headers line end with "and N more headers".
constexpr size_t kMaxHeadersNamed = 5;

// The one line for every C++ file that lacked headers: how many files, and the headers that
// were missing in the most files first.
std::string missing_headers_line(const std::vector<const InputError*>& lacking) {
  std::map<std::string, size_t> files_by_header;
  for (const InputError* e : lacking) {
    std::set<std::string_view> once(e->missing_headers.begin(), e->missing_headers.end());
    for (std::string_view header : once) ++files_by_header[std::string(header)];
  }
  std::vector<std::pair<std::string, size_t>> headers(files_by_header.begin(),
                                                      files_by_header.end());
  std::stable_sort(headers.begin(), headers.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> shown;
  for (size_t i = 0; i < headers.size() && i < kMaxHeadersNamed; ++i)
    shown.push_back(
        fmt::format("'{}' ({})", headers[i].first, plural(headers[i].second, "file", "files")));
  const size_t rest = headers.size() - shown.size();
  const std::string more =
      rest == 0 ? "" : fmt::format(" and {} more {}", rest, rest == 1 ? "header" : "headers");
  return fmt::format(
      "C++: {} analysed without headers that were not found, so findings there may be missed: "
      "{}{} (pass -p BUILD_DIR to use the project's compile_commands.json)",
      plural(lacking.size(), "file was", "files were"), fmt::join(shown, ", "), more);
}

}  // namespace

void write_input_errors(std::ostream& out, const std::vector<InputError>& errors,
                        const TextOptions& options) {
  const Palette p = palette(options.color);
  // C++ files that lacked headers: one line for them all when there are several (a repository
  // that includes OpenCV or boost said so once per file, hundreds of lines).
  std::vector<const InputError*> lacking;
  for (const InputError& e : errors) {
    if (e.warning && !e.missing_headers.empty()) lacking.push_back(&e);
  }
  const bool summarise = lacking.size() > 1;
  for (const InputError& e : errors) {
    if (summarise && e.warning && !e.missing_headers.empty()) continue;
    const std::string_view color = e.warning ? p.yellow : p.red;
    const std::string_view word = e.warning ? "warning" : "error";
    // One shape for every problem, the findings' own: `path:line:col: warning: ...`, or
    // `path: warning: ...` without a position; `sealint:` only for what belongs to no file. A
    // header's absolute path is shown relative to the working directory, as findings are.
    const std::string path =
        e.path.empty() ? std::string("sealint") : printable(display_path(e.path));
    if (e.at) {
      out << fmt::format("{}{}:{}:{} {}{}{}: {}\n", p.bold, path, position_text(*e.at), p.reset,
                         color, word, p.reset, printable(e.message));
    } else {
      out << fmt::format("{}{}:{} {}{}{}: {}\n", p.bold, path, p.reset, color, word, p.reset,
                         printable(e.message));
    }
  }
  if (summarise) {
    out << fmt::format("{}sealint:{} {}warning{}: {}\n", p.bold, p.reset, p.yellow, p.reset,
                       printable(missing_headers_line(lacking)));
  }
}

}  // namespace sealint::output
