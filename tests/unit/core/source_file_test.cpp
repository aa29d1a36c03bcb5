#include "analyzer/core/source_file.h"

#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace sealint {
namespace {

using namespace std::string_literals;

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kGrinning = "\xF0\x9F\x98\x80";  // U+1F600, 4 bytes, 2 UTF-16 units
constexpr std::string_view kEAcute = "\xC3\xA9";            // U+00E9, 2 bytes, 1 UTF-16 unit

// Reads `bytes` as a file that must be accepted; a rejection fails the calling test.
SourceFile load(std::string bytes, std::string path = "test.py") {
  Result<SourceFile> file = SourceFile::from_bytes(std::move(path), std::move(bytes));
  if (!file.has_value()) {
    ADD_FAILURE() << "unexpected rejection: " << file.error();
    return SourceFile::from_bytes("empty.py", "").value();
  }
  return std::move(file).value();
}

TEST(SourceFileTest, KeepsPathAndCode) {
  const SourceFile file = load("x = 1\n", "pkg/mod.py");
  EXPECT_EQ(file.path(), "pkg/mod.py");
  EXPECT_EQ(file.code(), "x = 1\n");
}

TEST(SourceFileTest, CountsCodePointColumnsForMultiByteCharacters) {
  // "é = 1": '=' is byte 3 but the third character.
  const SourceFile file = load(std::string(kEAcute) + " = 1\n");
  EXPECT_EQ(file.position(3), (Position{1, 3, 3, 3}));
}

TEST(SourceFileTest, CountsUtf16ColumnsForAstralCharacters) {
  // "s = '😀' + t": 't' is byte 13, character 11, UTF-16 unit 12.
  const std::string code = "s = '"s + std::string(kGrinning) + "' + t\n";
  const SourceFile file = load(code);
  ASSERT_EQ(code[13], 't');
  EXPECT_EQ(file.position(13), (Position{1, 11, 12, 13}));
}

TEST(SourceFileTest, StripsBomFromCode) {
  const SourceFile file = load(std::string(kBom) + "x = 1\n");
  EXPECT_TRUE(file.has_bom());
  EXPECT_EQ(file.code(), "x = 1\n");
}

TEST(SourceFileTest, CountsOffsetsFromAfterBom) {
  const SourceFile file = load(std::string(kBom) + "x = 1\ny = 2\n");
  EXPECT_EQ(file.position(0), (Position{1, 1, 1, 0}));
  EXPECT_EQ(file.position(6), (Position{2, 1, 1, 6}));
  EXPECT_EQ(file.line_start(2), 6U);
}

TEST(SourceFileTest, ReportsNoBomForPlainFile) {
  EXPECT_FALSE(load("x = 1\n").has_bom());
}

TEST(SourceFileTest, StripsCarriageReturnFromCrlfLineText) {
  const SourceFile file = load("a = 1\r\nb = 2\r\n");
  EXPECT_EQ(file.line_text(1), "a = 1");
  EXPECT_EQ(file.line_text(2), "b = 2");
}

TEST(SourceFileTest, DetectsCrlfLineEndings) {
  EXPECT_TRUE(load("a = 1\r\nb = 2\r\n").uses_crlf());
  EXPECT_FALSE(load("a = 1\nb = 2\n").uses_crlf());
}

TEST(SourceFileTest, ReadsBomAndCrlfTogether) {
  const SourceFile file = load(std::string(kBom) + "a\r\nbc\r\n");
  EXPECT_EQ(file.line_text(2), "bc");
  EXPECT_EQ(file.position(4), (Position{2, 2, 2, 4}));
}

TEST(SourceFileTest, RejectsBinaryFileNamingIt) {
  const Result<SourceFile> file = SourceFile::from_bytes("data/model.bin", "PK\x03\x04\0\0abc"s);
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error(), "'data/model.bin' is a binary file (it contains NUL bytes)");
}

