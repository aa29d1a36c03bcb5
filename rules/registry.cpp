#include "rules/registry.h"

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
}

const Rule* RuleRegistry::find(std::string_view id_or_name) const {
  for (const auto& rule : rules_) {
    if (rule->info().id == id_or_name || rule->info().name == id_or_name) return rule.get();
  }
  return nullptr;
}

}  // namespace sealint::rules
