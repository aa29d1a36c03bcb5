#include "analyzer/output/statistics.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace sealint::output {

std::vector<RuleCount> rule_counts(const std::vector<Diagnostic>& diagnostics) {
  std::vector<RuleCount> counts;
  for (const Diagnostic& d : diagnostics) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const RuleCount& c) { return c.id == d.rule_id; });
    if (it == counts.end()) it = counts.insert(counts.end(), {d.rule_id, d.rule_name, 0, 0});
    ++it->findings;
    if (d.fix) ++it->fixable;
  }
  std::stable_sort(counts.begin(), counts.end(), [](const RuleCount& a, const RuleCount& b) {
    return a.findings != b.findings ? a.findings > b.findings : a.id < b.id;
  });
  return counts;
}

void write_statistics_json(std::ostream& out, const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json array = nlohmann::json::array();
  for (const RuleCount& c : rule_counts(diagnostics)) {
    array.push_back(
        {{"code", c.id}, {"name", c.name}, {"count", c.findings}, {"fixable_count", c.fixable}});
  }
  out << array.dump(2) << '\n';
}

}  // namespace sealint::output
