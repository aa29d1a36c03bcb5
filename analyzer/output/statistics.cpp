#include "analyzer/output/statistics.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "analyzer/output/sarif_output.h"

namespace sealint::output {

namespace {

RuleCount& count_of(std::vector<RuleCount>& counts, const std::string& id,
                    const std::string& name) {
  auto it =
      std::find_if(counts.begin(), counts.end(), [&](const RuleCount& c) { return c.id == id; });
  if (it == counts.end()) it = counts.insert(counts.end(), {id, name});
  return *it;
}

}  // namespace

std::vector<RuleCount> rule_counts(const StatisticsInput& input) {
  std::vector<RuleCount> counts;
  for (const Diagnostic& d : input.diagnostics) {
    RuleCount& count = count_of(counts, d.rule_id, d.rule_name);
    ++count.findings;
    // ruff's `[*]`: what `--fix` would fix as asked, never a fix it would leave.
    if (!d.fix) continue;
    ++(d.fix->safe || input.unsafe_fixes ? count.fixable : count.unsafe_fixable);
  }
  for (const LeftOutTest& test : input.left_out) {
    for (const std::string& id : test.rules) {
      const auto rule = std::find_if(input.rules.begin(), input.rules.end(),
                                     [&](const SarifRule& r) { return r.id == id; });
      ++count_of(counts, id, rule == input.rules.end() ? std::string() : rule->name).left_out;
    }
  }
  std::stable_sort(counts.begin(), counts.end(), [](const RuleCount& a, const RuleCount& b) {
    if (a.findings != b.findings) return a.findings > b.findings;
    if (a.left_out != b.left_out) return a.left_out > b.left_out;
    return a.id < b.id;
  });
  return counts;
}

void write_statistics_json(std::ostream& out, const StatisticsInput& input) {
  nlohmann::json array = nlohmann::json::array();
  for (const RuleCount& c : rule_counts(input)) {
    array.push_back({{"code", c.id},
                     {"name", c.name},
                     {"count", c.findings},
                     {"fixable_count", c.fixable},
                     {"unsafe_fixable_count", c.unsafe_fixable},
                     {"left_out_count", c.left_out}});
  }
  out << array.dump(2) << '\n';
}

}  // namespace sealint::output
