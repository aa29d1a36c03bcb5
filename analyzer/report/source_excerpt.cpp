#include "analyzer/report/source_excerpt.h"

#include <algorithm>

namespace sealint::report {

namespace {

// The byte offset each line starts at; one more entry than lines, the end of the code.
std::vector<size_t> line_starts(std::string_view code) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i] == '\n') starts.push_back(i + 1);
  if (starts.back() != code.size()) starts.push_back(code.size());
  return starts;
}

std::string line_text(std::string_view code, size_t begin, size_t end) {
  std::string_view text = code.substr(begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return std::string(text);
}

// The lines of `code` from `first` to `last` (1-based, both within the code), numbered from
// `number`.
std::vector<SourceLine> numbered(std::string_view code, uint32_t first, uint32_t last,
                                 uint32_t number) {
  const std::vector<size_t> starts = line_starts(code);
  std::vector<SourceLine> out;
  for (uint32_t line = first; line <= last && line < starts.size(); ++line)
    out.push_back({number++, line_text(code, starts[line - 1], starts[line]), true});
  return out;
}

// The 1-based line of byte `offset`.
uint32_t line_of(const std::vector<size_t>& starts, size_t offset) {
  const auto after = std::upper_bound(starts.begin(), starts.end(), offset);
  return static_cast<uint32_t>(std::max<std::ptrdiff_t>(1, after - starts.begin()));
}

}  // namespace

std::vector<SourceLine> lines_around(std::string_view code, uint32_t first, uint32_t last,
                                     uint32_t context) {
  const auto lines = static_cast<uint32_t>(line_starts(code).size() - 1);
  if (first == 0 || first > lines) return {};
  last = std::clamp(last, first, lines);
  const uint32_t from = first > context ? first - context : 1;
  const uint32_t to = std::min(lines, last + context);
  std::vector<SourceLine> out = numbered(code, from, to, from);
  for (SourceLine& line : out) line.marked = line.number >= first && line.number <= last;
  return out;
}

std::optional<FixExcerpt> fix_excerpt(std::string_view code, const Fix& fix) {
  if (fix.edits.empty()) return std::nullopt;
  std::vector<const Edit*> edits;
  for (const Edit& e : fix.edits) edits.push_back(&e);
  std::sort(edits.begin(), edits.end(),
            [](const Edit* a, const Edit* b) { return a->range.begin < b->range.begin; });
  for (size_t i = 0; i < edits.size(); ++i) {
    const ByteRange& r = edits[i]->range;
    if (r.begin > r.end || r.end > code.size()) return std::nullopt;
    if (i > 0 && r.begin < edits[i - 1]->range.end) return std::nullopt;
  }
  const std::vector<size_t> starts = line_starts(code);
  const uint32_t first = line_of(starts, edits.front()->range.begin);
  // An edit ending at a line's start (a whole line removed) ends on the line before it.
  const size_t end = edits.back()->range.end;
  const uint32_t last =
      std::max(first, line_of(starts, end > edits.back()->range.begin && end > 0 ? end - 1 : end));
  std::string fixed;
  size_t at = 0;
  for (const Edit* e : edits) {
    fixed.append(code.substr(at, e->range.begin - at));
    fixed += e->replacement;
    at = e->range.end;
  }
  fixed.append(code.substr(at));
  // The touched lines end at the same place after the fix, moved by what the edits added.
  const size_t region_begin = starts[first - 1];
  const size_t region_end = last < starts.size() ? starts[last] : code.size();
  const auto delta =
      static_cast<std::ptrdiff_t>(fixed.size()) - static_cast<std::ptrdiff_t>(code.size());
  const std::string_view fixed_region = std::string_view(fixed).substr(
      region_begin, static_cast<size_t>(static_cast<std::ptrdiff_t>(region_end) + delta -
                                        static_cast<std::ptrdiff_t>(region_begin)));
  FixExcerpt out;
  out.before = numbered(code, first, last, first);
  const auto fixed_lines = static_cast<uint32_t>(line_starts(fixed_region).size() - 1);
  out.after = numbered(fixed_region, 1, fixed_lines, first);
  return out;
}

}  // namespace sealint::report
