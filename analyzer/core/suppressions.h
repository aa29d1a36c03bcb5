#pragma once
// Inline suppressions: `# noqa: SL001`, `# sealint: ignore[SL001,SL002]`, a bare
// `# sealint: ignore` (every rule), and `# sealint: ignore-file[...]` for the whole file; in C++
// also `// NOLINT(SL001)` and
// `// NOLINTNEXTLINE(SL001)`. A bare `# noqa` or `// NOLINT` is NOT ours: it usually silences
// another linter (flake8, clang-tidy), and sealint must not lose a leak to it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealint {

struct Suppression {
  std::vector<std::string> rules;  // empty: every rule
  bool next_line = false;          // `// NOLINTNEXTLINE(SL001)`: the line below the comment
  // `# sealint: ignore-file` / `# sealint: ignore-file[SL004]` (ruff's `# ruff: noqa`), on a line
  // of its own anywhere in the file: the whole file.
  bool whole_file = false;
};

// Reads one comment's text (with its `#` or `//`); nullopt when it suppresses nothing.
[[nodiscard]] std::optional<Suppression> parse_suppression(std::string_view comment);

[[nodiscard]] bool suppresses(const Suppression& suppression, std::string_view rule_id);

}  // namespace sealint
