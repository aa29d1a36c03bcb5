#pragma once
// The source a report shows beside a finding: its lines with a little context, and the lines its
// fix changes, before and after the fix.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::report {

struct SourceLine {
  uint32_t number = 0;  // 1-based
  std::string text;     // without its line break
  bool marked = false;  // one of the lines asked for, not context
  bool operator==(const SourceLine&) const = default;
};

// Lines `first` to `last` of `code` (1-based), with `context` lines either side; empty when
// `first` is past the end.
[[nodiscard]] std::vector<SourceLine> lines_around(std::string_view code, uint32_t first,
                                                   uint32_t last, uint32_t context);

struct FixExcerpt {
  std::vector<SourceLine> before;  // the lines the fix's edits touch, as they are
  std::vector<SourceLine> after;   // the same lines with the edits applied
};

// The lines `fix` changes in `code` (the file its edits' byte ranges are in); nullopt when an
// edit falls outside the code or overlaps another (the file changed since it was analysed).
[[nodiscard]] std::optional<FixExcerpt> fix_excerpt(std::string_view code, const Fix& fix);

}  // namespace sealint::report
