#include "analyzer/output/github_output.h"

#include <gtest/gtest.h>

namespace sealint::output {
namespace {

TEST(GithubOutputTest, EscapesWhatTheWorkflowCommandSyntaxReads) {
  EXPECT_EQ(escape_github_data("100% of a:b,c\r\nnext"), "100%25 of a:b,c%0D%0Anext");
  EXPECT_EQ(escape_github_property("a:b,c%"), "a%3Ab%2Cc%25");
}

// Issue 41: a file named with an escape sequence put it raw into the log, which renders ANSI.
TEST(GithubOutputTest, EscapesEveryOtherControlCharacter) {
  EXPECT_EQ(escape_github_property("a\x1b[31mb.py"), "a%1B[31mb.py");
  EXPECT_EQ(escape_github_data("bell\a tab\t del\x7f"), "bell%07 tab\t del%7F");
  EXPECT_EQ(escape_github_data("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays as it is
}

}  // namespace
}  // namespace sealint::output
