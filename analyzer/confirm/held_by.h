#pragma once
// What holds a confirmed growth: the probe's chain of references from a variable's root to the
// newest tensor with a graph it keeps (docs/confirm.md, `held_by`).
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

// The chain the probe read for the variable `subject` of the result entry `found`; empty when
// it kept no graph or the chain is malformed.
[[nodiscard]] std::vector<HeldLink> held_by(const nlohmann::json& found, std::string_view subject);

// The function whose plain local holds the growth (`total_loss`, local of validate; a local list
// and what it holds): freed when that function returns. Empty for `self`'s attributes and
// globals, which outlive it.
[[nodiscard]] std::string holder_local_of(const std::vector<HeldLink>& held);

}  // namespace sealint::confirm
