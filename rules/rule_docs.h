#pragma once
// The docs page of each rule (docs/rules/<ID>.md), embedded at build time.
#include <string_view>

namespace sealint::rules {

// The page's markdown, or empty when the rule has none.
[[nodiscard]] std::string_view rule_doc(std::string_view id);

}  // namespace sealint::rules
