#include "analyzer/core/suppressions.h"

#include <algorithm>
#include <cctype>

namespace sealint {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `SL001, SL002` or `SL001,SL002`: ids up to the first character that cannot be in a list.
std::vector<std::string> parse_ids(std::string_view list) {
  std::vector<std::string> ids;
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && (list[i] == ',' || list[i] == ' ')) ++i;
    const size_t start = i;
    while (i < list.size() && std::isalnum(static_cast<unsigned char>(list[i]))) ++i;
    if (i == start) break;
    ids.emplace_back(list.substr(start, i - start));
  }
  return ids;
}

// Finds `marker` in a comment at a word start, case-insensitively for `noqa`.
size_t find_marker(std::string_view text, std::string_view marker) {
  for (size_t at = 0; at + marker.size() <= text.size(); ++at) {
    bool match = true;
    for (size_t k = 0; k < marker.size() && match; ++k) {
      match = std::tolower(static_cast<unsigned char>(text[at + k])) == marker[k];
    }
    if (match && (at == 0 || text[at - 1] == ' ' || text[at - 1] == '#' || text[at - 1] == '/'))
      return at;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<Suppression> parse_suppression(std::string_view comment) {
  // `# sealint: ignore[SL001,SL002]` / `# sealint: ignore` / `# sealint: ignore-file[...]`
  if (size_t at = find_marker(comment, "sealint: ignore"); at != std::string_view::npos) {
    std::string_view rest = comment.substr(at + 15);
    Suppression suppression;
    if (rest.starts_with("-file")) {
      suppression.whole_file = true;
      rest.remove_prefix(5);
    }
    if (!rest.empty() && rest.front() == '[') {
      const size_t close = rest.find(']');
      suppression.rules =
          parse_ids(rest.substr(1, close == std::string_view::npos ? rest.size() - 1 : close - 1));
    }
    return suppression;
  }
  // `// NOLINTNEXTLINE(SL001)` / `// NOLINT(SL001, SL002)` (ids required, as for noqa)
  for (const bool next : {true, false}) {
    const std::string_view marker = next ? "nolintnextline(" : "nolint(";
    if (size_t at = find_marker(comment, marker); at != std::string_view::npos) {
      std::string_view rest = comment.substr(at + marker.size());
      Suppression suppression;
      suppression.next_line = next;
      suppression.rules = parse_ids(rest.substr(0, rest.find(')')));
      if (suppression.rules.empty()) return std::nullopt;
      return suppression;
    }
  }
  // `# noqa: SL001, SL002` (ids required: a bare noqa belongs to other linters)
  if (size_t at = find_marker(comment, "noqa:"); at != std::string_view::npos) {
    Suppression suppression;
    suppression.rules = parse_ids(trim(comment.substr(at + 5)));
    if (suppression.rules.empty()) return std::nullopt;
    return suppression;
  }
  return std::nullopt;
}

bool suppresses(const Suppression& suppression, std::string_view rule_id) {
  return suppression.rules.empty() || std::find(suppression.rules.begin(), suppression.rules.end(),
                                                rule_id) != suppression.rules.end();
}

}  // namespace sealint
