// End-to-end: verdicts, exit codes, stdin, subcommands and paths of the `sealint` command line.
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class CliTest : public E2eTest {};

TEST_F(CliTest, ExitsOneAndReportsSL001ForALeakyFile) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("train.py:10:9: error[SL001]")) << describe(run);
  EXPECT_EQ(run.err, "");
}

TEST_F(CliTest, ExitsZeroWithNoFindingsForACleanFile) {
  write("train.py", kCleanTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
  EXPECT_EQ(run.err, "");
}

TEST_F(CliTest, ExitsZeroForPlainPythonWithoutATorchImport) {
  write("numbers.py", kPlainPython);
  const RunOutput run = this->run({"numbers.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings")) << describe(run);
}

TEST_F(CliTest, ReadsStdinUnderTheStdinFilename) {
  const RunOutput run = this->run({"-", "--stdin-filename", "train.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py:10:9:")) << describe(run);
}

// As ruff does: `--stdin-filename` with no path names stdin, not the working directory (whose
// other file here would be found by a walk).
TEST_F(CliTest, StdinFilenameWithoutAPathReadsStdin) {
  write("other.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--stdin-filename", "train.py"}, kCleanTrainPy);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("other.py"))) << describe(run);
}

TEST_F(CliTest, PrintsPathsRelativeToTheWorkingDirectory) {
  const std::filesystem::path absolute = write("src/train.py", kLeakyTrainPy);
  ASSERT_TRUE(absolute.is_absolute());
  const RunOutput run = this->run({absolute.string()});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("src/train.py:10:9:")) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr(cwd().string()))) << describe(run);
}

TEST_F(CliTest, AnalysesAFileNamedTwiceOnlyOnce) {
  const std::filesystem::path absolute = write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py", absolute.string()});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 1 file")) << describe(run);
}

// Output is sorted after the parallel run, so the worker count never shows (STYLE.md §6).
TEST_F(CliTest, PrintsTheSameBytesWithOneJobAndWithFour) {
  for (int i = 0; i < 20; ++i) {
    const std::string name =
        "project/pkg" + std::to_string(i % 3) + "/train_" + std::to_string(i) + ".py";
    write(name, i % 2 == 0 ? kLeakyTrainPy : kCleanTrainPy);
  }
  const RunOutput one = run({"--jobs", "1", "project"});
  const RunOutput four = run({"--jobs", "4", "project"});
  ASSERT_EQ(one.exit_code, 1) << describe(one);
  ASSERT_THAT(one.out, HasSubstr("Found 10 findings")) << describe(one);
  EXPECT_EQ(four.exit_code, one.exit_code) << describe(four);
  EXPECT_EQ(four.out, one.out);
}

