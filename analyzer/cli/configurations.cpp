#include "analyzer/cli/configurations.h"

#include <fmt/format.h>

namespace sealint::cli {

Configurations::Configurations(const rules::RuleRegistry& defaults, ConfigOverrides overrides)
    : defaults_(defaults),
      overrides_(std::move(overrides)),
      finder_([&defaults](std::string_view id) { return defaults.is_rule(id); }) {}

Result<const Config*> Configurations::with_overrides(const Config* found) {
  if (auto it = effective_.find(found); it != effective_.end()) return it->second;
  Config config = *found;
  for (const std::string& id : overrides_.select) {
    if (!defaults_.is_rule(id))
      return make_error(fmt::format("--select names an unknown rule '{}'", id));
  }
  for (const std::string& id : overrides_.extend_select) {
    if (!defaults_.is_rule(id))
      return make_error(fmt::format("--extend-select names an unknown rule '{}'", id));
  }
  for (const std::string& id : overrides_.ignore) {
    if (!defaults_.is_rule(id))
      return make_error(fmt::format("--ignore names an unknown rule '{}'", id));
  }
  if (!overrides_.select.empty()) config.select = overrides_.select;
  config.extend_select.insert(config.extend_select.end(), overrides_.extend_select.begin(),
                              overrides_.extend_select.end());
  config.ignore.insert(config.ignore.end(), overrides_.ignore.begin(), overrides_.ignore.end());
  const Config* stored = &storage_.emplace_back(std::move(config));
  effective_[found] = stored;
  return stored;
}

Result<const Config*> Configurations::effective(const std::string& path) {
  if (!overrides_.config_path.empty()) {
    if (!explicit_loaded_) {
      explicit_loaded_ = true;
      auto loaded = load_config(overrides_.config_path,
                                [this](std::string_view id) { return defaults_.is_rule(id); });
      if (!loaded) return make_error(loaded.error());
      if (!*loaded) {
        return make_error(fmt::format("{}: has no [tool.sealint] table", overrides_.config_path));
      }
      explicit_ = std::move(**loaded);
    }
    return with_overrides(&*explicit_);
  }
  auto found = finder_.find(path);
  if (!found) return make_error(found.error());
  return with_overrides(*found);
}

Result<bool> Configurations::assign(FileInput& input) {
  auto config = effective(input.path);
  if (!config) return make_error(config.error());
  input.config = *config;
  if ((*config)->rule_options.empty()) return true;
  auto it = registries_.find(*config);
  if (it == registries_.end()) {
    auto registry = rules::RuleRegistry::with_options(**config);
    if (!registry) return make_error(registry.error());
    it = registries_.emplace(*config, std::move(*registry)).first;
  }
  input.registry = &it->second;
  return true;
}

}  // namespace sealint::cli
