// End-to-end: test code (semantic/test_code.h) gets only the rules that report in tests, what was
// left out is counted in the summary, and `--analyse-tests` / `analyse-tests = true` report it.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// kLeakyTrainPy's loop in a pytest test function: line 10 holds `total += loss`.
std::string leaky_test() {
  std::string code(kLeakyTrainPy);
  code.replace(code.find("def train("), 10, "def test_loss_is_finite(");
  return code;
}

// The loop in a unittest method.
constexpr std::string_view kLeakyTestCase =
    "import unittest\n"
    "import torch\n"
    "\n"
    "class TrainingTest(unittest.TestCase):\n"
    "    def test_converges(self):\n"
    "        total = 0\n"
    "        for x, y in self.loader:\n"
    "            loss = self.criterion(self.model(x), y)\n"
    "            loss.backward()\n"
    "            total += loss\n";

// A training script's own evaluation pass named `test_net`.
constexpr std::string_view kTestNetScript =
    "import torch\n"
    "\n"
    "def test_net(model, loader):\n"
    "    model.eval()\n"
    "    correct = 0\n"
    "    for x, y in loader:\n"
    "        out = model(x)\n"
    "        correct += (out.argmax(1) == y).sum().item()\n"
    "    return correct\n";

class TestCodeTest : public E2eTest {};

TEST_F(TestCodeTest, ATrainTestScriptsTrainFunctionIsTrainingCode) {
  write("train_test.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--no-cache", "train_test.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("train_test.py" + std::string(kLeakAt)));
  EXPECT_THAT(run.out, Not(HasSubstr("Left out")));
}

TEST_F(TestCodeTest, APytestTestFunctionsLeakIsLeftOutAndCounted) {
  write("test_training.py", leaky_test());
  const RunOutput run = this->run({"--no-cache", "test_training.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("error[SL001]")));
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.\nLeft out 1 finding (SL001) in 1 test "
                                 "function: tests run a few iterations; `--analyse-tests` reports "
                                 "them.\n"));
}

TEST_F(TestCodeTest, SarifCountsTheLeftOutFindingsAndSaysSo) {
  write("test_training.py", leaky_test());
  const RunOutput run = this->run({"--no-cache", "--format", "sarif", "test_training.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  const nlohmann::json log = nlohmann::json::parse(run.out);
  const nlohmann::json& invocation = log["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["properties"]["leftOutTests"]["testFunctions"], 1) << run.out;
  EXPECT_EQ(invocation["properties"]["leftOutTests"]["findings"], 1) << run.out;
  ASSERT_EQ(invocation["toolExecutionNotifications"].size(), 1U) << run.out;
  EXPECT_EQ(invocation["toolExecutionNotifications"][0]["level"], "note");
  EXPECT_THAT(invocation["toolExecutionNotifications"][0]["message"]["text"].get<std::string>(),
              HasSubstr("Left out 1 finding (SL001) in 1 test function"));
  EXPECT_TRUE(log["runs"][0]["results"].empty()) << run.out;
}

// JSON keeps its array (findings and input problems only: docs/output-json.md); the summary's
// sentence goes to stderr, and --statistics counts the left-out findings per rule.
TEST_F(TestCodeTest, JsonSaysOnStderrWhatWasLeftOutAndStatisticsCountIt) {
  write("test_training.py", leaky_test());
  const RunOutput run = this->run({"--no-cache", "--format", "json", "test_training.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "[]\n") << describe(run);
  EXPECT_EQ(run.err,
            "sealint: note: Left out 1 finding (SL001) in 1 test function: tests run a few "
            "iterations; `--analyse-tests` reports them.\n");
  const RunOutput stats =
      this->run({"--no-cache", "--statistics", "--format", "json", "test_training.py"});
  EXPECT_EQ(stats.exit_code, 0) << describe(stats);
  const nlohmann::json counts = nlohmann::json::parse(stats.out);
  ASSERT_EQ(counts.size(), 1U) << stats.out;
  EXPECT_EQ(counts[0]["code"], "SL001");
  EXPECT_EQ(counts[0]["name"], "grad-accumulation");
  EXPECT_EQ(counts[0]["count"], 0);
  EXPECT_EQ(counts[0]["left_out_count"], 1);
}

TEST_F(TestCodeTest, AnalyseTestsReportsTheTestFunctionsLeak) {
  write("test_training.py", leaky_test());
  const RunOutput run = this->run({"--no-cache", "--analyse-tests", "test_training.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("test_training.py:10:9: error[SL001]"));
  EXPECT_THAT(run.out, Not(HasSubstr("Left out")));
}

TEST_F(TestCodeTest, TheAnalyseTestsSettingReportsTheTestFunctionsLeak) {
  write("test_training.py", leaky_test());
  write("pyproject.toml", "[tool.sealint]\nanalyse-tests = true\n");
  const RunOutput run = this->run({"--no-cache", "test_training.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("test_training.py:10:9: error[SL001]"));
}

TEST_F(TestCodeTest, TheAnalyseTestsSettingMustBeABoolean) {
  write("test_training.py", leaky_test());
  write(".sealint.toml", "analyse-tests = \"yes\"\n");
  const RunOutput run = this->run({"--no-cache", "test_training.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr(".sealint.toml:1: `analyse-tests` must be true or false"));
}

TEST_F(TestCodeTest, AUnittestMethodsLeakIsLeftOutAndCountedInAnyFile) {
  write("train.py", kLeakyTestCase);
  const RunOutput run = this->run({"--no-cache", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Left out 1 finding (SL001) in 1 test function"));
  const RunOutput analysed = this->run({"--no-cache", "--analyse-tests", "train.py"});
  EXPECT_EQ(analysed.exit_code, 1) << describe(analysed);
  EXPECT_THAT(analysed.out, HasSubstr("train.py:10:13: error[SL001]"));
}

TEST_F(TestCodeTest, AScriptsTestNetIsAnEvaluationPass) {
  write("train.py", kTestNetScript);
  const RunOutput run = this->run({"--no-cache", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("train.py:7:15: warning[SL006]"));
}

TEST_F(TestCodeTest, ACachedResultKeepsItsLeftOutCount) {
  write("test_training.py", leaky_test());
  const RunOutput first = this->run({"test_training.py"});
  const RunOutput cached = this->run({"test_training.py"});
  EXPECT_THAT(first.out, HasSubstr("Left out 1 finding (SL001) in 1 test function"));
  EXPECT_EQ(cached.out, first.out);
}

}  // namespace
}  // namespace sealint::e2e
