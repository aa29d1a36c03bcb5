#include <gtest/gtest.h>

#include "analyzer/output/text_output.h"

namespace sealint {
namespace {

Diagnostic with_fix(bool safe) {
  Diagnostic d;
  d.rule_id = "SL001";
  Fix fix;
  fix.safe = safe;
  d.fix = fix;
  return d;
}

TEST(FixHintTest, SaysWhatFixOffersAndWhatUnsafeFixesWouldAdd) {
  const std::vector<Diagnostic> findings = {with_fix(true), with_fix(false), with_fix(false),
                                            Diagnostic{}};
  EXPECT_EQ(output::fix_hint_line(findings, false, false),
            "1 fixable with `--fix` (2 more with `--unsafe-fixes`).");
  EXPECT_EQ(output::fix_hint_line(findings, false, true), "3 fixable with `--fix`.");
}

TEST(FixHintTest, AfterFixOnlyTheUnsafeFixesAreLeftToMention) {
  const std::vector<Diagnostic> left = {with_fix(false)};
  EXPECT_EQ(output::fix_hint_line(left, true, false),
            "1 fix available with `--fix --unsafe-fixes`.");
  EXPECT_EQ(output::fix_hint_line(left, true, true), "");
  EXPECT_EQ(output::fix_hint_line({Diagnostic{}}, false, false), "");
}

}  // namespace
}  // namespace sealint
