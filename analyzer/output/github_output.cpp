#include "analyzer/output/github_output.h"

#include <fmt/format.h>

#include "analyzer/output/json_output.h"

namespace sealint::output {

namespace {

std::string_view command(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "notice";
  }
  return "error";
}

std::string escape(std::string_view text, bool property) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        // Other control characters (ESC of a file named `a\x1b[31m.py`, BEL, DEL; not tab) would
        // reach the log viewer, which renders ANSI sequences: percent-encoded, GitHub shows them as
        // text.
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == '\x7f')
          out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out;
}

// GitHub places an annotation on a line of the file as stored: a notebook's is a line of its JSON,
// not of a cell, so a notebook's finding is annotated on the file and its title names the cell and
// line (docs/notebooks.md).
std::string annotation_position(const Span& span, bool with_end = true) {
  if (span.begin.cell != 0) return {};
  if (!with_end) return fmt::format(",line={},col={}", span.begin.line, span.begin.column);
  return fmt::format(",line={},col={},endLine={},endColumn={}", span.begin.line, span.begin.column,
                     span.end.line, span.end.column);
}

std::string cell_of(const Span& span) {
  if (span.begin.cell == 0) return {};
  return fmt::format(" (cell {}, line {}, column {})", span.begin.cell, span.begin.line,
                     span.begin.column);
}

}  // namespace

std::string escape_github_data(std::string_view text) {
  return escape(text, false);
}
std::string escape_github_property(std::string_view text) {
  return escape(text, true);
}

void write_github(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                  const std::vector<InputError>& input_errors) {
  for (const Diagnostic& d : diagnostics) {
    if (d.suppressed) continue;
    out << fmt::format("::{} file={}{},title={}::{}\n", command(d.severity),
                       escape_github_property(d.path), annotation_position(d.span),
                       escape_github_property(d.rule_id + " " + d.rule_name + cell_of(d.span)),
                       escape_github_data(fmt::format(
                           "{}\nhelp: {}{}{}{}{}", d.message, d.help, d.confirmation ? "\n" : "",
                           d.confirmation ? confirmation_line(*d.confirmation) : "",
                           d.after_fix ? "\nafter the fix: " : "",
                           d.after_fix ? confirmation_line(*d.after_fix) : "")));
  }
  for (const InputError& error : input_errors) {
    const std::string position = error.at ? annotation_position({*error.at, *error.at}, false) : "";
    const std::string cell = error.at ? cell_of({*error.at, *error.at}) : "";
    out << fmt::format("::{} file={}{},title=sealint input {}{}::{}\n",
                       error.warning ? "warning" : "error", escape_github_property(error.path),
                       position, error.warning ? "warning" : "error", escape_github_property(cell),
                       escape_github_data(error.message));
  }
}

}  // namespace sealint::output
