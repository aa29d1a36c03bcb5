#include "analyzer/server/code_actions.h"

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

// A finding of `rule` whose range starts at `offset` of the code.
Diagnostic finding_at(std::string rule, uint32_t offset) {
  Diagnostic d;
  d.rule_id = std::move(rule);
  d.span.begin.offset = offset;
  d.span.end.offset = offset + 1;
  return d;
}

// The suppression's edit applied to `text`.
std::string suppressed(std::string_view text, const Diagnostic& finding,
                       DocumentLanguage language = DocumentLanguage::Python) {
  const std::string uri = "file:///a/train.py";
  const DocumentPositions positions(text, PositionEncoding::Utf16);
  const ActionDocument document{uri, 1, text, language, positions};
  const auto edit = suppression_edit(finding, document);
  if (!edit) return "(none)";
  const LineIndex& index = positions.index();
  auto offset = [&](const Json& at) {
    return index.offset({at["line"].get<uint32_t>(), at["character"].get<uint32_t>()});
  };
  const size_t begin = offset((*edit)["range"]["start"]);
  const size_t end = offset((*edit)["range"]["end"]);
  return std::string(text.substr(0, begin)) + (*edit)["newText"].get<std::string>() +
         std::string(text.substr(end));
}

TEST(CodeActionsTest, SuppressesWithACommentAtTheLinesEnd) {
  EXPECT_EQ(suppressed("x = 1\ntotal += loss   \ny = 2\n", finding_at("SL001", 6)),
            "x = 1\ntotal += loss  # sealint: ignore[SL001]\ny = 2\n");
}

TEST(CodeActionsTest, SuppressesCppWithItsCommentSyntax) {
  EXPECT_EQ(suppressed("total += loss;\r\n", finding_at("SL001", 0), DocumentLanguage::Cpp),
            "total += loss;  // sealint: ignore[SL001]\r\n");
}

TEST(CodeActionsTest, AddsTheRuleToAListOnTheLine) {
  EXPECT_EQ(suppressed("total += loss  # sealint: ignore[SL004] why\n", finding_at("SL001", 3)),
            "total += loss  # sealint: ignore[SL004, SL001] why\n");
}

TEST(CodeActionsTest, KeepsAnotherLintersCommentAndAddsItsOwn) {
  EXPECT_EQ(suppressed("total += loss  # noqa: E501\n", finding_at("SL001", 0)),
            "total += loss  # noqa: E501  # sealint: ignore[SL001]\n");
}

TEST(CodeActionsTest, OffersNoSuppressionOnAContinuedLine) {
  EXPECT_EQ(suppressed("total += loss + \\\n    other\n", finding_at("SL001", 0)), "(none)");
}

}  // namespace
}  // namespace sealint::server
