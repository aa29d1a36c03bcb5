#include "analyzer/config/configurations.h"

#include <fmt/format.h>

namespace sealint::config {

Configurations::Configurations(const rules::RuleRegistry& defaults, ConfigOverrides overrides)
    : defaults_(defaults),
      overrides_(std::move(overrides)),
      finder_([&defaults](std::string_view id) { return defaults.rule_ids(id); }) {}

namespace {

// The ids of the rules an option names by id or name; an error names the option and the word.
Result<std::vector<std::string>> canonical_ids(const rules::RuleRegistry& registry,
                                               const std::vector<std::string>& written,
                                               std::string_view option) {
  std::vector<std::string> ids;
  for (const std::string& word : written) {
    std::vector<std::string> named = registry.rule_ids(word);
    if (named.empty())
      return make_error(fmt::format("{} names an unknown rule '{}'", option, word));
    ids.insert(ids.end(), named.begin(), named.end());
  }
  return ids;
}

}  // namespace

Result<const Config*> Configurations::with_overrides(const Config* found) {
  if (auto it = effective_.find(found); it != effective_.end()) return it->second;
  Config config = *found;
  for (const std::string& setting : overrides_.settings) {
    auto applied =
        apply_config_text(config, setting, fmt::format("--config '{}'", setting),
                          [this](std::string_view id) { return defaults_.rule_ids(id); });
    if (!applied) return make_error(applied.error());
  }
  auto select = canonical_ids(defaults_, overrides_.select, "--select");
  if (!select) return make_error(select.error());
  auto extend_select = canonical_ids(defaults_, overrides_.extend_select, "--extend-select");
  if (!extend_select) return make_error(extend_select.error());
  auto ignore = canonical_ids(defaults_, overrides_.ignore, "--ignore");
  if (!ignore) return make_error(ignore.error());
  if (!select->empty()) config.select = std::move(*select);
  config.extend_select.insert(config.extend_select.end(), extend_select->begin(),
                              extend_select->end());
  config.ignore.insert(config.ignore.end(), ignore->begin(), ignore->end());
  if (overrides_.analyse_tests) config.analyse_tests = true;
  const Config* stored = &storage_.emplace_back(std::move(config));
  effective_[found] = stored;
  return stored;
}

Result<const Config*> Configurations::effective(const std::string& path) {
  if (!overrides_.config_path.empty()) {
    if (!explicit_loaded_) {
      explicit_loaded_ = true;
      auto loaded = load_config(overrides_.config_path,
                                [this](std::string_view id) { return defaults_.rule_ids(id); });
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

}  // namespace sealint::config
