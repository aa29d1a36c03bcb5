#include "analyzer/core/fixes.h"

#include <algorithm>

#include <fmt/format.h>

namespace sealint {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

}  // namespace

AppliedFixes apply_fixes(std::string_view code, const std::vector<Diagnostic>& diagnostics,
                         bool unsafe) {
  // Each finding's edits go in together or not at all; a finding whose edits overlap an
  // earlier one's is skipped (a second `--fix` run picks it up).
  std::vector<const Edit*> edits;
  AppliedFixes out;
  for (const Diagnostic& d : diagnostics) {
    if (!d.fix || d.suppressed || (!d.fix->safe && !unsafe)) continue;
    const bool overlaps = std::any_of(d.fix->edits.begin(), d.fix->edits.end(), [&](const Edit& e) {
      return std::any_of(edits.begin(), edits.end(), [&](const Edit* taken) {
        const bool intersect = e.range.begin < taken->range.end && taken->range.begin < e.range.end;
        const bool same_point =
            e.range.begin == taken->range.begin && e.range.end == taken->range.end;
        return intersect || same_point;
      });
    });
    if (overlaps) continue;
    for (const Edit& e : d.fix->edits) edits.push_back(&e);
    out.fixed.push_back(static_cast<size_t>(&d - diagnostics.data()));
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit* a, const Edit* b) { return a->range.begin < b->range.begin; });
  size_t at = 0;
  for (const Edit* e : edits) {
    out.text.append(code.substr(at, e->range.begin - at));
    out.text += e->replacement;
    at = e->range.end;
  }
  out.text.append(code.substr(std::min(at, code.size())));
  return out;
}

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  const auto old_lines = split_lines(before);
  const auto new_lines = split_lines(after);
  // Fixes change few lines: trim the common head and tail, then show the middle as one hunk.
  size_t head = 0;
  while (head < old_lines.size() && head < new_lines.size() && old_lines[head] == new_lines[head])
    ++head;
  size_t tail = 0;
  while (tail < old_lines.size() - head && tail < new_lines.size() - head &&
         old_lines[old_lines.size() - 1 - tail] == new_lines[new_lines.size() - 1 - tail]) {
    ++tail;
  }
  constexpr size_t kContext = 3;
  const size_t start = head > kContext ? head - kContext : 0;
  const size_t old_end = std::min(old_lines.size(), old_lines.size() - tail + kContext);
  const size_t new_end = std::min(new_lines.size(), new_lines.size() - tail + kContext);
  std::string out = fmt::format("--- a/{0}\n+++ b/{0}\n", path);
  out +=
      fmt::format("@@ -{},{} +{},{} @@\n", start + 1, old_end - start, start + 1, new_end - start);
  auto line = [&](char mark, std::string_view text) {
    out += mark;
    out += text;
    if (!text.ends_with('\n')) out += "\n\\ No newline at end of file\n";
  };
  for (size_t i = start; i < head; ++i) line(' ', old_lines[i]);
  for (size_t i = head; i < old_lines.size() - tail; ++i) line('-', old_lines[i]);
  for (size_t i = head; i < new_lines.size() - tail; ++i) line('+', new_lines[i]);
  for (size_t i = old_lines.size() - tail; i < old_end; ++i) line(' ', old_lines[i]);
  return out;
}

uint64_t content_digest(std::string_view bytes, uint64_t before) {
  uint64_t hash = before;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace sealint
