#include "analyzer/python/top_level_pieces.h"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace sealint::python {
namespace {

// The first line of each piece, as text.
std::vector<std::string> first_lines(std::string_view code, size_t target_bytes) {
  std::vector<std::string> out;
  for (const Piece& piece : top_level_pieces(code, target_bytes)) {
    const std::string_view rest = code.substr(piece.begin);
    out.emplace_back(rest.substr(0, rest.find('\n')));
  }
  return out;
}

TEST(TopLevelPiecesTest, KeepsCodeNoLongerThanTheTargetInOnePiece) {
  const std::string code = "a = 1\nb = 2\n";
  EXPECT_EQ(top_level_pieces(code, code.size()),
            (std::vector<Piece>{{0, static_cast<uint32_t>(code.size()), 0}}));
}

TEST(TopLevelPiecesTest, CutsAtEveryTopLevelStatementPastTheTarget) {
  const std::string code = "a = 1\n\n# note\nb = 2\nc = 3\n";
  EXPECT_EQ(top_level_pieces(code, 1), (std::vector<Piece>{{0, 14, 0}, {14, 20, 3}, {20, 26, 4}}));
}

TEST(TopLevelPiecesTest, NeverCutsInsideACompoundStatementOrBeforeItsClauses) {
  const std::string code =
      "if a:\n    x = 1\nelse:\n    x = 2\ntry:\n    f()\nexcept E:\n    g()\nfinally:\n"
      "    h()\nfor i in r:\n    pass\nelse_branch = 1\n";
  EXPECT_EQ(first_lines(code, 1),
            (std::vector<std::string>{"if a:", "try:", "for i in r:", "else_branch = 1"}));
}

TEST(TopLevelPiecesTest, KeepsADecoratorWithWhatItDecorates) {
  const std::string code = "x = 1\n@torch.no_grad()\n@other\ndef f():\n    pass\ny = 2\n";
  EXPECT_EQ(first_lines(code, 1), (std::vector<std::string>{"x = 1", "@torch.no_grad()", "y = 2"}));
}

TEST(TopLevelPiecesTest, NeverCutsInsideStringsBracketsOrContinuedLines) {
  const std::string code =
      "doc = \"\"\"\ndef not_code():\n    '''\n\"\"\"\n"  // a triple-quoted string
      "s = 'it\\\nx = 1'\n"                               // a line joined inside a string
      "call(\na,\nb=1)\n"                                 // brackets over lines
      "total = 1 + \\\nx\n"                               // a `\` continuation
      "r = r'\\''\n"                                      // an escaped quote
      "# 'unclosed in a comment\n"
      "end = 1\n";
  EXPECT_EQ(first_lines(code, 1),
            (std::vector<std::string>{"doc = \"\"\"", "s = 'it\\", "call(", "total = 1 + \\",
                                      "r = r'\\''", "end = 1"}));
}

TEST(TopLevelPiecesTest, CountsTheRowOfEachPieceAcrossMultilineStrings) {
  const std::string code = "a = '''\n\n'''\nb = 1\n";
  const std::vector<Piece> pieces = top_level_pieces(code, 1);
  ASSERT_EQ(pieces.size(), 2U);
  EXPECT_EQ(pieces[1].row, 3U);
  EXPECT_EQ(pieces[1].end, code.size());
}

TEST(TopLevelPiecesTest, GrowsEachPieceToTheTargetBeforeCutting) {
  std::string code;
  for (int i = 0; i < 100; ++i) code += "x = 1\n";  // 6 bytes a statement
  const std::vector<Piece> pieces = top_level_pieces(code, 60);
  ASSERT_EQ(pieces.size(), 10U);
  for (const Piece& piece : pieces) EXPECT_EQ(piece.end - piece.begin, 60U);
}

}  // namespace
}  // namespace sealint::python
