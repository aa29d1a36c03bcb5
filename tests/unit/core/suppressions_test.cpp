// The comment forms sealint reads as suppressions, what each covers, and whether a comment holds
// nothing but the suppression (SL012 deletes only such a comment).
#include "analyzer/core/suppressions.h"

#include <gtest/gtest.h>

namespace sealint {
namespace {

TEST(SuppressionParseTest, ReadsEachFormWithItsScope) {
  auto noqa = parse_suppression("# noqa: SL001, SL002");
  ASSERT_TRUE(noqa);
  EXPECT_EQ(noqa->rules, (std::vector<std::string>{"SL001", "SL002"}));
  EXPECT_EQ(noqa->scope, SuppressionScope::Line);
  EXPECT_EQ(parse_suppression("// NOLINTNEXTLINE(SL001)")->scope, SuppressionScope::NextLine);
  EXPECT_EQ(parse_suppression("// NOLINTBEGIN(SL001)")->scope, SuppressionScope::BlockBegin);
  EXPECT_EQ(parse_suppression("// NOLINTEND(SL001)")->scope, SuppressionScope::BlockEnd);
  EXPECT_EQ(parse_suppression("// NOLINT(SL001)")->scope, SuppressionScope::Line);
  EXPECT_EQ(parse_suppression("# sealint: ignore-file[SL004]")->scope, SuppressionScope::File);
  EXPECT_TRUE(parse_suppression("# sealint: ignore")->rules.empty());
}

TEST(SuppressionParseTest, ReadsRuleNamesWithTheirHyphens) {
  auto named = parse_suppression("# sealint: ignore[tensor-collection, SL001]");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->rules, (std::vector<std::string>{"tensor-collection", "SL001"}));
  EXPECT_TRUE(named->alone);
  EXPECT_EQ(parse_suppression("# noqa: grad-accumulation")->rules,
            (std::vector<std::string>{"grad-accumulation"}));
  // A dash between words is prose, not part of a code.
  EXPECT_EQ(parse_suppression("# noqa: SL001 - logged")->rules,
            (std::vector<std::string>{"SL001"}));
}

TEST(SuppressionParseTest, BareFormsBelongToOtherLinters) {
  EXPECT_FALSE(parse_suppression("# noqa"));
  EXPECT_FALSE(parse_suppression("// NOLINT"));
  EXPECT_FALSE(parse_suppression("// NOLINTBEGIN"));
  EXPECT_FALSE(parse_suppression("// NOLINTEND"));
  EXPECT_FALSE(parse_suppression("# a comment that mentions noqa"));
}

TEST(SuppressionParseTest, AloneOnlyWhenTheCommentHoldsNothingElse) {
  EXPECT_TRUE(parse_suppression("# noqa: SL001")->alone);
  EXPECT_TRUE(parse_suppression("#noqa:SL001,SL002  ")->alone);
  EXPECT_TRUE(parse_suppression("# sealint: ignore[SL001]")->alone);
  EXPECT_TRUE(parse_suppression("# sealint: ignore")->alone);
  EXPECT_TRUE(parse_suppression("// NOLINTBEGIN(SL001, SL002)")->alone);
  EXPECT_FALSE(parse_suppression("# noqa: SL001 because the sum is logged")->alone);
  EXPECT_FALSE(parse_suppression("# type: ignore  # noqa: SL001")->alone);
  EXPECT_FALSE(parse_suppression("// NOLINT(SL001) keeps the graph on purpose")->alone);
  EXPECT_FALSE(parse_suppression("# sealint: ignore[SL001")->alone);
}

}  // namespace
}  // namespace sealint
