#include "analyzer/core/diagnostic.h"

#include <algorithm>
#include <compare>
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

namespace {

// Three-way comparisons over every field, so that `a` and `b` compare equal only when
// `a == b`: sorting then prints the same bytes whatever order the values came in.

std::strong_ordering compare(const Position& a, const Position& b) {
  return std::tie(a.cell, a.line, a.column, a.utf16_column, a.offset) <=>
         std::tie(b.cell, b.line, b.column, b.utf16_column, b.offset);
}

std::strong_ordering compare(const Span& a, const Span& b) {
  if (const auto order = compare(a.begin, b.begin); order != 0) return order;
  return compare(a.end, b.end);
}

std::strong_ordering compare(const RelatedLocation& a, const RelatedLocation& b) {
  if (const auto order = compare(a.span, b.span); order != 0) return order;
  return a.message <=> b.message;
}

std::strong_ordering compare(const Edit& a, const Edit& b) {
  return std::tie(a.range.begin, a.range.end, a.replacement) <=>
         std::tie(b.range.begin, b.range.end, b.replacement);
}

template <typename T>
std::strong_ordering compare(const std::vector<T>& a, const std::vector<T>& b) {
  return std::lexicographical_compare_three_way(
      a.begin(), a.end(), b.begin(), b.end(), [](const T& x, const T& y) { return compare(x, y); });
}

std::strong_ordering compare(const Fix& a, const Fix& b) {
  if (const auto order = std::tie(a.title, a.safe) <=> std::tie(b.title, b.safe); order != 0) {
    return order;
  }
  return compare(a.edits, b.edits);
}

// An absent value sorts first.
template <typename T>
std::strong_ordering compare(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a || !b) return a.has_value() <=> b.has_value();
  return compare(*a, *b);
}

}  // namespace

// Ordered for reading first (file, start line and column, rule, message), then by every other
// field the outputs print.
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  auto order =
      std::tie(a.path, a.span.begin.cell, a.span.begin.line, a.span.begin.column, a.rule_id,
               a.message) <=> std::tie(b.path, b.span.begin.cell, b.span.begin.line,
                                       b.span.begin.column, b.rule_id, b.message);
  if (order == 0) order = compare(a.span, b.span);
  if (order == 0) {
    order = std::tie(a.severity, a.rule_name, a.help) <=> std::tie(b.severity, b.rule_name, b.help);
  }
  if (order == 0) order = compare(a.related, b.related);
  if (order == 0) order = compare(a.fix, b.fix);
  return order < 0;
}

// Errors without a position (whole-file problems) come before positioned ones of the same file.
bool input_error_less(const InputError& a, const InputError& b) {
  auto order = a.path <=> b.path;
  if (order == 0) order = compare(a.at, b.at);
  if (order == 0) order = a.message <=> b.message;
  return order < 0;
}

}  // namespace sealint
