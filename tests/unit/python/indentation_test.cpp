// tree-sitter-python cannot read a line indented 256 or more columns (its scanner keeps widths in
// one byte): the error says so at that line instead of "syntax error" at the file's first line.
#include "analyzer/python/indentation.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint::python {
namespace {

// `levels` nested `if` blocks of `width` columns each, under one `def`.
std::string nested(size_t levels, size_t width) {
  std::string code = "def f(x):\n";
  for (size_t i = 1; i < levels; ++i) code += std::string(i * width, ' ') + "if x:\n";
  code += std::string(levels * width, ' ') + "pass\n";
  return code;
}

TEST(Indentation, FindsTheFirstLineIndentedPast255Columns) {
  const std::string code = nested(64, 4);
  const auto at = first_line_indented_too_deep(code);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(code.substr(*at, 256), std::string(256, ' '));
  EXPECT_FALSE(first_line_indented_too_deep(nested(63, 4)).has_value());
  EXPECT_FALSE(first_line_indented_too_deep(nested(127, 2)).has_value());
  EXPECT_TRUE(first_line_indented_too_deep(nested(128, 2)).has_value());
  EXPECT_TRUE(first_line_indented_too_deep(std::string(32, '\t') + "x = 1\n").has_value());
  EXPECT_FALSE(first_line_indented_too_deep(std::string(300, ' ') + "# a comment\n").has_value());
}

TEST(Indentation, TheInputErrorNamesTheDeepLineNotTheFirst) {
  const auto lowered = testing::lower_python(nested(64, 4));
  ASSERT_EQ(lowered.problems.size(), 1U);
  ASSERT_TRUE(lowered.problems[0].at.has_value());
  EXPECT_EQ(lowered.problems[0].at->line, 65U);  // `pass`, indented 256 columns
  EXPECT_EQ(lowered.problems[0].message,
            "indented more than 255 columns: tree-sitter-python cannot read this (valid "
            "Python); the statement holding it is not analysed");
  EXPECT_TRUE(testing::lower_python(nested(63, 4)).problems.empty());
}

}  // namespace
}  // namespace sealint::python
