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
  // The id of the rule `id_or_name` names, nullopt when none.
  std::optional<std::string> rule_id(std::string_view id_or_name) const {
    const Rule* rule = find(id_or_name);
    if (rule == nullptr) return std::nullopt;
    return std::string(rule->info().id);
  }
  const Rule* find(std::string_view id_or_name) const;

 private:
  std::vector<std::unique_ptr<const Rule>> rules_;
};

}  // namespace sealint::rules
