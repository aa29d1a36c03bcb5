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
        out += c;
    }
  }
  return out;
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
    out << fmt::format("::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                       command(d.severity), escape_github_property(d.path), d.span.begin.line,
                       d.span.begin.column, d.span.end.line, d.span.end.column,
                       escape_github_property(d.rule_id + " " + d.rule_name),
                       escape_github_data(fmt::format(
                           "{}\nhelp: {}{}{}{}{}", d.message, d.help, d.confirmation ? "\n" : "",
                           d.confirmation ? confirmation_line(*d.confirmation) : "",
                           d.after_fix ? "\nafter the fix: " : "",
                           d.after_fix ? confirmation_line(*d.after_fix) : "")));
  }
  for (const InputError& error : input_errors) {
    const std::string position =
        error.at ? fmt::format(",line={},col={}", error.at->line, error.at->column) : "";
    out << fmt::format("::{} file={}{},title=sealint input {}::{}\n",
                       error.warning ? "warning" : "error", escape_github_property(error.path),
                       position, error.warning ? "warning" : "error",
                       escape_github_data(error.message));
  }
}

}  // namespace sealint::output
