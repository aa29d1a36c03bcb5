#include "analyzer/core/unified_diff.h"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace sealint {
namespace {

// Lines `line 1` to `line count`, each with its newline.
std::string numbered_lines(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += fmt::format("line {}\n", i);
  return text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(UnifiedDiffTest, EqualTextsGiveNothing) {
  EXPECT_EQ(unified_diff("a.py", "x\n", "x\n"), "");
}

TEST(UnifiedDiffTest, TwoChangesFarApartAreTwoHunksWithThreeLinesOfContext) {
  const std::string before = numbered_lines(50);
  const std::string after =
      replaced(replaced(before, "line 5\n", "line five\n"), "line 40\n", "line forty\n");
  EXPECT_EQ(unified_diff("a.py", before, after),
            "--- a/a.py\n+++ b/a.py\n"
            "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n"
            " line 8\n"
            "@@ -37,7 +37,7 @@\n line 37\n line 38\n line 39\n-line 40\n+line forty\n line 41\n"
            " line 42\n line 43\n");
}

TEST(UnifiedDiffTest, ChangesSixLinesApartShareAHunk) {
  const std::string before = numbered_lines(20);
  const std::string after =
      replaced(replaced(before, "line 5\n", "line five\n"), "line 12\n", "line twelve\n");
  const std::string diff = unified_diff("a.py", before, after);
  EXPECT_NE(diff.find("@@ -2,14 +2,14 @@\n"), std::string::npos) << diff;
  EXPECT_EQ(diff.find("\n@@", diff.find("\n@@") + 1), std::string::npos) << diff;
}

TEST(UnifiedDiffTest, AnInsertedLineKeepsTheLinesAroundIt) {
  const std::string before = "a\nb\nc\n";
  const std::string after = "a\nb\nnew\nc\n";
  EXPECT_EQ(unified_diff("a.py", before, after),
            "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,4 @@\n a\n b\n+new\n c\n");
}

TEST(UnifiedDiffTest, ALineDeletedFromAFileWithOneLineLeavesAnEmptySide) {
  EXPECT_EQ(unified_diff("a.py", "x\n", ""), "--- a/a.py\n+++ b/a.py\n@@ -1,1 +0,0 @@\n-x\n");
}

// Past the bound on changed lines, the lines between the first and last change are replaced whole:
// still a diff that turns one text into the other.
TEST(UnifiedDiffTest, ManyChangedLinesAreOneHunkReplacingTheMiddle) {
  std::string before = "head\n";
  std::string after = "head\n";
  for (int i = 0; i < 3000; ++i) {
    before += fmt::format("old {}\n", i);
    after += fmt::format("new {}\n", i);
  }
  const std::string diff = unified_diff("a.py", before + "tail\n", after + "tail\n");
  EXPECT_EQ(diff.rfind("--- a/a.py\n+++ b/a.py\n@@ -1,3002 +1,3002 @@\n head\n-old 0\n", 0), 0U);
  EXPECT_NE(diff.find("-old 2999\n+new 0\n"), std::string::npos);
  EXPECT_TRUE(diff.ends_with("+new 2999\n tail\n"));
}

TEST(UnifiedDiffTest, ALastLineWithoutANewlineIsMarked) {
  EXPECT_EQ(unified_diff("a.py", "a\nb", "a\nc"),
            "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
            "+c\n\\ No newline at end of file\n");
}

}  // namespace
}  // namespace sealint
