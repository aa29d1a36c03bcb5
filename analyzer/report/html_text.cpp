#include "analyzer/report/html_text.h"

namespace sealint::report {

std::string html_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(ch);
        if ((byte < 0x20 && ch != '\n' && ch != '\t') || byte == 0x7f) {
          out += "\xEF\xBF\xBD";
        } else {
          out += ch;
        }
      }
    }
  }
  return out;
}

}  // namespace sealint::report
