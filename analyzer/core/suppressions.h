#pragma once
// Inline suppressions: `# noqa: SL001`, `# sealint: ignore[SL001,SL002]`, and a bare
// `# sealint: ignore` (every rule). A bare `# noqa` is NOT ours: it usually silences another
// linter (flake8's E501), and sealint must not lose a leak to it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealint {

struct Suppression {
  std::vector<std::string> rules;  // empty: every rule
};

// Reads one comment's text (with its `#` or `//`); nullopt when it suppresses nothing.
[[nodiscard]] std::optional<Suppression> parse_suppression(std::string_view comment);

[[nodiscard]] bool suppresses(const Suppression& suppression, std::string_view rule_id);

}  // namespace sealint
