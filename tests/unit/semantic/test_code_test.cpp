#include "analyzer/semantic/test_code.h"

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

TEST(TestCodeTest, PytestFileNamesAndTestFoldersAreTestCode) {
  EXPECT_TRUE(semantic::is_test_file("test_model.py"));
  EXPECT_TRUE(semantic::is_test_file("pkg/model_test.py"));
  EXPECT_TRUE(semantic::is_test_file("conftest.py"));
  EXPECT_TRUE(semantic::is_test_file("tests/helpers.py"));
  EXPECT_TRUE(semantic::is_test_file("src/lib/testing/model_test_case.py"));
  EXPECT_TRUE(semantic::is_test_file("src/lib/test_utils/scripts/sync.py"));
  EXPECT_FALSE(semantic::is_test_file("train.py"));
  EXPECT_FALSE(semantic::is_test_file("examples/test.py"));  // `def test()` scripts evaluate
  EXPECT_FALSE(semantic::is_test_file("latest_model.py"));
  EXPECT_FALSE(semantic::is_test_file("contests/train.py"));
}

TEST(TestCodeTest, TestCaseClassesAndTheirSameFileSubclassesAreTestCode) {
  auto lowered = testing::lower_python(
      "import unittest\n"
      "class A(unittest.TestCase):\n    pass\n"
      "class B(A):\n    pass\n"
      "class C(B):\n    pass\n"
      "class Trainer:\n    pass\n"
      "class Loop(Loop):\n    pass\n");
  const auto ranges = semantic::test_class_ranges(*lowered.module);
  EXPECT_EQ(ranges.size(), 3U);
}

}  // namespace
}  // namespace sealint
