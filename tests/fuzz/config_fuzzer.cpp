// libFuzzer target: any bytes as a `.sealint.toml` / `[tool.sealint]` table, through the
// configuration reader and the rule options built from it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/config.h"
#include "rules/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sealint;
  static const rules::RuleRegistry registry;
  const RuleIdCheck is_rule = [](std::string_view selector) { return registry.rule_ids(selector); };
  const std::string_view toml(reinterpret_cast<const char*>(data), size);
  auto config = parse_config_text(toml, ".sealint.toml", is_rule);
  if (!config) return 0;
  (void)config->enabled("SL001", true, "train.py");
  (void)config->enabled("SL009", false, "tests/test_model.py");
  (void)rules::RuleRegistry::with_options(*config);
  return 0;
}