TEST(SourceFileTest, RejectsInvalidUtf8NamingTheLine) {
  const Result<SourceFile> file = SourceFile::from_bytes("latin1.py", "a = 1\nb = 2\nc = '\xE9'\n");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error(), "'latin1.py' is not valid UTF-8 (byte 0xe9 on line 3)");
}

TEST(SourceFileTest, NamesTheLineOfInvalidUtf8AfterBom) {
  const Result<SourceFile> file = SourceFile::from_bytes("bom.py", std::string(kBom) + "\xFF\n");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error(), "'bom.py' is not valid UTF-8 (byte 0xff on line 1)");
}

TEST(SourceFileTest, GivesEmptyFileOneLine) {
  const SourceFile file = load("");
  EXPECT_EQ(file.line_count(), 1U);
  EXPECT_EQ(file.line_text(1), "");
  EXPECT_EQ(file.position(0), (Position{1, 1, 1, 0}));
}

TEST(SourceFileTest, GivesBomOnlyFileOneEmptyLine) {
  const SourceFile file = load(std::string(kBom));
  EXPECT_EQ(file.code(), "");
  EXPECT_EQ(file.line_count(), 1U);
}

TEST(SourceFileTest, CountsLineAfterFinalNewline) {
  const SourceFile file = load("a\nb\n");
  EXPECT_EQ(file.line_count(), 3U);
  EXPECT_EQ(file.line_text(3), "");
}

TEST(SourceFileTest, KeepsLastLineWithoutNewline) {
  const SourceFile file = load("a\nlast");
  EXPECT_EQ(file.line_count(), 2U);
  EXPECT_EQ(file.line_text(2), "last");
}

TEST(SourceFileTest, PositionsEndOffsetAfterLastCharacter) {
  const SourceFile file = load("ab\ncd");
  EXPECT_EQ(file.position(5), (Position{2, 3, 3, 5}));
}

TEST(SourceFileTest, PositionsEndOffsetOfFileEndingInNewlineOnEmptyLastLine) {
  const SourceFile file = load("ab\n");
  EXPECT_EQ(file.position(3), (Position{2, 1, 1, 3}));
}

TEST(SourceFileTest, ClampsOffsetsPastTheEnd) {
  const SourceFile file = load("ab\ncd");
  EXPECT_EQ(file.position(1000), (Position{2, 3, 3, 5}));
}

TEST(SourceFileTest, PositionsNewlineAtEndOfItsLine) {
  const SourceFile file = load("ab\ncd");
  EXPECT_EQ(file.position(2), (Position{1, 3, 3, 2}));
  EXPECT_EQ(file.position(3), (Position{2, 1, 1, 3}));
}

TEST(SourceFileTest, SpansRangeAcrossLines) {
  const SourceFile file = load("def f():\n    return " + std::string(kGrinning) + "\n");
  // From 'f' (byte 4) to just after the emoji (byte 9 + 11 + 4 = 24).
  const Span span = file.span(ByteRange{4, 24});
  EXPECT_EQ(span, (Span{Position{1, 5, 5, 4}, Position{2, 13, 14, 24}}));
}

TEST(SourceFileTest, SpansEmptyRangeAtOnePosition) {
  const SourceFile file = load("x = 1\n");
  EXPECT_EQ(file.span(ByteRange{2, 2}), (Span{Position{1, 3, 3, 2}, Position{1, 3, 3, 2}}));
}

TEST(SourceFileTest, ReturnsEmptyLineTextOutsideTheFile) {
  const SourceFile file = load("a\nb\n");
  EXPECT_EQ(file.line_text(0), "");
  EXPECT_EQ(file.line_text(4), "");
}

TEST(SourceFileTest, ClampsLineStartToExistingLines) {
  const SourceFile file = load("ab\ncd\n");
  EXPECT_EQ(file.line_start(0), 0U);
  EXPECT_EQ(file.line_start(2), 3U);
  EXPECT_EQ(file.line_start(99), 6U);
}

}  // namespace
}  // namespace sealint
