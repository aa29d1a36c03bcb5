#include "analyzer/report/html_text.h"

#include <gtest/gtest.h>

namespace sealint::report {
namespace {

TEST(HtmlTextTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html_text(R"(<a href="x">'&'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(HtmlTextTest, ShowsControlCharactersAsReplacementsAndKeepsLineBreaks) {
  EXPECT_EQ(html_text("a\x1b[31mb\n\tc"), "a\xEF\xBF\xBD[31mb\n\tc");
}

}  // namespace
}  // namespace sealint::report
