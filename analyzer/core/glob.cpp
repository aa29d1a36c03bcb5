#include "analyzer/core/glob.h"

#include <string>
#include <vector>

namespace sealint {

namespace {

// Matches one bracket expression at pattern[p] against c; sets `end` past the closing `]`.
bool match_class(std::string_view pattern, size_t p, char c, size_t& end) {
  size_t i = p + 1;
  const bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool matched = false;
  bool first = true;
  while (i < pattern.size() && (first || pattern[i] != ']')) {
    first = false;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      matched = matched || (pattern[i] <= c && c <= pattern[i + 2]);
      i += 3;
    } else {
      matched = matched || pattern[i] == c;
      ++i;
    }
  }
  end = i < pattern.size() ? i + 1 : pattern.size();
  return matched != negate;
}

}  // namespace

// Iterative matcher (no recursion on user input) with two backtrack points: the latest `*`,
// which may only grow within a path component, and the latest `**`, which may grow across them.
// When the `*` would have to cross a `/`, the attempt from the current `**` start has failed, so
// the `**` grows instead. Keeping only the latest of each is enough: a `**` can absorb whatever an
// earlier star would have taken, and a `*` before a `**/` sits in a component already fixed by
// the `/` after it.
bool glob_match(std::string_view pattern, std::string_view text) {
  constexpr size_t kNone = std::string_view::npos;
  size_t p = 0;
  size_t t = 0;
  size_t star_p = kNone;  // pattern position after the latest `*`
  size_t star_t = 0;      // text position that `*` has grown to
  size_t globstar_p = kNone;
  size_t globstar_t = 0;
  bool globstar_slash = false;  // `**/` starting a component: matches "" or text ending in `/`
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      const bool starts_component = p == 0 || pattern[p - 1] == '/';
      if (p + 1 < pattern.size() && pattern[p + 1] == '*') {
        p += 2;
        globstar_slash = starts_component && p < pattern.size() && pattern[p] == '/';
        if (globstar_slash) ++p;
        globstar_p = p;
        globstar_t = t;
        star_p = kNone;
      } else {
        ++p;
        star_p = p;
        star_t = t;
      }
      continue;
    }
    if (p < pattern.size() && text[t] != '/') {
      if (pattern[p] == '?') {
        ++p;
        ++t;
        continue;
      }
      size_t end = 0;
      if (pattern[p] == '[' && match_class(pattern, p, text[t], end)) {
        p = end;
        ++t;
        continue;
      }
    }
    if (p < pattern.size() && pattern[p] == text[t] && pattern[p] != '[') {
      ++p;
      ++t;
      continue;
    }
    if (star_p != kNone && text[star_t] != '/') {
      p = star_p;
      t = ++star_t;
      continue;
    }
    if (globstar_p != kNone) {
      star_p = kNone;
      if (globstar_slash) {
        const size_t slash = text.find('/', globstar_t);
        if (slash == kNone) return false;
        globstar_t = slash + 1;
      } else {
        ++globstar_t;
      }
      p = globstar_p;
      t = globstar_t;
      continue;
    }
    return false;
  }
  // The text is used up: what is left must be stars, each `**/` starting a component included.
  while (p < pattern.size()) {
    if (pattern[p] != '*') return false;
    const bool starts_component = p == 0 || pattern[p - 1] == '/';
    if (p + 1 < pattern.size() && pattern[p + 1] == '*') {
      p += 2;
      if (starts_component && p < pattern.size() && pattern[p] == '/') ++p;
    } else {
      ++p;
    }
  }
  return true;
}

bool path_matches_glob(std::string_view pattern, std::string_view relative_path) {
  while (relative_path.starts_with("./")) relative_path.remove_prefix(2);
  while (pattern.starts_with("./")) pattern.remove_prefix(2);
  if (pattern.ends_with('/')) pattern.remove_suffix(1);
  if (glob_match(pattern, relative_path)) return true;
  if (pattern.find('/') != std::string_view::npos) {
    // `dir/**` style patterns also exclude what lies below a matching folder.
    const std::string with_rest = std::string(pattern) + "/**";
    return glob_match(with_rest, relative_path);
  }
  size_t start = 0;
  while (start <= relative_path.size()) {
    const size_t slash = relative_path.find('/', start);
    const std::string_view component = relative_path.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (glob_match(pattern, component)) return true;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return false;
}

}  // namespace sealint