TEST_F(CliTest, ListsTheRules) {
  const RunOutput run = this->run({"rules"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("SL001")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("SL002")) << describe(run);
}

TEST_F(CliTest, ExplainsARuleWithItsDocsPage) {
  const RunOutput run = this->run({"explain", "SL001"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, StartsWith("# SL001 grad-accumulation\n")) << describe(run);
}

TEST_F(CliTest, ExplainReadsAnIdOrANameInAnyCase) {
  EXPECT_THAT(this->run({"explain", "sl001"}).out, StartsWith("# SL001 grad-accumulation\n"));
  EXPECT_THAT(this->run({"explain", "Grad-Accumulation"}).out,
              StartsWith("# SL001 grad-accumulation\n"));
  const RunOutput several = this->run({"explain", "SL00"});
  EXPECT_EQ(several.exit_code, 2) << describe(several);
  EXPECT_THAT(several.err, HasSubstr("'SL00' names 9 rules; explain one")) << describe(several);
}

// `ruff check x.py` and `ruff rule F401` are how ruff is run: sealint says its own form.
TEST_F(CliTest, AnotherToolsCommandWordGetsAHint) {
  write("x.py", kLeakyTrainPy);
  const RunOutput check = this->run({"check", "x.py"});
  EXPECT_EQ(check.exit_code, 2) << describe(check);
  EXPECT_EQ(check.out, "");
  EXPECT_EQ(check.err,
            "sealint: error: 'check' is neither a command nor a file: sealint lints the paths it "
            "is given, with no command word: `sealint x.py`\n");
  const RunOutput rule = this->run({"rule", "SL001"});
  EXPECT_EQ(rule.exit_code, 2) << describe(rule);
  EXPECT_THAT(rule.err, HasSubstr("a rule's documentation is `sealint explain SL001`"));
}

TEST_F(CliTest, ConfirmWithTheScriptsOptionsBeforeDashDashSaysWhereTheyGo) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"confirm", "train.py", "--lr", "0.1"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_EQ(run.err,
            "sealint: error: `sealint confirm` has no option '--lr'; the script's own arguments go "
            "after `--`: `sealint confirm train.py -- --lr 0.1`\n");
}

TEST_F(CliTest, ExitsTwoWhenExplainingAnUnknownRule) {
  const RunOutput run = this->run({"explain", "SL999"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("SL999")) << describe(run);
}

TEST_F(CliTest, ExitsTwoForAnUnknownOption) {
  const RunOutput run = this->run({"--bogus"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("--bogus")) << describe(run);
}

TEST_F(CliTest, PrintsItsVersion) {
  const RunOutput run = this->run({"--version"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, ::testing::StartsWith("sealint ")) << describe(run);
}

TEST_F(CliTest, HelpShowsTheDefaultsAndTheExitStatuses) {
  const RunOutput run = this->run({"--help"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("=text")) << "--format's default";
  EXPECT_THAT(run.out, HasSubstr("=model")) << "--torch-headers' default";
  EXPECT_THAT(run.out, HasSubstr("Exit status: 0 no findings"));
  EXPECT_THAT(run.out, HasSubstr("2 usage error"));
  const RunOutput confirm = this->run({"confirm", "--help"});
  EXPECT_THAT(confirm.out, HasSubstr("=20")) << "--steps' default";
  EXPECT_THAT(confirm.out, HasSubstr("Exit status: 0 no findings"));
}

TEST_F(CliTest, WithoutAPathItLintsTheWorkingDirectory) {
  write("pkg/train.py", kLeakyTrainPy);
  const RunOutput run = this->run({});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("pkg/train.py:")) << describe(run);
}

TEST_F(CliTest, ExitZeroKeepsTheFindingsButNotTheFailure) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--exit-zero", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("error[SL001]")) << describe(run);
  const RunOutput broken = this->run({"--exit-zero", "missing.py"});
  EXPECT_EQ(broken.exit_code, 2) << describe(broken);
}

TEST_F(CliTest, StatisticsCountsTheFindingsOfEachRule) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--statistics", "train.py"});
  EXPECT_THAT(run.out, HasSubstr("    1  SL001  grad-accumulation")) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("error[SL001]"))) << describe(run);
}

TEST_F(CliTest, StatisticsInJsonAreTheCountsNotTheFindings) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--statistics", "--format", "json", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out,
            "[\n  {\n    \"code\": \"SL001\",\n    \"count\": 1,\n    \"fixable_count\": 0,\n"
            "    \"left_out_count\": 0,\n    \"name\": \"grad-accumulation\",\n"
            "    \"unsafe_fixable_count\": 1\n  }\n]\n")
      << describe(run);
}

// ruff's `[*]` marks what `--fix` fixes as asked: SL001's `.item()` fix is unsafe, so it counts
// only with --unsafe-fixes, and without it the line says what would.
TEST_F(CliTest, StatisticsMarkOnlyTheFixesThatFixApplies) {
  write("train.py", kLeakyTrainPy);
  const RunOutput safe_only = this->run({"--statistics", "train.py"});
  EXPECT_THAT(safe_only.out,
              HasSubstr("SL001  grad-accumulation  [ ] 1 fixable with `--unsafe-fixes`"))
      << describe(safe_only);
  EXPECT_THAT(safe_only.out, Not(HasSubstr("[*]"))) << describe(safe_only);
  const RunOutput unsafe = this->run({"--statistics", "--unsafe-fixes", "train.py"});
  EXPECT_THAT(unsafe.out, HasSubstr("SL001  grad-accumulation  [*] 1 fixable\n"))
      << describe(unsafe);
  const RunOutput json =
      this->run({"--statistics", "--unsafe-fixes", "--format", "json", "train.py"});
  EXPECT_THAT(json.out, HasSubstr("\"fixable_count\": 1,")) << describe(json);
  EXPECT_THAT(json.out, HasSubstr("\"unsafe_fixable_count\": 0")) << describe(json);
}

