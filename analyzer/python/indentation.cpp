#include "analyzer/python/indentation.h"

namespace sealint::python {

std::optional<size_t> first_line_indented_too_deep(std::string_view code) {
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos) end = code.size();
    size_t columns = 0;
    size_t at = start;
    for (; at < end && (code[at] == ' ' || code[at] == '\t' || code[at] == '\f'); ++at) {
      if (code[at] == '\t') {
        columns = (columns / 8 + 1) * 8;
      } else if (code[at] == ' ') {
        ++columns;
      }
    }
    const bool blank_or_comment = at == end || code[at] == '#' || code[at] == '\r';
    if (!blank_or_comment && columns > kMaxIndentColumns) return start;
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace sealint::python
