#pragma once
// Every rule, in id order: one factory line per rule in registry.cpp (STYLE.md §2).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/config.h"
#include "analyzer/core/result.h"
#include "rules/rule.h"

namespace sealint::rules {

class RuleRegistry {
 public:
  // Every rule with its default options.
  RuleRegistry();
  // Every rule with the options of a configuration (`[tool.sealint.rules.SL003]`); an error names
  // the configuration file, the rule and the bad option.
  [[nodiscard]] static Result<RuleRegistry> with_options(const Config& config);

  const std::vector<std::unique_ptr<const Rule>>& rules() const { return rules_; }
  // Does `id` name a rule (for configuration and suppression checks)?
  bool is_rule(std::string_view id) const { return find(id) != nullptr; }
  // The ids a selector names, in registry order; empty when it names none. A selector is an id
  // or a name (`SL001`, `grad-accumulation`), an id prefix (`SL00`), or `ALL`; case does not
  // matter.
  std::vector<std::string> rule_ids(std::string_view selector) const;
  const Rule* find(std::string_view id_or_name) const;

 private:
  std::vector<std::unique_ptr<const Rule>> rules_;
};

}  // namespace sealint::rules
