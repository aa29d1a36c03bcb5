#pragma once
// A unified diff of two texts, as `--diff` prints fixes: the lines that changed, found by
// Myers's O(ND) difference algorithm, in hunks with three lines of context (GNU diff's and git's
// default), so that two fixes far apart print as two small hunks.
#include <string>
#include <string_view>

namespace sealint {

// `--- a/path` / `+++ b/path` and the hunks turning `before` into `after`; empty when they are
// equal. Changes less than seven lines apart share a hunk, as GNU diff joins them.
[[nodiscard]] std::string unified_diff(std::string_view path, std::string_view before,
                                       std::string_view after);

}  // namespace sealint
