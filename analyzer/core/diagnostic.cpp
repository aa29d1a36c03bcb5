#include "analyzer/core/diagnostic.h"

#include <tuple>

namespace sealint {

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "error";
}

bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.path, a.span.begin.line, a.span.begin.column, a.rule_id, a.message) <
         std::tie(b.path, b.span.begin.line, b.span.begin.column, b.rule_id, b.message);
}

bool input_error_less(const InputError& a, const InputError& b) {
  const uint32_t a_line = a.at ? a.at->line : 0;
  const uint32_t b_line = b.at ? b.at->line : 0;
  return std::tie(a.path, a_line, a.message) < std::tie(b.path, b_line, b.message);
}

}  // namespace sealint
