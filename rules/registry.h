#pragma once
// Every rule, in id order: one factory line per rule in registry.cpp (STYLE.md §2).
#include <memory>
#include <string_view>
#include <vector>

#include "rules/rule.h"

namespace sealint::rules {

class RuleRegistry {
 public:
  RuleRegistry();
  const std::vector<std::unique_ptr<const Rule>>& rules() const { return rules_; }
  const Rule* find(std::string_view id_or_name) const;

 private:
  std::vector<std::unique_ptr<const Rule>> rules_;
};

}  // namespace sealint::rules
