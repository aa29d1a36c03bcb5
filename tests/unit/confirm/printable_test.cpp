#include "analyzer/confirm/printable.h"

#include <gtest/gtest.h>

namespace sealint::confirm {
namespace {

TEST(PrintableTest, ShowsControlCharactersAsEscapes) {
  EXPECT_EQ(printable("bad \x1b[2J thing\a"), "bad \\x1b[2J thing\\x07");
  EXPECT_EQ(printable("carriage\rreturn, delete\x7f"), "carriage\\x0dreturn, delete\\x7f");
  EXPECT_EQ(printable("csi \xc2\x9b"
                      "31m"),
            "csi \\u009b31m");
}

TEST(PrintableTest, KeepsLinesTabsAndOtherText) {
  EXPECT_EQ(printable("line 1\n\tline 2"), "line 1\n\tline 2");
  EXPECT_EQ(printable("caf\xc3\xa9 \xc2\xa0 \xe2\x96\x81"), "caf\xc3\xa9 \xc2\xa0 \xe2\x96\x81");
}

}  // namespace
}  // namespace sealint::confirm
