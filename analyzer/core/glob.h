#pragma once
// Glob patterns for `exclude`: `*` and `?` stay within a path component, `**` crosses them,
// `[abc]`/`[!a-z]` match one character of a set.
#include <string_view>

namespace sealint {

[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text);

// True when `pattern` matches the relative path, its file name, or (for a pattern without `/`)
// any one of its directory components: `legacy` excludes every folder named legacy.
[[nodiscard]] bool path_matches_glob(std::string_view pattern, std::string_view relative_path);

}  // namespace sealint
