#include "analyzer/core/path_expansion.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

namespace sealint {
namespace {

EnvironmentLookup fake(std::map<std::string, std::string, std::less<>> variables) {
  return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

std::string expanded(std::string_view text) {
  auto out = expand_path(text, fake({{"HOME", "/home/me"}, {"CFG", "/etc/team"}, {"V", "2"}}));
  return out ? *out : "error: " + out.error();
}

TEST(PathExpansionTest, ExpandsTheHomeAtTheStartOnly) {
  EXPECT_EQ(expanded("~"), "/home/me");
  EXPECT_EQ(expanded("~/base.toml"), "/home/me/base.toml");
  EXPECT_EQ(expanded("conf/~/x.toml"), "conf/~/x.toml");
  EXPECT_EQ(expanded("~bob/x.toml"), "~bob/x.toml");
}

TEST(PathExpansionTest, ExpandsVariablesInBothForms) {
  EXPECT_EQ(expanded("$CFG/sealint.toml"), "/etc/team/sealint.toml");
  EXPECT_EQ(expanded("${CFG}/v${V}.toml"), "/etc/team/v2.toml");
  EXPECT_EQ(expanded("a$/b$"), "a$/b$");  // a `$` that starts no name
  EXPECT_EQ(expanded("../base.toml"), "../base.toml");
}

TEST(PathExpansionTest, SaysWhichVariableIsNotSet) {
  EXPECT_EQ(expanded("$NOPE/x.toml"), "error: '$NOPE/x.toml' names $NOPE, which is not set");
  EXPECT_EQ(expanded("${CFG/x.toml"), "error: '${CFG/x.toml' has a `${` without its `}`");
  auto no_home = expand_path("~/x.toml", fake({}));
  ASSERT_FALSE(no_home);
  EXPECT_EQ(no_home.error(), "'~/x.toml' names $HOME, which is not set");
}

}  // namespace
}  // namespace sealint
