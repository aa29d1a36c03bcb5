#include "analyzer/notebook/ipython_escapes.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint::notebook {
namespace {

std::string neutralised(std::string_view source) {
  const NeutralisedCell cell = neutralise_ipython(source);
  EXPECT_TRUE(cell.python) << source;
  EXPECT_EQ(cell.code.size(), source.size()) << source;
  return cell.code;
}

// The neutralised cell is Python the frontend reads without a syntax error.
void expect_parses(std::string_view source) {
  const testing::Lowered lowered = testing::lower_python(neutralised(source));
  EXPECT_TRUE(lowered.problems.empty())
      << source << "\nbecame\n"
      << neutralised(source) << "\n"
      << (lowered.problems.empty() ? "" : lowered.problems.front().message);
}

TEST(IpythonEscapesTest, TurnsLineMagicsAndShellLinesIntoComments) {
  EXPECT_EQ(neutralised("%matplotlib inline\n!pip install torch\nx = 1\n"),
            "#matplotlib inline\n#pip install torch\nx = 1\n");
  EXPECT_EQ(neutralised("!!ls\n"), "#!ls\n");
}

TEST(IpythonEscapesTest, MakesAnEscapeInABlockTheStatementZero) {
  // A comment alone cannot be a loop's body.
  EXPECT_EQ(neutralised("for i in range(3):\n    %time f(i)\n"),
            "for i in range(3):\n    0#ime f(i)\n");
  expect_parses("for i in range(3):\n    %time f(i)\n");
  expect_parses("if ok:\n    !nvidia-smi\nelse:\n    pass\n");
}

TEST(IpythonEscapesTest, KeepsTheBodyOfAPythonCellMagic) {
  EXPECT_EQ(neutralised("%%time\nfor x in y:\n    total += x\n"),
            "#%time\nfor x in y:\n    total += x\n");
  EXPECT_EQ(neutralised("\n%%capture out\nx = 1\n"), "\n#%capture out\nx = 1\n");
}

TEST(IpythonEscapesTest, LeavesOutACellMagicOfAnotherLanguage) {
  EXPECT_FALSE(neutralise_ipython("%%bash\nls -la\n").python);
  EXPECT_FALSE(neutralise_ipython("%%writefile train.py\nimport torch\n").python);
  EXPECT_FALSE(neutralise_ipython("%%html\n<b>x</b>\n").python);
}

TEST(IpythonEscapesTest, NeutralisesAnEscapeAssignedToAName) {
  EXPECT_EQ(neutralised("files = !ls *.csv\n"), "files = 0#s *.csv\n");
  EXPECT_EQ(neutralised("t = %timeit -o f()\n"), "t = 0#imeit -o f()\n");
  expect_parses("files = !ls *.csv\nt = %timeit -o f()\nx = !\n");
}

TEST(IpythonEscapesTest, KeepsTheNameOfAHelpLineAsAnExpression) {
  EXPECT_EQ(neutralised("torch.nn.Linear?\n"), "torch.nn.Linear#\n");
  EXPECT_EQ(neutralised("model.forward??\n"), "model.forward#?\n");
  EXPECT_EQ(neutralised("?print\n"), "#print\n");
  EXPECT_EQ(neutralised("np.*load*?\n"), "#p.*load*?\n");
  expect_parses("torch.nn.Linear?\nmodel.forward??\n?print\nnp.*load*?\n");
}

TEST(IpythonEscapesTest, NeutralisesAutomagicOnlyWhenPythonCouldNotReadTheLine) {
  EXPECT_EQ(neutralised("pip install torch\n"), "#ip install torch\n");
  EXPECT_EQ(neutralised("cd data\n"), "#d data\n");
  // Python: a name shown, assigned, called or used in an expression.
  for (const std::string_view python :
       {"history\n", "time = 3\n", "run(model)\n", "cd.path\n", "time + 1\n", "env: dict = {}\n",
        "history if ok else None\n"}) {
    EXPECT_EQ(neutralised(python), python);
  }
}

TEST(IpythonEscapesTest, LeavesOperatorsOfAContinuedExpressionAlone) {
  // `%` and `!=` start these lines, but inside brackets or after a backslash they are operators.
  for (const std::string_view python : {"x = (a\n     % b)\n", "ok = (a\n      != b)\n",
                                        "x = a \\\n    % b\n", "x = [1,\n     2]\n"}) {
    EXPECT_EQ(neutralised(python), python);
  }
}

TEST(IpythonEscapesTest, LeavesLinesOfAMultiLineStringAlone) {
  const std::string_view source = "doc = \"\"\"\n%s rows\n!important\n\"\"\"\n%time f()\n";
  EXPECT_EQ(neutralised(source), "doc = \"\"\"\n%s rows\n!important\n\"\"\"\n#time f()\n");
  // A quote inside a shell line is not Python's, and does not open a string.
  EXPECT_EQ(neutralised("!echo \"it's\"\n%time f()\n"), "#echo \"it's\"\n#time f()\n");
}

TEST(IpythonEscapesTest, CommentsOutTheContinuationLinesOfAnEscape) {
  EXPECT_EQ(neutralised("!pip install \\\n    torch \\\n    numpy\nx = 1\n"),
            "#pip install \\\n    #orch \\\n    #umpy\nx = 1\n");
  expect_parses("!pip install \\\n    torch \\\n    numpy\nx = 1\n");
}

TEST(IpythonEscapesTest, KeepsUtf8ValidAndColumnsInPlace) {
  // Only ASCII bytes are replaced: a non-ASCII character after the escape stays whole.
  const std::string source =
      "for x in y:\n    !\xC3\xA9"
      "cho\n";
  const std::string out = neutralised(source);
  EXPECT_EQ(out,
            "for x in y:\n    #\xC3\xA9"
            "cho\n");
  EXPECT_EQ(neutralised("  x = 1\r\n%time f()\r\n"), "  x = 1\r\n#time f()\r\n");
}

}  // namespace
}  // namespace sealint::notebook
