#include "analyzer/report/source_excerpt.h"

#include <gtest/gtest.h>

namespace sealint::report {
namespace {

constexpr std::string_view kCode =
    "total = 0\n"
    "for x in data:\n"
    "    loss = f(x)\n"
    "    total += loss\n"
    "print(total)\n";

TEST(SourceExcerptTest, MarksTheFindingsLinesAmongTheirContext) {
  const std::vector<SourceLine> lines = lines_around(kCode, 4, 4, 1);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[0], (SourceLine{3, "    loss = f(x)", false}));
  EXPECT_EQ(lines[1], (SourceLine{4, "    total += loss", true}));
  EXPECT_EQ(lines[2], (SourceLine{5, "print(total)", false}));
}

TEST(SourceExcerptTest, GivesNothingPastTheEnd) {
  EXPECT_TRUE(lines_around(kCode, 9, 9, 2).empty());
}

TEST(SourceExcerptTest, ShowsTheLinesAFixChangesBeforeAndAfter) {
  Fix fix;
  const auto at = static_cast<uint32_t>(kCode.find("loss\nprint") + 4);
  fix.edits.push_back({{at, at}, {}, ".item()"});
  const std::optional<FixExcerpt> excerpt = fix_excerpt(kCode, fix);
  ASSERT_TRUE(excerpt);
  ASSERT_EQ(excerpt->before.size(), 1U);
  EXPECT_EQ(excerpt->before[0].text, "    total += loss");
  ASSERT_EQ(excerpt->after.size(), 1U);
  EXPECT_EQ(excerpt->after[0], (SourceLine{4, "    total += loss.item()", true}));
}

TEST(SourceExcerptTest, RefusesAnEditOutsideTheFile) {
  Fix fix;
  fix.edits.push_back({{500, 510}, {}, "x"});
  EXPECT_FALSE(fix_excerpt(kCode, fix));
}

}  // namespace
}  // namespace sealint::report
