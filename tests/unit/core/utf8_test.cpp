#include "analyzer/core/utf8.h"

#include <optional>
#include <string_view>

#include <gtest/gtest.h>

namespace sealint::utf8 {
namespace {

using namespace std::string_literals;

// "é" (2 bytes), "€" (3 bytes), "😀" U+1F600 (4 bytes).
constexpr std::string_view kEAcute = "\xC3\xA9";
constexpr std::string_view kEuro = "\xE2\x82\xAC";
constexpr std::string_view kGrinning = "\xF0\x9F\x98\x80";

TEST(Utf8Test, AcceptsEmptyText) {
  EXPECT_EQ(first_invalid(""), std::nullopt);
}

TEST(Utf8Test, AcceptsAsciiText) {
  EXPECT_EQ(first_invalid("def f(x):\n    return x\n"), std::nullopt);
}

TEST(Utf8Test, AcceptsTwoThreeAndFourByteSequences) {
  const std::string text =
      "a"s + std::string(kEAcute) + std::string(kEuro) + std::string(kGrinning) + "z";
  EXPECT_EQ(first_invalid(text), std::nullopt);
}

TEST(Utf8Test, AcceptsLargestCodePoint) {
  EXPECT_EQ(first_invalid("\xF4\x8F\xBF\xBF"), std::nullopt);
}

TEST(Utf8Test, AcceptsCodePointsJustOutsideTheSurrogateRange) {
  EXPECT_EQ(first_invalid("\xED\x9F\xBF"), std::nullopt);  // U+D7FF
  EXPECT_EQ(first_invalid("\xEE\x80\x80"), std::nullopt);  // U+E000
}

TEST(Utf8Test, ReportsOffsetOfLoneContinuationByte) {
  EXPECT_EQ(first_invalid("ab\x80 cd"), 2U);
}

TEST(Utf8Test, RejectsOverlongTwoByteLeads) {
  EXPECT_EQ(first_invalid("x\xC0\x80"), 1U);
  EXPECT_EQ(first_invalid("x\xC1\xBF"), 1U);
}

TEST(Utf8Test, RejectsOverlongThreeByteForm) {
  EXPECT_EQ(first_invalid("\xE0\x80\xAF"), 0U);
}

TEST(Utf8Test, RejectsOverlongFourByteForm) {
  EXPECT_EQ(first_invalid("\xF0\x8F\xBF\xBF"), 0U);
}

TEST(Utf8Test, RejectsEncodedSurrogates) {
  EXPECT_EQ(first_invalid("ok\xED\xA0\x80"), 2U);
}

TEST(Utf8Test, RejectsValuesPastLargestCodePoint) {
  EXPECT_EQ(first_invalid("\xF4\x90\x80\x80"), 0U);
}

TEST(Utf8Test, RejectsLeadBytesAboveF4) {
  EXPECT_EQ(first_invalid("\xF5\x80\x80\x80"), 0U);
}

TEST(Utf8Test, RejectsTruncatedSequenceAtEndOfText) {
  EXPECT_EQ(first_invalid("a\xE2\x82"), 1U);
}

TEST(Utf8Test, RejectsLeadByteFollowedByNonContinuation) {
  EXPECT_EQ(first_invalid("\xE2(\xA1"), 0U);
}

TEST(Utf8Test, ReportsFirstOfSeveralInvalidBytes) {
  const std::string text = std::string(kEuro) + "\xFF\xFE";
  EXPECT_EQ(first_invalid(text), 3U);
}

TEST(Utf8Test, CountsEmptyTextAsNoColumns) {
  const Columns columns = count("");
  EXPECT_EQ(columns.code_points, 0U);
  EXPECT_EQ(columns.utf16_units, 0U);
}

TEST(Utf8Test, CountsAsciiAsOneCodePointAndOneUnitPerByte) {
  const Columns columns = count("return x");
  EXPECT_EQ(columns.code_points, 8U);
  EXPECT_EQ(columns.utf16_units, 8U);
}

TEST(Utf8Test, CountsBmpCharactersAsOneUtf16UnitEach) {
  const Columns columns = count(std::string(kEAcute) + std::string(kEuro));
  EXPECT_EQ(columns.code_points, 2U);
  EXPECT_EQ(columns.utf16_units, 2U);
}

TEST(Utf8Test, CountsAstralCharacterAsTwoUtf16Units) {
  const Columns columns = count("a"s + std::string(kGrinning) + "b");
  EXPECT_EQ(columns.code_points, 3U);
  EXPECT_EQ(columns.utf16_units, 4U);
}

TEST(Utf8Test, CountsPartialTrailingSequenceAsOneCodePoint) {
  const Columns columns = count("a\xE2\x82");
  EXPECT_EQ(columns.code_points, 2U);
  EXPECT_EQ(columns.utf16_units, 2U);
}

}  // namespace
}  // namespace sealint::utf8
