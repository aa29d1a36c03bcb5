#include "analyzer/core/config.h"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include <gtest/gtest.h>

#include "rules/registry.h"

namespace sealint {
namespace {

namespace fs = std::filesystem;

// Rule ids for the parsing tests: SL0xx names a rule, and so does `grad-accumulation` (SL001);
// anything else does not.
std::vector<std::string> is_rule(std::string_view id) {
  if (id == "grad-accumulation") return {"SL001"};
  if (id.starts_with("SL0") && id.size() == 5) return {std::string(id)};
  return {};
}

// The configuration of `toml` as if written in /project/.sealint.toml.
Result<Config> parse(std::string_view toml) {
  return parse_config_text(toml, "/project/.sealint.toml", is_rule);
}

// The error of `toml`, or a note that it parsed when it should not have.
std::string error_of(std::string_view toml) {
  auto config = parse(toml);
  return config ? std::string("(no error)") : config.error();
}

// `sealint config`'s output made top-level again (`[tool.sealint]` dropped, its sub-tables
// renamed), so that parse_config_text reads it as it reads a .sealint.toml.
std::string as_top_level(std::string toml) {
  for (size_t at = toml.find("[tool.sealint]\n"); at != std::string::npos;
       at = toml.find("[tool.sealint]\n"))
    toml.erase(at, 15);
  for (size_t at = toml.find("[tool.sealint."); at != std::string::npos;
       at = toml.find("[tool.sealint."))
    toml.erase(at + 1, 13);
  return toml;
}

TEST(ConfigTest, ParsesSelectAsAListOfRuleIds) {
  auto config = parse("select = [\"SL001\", \"SL002\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->select, (std::vector<std::string>{"SL001", "SL002"}));
}

TEST(ConfigTest, ParsesIgnoreAsAListOfRuleIds) {
  auto config = parse("ignore = [\"SL006\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->ignore, (std::vector<std::string>{"SL006"}));
}

TEST(ConfigTest, ReportsNotesWhenNoSeverityIsGiven) {
  auto config = parse("");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->min_severity, Severity::Note);
}

TEST(ConfigTest, ParsesSeverityAsTheLowestSeverityReported) {
  auto warning = parse("severity = \"warning\"\n");
  auto error = parse("severity = \"error\"\n");
  ASSERT_TRUE(warning) << warning.error();
  ASSERT_TRUE(error) << error.error();
  EXPECT_EQ(warning->min_severity, Severity::Warning);
  EXPECT_EQ(error->min_severity, Severity::Error);
}

TEST(ConfigTest, ParsesExcludeAsAListOfGlobs) {
  auto config = parse("exclude = [\"legacy\", \"gen/**/*.py\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->exclude, (std::vector<std::string>{"legacy", "gen/**/*.py"}));
}

TEST(ConfigTest, ParsesPerFileIgnoresAsGlobsWithTheirRules) {
  auto config = parse("[per-file-ignores]\n\"tests/*.py\" = [\"SL001\", \"SL004\"]\n");
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->per_file_ignores.size(), 1U);
  EXPECT_EQ(config->per_file_ignores[0].glob, "tests/*.py");
  EXPECT_EQ(config->per_file_ignores[0].rules, (std::vector<std::string>{"SL001", "SL004"}));
}

TEST(ConfigTest, ParsesRuleOptionsAsTextWithTheirLines) {
  auto config = parse("\n[rules.SL003]\nbudget-gib = 1.5\n");
  ASSERT_TRUE(config) << config.error();
  ASSERT_TRUE(config->rule_options.contains("SL003"));
  const RuleOptionTable& options = config->rule_options.at("SL003");
  ASSERT_TRUE(options.contains("budget-gib"));
  EXPECT_EQ(options.at("budget-gib"), "1.5");
  ASSERT_TRUE(config->rule_option_lines.contains("SL003.budget-gib"));
  EXPECT_EQ(config->rule_option_lines.at("SL003.budget-gib"), 3U);
}

TEST(ConfigTest, KeepsEveryDigitOfAFloatingPointOption) {
  auto config = parse("[rules.SL003]\nbudget-gib = 1234567.5\n");
  ASSERT_TRUE(config) << config.error();
  const std::string& text = config->rule_options.at("SL003").at("budget-gib");
  EXPECT_EQ(std::stod(text), 1234567.5) << text;
}

TEST(ConfigTest, RecordsItsFileAndThatFilesFolderAsTheRoot) {
  auto config = parse("");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->path, "/project/.sealint.toml");
  EXPECT_EQ(config->root, fs::path("/project"));
}

TEST(ConfigTest, ReportsAnUnknownKeyWithItsFileLineAndName) {
  const std::string error = error_of("select = []\nselct = [\"SL001\"]\n");
  EXPECT_NE(error.find("/project/.sealint.toml:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("selct"), std::string::npos) << error;
}

TEST(ConfigTest, ReportsAnUnknownRuleIdInSelect) {
  const std::string error = error_of("select = [\"SL001\", \"XY123\"]\n");
  EXPECT_NE(error.find("/project/.sealint.toml:1:"), std::string::npos) << error;
  EXPECT_NE(error.find("'XY123'"), std::string::npos) << error;
}

TEST(ConfigTest, ReportsAnUnknownRuleIdInIgnore) {
  const std::string error = error_of("ignore = [\"XY123\"]\n");
  EXPECT_NE(error.find("`ignore`"), std::string::npos) << error;
  EXPECT_NE(error.find("'XY123'"), std::string::npos) << error;
}

TEST(ConfigTest, ReportsAnUnknownRuleIdInPerFileIgnores) {
  const std::string error = error_of("[per-file-ignores]\n\"a.py\" = [\"XY123\"]\n");
  EXPECT_NE(error.find(":2:"), std::string::npos) << error;
  EXPECT_NE(error.find("'XY123'"), std::string::npos) << error;
}

TEST(ConfigTest, ReportsAnUnknownRuleIdUnderRules) {
  const std::string error = error_of("[rules.XY123]\nsize = 1\n");
  EXPECT_NE(error.find("'XY123'"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsSelectWrittenAsAString) {
  const std::string error = error_of("select = \"SL001\"\n");
  EXPECT_NE(error.find(":1:"), std::string::npos) << error;
  EXPECT_NE(error.find("`select` must be an array of strings"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsAnArrayItemThatIsNotAString) {
  const std::string error = error_of("exclude = [\"legacy\", 3]\n");
  EXPECT_NE(error.find("`exclude` must be an array of strings"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsASeverityOtherThanNoteWarningOrError) {
  const std::string error = error_of("\nseverity = \"loud\"\n");
  EXPECT_NE(error.find(":2:"), std::string::npos) << error;
  EXPECT_NE(error.find("`severity`"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsPerFileIgnoresThatIsNotATable) {
  const std::string error = error_of("per-file-ignores = [\"tests/*.py\"]\n");
  EXPECT_NE(error.find(":1:"), std::string::npos) << error;
  EXPECT_NE(error.find("`per-file-ignores` must be a table"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsRuleOptionsThatAreNotATable) {
  const std::string error = error_of("[rules]\nSL003 = 2\n");
  EXPECT_NE(error.find(":2:"), std::string::npos) << error;
  EXPECT_NE(error.find("`rules.SL003` must be a table"), std::string::npos) << error;
}

TEST(ConfigTest, RejectsARuleOptionThatIsAnArray) {
  const std::string error = error_of("[rules.SL003]\nbudget-gib = [1]\n");
  EXPECT_NE(error.find(":2:"), std::string::npos) << error;
  EXPECT_NE(error.find("rules.SL003.budget-gib"), std::string::npos) << error;
}

TEST(ConfigTest, ReportsInvalidTomlWithItsLine) {
  const std::string error = error_of("select = []\nignore = [\"SL001\"\n");
  EXPECT_NE(error.find("/project/.sealint.toml:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("invalid TOML"), std::string::npos) << error;
}

TEST(ConfigTest, ExtendIgnoreAddsToIgnore) {
  auto config = parse("ignore = [\"SL001\"]\nextend-ignore = [\"SL002\"]\n");
  ASSERT_TRUE(config) << config.error();
  std::vector<std::string> ignored = config->ignore;  // the keys' order is TOML's, not ours
  std::sort(ignored.begin(), ignored.end());
  EXPECT_EQ(ignored, (std::vector<std::string>{"SL001", "SL002"}));
}

TEST(ConfigTest, ARuleNamedByItsNameIsStoredByItsId) {
  auto config = parse("select = [\"grad-accumulation\"]\nignore = [\"grad-accumulation\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->select, std::vector<std::string>{"SL001"});
  EXPECT_EQ(config->ignore, std::vector<std::string>{"SL001"});
}

TEST(ConfigTest, AnOffByDefaultRuleRunsOnlyWhenNamed) {
  const Config defaults;
  EXPECT_FALSE(defaults.enabled("SL004", false, "/project/train.py"));
  auto selected = parse("select = [\"SL004\"]\n");
  ASSERT_TRUE(selected) << selected.error();
  EXPECT_TRUE(selected->enabled("SL004", false, "/project/train.py"));
  auto extended = parse("extend-select = [\"SL004\"]\n");
  ASSERT_TRUE(extended) << extended.error();
  EXPECT_TRUE(extended->enabled("SL004", false, "/project/train.py"));
  EXPECT_TRUE(extended->enabled("SL001", true, "/project/train.py"));
  auto ignored = parse("extend-select = [\"SL004\"]\nignore = [\"SL004\"]\n");
  ASSERT_TRUE(ignored) << ignored.error();
  EXPECT_FALSE(ignored->enabled("SL004", false, "/project/train.py"));
}

TEST(ConfigTest, EnablesEveryRuleByDefault) {
  const Config config;
  EXPECT_TRUE(config.enabled("SL001", true, "/project/train.py"));
  EXPECT_TRUE(config.enabled("SL011", true, "/project/train.py"));
}

TEST(ConfigTest, SelectTurnsOffEveryRuleNotListed) {
  auto config = parse("select = [\"SL002\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->enabled("SL002", true, "/project/train.py"));
  EXPECT_FALSE(config->enabled("SL001", true, "/project/train.py"));
}

TEST(ConfigTest, IgnoreTurnsOffTheRulesListed) {
  auto config = parse("ignore = [\"SL001\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "/project/train.py"));
  EXPECT_TRUE(config->enabled("SL002", true, "/project/train.py"));
}

TEST(ConfigTest, IgnoreWinsOverSelect) {
  auto config = parse("select = [\"SL001\", \"SL002\"]\nignore = [\"SL001\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "/project/train.py"));
  EXPECT_TRUE(config->enabled("SL002", true, "/project/train.py"));
}

TEST(ConfigTest, PerFileIgnoresTurnsOffItsRulesForMatchingFilesOnly) {
  auto config = parse("[per-file-ignores]\n\"tests/*.py\" = [\"SL001\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "/project/tests/test_train.py"));
  EXPECT_TRUE(config->enabled("SL002", true, "/project/tests/test_train.py"));
  EXPECT_TRUE(config->enabled("SL001", true, "/project/train.py"));
}

TEST(ConfigTest, PerFileIgnoresWithNoRulesTurnsOffEveryRule) {
  auto config = parse("[per-file-ignores]\n\"generated.py\" = []\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "/project/generated.py"));
  EXPECT_FALSE(config->enabled("SL011", true, "/project/generated.py"));
  EXPECT_TRUE(config->enabled("SL001", true, "/project/train.py"));
}

TEST(ConfigTest, PerFileIgnoresGlobsAreRelativeToTheConfigsFolder) {
  auto config = parse_config_text("[per-file-ignores]\n\"tests/*.py\" = [\"SL001\"]\n",
                                  "/project/sub/.sealint.toml", is_rule);
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "/project/sub/tests/t.py"));
  EXPECT_TRUE(config->enabled("SL001", true, "/project/tests/t.py"));
}

TEST(ConfigTest, ExcludesNothingByDefault) {
  const Config config;
  EXPECT_FALSE(config.excludes("/project/legacy/old.py"));
}

TEST(ConfigTest, ExcludesFilesUnderAFolderItNames) {
  auto config = parse("exclude = [\"legacy\"]\n");
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->excludes("/project/legacy/old.py"));
  EXPECT_TRUE(config->excludes("/project/src/legacy/old.py"));
  EXPECT_FALSE(config->excludes("/project/src/new.py"));
}

TEST(ConfigTest, ExcludeGlobsAreRelativeToTheConfigsFolder) {
  auto config =
      parse_config_text("exclude = [\"gen/*.py\"]\n", "/project/sub/.sealint.toml", is_rule);
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->excludes("/project/sub/gen/a.py"));
  EXPECT_FALSE(config->excludes("/project/gen/a.py"));
}

// config.h: "matched below the config's folder"; `--config` can name a file beside the files.
TEST(ConfigTest, ExcludeMatchesNoFileOutsideTheConfigsFolder) {
  auto config = parse_config_text("exclude = [\"legacy\"]\n", "/project/conf/other.toml", is_rule);
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->excludes("/project/conf/legacy/old.py"));
  EXPECT_FALSE(config->excludes("/project/legacy/old.py"));
}

// `--config other.toml`: the file's folder is the working directory, spelled as nothing.
TEST(ConfigTest, ExcludeGlobsApplyBelowTheWorkingDirectoryForAConfigNamedWithoutAFolder) {
  auto config = parse_config_text("exclude = [\"legacy\"]\n", "other.toml", is_rule);
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->excludes("legacy/old.py"));
}

TEST(ConfigTest, PerFileIgnoresApplyBelowTheWorkingDirectoryForAConfigNamedWithoutAFolder) {
  auto config = parse_config_text("[per-file-ignores]\n\"scripts/*.py\" = [\"SL001\"]\n",
                                  "other.toml", is_rule);
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->enabled("SL001", true, "scripts/once.py"));
}

// In the form of the file it came from: a .sealint.toml's keys at the top level, so that the
// output pastes back into it (a `[tool.sealint]` table there is refused).
TEST(ConfigTest, ToTomlNamesTheFileItCameFromInItsForm) {
  auto config = parse("");
  ASSERT_TRUE(config) << config.error();
  const std::string printed = config->to_toml();
  EXPECT_EQ(printed.rfind("# /project/.sealint.toml\n", 0), 0U) << printed;
  EXPECT_EQ(printed.find("[tool.sealint"), std::string::npos) << printed;
  EXPECT_NE(Config().to_toml().find("\n[tool.sealint]\n"), std::string::npos);
}

TEST(ConfigTest, ToTomlSaysWhenItPrintsTheDefaults) {
  const std::string toml = Config().to_toml();
  EXPECT_NE(toml.find("defaults (no configuration file found)"), std::string::npos) << toml;
}

TEST(ConfigTest, ToTomlRoundTripsSelectIgnoreSeverityAndExclude) {
  auto config = parse(
      "select = [\"SL001\", \"SL002\"]\nignore = [\"SL002\"]\nseverity = \"warning\"\n"
      "exclude = [\"legacy\", \"gen/**\"]\n");
  ASSERT_TRUE(config) << config.error();
  const std::string printed = config->to_toml();
  auto again = parse(as_top_level(printed));
  ASSERT_TRUE(again) << again.error() << "\n" << printed;
  EXPECT_EQ(again->select, config->select);
  EXPECT_EQ(again->ignore, config->ignore);
  EXPECT_EQ(again->min_severity, Severity::Warning);
  EXPECT_EQ(again->exclude, config->exclude);
}

TEST(ConfigTest, ToTomlRoundTripsPerFileIgnoresAndRuleOptions) {
  auto config = parse(
      "[per-file-ignores]\n\"tests/*.py\" = [\"SL001\"]\n\"gen.py\" = []\n"
      "[rules.SL003]\nbudget-gib = 1.5\n");
  ASSERT_TRUE(config) << config.error();
  const std::string printed = config->to_toml();
  auto again = parse(as_top_level(printed));
  ASSERT_TRUE(again) << again.error() << "\n" << printed;
  ASSERT_EQ(again->per_file_ignores.size(), config->per_file_ignores.size()) << printed;
  for (size_t i = 0; i < config->per_file_ignores.size(); ++i) {
    EXPECT_EQ(again->per_file_ignores[i].glob, config->per_file_ignores[i].glob);
    EXPECT_EQ(again->per_file_ignores[i].rules, config->per_file_ignores[i].rules);
  }
  EXPECT_EQ(again->rule_options, config->rule_options);
}

TEST(ConfigTest, ToTomlEscapesQuotesAndBackslashesInStrings) {
  // TOML literal strings: a glob holding a double quote, another a backslash.
  auto config = parse("exclude = ['say\"cheese\"', 'a\\b.py']\n");
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->exclude, (std::vector<std::string>{"say\"cheese\"", "a\\b.py"}));
  const std::string printed = config->to_toml();
  auto again = parse(as_top_level(printed));
  ASSERT_TRUE(again) << again.error() << "\n" << printed;
  EXPECT_EQ(again->exclude, config->exclude) << printed;
}

// A temp tree for ConfigFinder, removed afterwards.
class ConfigFinderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sealint-config-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << "mkdtemp failed for " << templ;
    root_ = fs::canonical(templ);
  }

  void TearDown() override {
    if (root_.empty()) return;
    std::error_code error;
    fs::remove_all(root_, error);
  }

  fs::path write(const std::string& relative, const std::string& content) const {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
    return path;
  }

  // The file `find` chose for `relative`, or its error.
  std::string found_for(ConfigFinder& finder, const std::string& relative) const {
    auto found = finder.find(root_ / relative);
    if (!found) return "error: " + found.error();
    return (*found)->path;
  }

  fs::path root_;
};

TEST_F(ConfigFinderTest, FindsTheNearestFileUpTheTree) {
  write("a/pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  const fs::path nearest = write("a/b/.sealint.toml", "select = [\"SL002\"]\n");
  write("a/b/c/x.py", "x = 1\n");
  ConfigFinder finder(is_rule);
  EXPECT_EQ(found_for(finder, "a/b/c/x.py"), nearest.string());
}

TEST_F(ConfigFinderTest, FindsAnAncestorsPyprojectForASiblingFolder) {
  const fs::path pyproject = write("a/pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("a/b/.sealint.toml", "select = [\"SL002\"]\n");
  write("a/d/y.py", "y = 1\n");
  ConfigFinder finder(is_rule);
  EXPECT_EQ(found_for(finder, "a/d/y.py"), pyproject.string());
}

TEST_F(ConfigFinderTest, ReadsTheValuesOfTheFileItFinds) {
  write("a/pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("a/d/y.py", "y = 1\n");
  ConfigFinder finder(is_rule);
  auto found = finder.find(root_ / "a/d/y.py");
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->ignore, (std::vector<std::string>{"SL001"}));
  EXPECT_EQ((*found)->root, root_ / "a");
}

TEST_F(ConfigFinderTest, SkipsAPyprojectWithoutAToolSealintTable) {
  const fs::path outer = write("a/pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("a/b/pyproject.toml", "[project]\nname = \"b\"\n");
  write("a/b/x.py", "x = 1\n");
  ConfigFinder finder(is_rule);
  EXPECT_EQ(found_for(finder, "a/b/x.py"), outer.string());
}

TEST_F(ConfigFinderTest, PrefersSealintTomlToPyprojectInTheSameFolder) {
  write("a/pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  const fs::path dot = write("a/.sealint.toml", "select = [\"SL002\"]\n");
  ConfigFinder finder(is_rule);
  EXPECT_EQ(found_for(finder, "a/x.py"), dot.string());
}

TEST_F(ConfigFinderTest, StartsFromAFolderItself) {
  write("a/pyproject.toml", "[tool.sealint]\n");
  const fs::path nearest = write("a/b/.sealint.toml", "");
  ConfigFinder finder(is_rule);
  EXPECT_EQ(found_for(finder, "a/b"), nearest.string());
}

TEST_F(ConfigFinderTest, FindsTheSameFileAgainForFoldersAlreadySearched) {
  const fs::path nearest = write("a/.sealint.toml", "ignore = [\"SL001\"]\n");
  ConfigFinder finder(is_rule);
  ASSERT_EQ(found_for(finder, "a/b/c/x.py"), nearest.string());
  // b/c and b are now known to hold nothing: the search still goes on up to a.
  EXPECT_EQ(found_for(finder, "a/b/c/z.py"), nearest.string());
  EXPECT_EQ(found_for(finder, "a/b/y.py"), nearest.string());
}

TEST_F(ConfigFinderTest, ReportsABrokenFileWithItsLineAndKey) {
  write("a/pyproject.toml", "[tool.sealint]\nselct = [\"SL001\"]\n");
  ConfigFinder finder(is_rule);
  const std::string found = found_for(finder, "a/x.py");
  EXPECT_NE(found.find("error: " + (root_ / "a/pyproject.toml").string() + ":2:"),
            std::string::npos)
      << found;
  EXPECT_NE(found.find("selct"), std::string::npos) << found;
}

TEST_F(ConfigFinderTest, ReportsABrokenFileAgainForAnotherFileBelowIt) {
  write("a/.sealint.toml", "severity = \"loud\"\n");
  ConfigFinder finder(is_rule);
  ASSERT_EQ(found_for(finder, "a/x.py").rfind("error: ", 0), 0U);
  EXPECT_EQ(found_for(finder, "a/b/y.py").rfind("error: ", 0), 0U);
}

TEST_F(ConfigFinderTest, LoadConfigGivesNothingForAPyprojectWithoutTheTable) {
  const fs::path pyproject = write("pyproject.toml", "[tool.black]\nline-length = 100\n");
  auto loaded = load_config(pyproject, is_rule);
  ASSERT_TRUE(loaded) << loaded.error();
  EXPECT_FALSE(loaded->has_value());
}

TEST_F(ConfigFinderTest, LoadConfigRejectsAToolSealintThatIsNotATable) {
  const fs::path pyproject = write("pyproject.toml", "[tool]\nsealint = 5\n");
  auto loaded = load_config(pyproject, is_rule);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error(), pyproject.string() + ":2: `tool.sealint` must be a table");
}

TEST_F(ConfigFinderTest, LoadConfigReadsAnyOtherFileAtTheTopLevel) {
  const fs::path other = write("other.toml", "select = [\"SL001\"]\n");
  auto loaded = load_config(other, is_rule);
  ASSERT_TRUE(loaded) << loaded.error();
  ASSERT_TRUE(loaded->has_value());
  EXPECT_EQ((**loaded).select, (std::vector<std::string>{"SL001"}));
}

// RuleRegistry::with_options: the rule options of a configuration, checked against the rules.
Result<rules::RuleRegistry> registry_for(std::string_view toml) {
  const rules::RuleRegistry defaults;
  auto config = parse_config_text(toml, "/project/.sealint.toml",
                                  [&](std::string_view id) { return defaults.rule_ids(id); });
  if (!config) return make_error("parse: " + config.error());
  return rules::RuleRegistry::with_options(*config);
}

std::string registry_error(std::string_view toml) {
  auto registry = registry_for(toml);
  return registry ? std::string("(no error)") : registry.error();
}

TEST(ConfigTest, WithOptionsAcceptsAPositiveBudget) {
  auto registry = registry_for("[rules.SL003]\nbudget-gib = 0.5\n");
  ASSERT_TRUE(registry) << registry.error();
  EXPECT_NE(registry->find("SL003"), nullptr);
}

TEST(ConfigTest, WithOptionsReportsABadBudgetWithTheFileLineAndKey) {
  const std::string error = registry_error("\n[rules.SL003]\nbudget-gib = \"x\"\n");
  EXPECT_EQ(error.rfind("/project/.sealint.toml:3: rules.SL003.budget-gib:", 0), 0U) << error;
}

TEST(ConfigTest, WithOptionsReportsANegativeBudget) {
  const std::string error = registry_error("[rules.SL003]\nbudget-gib = -1\n");
  EXPECT_NE(error.find(":2: rules.SL003.budget-gib:"), std::string::npos) << error;
}

TEST(ConfigTest, WithOptionsReportsAnOptionForARuleThatHasNone) {
  const std::string error = registry_error("[rules.SL001]\nsize = 1\n");
  EXPECT_NE(error.find(":2: rules.SL001.size: unknown option"), std::string::npos) << error;
}

TEST(ConfigTest, WithOptionsNamesTheUnknownOptionAndItsLineNotTheFirstOption) {
  const std::string error = registry_error("[rules.SL003]\nbudget-gib = 2\nzeta = 1\n");
  EXPECT_NE(error.find(":3: rules.SL003.zeta:"), std::string::npos) << error;
}

}  // namespace
}  // namespace sealint
