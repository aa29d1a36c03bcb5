#include "rules/registry.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/core/rule_metadata.h"
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

TEST(RegistryTest, DocsPageSecondLineIsGeneratedFromRuleInfo) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view doc = rule_doc(rule->info().id);
    const size_t first = doc.find('\n');
    const std::string_view second = doc.substr(first + 1, doc.find('\n', first + 1) - first - 1);
    EXPECT_EQ(second, docs_metadata_line(rule->info())) << rule->info().id;
  }
}

// What a rule does in test code (RuleInfo::reports_in_tests) is on its page, so that leaving test
// code out is never silent.
TEST(RegistryTest, DocsPageSaysWhetherTheRuleReportsInTestCode) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view doc = rule_doc(rule->info().id);
    const bool says_reports = doc.find("This rule reports in test code too") != std::string::npos;
    const bool says_left_out =
        doc.find("rule does not report unless `analyse-tests = true`") != std::string::npos;
    EXPECT_EQ(says_reports, rule->info().reports_in_tests) << rule->info().id;
    EXPECT_EQ(says_left_out, !rule->info().reports_in_tests) << rule->info().id;
  }
}

// README.md holds `sealint rules --markdown` verbatim: regenerate it from there.
TEST(RegistryTest, ReadmeRulesTableIsGeneratedFromRuleInfo) {
  const RuleRegistry registry;
  std::string table = readme_table_header();
  for (const auto& rule : registry.rules()) table += readme_table_row(rule->info());
  std::ifstream in(fs::path(SEALINT_SOURCE_DIR) / "README.md");
  std::stringstream readme;
  readme << in.rdbuf();
  EXPECT_NE(readme.str().find(table), std::string::npos)
      << "README.md's rules table differs from `sealint rules --markdown`:\n"
      << table;
}

TEST(RegistryTest, EveryRuleHasABriefAndATensorFlowRuleSaysSo) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    EXPECT_FALSE(rule->info().brief.empty()) << rule->info().id;
    EXPECT_FALSE(rule->info().brief.ends_with(".")) << rule->info().id;
  }
  EXPECT_EQ(registry.find("SL009")->info().framework, Framework::TensorFlow);
  EXPECT_EQ(registry.find("SL001")->info().framework, Framework::PyTorch);
}

TEST(RegistryTest, EveryOptionIsDocumentedAndItsDefaultPassesItsCheck) {
  const RuleRegistry registry;
  for (const auto& rule : registry.rules()) {
    const std::string_view doc = rule_doc(rule->info().id);
    const size_t section = doc.find("## Options");
    for (const RuleOption& option : rule->options()) {
      ASSERT_NE(section, std::string_view::npos) << rule->info().id << " has no Options section";
      EXPECT_NE(doc.find(fmt::format("`{}`", option.name), section), std::string_view::npos)
          << rule->info().id << " " << option.name;
      ASSERT_NE(option.check, nullptr) << option.name;
      EXPECT_EQ(option.check(option.default_value), std::nullopt) << option.name;
      EXPECT_NE(option.check("not-a-value"), std::nullopt) << option.name;
    }
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

namespace sealint::rules {
namespace {

TEST(RegistrySelectorTest, IdsNamesPrefixesAndAllNameRulesWhateverTheCase) {
  const RuleRegistry registry;
  EXPECT_EQ(registry.rule_ids("sl001"), std::vector<std::string>{"SL001"});
  EXPECT_EQ(registry.rule_ids("Grad-Accumulation"), std::vector<std::string>{"SL001"});
  EXPECT_EQ(registry.rule_ids("SL01").size(), registry.rules().size() - 9);
  EXPECT_EQ(registry.rule_ids("SL00").size(), 9U);
  EXPECT_EQ(registry.rule_ids("all").size(), registry.rules().size());
  EXPECT_TRUE(registry.rule_ids("S").empty());
  EXPECT_TRUE(registry.rule_ids("SL999").empty());
  EXPECT_TRUE(registry.rule_ids("leak").empty());
}

}  // namespace
}  // namespace sealint::rules
