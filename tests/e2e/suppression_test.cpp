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

TEST_F(SuppressionTest, ARuleNamedByItsNameIsSuppressed) {
  std::string code(kLeakyTrainPy);
  code.replace(code.find("total += loss\n"), 14,
               "total += loss  # sealint: ignore[grad-accumulation]\n");
  write("named.py", code);
  const RunOutput run = this->run({"--extend-select", "SL012", "named.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file; 1 suppressed."));
  EXPECT_EQ(run.err, "");
}

TEST_F(SuppressionTest, UnknownRuleInASuppressionIsAWarningThatKeepsTheExitStatus) {
  write("other.py", "import torch\nx = 1  # sealint: ignore[SL999]\n");
  const RunOutput run = this->run({"other.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("other.py:2:8: warning: unknown rule 'SL999'"));
}

// The scripts below call `apply(x)`, a callable nothing says is a model: no rule fires on the
// line, so each suppression there is unused (a model's result dropped in a loop is SL006's).
TEST_F(SuppressionTest, AnUnusedSuppressionIsReportedOnlyWhenSl012IsSelected) {
  write("fixed.py",
        "import torch\n\n\ndef f(loader, apply):\n    for x in loader:\n"
        "        apply(x)  # noqa: SL001\n");
  const RunOutput quiet = this->run({"fixed.py"});
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  const RunOutput run = this->run({"--extend-select", "SL012", "fixed.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("fixed.py:6:19: warning[SL012]: [*] unused suppression of SL001: "
                                 "no such finding on this line"));
  // The suppression that silences train.py's SL001 is in use.
  const RunOutput used = this->run({"--extend-select", "SL012", "train.py"});
  EXPECT_EQ(used.exit_code, 0) << describe(used);
}

TEST_F(SuppressionTest, FixRemovesAnUnusedSuppressionAndKeepsOneWithAnotherLintersCodes) {
  write("fixed.py",
        "import torch\n\n\ndef f(loader, apply):\n    for x in loader:\n"
        "        apply(x)  # noqa: SL001\n        apply(x)  # noqa: SL002, E501\n"
        "    # sealint: ignore-file[SL006]\n");
  const RunOutput run = this->run({"--extend-select", "SL012", "--fix", "fixed.py"});
  EXPECT_EQ(read_file(cwd() / "fixed.py"),
            "import torch\n\n\ndef f(loader, apply):\n    for x in loader:\n"
            "        apply(x)\n        apply(x)  # noqa: SL002, E501\n")
      << describe(run);
  EXPECT_THAT(run.out, HasSubstr("unused suppression of SL002"));
}

TEST_F(SuppressionTest, AnUnusedSuppressionOfARuleThatDidNotRunIsNotJudged) {
  write("fixed.py",
        "import torch\n\n\ndef f(loader, apply):\n    for x in loader:\n"
        "        apply(x)  # noqa: SL001\n");
  const RunOutput run = this->run({"--select", "SL002,SL012", "fixed.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
}

TEST_F(SuppressionTest, AFileSuppressionOfSl012AtTheTopSilencesItAndIsInUse) {
  write("fixed.py",
        "# sealint: ignore-file[SL012]\nimport torch\n\n\ndef f(loader, apply):\n"
        "    for x in loader:\n        apply(x)  # noqa: SL001\n");
  const RunOutput run = this->run({"--extend-select", "SL012", "fixed.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("1 suppressed")) << describe(run);
}

TEST_F(SuppressionTest, ABareIgnoreIsJudgedOnlyWhenEveryRuleRan) {
  std::string code(kLeakyTrainPy);
  code.replace(code.find("total += loss\n"), 14, "total += loss  # sealint: ignore\n");
  write("train.py", code);
  // SL001, which the comment silences, did not run: the comment is not judged, nor deleted.
  const RunOutput some = this->run({"--select", "SL002,SL012", "--fix", "train.py"});
  EXPECT_EQ(some.exit_code, 0) << describe(some);
  EXPECT_EQ(read_file(cwd() / "train.py"), code);
  write("other.py", "import torch\nx = 1  # sealint: ignore\n");
  const RunOutput all = this->run({"--select", "ALL", "other.py"});
  EXPECT_THAT(all.out, HasSubstr("unused suppression: no finding on this line")) << describe(all);
  const RunOutput defaults = this->run({"--extend-select", "SL012", "other.py"});
  EXPECT_EQ(defaults.exit_code, 0) << "SL004 is off by default, so not every rule ran\n"
                                   << describe(defaults);
}

TEST_F(SuppressionTest, AFileNotWhollyAnalysedHasNoUnusedSuppressions) {
  write("broken.py", "import torch\nx = 1  # noqa: SL001\ndef f(:\n    pass\n");
  const RunOutput run = this->run({"--extend-select", "SL012", "broken.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("SL012"))) << describe(run);
}

TEST_F(SuppressionTest, FixOfATrailingCommentKeepsTheLinesCrlf) {
  write("crlf.py", "import torch\r\nx = 1  # noqa: SL001\r\ny = 2\r\n");
  const RunOutput run = this->run({"--extend-select", "SL012", "--fix", "crlf.py"});
  EXPECT_EQ(read_file(cwd() / "crlf.py"), "import torch\r\nx = 1\r\ny = 2\r\n") << describe(run);
}

TEST_F(SuppressionTest, CppNolintBlockSilencesEveryLineInsideAndUnmatchedMarkersWarn) {
  write("train.cpp",
        "#include <torch/torch.h>\n"
        "float train(torch::nn::Linear& model, torch::optim::SGD& optimizer, int steps) {\n"
        "  torch::Tensor total = torch::zeros({});\n"
        "  for (int step = 0; step < steps; ++step) {\n"
        "    torch::Tensor loss = model->forward(torch::randn({8, 4})).pow(2).mean();\n"
        "    loss.backward();\n"
        "    optimizer.step();\n"
        "    // NOLINTBEGIN(SL001)\n"
        "    total += loss;\n"
        "    // NOLINTEND(SL001)\n"
        "  }\n"
        "  return total.item<float>();\n"
        "}\n"
        "// NOLINTBEGIN(SL002)\n");
  const RunOutput run = this->run({"train.cpp"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("1 suppressed"));
  EXPECT_THAT(run.err, HasSubstr("`NOLINTBEGIN(SL002)` has no matching `NOLINTEND`"));
}

}  // namespace
}  // namespace sealint::e2e
