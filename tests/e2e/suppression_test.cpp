// End-to-end: inline suppressions change the exit status, are counted, and can be shown.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class SuppressionTest : public E2eTest {
 protected:
  void SetUp() override {
    std::string code(kLeakyTrainPy);
    code.replace(code.find("total += loss\n"), 14, "total += loss  # noqa: SL001\n");
    write("train.py", code);
  }
};

TEST_F(SuppressionTest, ExitsZeroAndCountsTheSuppressedFinding) {
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file; 1 suppressed."));
  EXPECT_THAT(run.out, Not(HasSubstr("error[SL001]")));
}

TEST_F(SuppressionTest, ShowSuppressedPrintsItMarked) {
  const RunOutput run = this->run({"--show-suppressed", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("error[SL001] (suppressed)"));
}

TEST_F(SuppressionTest, JsonMarksTheSuppressedFindingWhenShown) {
  const RunOutput run = this->run({"--show-suppressed", "--format", "json", "train.py"});
  EXPECT_THAT(run.out, HasSubstr("\"suppressed\": true"));
}

TEST_F(SuppressionTest, UnknownRuleInASuppressionIsAWarningThatKeepsTheExitStatus) {
  write("other.py", "import torch\nx = 1  # sealint: ignore[SL999]\n");
  const RunOutput run = this->run({"other.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("other.py:2:8: warning: unknown rule 'SL999'"));
}

}  // namespace
}  // namespace sealint::e2e
