// `extend = "PATH"` in a configuration file (issue 39): the base's settings under this file's, as
// ruff's `extend` does (docs/configuration.md, "Extending a base configuration").
#include <stdlib.h>  // setenv

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/core/config.h"
#include "tests/unit/scratch_folder.h"

namespace sealint {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> is_rule(std::string_view id) {
  if (id == "ALL" || (id.starts_with("SL0") && id.size() == 5)) return {std::string(id)};
  return {};
}

class ConfigExtendTest : public testing::ScratchFolder {
 protected:
  Result<std::optional<Config>> load(const std::string& relative) const {
    return load_config(root() / relative, is_rule);
  }
  Config loaded(const std::string& relative) const {
    auto config = load(relative);
    EXPECT_TRUE(config) << config.error();
    if (!config || !*config) return {};
    return std::move(**config);
  }
  std::string error_of(const std::string& relative) const {
    auto config = load(relative);
    return config ? std::string("(no error)") : config.error();
  }
};

TEST_F(ConfigExtendTest, TheBasesKeysApplyUnderThisFilesOwn) {
  write("base.toml",
        "select = [\"SL001\", \"SL002\"]\nignore = [\"SL004\"]\nseverity = \"warning\"\n"
        "[rules.SL003]\nbudget-gib = 4\nother = 1\n");
  write("sub/.sealint.toml",
        "extend = \"../base.toml\"\nignore = [\"SL005\"]\nseverity = \"error\"\n"
        "[rules.SL003]\nbudget-gib = 8\n");
  const Config config = loaded("sub/.sealint.toml");
  EXPECT_EQ(config.select, (std::vector<std::string>{"SL001", "SL002"}));  // from the base
  EXPECT_EQ(config.ignore, (std::vector<std::string>{"SL004", "SL005"}));  // both add
  EXPECT_EQ(config.min_severity, Severity::Error);                         // this file's wins
  EXPECT_EQ(config.rule_options.at("SL003").at("budget-gib"), "8");
  EXPECT_EQ(config.rule_options.at("SL003").at("other"), "1");
  EXPECT_EQ(config.path, (root() / "sub/.sealint.toml").string());
  EXPECT_EQ(config.root, root() / "sub");
  EXPECT_EQ(config.extends, (std::vector<std::string>{(root() / "base.toml").string()}));
}

TEST_F(ConfigExtendTest, ReadsAPyprojectBaseAndChainsOfBases) {
  write("pyproject.toml", "[tool.sealint]\nselect = [\"SL001\"]\n");
  write("a/.sealint.toml", "extend = \"../pyproject.toml\"\nextend-select = [\"SL009\"]\n");
  write("a/b/pyproject.toml",
        "[tool.sealint]\nextend = \"../.sealint.toml\"\nignore = [\"SL001\"]\n");
  const Config config = loaded("a/b/pyproject.toml");
  EXPECT_EQ(config.select, (std::vector<std::string>{"SL001"}));
  EXPECT_EQ(config.extend_select, (std::vector<std::string>{"SL009"}));
  EXPECT_EQ(config.ignore, (std::vector<std::string>{"SL001"}));
  EXPECT_EQ(config.extends.size(), 2U);
}

// As ruff resolves a base's paths against the base's own folder (each file of the chain is read
// with its own folder as the project root), not against the file that extends it.
TEST_F(ConfigExtendTest, ABasesGlobsAreRelativeToTheBasesFolder) {
  write("conf/base.toml",
        "exclude = [\"gen/*.py\"]\n[per-file-ignores]\n\"scripts/*.py\" = [\"SL001\"]\n");
  write(".sealint.toml", "extend = \"conf/base.toml\"\nextend-exclude = [\"old/*.py\"]\n");
  const Config config = loaded(".sealint.toml");
  EXPECT_TRUE(config.excludes(root() / "conf/gen/a.py"));
  EXPECT_FALSE(config.excludes(root() / "gen/a.py"));
  EXPECT_TRUE(config.excludes(root() / "old/a.py"));  // this file's own, relative to it
  EXPECT_FALSE(config.enabled("SL001", true, root() / "conf/scripts/x.py"));
  EXPECT_TRUE(config.enabled("SL001", true, root() / "scripts/x.py"));
  // `sealint config` says where a base's globs are relative to.
  EXPECT_NE(config.to_toml().find(fmt::format("relative to '{}'", (root() / "conf").string())),
            std::string::npos)
      << config.to_toml();
}

TEST_F(ConfigExtendTest, ThisFilesExcludeReplacesTheBases) {
  write("base.toml", "exclude = [\"gen\"]\n");
  write("sub/.sealint.toml", "extend = \"../base.toml\"\nexclude = [\"legacy\"]\n");
  const Config config = loaded("sub/.sealint.toml");
  EXPECT_FALSE(config.excludes(root() / "sub/gen/a.py"));
  EXPECT_TRUE(config.excludes(root() / "sub/legacy/a.py"));
}

// `~` is expanded by the same function (path_expansion_test.cpp); the environment's HOME is left
// alone here.
TEST_F(ConfigExtendTest, ExpandsVariablesInThePath) {
  write("home/team.toml", "ignore = [\"SL006\"]\n");
  write("x/.sealint.toml", "extend = \"${SEALINT_TEST_TEAM}/team.toml\"\n");
  ASSERT_EQ(::setenv("SEALINT_TEST_TEAM", (root() / "home").c_str(), 1), 0);
  const Config config = loaded("x/.sealint.toml");
  ::unsetenv("SEALINT_TEST_TEAM");
  EXPECT_EQ(config.ignore, (std::vector<std::string>{"SL006"}));
}

TEST_F(ConfigExtendTest, RefusesACycleNamingEveryFileInIt) {
  write("a.toml", "extend = \"b.toml\"\n");
  write("b.toml", "extend = \"./a.toml\"\n");
  EXPECT_EQ(error_of("a.toml"),
            fmt::format("{0}/b.toml:1: `extend` makes a cycle: {0}/a.toml -> {0}/b.toml -> "
                        "{0}/a.toml",
                        root().string()));
  write("self.toml", "extend = \"self.toml\"\n");
  EXPECT_NE(error_of("self.toml").find("`extend` makes a cycle"), std::string::npos);
}

TEST_F(ConfigExtendTest, SaysWhatIsWrongWithTheBase) {
  write("missing.toml", "extend = \"nowhere.toml\"\n");
  EXPECT_EQ(
      error_of("missing.toml"),
      fmt::format("{0}/missing.toml:1: `extend` names '{0}/nowhere.toml', which is not a file",
                  root().string()));
  write("number.toml", "extend = 3\n");
  EXPECT_NE(error_of("number.toml").find("`extend` must be a path (a string)"), std::string::npos);
  write("pyproject.toml", "[project]\nname = \"x\"\n");
  write("bare.toml", "extend = \"pyproject.toml\"\n");
  EXPECT_NE(error_of("bare.toml").find("which has no [tool.sealint] table"), std::string::npos);
  write("broken.toml", "selekt = []\n");
  write("uses_broken.toml", "extend = \"broken.toml\"\n");
  EXPECT_NE(error_of("uses_broken.toml").find("broken.toml:1: unknown key `selekt`"),
            std::string::npos);
  write("unset.toml", "extend = \"$SEALINT_TEST_UNSET/x.toml\"\n");
  EXPECT_NE(error_of("unset.toml").find("names $SEALINT_TEST_UNSET, which is not set"),
            std::string::npos);
}

TEST_F(ConfigExtendTest, AConfigSettingCannotExtend) {
  Config config;
  auto applied = apply_config_text(config, "extend = \"base.toml\"", "--config 'extend'", is_rule);
  ASSERT_FALSE(applied);
  EXPECT_NE(applied.error().find("write it in a configuration file"), std::string::npos);
}

}  // namespace
}  // namespace sealint
