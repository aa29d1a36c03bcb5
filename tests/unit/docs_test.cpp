// Runs sealint on every rule page's Example (it must report the rule) and Use instead (it must
// stay quiet), so the docs never show code the tool disagrees with (STYLE.md §4).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/driver/driver.h"
#include "rules/registry.h"
#include "rules/rule_docs.h"

namespace sealint {
namespace {

std::vector<std::string> python_blocks(std::string_view doc) {
  std::vector<std::string> blocks;
  size_t at = 0;
  while ((at = doc.find("```python\n", at)) != std::string_view::npos) {
    at += 10;
    const size_t end = doc.find("```", at);
    if (end == std::string_view::npos) break;
    blocks.emplace_back(doc.substr(at, end - at));
    at = end + 3;
  }
  return blocks;
}

size_t findings(const std::string& code, std::string_view rule) {
  auto grammar = python::PythonGrammar::load();
  EXPECT_TRUE(grammar.has_value());
  const rules::RuleRegistry registry;
  const Driver driver(registry, *grammar);
  // The rule turned on as a user would (`extend-select`): some rules, such as SL012, judge only a
  // run whose selection a configuration made.
  auto config = parse_config_text(fmt::format("extend-select = [\"{}\"]\n", rule), "pyproject.toml",
                                  [&](std::string_view id) { return registry.rule_ids(id); });
  EXPECT_TRUE(config.has_value());
  if (!config) return 0;
  FileInput input{"example.py", code};
  input.config = &*config;
  const auto result = driver.run({input}, DriverOptions{1, false, {}});
  EXPECT_TRUE(result.errors.empty()) << code;
  size_t n = 0;
  for (const Diagnostic& d : result.diagnostics) n += d.rule_id == rule ? 1U : 0U;
  return n;
}

TEST(DocsTest, ExampleReportsTheRuleAndUseInsteadIsQuiet) {
  const rules::RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view id = rule->info().id;
    const auto blocks = python_blocks(rules::rule_doc(id));
    ASSERT_GE(blocks.size(), 2U) << id << " needs an Example and a Use instead block";
    EXPECT_GT(findings(blocks[0], id), 0U) << id << " Example is not flagged:\n" << blocks[0];
    EXPECT_EQ(findings(blocks[1], id), 0U) << id << " Use instead is flagged:\n" << blocks[1];
  }
}

}  // namespace
}  // namespace sealint
