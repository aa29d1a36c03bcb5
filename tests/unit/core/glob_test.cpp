#include "analyzer/core/glob.h"

#include <gtest/gtest.h>

namespace sealint {
namespace {

// glob_match: the pattern against the whole text.

TEST(GlobTest, StarMatchesWithinOneComponent) {
  EXPECT_TRUE(glob_match("*.py", "train.py"));
  EXPECT_TRUE(glob_match("*.py", ".py"));
}

TEST(GlobTest, StarDoesNotCrossSlash) {
  EXPECT_FALSE(glob_match("*.py", "models/train.py"));
}

TEST(GlobTest, StarInMiddleMatchesWithinComponent) {
  EXPECT_TRUE(glob_match("test_*_gpu.py", "test_conv_gpu.py"));
  EXPECT_FALSE(glob_match("test_*_gpu.py", "test_conv_cpu.py"));
}

TEST(GlobTest, DoubleStarCrossesSlashes) {
  EXPECT_TRUE(glob_match("**/train.py", "a/b/c/train.py"));
}

TEST(GlobTest, DoubleStarSlashMatchesNoFolderAtStart) {
  EXPECT_TRUE(glob_match("**/train.py", "train.py"));
}

TEST(GlobTest, DoubleStarSlashMatchesNoFolderInMiddle) {
  EXPECT_TRUE(glob_match("src/**/train.py", "src/train.py"));
  EXPECT_TRUE(glob_match("src/**/train.py", "src/a/b/train.py"));
}

TEST(GlobTest, TrailingDoubleStarMatchesEverythingBelow) {
  EXPECT_TRUE(glob_match("build/**", "build/lib/x.py"));
  EXPECT_FALSE(glob_match("build/**", "src/build.py"));
}

TEST(GlobTest, DoubleStarFollowedByStarMatchesFileAnywhere) {
  EXPECT_TRUE(glob_match("**/test_*.py", "pkg/tests/test_io.py"));
  EXPECT_FALSE(glob_match("**/test_*.py", "pkg/tests/io_test.py"));
}

// A folder that matches the text after `**/` ("test_utils") must not stop `**` from going further
// once the `*` after it reaches a `/`.
TEST(GlobTest, DoubleStarRetriesAfterFolderMatchingTheRestOfThePattern) {
  EXPECT_TRUE(glob_match("**/test_*.py", "test_utils/test_io.py"));
  EXPECT_TRUE(glob_match("**/build/*", "build/x/build/y"));
}

TEST(GlobTest, DoubleStarRetriesPastSeveralFoldersWithStars) {
  EXPECT_TRUE(glob_match("**/a*/b*.py", "a1/b1/a2/c/a3/b3.py"));
  EXPECT_FALSE(glob_match("**/a*/b*.py", "a1/b1/a2/c/a3/c3.py"));
}

TEST(GlobTest, DoubleStarRetriesWhenStarFolderIsFollowedByMismatch) {
  EXPECT_TRUE(glob_match("**/src/*/test_*.py", "src/test_x/src/a/test_b.py"));
  EXPECT_FALSE(glob_match("**/src/*/test_*.py", "src/test_x/src/a/b/test_b.py"));
}

TEST(GlobTest, DoubleStarSlashMatchesOnlyWholeFolders) {
  EXPECT_FALSE(glob_match("**/train.py", "mytrain.py"));
  EXPECT_FALSE(glob_match("**/train.py", "a/mytrain.py"));
  EXPECT_FALSE(glob_match("src/**/train.py", "src/a/xtrain.py"));
}

TEST(GlobTest, DoubleStarInsideComponentCrossesSlashes) {
  EXPECT_TRUE(glob_match("a**.py", "a/b/c.py"));
  EXPECT_FALSE(glob_match("a**.py", "a/b/c.pyi"));
}

TEST(GlobTest, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(glob_match("v?.py", "v2.py"));
  EXPECT_FALSE(glob_match("v?.py", "v.py"));
  EXPECT_FALSE(glob_match("v?.py", "v10.py"));
}

TEST(GlobTest, QuestionMarkDoesNotMatchSlash) {
  EXPECT_FALSE(glob_match("a?b", "a/b"));
}

TEST(GlobTest, ClassMatchesCharacterInRange) {
  EXPECT_TRUE(glob_match("[a-z].py", "m.py"));
  EXPECT_FALSE(glob_match("[a-z].py", "M.py"));
  EXPECT_FALSE(glob_match("[a-z].py", "1.py"));
}

TEST(GlobTest, ClassMatchesListedCharacters) {
  EXPECT_TRUE(glob_match("v[12].py", "v2.py"));
  EXPECT_FALSE(glob_match("v[12].py", "v3.py"));
}

TEST(GlobTest, ExclamationMarkNegatesClass) {
  EXPECT_TRUE(glob_match("[!x].py", "y.py"));
  EXPECT_FALSE(glob_match("[!x].py", "x.py"));
}

TEST(GlobTest, CaretNegatesClass) {
  EXPECT_TRUE(glob_match("[^0-9]_old.py", "a_old.py"));
  EXPECT_FALSE(glob_match("[^0-9]_old.py", "7_old.py"));
}

TEST(GlobTest, ClassDoesNotMatchSlash) {
  EXPECT_FALSE(glob_match("a[!x]b", "a/b"));
}

TEST(GlobTest, ClosingBracketFirstInClassIsLiteral) {
  EXPECT_TRUE(glob_match("[]x]", "]"));
  EXPECT_FALSE(glob_match("[]x]", "y"));
}

TEST(GlobTest, ClosingBracketFirstInNegatedClassIsLiteral) {
  EXPECT_TRUE(glob_match("[!]]", "a"));
  EXPECT_FALSE(glob_match("[!]]", "]"));
}

TEST(GlobTest, LiteralPatternMatchesOnlyWholeText) {
  EXPECT_TRUE(glob_match("setup.py", "setup.py"));
  EXPECT_FALSE(glob_match("setup.py", "setup.pyi"));
  EXPECT_FALSE(glob_match("setup.py", "old_setup.py"));
}

// path_matches_glob: the pattern against a relative path, its file name and its folders.

TEST(GlobTest, NameWithoutSlashMatchesAnyFolderComponent) {
  EXPECT_TRUE(path_matches_glob("legacy", "a/legacy/b.py"));
  EXPECT_TRUE(path_matches_glob("legacy", "legacy/b.py"));
}

TEST(GlobTest, NameWithoutSlashDoesNotMatchPartOfComponent) {
  EXPECT_FALSE(path_matches_glob("legacy", "a/legacy_v2/b.py"));
  EXPECT_FALSE(path_matches_glob("legacy", "a/old_legacy/b.py"));
}

TEST(GlobTest, PatternWithoutSlashMatchesFileName) {
  EXPECT_TRUE(path_matches_glob("*_pb2.py", "proto/gen/model_pb2.py"));
  EXPECT_FALSE(path_matches_glob("*_pb2.py", "proto/gen/model.py"));
}

TEST(GlobTest, SlashPatternStarMatchesDirectChildrenOnly) {
  EXPECT_TRUE(glob_match("tests/*", "tests/test_a.py"));
  EXPECT_FALSE(glob_match("tests/*", "tests/unit/test_a.py"));
}

TEST(GlobTest, SlashPatternExcludesEverythingBelowMatchingFolder) {
  // `tests/*` matches the folder tests/unit, so what lies below it is excluded too.
  EXPECT_TRUE(path_matches_glob("tests/*", "tests/test_a.py"));
  EXPECT_TRUE(path_matches_glob("tests/*", "tests/unit/test_a.py"));
}

TEST(GlobTest, SlashPatternIsAnchoredAtStartOfPath) {
  EXPECT_FALSE(path_matches_glob("tests/*", "src/tests/test_a.py"));
}

TEST(GlobTest, DoubleStarSlashPatternMatchesAtAnyDepth) {
  EXPECT_TRUE(path_matches_glob("**/migrations/*.py", "app/db/migrations/0001.py"));
}

TEST(GlobTest, IgnoresLeadingDotSlash) {
  EXPECT_TRUE(path_matches_glob("./src/*.py", "./src/a.py"));
  EXPECT_TRUE(path_matches_glob("src/*.py", "./src/a.py"));
}

TEST(GlobTest, TrailingSlashPatternMatchesFolder) {
  EXPECT_TRUE(path_matches_glob("build/", "build/lib/x.py"));
  EXPECT_TRUE(path_matches_glob("gen/", "a/gen/x.py"));
}

}  // namespace
}  // namespace sealint
