#include "rules/registry.h"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "rules/rule_docs.h"

namespace sealint::rules {
namespace {

namespace fs = std::filesystem;

TEST(RegistryTest, IdsAreUniqueAndSorted) {
  const RuleRegistry registry;
  std::string previous;
  for (const auto& rule : registry.rules()) {
    const std::string id(rule->info().id);
    EXPECT_GT(id, previous) << "ids must be unique and in order";
    previous = id;
  }
}

TEST(RegistryTest, NamesAreKebabCase) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    for (char c : rule->info().name)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '-') << rule->info().name;
  }
}

TEST(RegistryTest, EveryRuleHasADocsPageWhoseHeadingNamesIt) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view doc = rule_doc(rule->info().id);
    const std::string heading =
        "# " + std::string(rule->info().id) + " " + std::string(rule->info().name) + "\n";
    EXPECT_TRUE(doc.starts_with(heading)) << rule->info().id;
  }
}

TEST(RegistryTest, DocsPageWhatItDoesIsTheRuleSummary) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view doc = rule_doc(rule->info().id);
    const std::string section = "## What it does\n\n" + std::string(rule->info().summary);
    EXPECT_NE(doc.find(section), std::string_view::npos) << rule->info().id;
  }
}

TEST(RegistryTest, EveryRuleHasAFixture) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const fs::path fixture = fs::path(SEALINT_SOURCE_DIR) / "fixtures" / "python" /
                             (std::string(rule->info().id) + ".py");
    EXPECT_TRUE(fs::exists(fixture)) << fixture;
  }
}

TEST(RegistryTest, FindsRulesByIdAndName) {
  const RuleRegistry registry;
  ASSERT_NE(registry.find("SL001"), nullptr);
  EXPECT_EQ(registry.find("grad-accumulation"), registry.find("SL001"));
  EXPECT_EQ(registry.find("SL999"), nullptr);
}

}  // namespace
}  // namespace sealint::rules

namespace sealint::rules {
namespace {

TEST(RegistryTest, EveryRuleFileIsRegistered) {
  const RuleRegistry registry;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(SEALINT_SOURCE_DIR) / "rules")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("SL") || entry.path().extension() != ".cpp") continue;
    EXPECT_NE(registry.find(name.substr(0, 5)), nullptr) << name << " is not in rules/registry.cpp";
  }
}

}  // namespace
}  // namespace sealint::rules