// --help: options in groups, in the order a user looks for them; the benchmark's --parse-only is
// not shown; rule lists say what they take.
TEST_F(CliTest, HelpShowsOptionsInGroupsWithoutParseOnly) {
  const RunOutput run = this->run({"--help"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  const std::string& out = run.out;
  const size_t output = out.find("\nOutput:");
  const size_t rules = out.find("\nRule selection:");
  const size_t config = out.find("\nConfiguration:");
  const size_t files = out.find("\nFile selection:");
  const size_t fixes = out.find("\nFixes:");
  ASSERT_NE(output, std::string::npos) << out;
  EXPECT_LT(output, rules) << out;
  EXPECT_LT(rules, config) << out;
  EXPECT_LT(config, files) << out;
  EXPECT_LT(files, fixes) << out;
  EXPECT_THAT(out, Not(HasSubstr("--parse-only"))) << out;
  EXPECT_THAT(out, HasSubstr("ids, names, prefixes such as SL00, or ALL")) << out;
  EXPECT_THAT(out, HasSubstr("--exclude,--extend-exclude")) << out;
}

// ruff's `--config KEY=VALUE`: a TOML setting over the configuration in force.
TEST_F(CliTest, ConfigSettingOverridesTheConfigurationFile) {
  write("pyproject.toml", "[tool.sealint]\nselect = [\"SL002\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput file_only = this->run({"train.py"});
  EXPECT_EQ(file_only.exit_code, 0) << describe(file_only);
  const RunOutput run = this->run({"--config", "select = [\"SL001\"]", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("error[SL001]")) << describe(run);
  const RunOutput excluded =
      this->run({"--config", "extend-exclude = [\"train.py\"]", "--force-exclude", "--config",
                 "select = [\"SL001\"]", "train.py"});
  EXPECT_EQ(excluded.exit_code, 0) << describe(excluded);
}

TEST_F(CliTest, ConfigArgumentThatIsNeitherAFileNorASettingIsAnError) {
  write("train.py", kLeakyTrainPy);
  const RunOutput missing = this->run({"--config", "nowhere.toml", "train.py"});
  EXPECT_EQ(missing.exit_code, 2) << describe(missing);
  EXPECT_EQ(missing.err,
            "sealint: error: --config 'nowhere.toml': no such file, and not a `KEY = VALUE` "
            "setting\n");
  const RunOutput bad = this->run({"--config", "select = SL001", "train.py"});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
  EXPECT_THAT(bad.err, HasSubstr("--config 'select = SL001'")) << describe(bad);
  const RunOutput unknown = this->run({"--config", "selct = []", "train.py"});
  EXPECT_EQ(unknown.exit_code, 2) << describe(unknown);
  EXPECT_THAT(unknown.err, HasSubstr("unknown key `selct`")) << describe(unknown);
}

TEST_F(CliTest, ColoursTheOutputWhenAskedTo) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--color", "always", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("\x1b[")) << describe(run);
}

TEST_F(CliTest, ForceColorColoursOutputThatIsNotATerminal) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = run_sealint({"train.py"}, cwd(), {}, false, {"FORCE_COLOR=1"});
  EXPECT_THAT(run.out, HasSubstr("\x1b[")) << describe(run);
}

TEST_F(CliTest, DoesNotColourOutputThatIsNotATerminal) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("\x1b"))) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("\x1b"))) << describe(run);
}

}  // namespace
}  // namespace sealint::e2e
