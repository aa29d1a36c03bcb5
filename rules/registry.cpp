#include "rules/registry.h"

#include <algorithm>

#include <fmt/format.h>

namespace sealint::rules {

std::unique_ptr<const Rule> make_sl001_grad_accumulation();
std::unique_ptr<const Rule> make_sl002_tensor_collection();
std::unique_ptr<const Rule> make_sl003_oversized_layer();
std::unique_ptr<const Rule> make_sl004_scope_extrusion();
std::unique_ptr<const Rule> make_sl005_hidden_state_not_detached();
std::unique_ptr<const Rule> make_sl006_eval_without_no_grad();
std::unique_ptr<const Rule> make_sl007_module_in_loop();
std::unique_ptr<const Rule> make_sl008_oom_retry_in_except();
std::unique_ptr<const Rule> make_sl009_tf_graph_growth();
std::unique_ptr<const Rule> make_sl010_retain_graph_in_loop();
std::unique_ptr<const Rule> make_sl011_dataset_object_lists();
std::unique_ptr<const Rule> make_sl012_unused_suppression();

RuleRegistry::RuleRegistry() {
  rules_.push_back(make_sl001_grad_accumulation());
  rules_.push_back(make_sl002_tensor_collection());
  rules_.push_back(make_sl003_oversized_layer());
  rules_.push_back(make_sl004_scope_extrusion());
  rules_.push_back(make_sl005_hidden_state_not_detached());
  rules_.push_back(make_sl006_eval_without_no_grad());
  rules_.push_back(make_sl007_module_in_loop());
  rules_.push_back(make_sl008_oom_retry_in_except());
  rules_.push_back(make_sl009_tf_graph_growth());
  rules_.push_back(make_sl010_retain_graph_in_loop());
  rules_.push_back(make_sl011_dataset_object_lists());
  rules_.push_back(make_sl012_unused_suppression());
}

Result<RuleRegistry> RuleRegistry::with_options(const Config& config) {
  // `file:line: rules.SL003.budget-gib: ...`, or without a line when TOML gave none.
  auto where = [&](std::string_view id, std::string_view option) {
    auto it = config.rule_option_lines.find(fmt::format("{}.{}", id, option));
    return it == config.rule_option_lines.end()
               ? fmt::format("{}: rules.{}.{}", config.path, id, option)
               : fmt::format("{}:{}: rules.{}.{}", config.path, it->second, id, option);
  };
  RuleRegistry registry;
  for (const auto& [id, table] : config.rule_options) {
    if (table.empty()) continue;
    auto rule = std::find_if(registry.rules_.begin(), registry.rules_.end(),
                             [&](const auto& r) { return r->info().id == id; });
    if (rule == registry.rules_.end())
      return make_error(fmt::format("{}: unknown option", where(id, table.begin()->first)));
    const auto schema = (*rule)->options();
    for (const auto& [option, value] : table) {
      // Name the option at fault and its line, not the table's first.
      auto known = std::find_if(schema.begin(), schema.end(),
                                [&](const RuleOption& o) { return o.name == option; });
      if (known == schema.end())
        return make_error(fmt::format("{}: unknown option", where(id, option)));
      if (auto problem = known->check(value))
        return make_error(fmt::format("{}: {}", where(id, option), *problem));
    }
    *rule = (*rule)->with_options(table);
  }
  return registry;
}

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::vector<std::string> RuleRegistry::rule_ids(std::string_view selector) const {
  std::vector<std::string> ids;
  const bool all = equal_ignoring_case(selector, "ALL");
  for (const auto& rule : rules_) {
    const std::string_view id = rule->info().id;
    // A prefix is at least the letters of an id ("SL"), so that a stray word names nothing.
    const bool prefix = selector.size() >= 2 && selector.size() <= id.size() &&
                        equal_ignoring_case(id.substr(0, selector.size()), selector);
    if (all || prefix || equal_ignoring_case(rule->info().name, selector)) ids.emplace_back(id);
  }
  return ids;
}

const Rule* RuleRegistry::find(std::string_view id_or_name) const {
  for (const auto& rule : rules_) {
    if (rule->info().id == id_or_name || rule->info().name == id_or_name) return rule.get();
  }
  return nullptr;
}

}  // namespace sealint::rules
