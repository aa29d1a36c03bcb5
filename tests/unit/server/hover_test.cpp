#include "analyzer/server/hover.h"

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

TEST(HoverTest, TakesTheDocsSectionsAsked) {
  const std::string page =
      "# SL000 name\nerror\n\n## What it does\n\nFlags x.\n\n## Why it leaks\n\nBecause.\n\n"
      "## Fix\n\nDo y.\n";
  EXPECT_EQ(doc_sections(page, {"What it does", "Fix"}),
            "## What it does\n\nFlags x.\n\n## Fix\n\nDo y.\n");
}

TEST(HoverTest, ShowsTheFindingsUnderThePositionWithTheirRulesDocs) {
  const std::string text = "total += loss\n";
  Diagnostic finding;
  finding.rule_id = "SL001";
  finding.rule_name = "grad-accumulation";
  finding.message = "`loss` is added to `total`";
  finding.help = "add a number instead";
  finding.span.begin.offset = 0;
  finding.span.end.offset = 13;
  const DocumentPositions positions(text, PositionEncoding::Utf16);
  const auto shown = hover({finding}, {{"line", 0}, {"character", 13}}, positions, true);
  ASSERT_TRUE(shown.has_value());
  const std::string value = (*shown)["contents"]["value"];
  EXPECT_TRUE(value.starts_with("**SL001** `grad-accumulation` (error)\n\n`loss` is added"));
  EXPECT_NE(value.find("help: add a number instead"), std::string::npos);
  EXPECT_NE(value.find("## What it does"), std::string::npos);
  EXPECT_EQ((*shown)["contents"]["kind"], "markdown");
  EXPECT_FALSE(hover({finding}, {{"line", 1}, {"character", 0}}, positions, true).has_value());
}

}  // namespace
}  // namespace sealint::server
