#include "analyzer/core/fixes.h"

#include <algorithm>

#include <fmt/format.h>

namespace sealint {

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

uint64_t content_digest(std::string_view bytes, uint64_t before) {
  uint64_t hash = before;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace sealint
