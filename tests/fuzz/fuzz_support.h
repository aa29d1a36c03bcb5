#pragma once
// What every fuzz target shares: the grammar, the rules and a driver, loaded once per process
// (libFuzzer calls the target millions of times; loading them each time would measure the load).
#include <string>
#include <vector>

#include "analyzer/driver/driver.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/python/grammar.h"
#include "rules/registry.h"

namespace sealint::fuzz {

class Lint {
 public:
  static const Lint& get() {
    static const Lint lint;
    return lint;
  }
  [[nodiscard]] const Driver& driver() const { return driver_; }
  [[nodiscard]] const std::vector<output::SarifRule>& sarif_rules() const { return sarif_rules_; }

 private:
  Lint() : grammar_(load_grammar()), driver_(registry_, grammar_) {
    for (const auto& rule : registry_.rules()) {
      const RuleInfo& info = rule->info();
      sarif_rules_.push_back({std::string(info.id), std::string(info.name),
                              std::string(info.summary), "", info.severity, "", "high"});
    }
  }
  static python::PythonGrammar load_grammar() {
    auto grammar = python::PythonGrammar::load();
    if (!grammar) __builtin_trap();  // a broken build, not a finding
    return std::move(*grammar);
  }

  rules::RuleRegistry registry_;
  python::PythonGrammar grammar_;
  Driver driver_;
  std::vector<output::SarifRule> sarif_rules_;
};

}  // namespace sealint::fuzz
