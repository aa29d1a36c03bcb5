#include "analyzer/output/formats.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace sealint::output {
namespace {

TEST(FormatsTest, EveryFormatHasOneNameAndALintWriter) {
  std::set<std::string_view> names;
  for (const Format& format : formats()) {
    EXPECT_TRUE(names.insert(format.name).second) << format.name;
    EXPECT_NE(format.write_lint, nullptr) << format.name;
    EXPECT_FALSE(format.description.empty()) << format.name;
  }
}

// "text" is both commands' default (LintOptions, ConfirmOptions).
TEST(FormatsTest, BothCommandsOfferTheDefaultText) {
  EXPECT_NE(find_format("text", FormatUser::Lint), nullptr);
  EXPECT_NE(find_format("text", FormatUser::Confirm), nullptr);
}

TEST(FormatsTest, ConfirmOffersOnlyTheFormatsWithAConfirmWriter) {
  for (const Format& format : formats()) {
    const auto names = format_names(FormatUser::Confirm);
    const bool listed = std::find(names.begin(), names.end(), format.name) != names.end();
    EXPECT_EQ(listed, format.write_confirm != nullptr) << format.name;
    EXPECT_EQ(find_format(format.name, FormatUser::Confirm) != nullptr, listed) << format.name;
  }
}

TEST(FormatsTest, FindsAFormatByItsExactName) {
  const Format* sarif = find_format("sarif", FormatUser::Lint);
  ASSERT_NE(sarif, nullptr);
  EXPECT_EQ(sarif->name, "sarif");
  EXPECT_EQ(find_format("SARIF", FormatUser::Lint), nullptr);
  EXPECT_EQ(find_format("", FormatUser::Lint), nullptr);
}

TEST(FormatsTest, HelpNamesEachFormatWithItsDescription) {
  const std::string help = format_help(FormatUser::Lint);
  for (const Format& format : formats()) {
    EXPECT_NE(help.find(fmt::format("{} ({})", format.name, format.description)), std::string::npos)
        << help;
  }
}

}  // namespace
}  // namespace sealint::output
