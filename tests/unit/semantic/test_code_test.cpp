#include "analyzer/semantic/test_code.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

// The names of the test functions of `code` lowered as the file `path`.
std::vector<std::string> test_names(const std::string& code, const std::string& path) {
  auto lowered = testing::lower_python(code, path);
  std::vector<std::string> names;
  for (const ir::Function* function : semantic::test_functions(*lowered.module))
    names.emplace_back(function->name);
  return names;
}

const char* const kScript =
    "def train(model):\n    pass\n"
    "def test(model):\n    pass\n"
    "def test_net(model):\n    def test_inner():\n        pass\n"
    "class TestShapes:\n    def check(self):\n        pass\n"
    "import pytest\n"
    "@pytest.fixture(scope='module')\ndef batches():\n    pass\n";

TEST(TestCodeTest, InACollectedFileTestFunctionsTestClassMethodsAndFixturesAreTestCode) {
  const std::vector<std::string> expected = {"test_net", "check", "batches"};
  EXPECT_EQ(test_names(kScript, "train_test.py"), expected);
  EXPECT_EQ(test_names(kScript, "pkg/test_model.py"), expected);
}

TEST(TestCodeTest, OutsideACollectedFileTestNamedFunctionsAreNotTestCode) {
  EXPECT_TRUE(test_names(kScript, "train.py").empty());
  EXPECT_TRUE(test_names(kScript, "tests/helpers.py").empty());  // the folder says nothing
  EXPECT_TRUE(test_names(kScript, "train_test.ipynb").empty());  // pytest collects .py only
  EXPECT_TRUE(test_names(kScript, "test_.py").empty());          // no name after the prefix
  EXPECT_TRUE(test_names(kScript, "latest_model.py").empty());
}

TEST(TestCodeTest, ConftestFixturesAreTestCodeAndItsOtherFunctionsAreNot) {
  const std::vector<std::string> expected = {"batches"};
  EXPECT_EQ(test_names(kScript, "tests/conftest.py"), expected);
}

TEST(TestCodeTest, TestCaseMethodsAreTestCodeInAnyFile) {
  const std::string code =
      "import unittest\n"
      "class A(unittest.TestCase):\n    def setUp(self):\n        pass\n"
      "class B(A):\n    def test_b(self):\n        pass\n"
      "class Trainer:\n    def test_loop(self):\n        pass\n"
      "class Loop(Loop):\n    def run(self):\n        pass\n";
  const std::vector<std::string> expected = {"setUp", "test_b"};
  EXPECT_EQ(test_names(code, "train.py"), expected);
}

}  // namespace
}  // namespace sealint
