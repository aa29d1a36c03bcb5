#pragma once
// SL003 oversized-layer: its options and factories. registry.cpp builds it with the defaults;
// tests (and, later, the config loader) pass options.
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "analyzer/core/result.h"
#include "rules/rule.h"

namespace sealint::rules {

struct OversizedLayerOptions {
  double budget_gib = 2.0;  // `budget-gib`: flag a layer whose estimate exceeds this many GiB

  // From the rule's option table, option name to its value's text (`budget-gib` -> "1.5"); an
  // absent option keeps its default. An error names the option and the bad value.
  [[nodiscard]] static Result<OversizedLayerOptions> parse(
      const std::map<std::string, std::string, std::less<>>& table);
};

std::unique_ptr<const Rule> make_sl003_oversized_layer();
std::unique_ptr<const Rule> make_sl003_oversized_layer(const OversizedLayerOptions& options);
std::unique_ptr<const Rule> make_sl003_oversized_layer(double budget_gib);

}  // namespace sealint::rules
