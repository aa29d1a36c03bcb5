#include "rules/support/quote.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace sealint::rules {

namespace {

// `text` without a trailing partial UTF-8 sequence: continuation bytes and the lead byte that
// starts them are dropped together.
std::string_view cut_at_code_point(std::string_view text) {
  size_t end = text.size();
  while (end > 0 && (static_cast<unsigned char>(text[end - 1]) & 0xC0U) == 0x80U) --end;
  if (end == 0) return {};
  const auto lead = static_cast<unsigned char>(text[end - 1]);
  if (lead < 0x80U) return text;  // ASCII last: `end` moved over nothing but whole characters
  const size_t length = lead >= 0xF0U ? 4 : lead >= 0xE0U ? 3 : lead >= 0xC0U ? 2 : 1;
  // The sequence that starts at end - 1 is whole only when all its bytes are present.
  return end - 1 + length <= text.size() ? text.substr(0, end - 1 + length)
                                         : text.substr(0, end - 1);
}

}  // namespace

QuotedExpr quote_range(const ir::Module& module, ir::SourceRange range, size_t max_bytes) {
  const std::string_view code = module.file().code();
  if (range.begin > code.size()) return {{}, false};
  const uint32_t length = range.end > range.begin ? range.end - range.begin : 0;
  std::string_view text = code.substr(range.begin, length);
  const size_t line_end = text.find_first_of("\r\n");
  if (text.size() <= max_bytes && line_end == std::string_view::npos)
    return {std::string(text), true};
  text = cut_at_code_point(text.substr(0, std::min(line_end, max_bytes)));
  return {std::string(text) + "...", false};
}

QuotedExpr quote(const ir::Module& module, const ir::Expr& expr) {
  return quote_range(module, expr.range);
}

std::string quote_call(const ir::Module& module, const ir::Expr& call) {
  QuotedExpr quoted = quote(module, call);
  if (quoted.complete || call.kind != ir::ExprKind::Call) return quoted.text;
  const QuotedExpr callee = quote(module, *call.callee());
  return callee.complete ? callee.text + "(...)" : quoted.text;
}

std::string quote_cpp_construction(const ir::Module& module, ir::SourceRange range,
                                   size_t max_bytes) {
  const QuotedExpr whole = quote_range(module, range, max_bytes);
  if (whole.complete) return whole.text;
  const std::string_view code = module.file().code();
  std::string_view text = code.substr(range.begin, range.end - range.begin);
  std::string_view head = text.substr(0, std::min(text.find_first_of("({"), text.size()));
  while (!head.empty() && std::isspace(static_cast<unsigned char>(head.back())) != 0)
    head.remove_suffix(1);
  if (head.empty() || head.find_first_of("\r\n") != std::string_view::npos) return {};
  return fmt::format("{}(...)", head);
}

}  // namespace sealint::rules
