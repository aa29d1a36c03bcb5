#include "analyzer/cpp/comments.h"

#include <string>

namespace sealint::cpp {

std::vector<ByteRange> find_comments(std::string_view code) {
  std::vector<ByteRange> out;
  auto add = [&](size_t begin, size_t end) {
    out.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end)});
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == 'R' && i + 1 < code.size() && code[i + 1] == '"') {
      const size_t open = code.find('(', i);
      if (open == std::string_view::npos || open < i + 2) break;
      std::string close(1, ')');
      close.append(code.substr(i + 2, open - i - 2));
      close.push_back('"');
      const size_t end = code.find(close, open);
      i = end == std::string_view::npos ? code.size() : end + close.size() - 1;
    } else if (c == '"' || c == '\'') {
      for (++i; i < code.size() && code[i] != c && code[i] != '\n'; ++i) {
        if (code[i] == '\\') ++i;
      }
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      const size_t end = std::min(code.find('\n', i), code.size());
      add(i, end);
      i = end - 1;
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      const size_t end = code.find("*/", i + 2);
      const size_t stop = end == std::string_view::npos ? code.size() : end + 2;
      add(i, stop);
      i = stop - 1;
    }
  }
  return out;
}

}  // namespace sealint::cpp
