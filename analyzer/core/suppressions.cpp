#include "analyzer/core/suppressions.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace sealint {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// `SL001, SL002`, `SL001,SL002` or `grad-accumulation`: ids and names up to the first character
// that cannot be in a list; `consumed` gets how many characters the list took.
std::vector<std::string> parse_ids(std::string_view list, size_t* consumed = nullptr) {
  std::vector<std::string> ids;
  size_t i = 0;
  size_t end = 0;
  while (i < list.size()) {
    while (i < list.size() && (list[i] == ',' || list[i] == ' ')) ++i;
    const size_t start = i;
    // A rule's name is a code too (`tensor-collection`): a hyphen inside a word belongs to it.
    auto in_word = [&](size_t at) {
      const auto c = static_cast<unsigned char>(list[at]);
      return std::isalnum(c) || (c == '-' && at > start && at + 1 < list.size() &&
                                 std::isalnum(static_cast<unsigned char>(list[at + 1])));
    };
    while (i < list.size() && in_word(i)) ++i;
    if (i == start) break;
    ids.emplace_back(list.substr(start, i - start));
    end = i;
  }
  if (consumed != nullptr) *consumed = end;
  return ids;
}

// `SL001`, `E501`, `RUF100`: letters then digits, as linters write their codes, or a kebab-case
// rule name (`grad-accumulation`); a word of prose read as an id (`# noqa: SL001 because ...`) is
// not one.
bool looks_like_code(std::string_view id) {
  if (id.find('-') != std::string_view::npos) return true;
  size_t letters = 0;
  while (letters < id.size() && std::isalpha(static_cast<unsigned char>(id[letters]))) ++letters;
  return letters > 0 && letters < id.size() &&
         std::all_of(id.begin() + static_cast<std::ptrdiff_t>(letters), id.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool all_codes(const std::vector<std::string>& ids) {
  return std::all_of(ids.begin(), ids.end(),
                     [](const std::string& id) { return looks_like_code(id); });
}

// Does the comment hold nothing but the suppression that starts at `begin` and ends at `end`
// (comment characters and blanks around it)?
bool holds_only(std::string_view comment, size_t begin, size_t end) {
  auto blank = [](std::string_view part, std::string_view allowed) {
    return std::all_of(part.begin(), part.end(), [&](char c) {
      return allowed.find(c) != std::string_view::npos ||
             std::isspace(static_cast<unsigned char>(c));
    });
  };
  return end <= comment.size() && blank(comment.substr(0, begin), "#/") &&
         blank(comment.substr(end), "");
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
      suppression.scope = SuppressionScope::File;
      rest.remove_prefix(5);
    }
    size_t end = comment.size() - rest.size();
    if (!rest.empty() && rest.front() == '[') {
      const size_t close = rest.find(']');
      suppression.rules =
          parse_ids(rest.substr(1, close == std::string_view::npos ? rest.size() - 1 : close - 1));
      end = close == std::string_view::npos ? std::string_view::npos : end + close + 1;
    }
    suppression.alone = holds_only(comment, at, end) && all_codes(suppression.rules);
    return suppression;
  }
  // `// NOLINTNEXTLINE(SL001)` / `// NOLINTBEGIN(SL001)` / `// NOLINTEND(SL001)` /
  // `// NOLINT(SL001, SL002)` (ids required, as for noqa)
  constexpr std::pair<std::string_view, SuppressionScope> kNolint[] = {
      {"nolintnextline(", SuppressionScope::NextLine},
      {"nolintbegin(", SuppressionScope::BlockBegin},
      {"nolintend(", SuppressionScope::BlockEnd},
      {"nolint(", SuppressionScope::Line}};
  for (const auto& [marker, scope] : kNolint) {
    if (size_t at = find_marker(comment, marker); at != std::string_view::npos) {
      std::string_view rest = comment.substr(at + marker.size());
      Suppression suppression;
      suppression.scope = scope;
      const size_t close = rest.find(')');
      suppression.rules = parse_ids(rest.substr(0, close));
      if (suppression.rules.empty()) return std::nullopt;
      suppression.alone = close != std::string_view::npos &&
                          holds_only(comment, at, at + marker.size() + close + 1) &&
                          all_codes(suppression.rules);
      return suppression;
    }
  }
  // `# noqa: SL001, SL002` (ids required: a bare noqa belongs to other linters)
  if (size_t at = find_marker(comment, "noqa:"); at != std::string_view::npos) {
    Suppression suppression;
    const std::string_view ids = comment.substr(at + 5);
    const std::string_view trimmed = trim(ids);
    size_t consumed = 0;
    suppression.rules = parse_ids(trimmed, &consumed);
    if (suppression.rules.empty()) return std::nullopt;
    const size_t skipped = static_cast<size_t>(trimmed.data() - ids.data());
    suppression.alone =
        holds_only(comment, at, at + 5 + skipped + consumed) && all_codes(suppression.rules);
    return suppression;
  }
  return std::nullopt;
}

bool suppresses(const Suppression& suppression, std::string_view rule_id) {
  return suppression.rules.empty() || std::find(suppression.rules.begin(), suppression.rules.end(),
                                                rule_id) != suppression.rules.end();
}

}  // namespace sealint
