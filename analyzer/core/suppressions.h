#pragma once
// Inline suppressions: `# noqa: SL001`, `# sealint: ignore[SL001,SL002]`, a bare
// `# sealint: ignore` (every rule), and `# sealint: ignore-file[...]` for the whole file; in C++
// also clang-tidy's `// NOLINT(SL001)`, `// NOLINTNEXTLINE(SL001)` and a block between
// `// NOLINTBEGIN(SL001)` and `// NOLINTEND(SL001)`. A bare `# noqa`, `// NOLINT` or
// `// NOLINTBEGIN` is NOT ours: it usually silences another linter (flake8, clang-tidy), and
// sealint must not lose a leak to it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealint {

// What a suppression comment covers.
enum class SuppressionScope {
  Line,      // its own line
  NextLine,  // `// NOLINTNEXTLINE(SL001)`: the line below the comment
  // `# sealint: ignore-file` / `# sealint: ignore-file[SL004]` (ruff's `# ruff: noqa`), on a line
  // of its own anywhere in the file: the whole file.
  File,
  BlockBegin,  // `// NOLINTBEGIN(SL001)`: the lines down to the matching NOLINTEND
  BlockEnd,    // `// NOLINTEND(SL001)`
};

struct Suppression {
  std::vector<std::string> rules;  // empty: every rule
  SuppressionScope scope = SuppressionScope::Line;
  // The comment holds this suppression and nothing else (no other linter's codes, no words), so
  // deleting the comment deletes only the suppression.
  bool alone = false;
};

// Reads one comment's text (with its `#` or `//`); nullopt when it suppresses nothing.
[[nodiscard]] std::optional<Suppression> parse_suppression(std::string_view comment);

[[nodiscard]] bool suppresses(const Suppression& suppression, std::string_view rule_id);

}  // namespace sealint
