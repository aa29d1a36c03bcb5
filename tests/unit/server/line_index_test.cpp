#include "analyzer/server/line_index.h"

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

// "é" (2 bytes, 1 UTF-16 unit), "😀" U+1F600 (4 bytes, 2 UTF-16 units).
constexpr std::string_view kText = "a\xC3\xA9\xF0\x9F\x98\x80z\nsecond\r\nthird\rfourth";

TEST(LineIndexTest, CountsUtf16UnitsByDefault) {
  const LineIndex index(kText, PositionEncoding::Utf16);
  EXPECT_EQ(index.position(7), (LspPosition{0, 4}));  // `z`: a, é, and a surrogate pair
  EXPECT_EQ(index.offset({0, 4}), 7U);
}

TEST(LineIndexTest, CountsBytesOrCodePointsWhenAgreed) {
  EXPECT_EQ(LineIndex(kText, PositionEncoding::Utf8).position(7), (LspPosition{0, 7}));
  EXPECT_EQ(LineIndex(kText, PositionEncoding::Utf32).position(7), (LspPosition{0, 3}));
  EXPECT_EQ(LineIndex(kText, PositionEncoding::Utf32).offset({0, 3}), 7U);
}

TEST(LineIndexTest, EndsLinesAtNewlineCrlfAndALoneCr) {
  const LineIndex index(kText, PositionEncoding::Utf16);
  EXPECT_EQ(index.line_count(), 4U);
  EXPECT_EQ(index.position(9), (LspPosition{1, 0}));
  EXPECT_EQ(index.line_end(1), 15U);  // before \r\n
  EXPECT_EQ(index.position(17), (LspPosition{2, 0}));
  EXPECT_EQ(index.position(23), (LspPosition{3, 0}));  // after the lone \r
}

TEST(LineIndexTest, ClampsPositionsPastALineOrTheText) {
  const LineIndex index(kText, PositionEncoding::Utf16);
  EXPECT_EQ(index.offset({1, 100}), 15U);
  EXPECT_EQ(index.offset({100, 0}), kText.size());
  EXPECT_EQ(index.position(10000), (LspPosition{3, 6}));
}

TEST(LineIndexTest, PutsAnOffsetInsideACharacterAtItsStart) {
  const LineIndex index(kText, PositionEncoding::Utf16);
  EXPECT_EQ(index.position(2), (LspPosition{0, 1}));  // the second byte of `é`
  EXPECT_EQ(index.position(5), (LspPosition{0, 2}));  // inside the emoji
}

TEST(LineIndexTest, HasOneEmptyLineForEmptyText) {
  const LineIndex index("", PositionEncoding::Utf16);
  EXPECT_EQ(index.line_count(), 1U);
  EXPECT_EQ(index.position(0), (LspPosition{0, 0}));
}

}  // namespace
}  // namespace sealint::server
