// End-to-end: pyproject.toml / .sealint.toml / --config and --select / --ignore change what is
// reported; a broken configuration stops the run (exit 2); `sealint config` prints it.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// An evaluation loop run with autograd on: its only finding is SL006, a warning, at 7:20.
constexpr std::string_view kEvalPy =
    "import torch\n"
    "\n"
    "def evaluate(model, loader):\n"
    "    model.eval()\n"
    "    out = []\n"
    "    for x, _ in loader:\n"
    "        out.append(model(x).argmax(1))\n"
    "    return out\n";

class ConfigE2eTest : public E2eTest {
 protected:
  // A broken configuration: exit 2, nothing on stdout, one `sealint: error:` line on stderr.
  static void expect_one_error_line(const RunOutput& run) {
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
    EXPECT_THAT(run.err, StartsWith("sealint: error: ")) << describe(run);
    EXPECT_EQ(count_lines(run.err), 1U) << describe(run);
  }
};

TEST_F(ConfigE2eTest, TheEvalSampleReportsOnlyASL006WarningWithoutConfiguration) {
  write("eval.py", kEvalPy);
  const RunOutput run = this->run({"eval.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("eval.py:7:20: warning[SL006]")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 warning) in 1 file.")) << describe(run);
}

// A warm-up forward whose `_` keeps one batch's graph alive through training: SL004, a rule that
// is off by default, at 6:9.
constexpr std::string_view kWarmUpPy =
    "import torch\n"
    "\n"
    "def warm_up_then_train(model, loader, optimizer):\n"
    "    model.train()\n"
    "    for batch in loader:\n"
    "        _ = model(batch)\n"
    "        break\n"
    "    train(model, loader, optimizer)\n"
    "\n"
    "def train(model, loader, optimizer):\n"
    "    for x in loader:\n"
    "        model(x).sum().backward()\n"
    "        optimizer.step()\n";

TEST_F(ConfigE2eTest, AnOffByDefaultRuleRunsOnlyWhenSelectedOrExtended) {
  write("warm.py", kWarmUpPy);
  const RunOutput quiet = this->run({"warm.py"});
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  const RunOutput extended = this->run({"--extend-select", "SL004", "warm.py"});
  EXPECT_THAT(extended.out, HasSubstr("warm.py:6:9: note[SL004]")) << describe(extended);
  const RunOutput selected = this->run({"--select", "SL004", "warm.py"});
  EXPECT_THAT(selected.out, HasSubstr("warm.py:6:9: note[SL004]")) << describe(selected);
  write("pyproject.toml", "[tool.sealint]\nextend-select = [\"SL004\"]\n");
  const RunOutput configured = this->run({"warm.py"});
  EXPECT_THAT(configured.out, HasSubstr("warm.py:6:9: note[SL004]")) << describe(configured);
  const RunOutput unknown = this->run({"--extend-select", "SL999", "warm.py"});
  EXPECT_EQ(unknown.exit_code, 2) << describe(unknown);
}

TEST_F(ConfigE2eTest, ARuleNamedByItsNameIsSelectedAndIgnoredLikeItsId) {
  write("train.py", kLeakyTrainPy);
  const RunOutput selected = this->run({"--select", "grad-accumulation", "train.py"});
  EXPECT_EQ(selected.exit_code, 1) << describe(selected);
  EXPECT_THAT(selected.out, HasSubstr("error[SL001]")) << describe(selected);
  const RunOutput ignored = this->run({"--ignore", "grad-accumulation", "train.py"});
  EXPECT_THAT(ignored.out, Not(HasSubstr("[SL001]"))) << describe(ignored);
  const RunOutput prefix = this->run({"--select", "sl00", "--ignore", "ALL", "train.py"});
  EXPECT_EQ(prefix.exit_code, 0) << describe(prefix);
  write("pyproject.toml", "[tool.sealint]\nselect = [\"grad-accumulation\"]\n");
  const RunOutput configured = this->run({"train.py"});
  EXPECT_THAT(configured.out, HasSubstr("error[SL001]")) << describe(configured);
}

TEST_F(ConfigE2eTest, IgnoreInPyprojectSilencesTheRule) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, SelectInPyprojectReportsOnlyTheRulesListed) {
  write("pyproject.toml", "[tool.sealint]\nselect = [\"SL002\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, PerFileIgnoresSilencesTheRuleForMatchingFilesOnly) {
  write("pyproject.toml", "[tool.sealint.per-file-ignores]\n\"scripts/*.py\" = [\"SL001\"]\n");
  write("scripts/once.py", kLeakyTrainPy);
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith(std::string("train.py") + std::string(kLeakAt))) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("scripts/once.py:"))) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 2 files.")) << describe(run);
}

TEST_F(ConfigE2eTest, ExcludeSkipsAFolderWhenWalking) {
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\n");
  write("legacy/old.py", kLeakyTrainPy);
  write("train.py", kCleanTrainPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, ForceExcludeSkipsANamedFileAsPreCommitNamesThem) {
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\n");
  write("legacy/old.py", kLeakyTrainPy);
  write("train.py", kCleanTrainPy);
  const RunOutput flag = this->run({"--force-exclude", "legacy/old.py", "train.py"});
  EXPECT_EQ(flag.exit_code, 0) << describe(flag);
  EXPECT_THAT(flag.out, HasSubstr("No findings in 1 file.")) << describe(flag);
  const RunOutput option = this->run({"--force-exclude", "--exclude", "train.py", "train.py"});
  EXPECT_THAT(option.out, HasSubstr("No findings in 0 files.")) << describe(option);
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\nforce-exclude = true\n");
  const RunOutput configured = this->run({"legacy/old.py"});
  EXPECT_EQ(configured.exit_code, 0) << describe(configured);
  EXPECT_THAT(configured.out, Not(HasSubstr("SL001"))) << describe(configured);
}

TEST_F(ConfigE2eTest, RespectGitignoreFalseWalksWhatTheGitignoreLists) {
  std::filesystem::create_directories(cwd() / ".git");  // a work tree, as git makes it
  write(".gitignore", "generated/\n");
  write("generated/train.py", kLeakyTrainPy);
  write("train.py", kCleanTrainPy);
  const RunOutput respected = this->run({"."});
  EXPECT_EQ(respected.exit_code, 0) << describe(respected);
  write("pyproject.toml", "[tool.sealint]\nrespect-gitignore = false\n");
  const RunOutput walked = this->run({"."});
  EXPECT_EQ(walked.exit_code, 1) << describe(walked);
  EXPECT_THAT(walked.out, HasSubstr("generated/train.py" + std::string(kLeakAt)));
  write("pyproject.toml", "[tool.sealint]\nrespect-gitignore = \"no\"\n");
  const RunOutput bad = this->run({"."});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
  EXPECT_THAT(bad.err, HasSubstr("`respect-gitignore` must be true or false"));
}

TEST_F(ConfigE2eTest, PyprojectsTableInsideSealintTomlSaysWhereItsKeysGo) {
  write(".sealint.toml", "[tool.sealint]\nselect = [\"SL001\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("`[tool.sealint]` belongs in pyproject.toml; in .sealint.toml "
                                 "write the keys at the top level"));
}

TEST_F(ConfigE2eTest, ExcludeDoesNotSkipAFileNamedOnTheCommandLine) {
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\n");
  write("legacy/old.py", kLeakyTrainPy);
  const RunOutput run = this->run({"legacy/old.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("legacy/old.py" + std::string(kLeakAt))) << describe(run);
}

TEST_F(ConfigE2eTest, ExcludeDoesNotSkipAFileNamedWithALeadingDotSlash) {
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\n");
  write("legacy/old.py", kLeakyTrainPy);
  const RunOutput run = this->run({"./legacy/old.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("legacy/old.py" + std::string(kLeakAt))) << describe(run);
}

TEST_F(ConfigE2eTest, ANearerSealintTomlWinsOverAPyprojectFurtherUp) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("sub/.sealint.toml", "select = [\"SL001\"]\n");
  write("train.py", kLeakyTrainPy);
  write("sub/train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("sub/train.py" + std::string(kLeakAt))) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 2 files.")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigOptionOverridesTheFileFoundUpTheTree) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("other.toml", "select = [\"SL001\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--config", "other.toml", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py" + std::string(kLeakAt))) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigOptionNamingAFileInTheWorkingDirectoryAppliesItsExclude) {
  write("other.toml", "exclude = [\"legacy\"]\n");
  write("legacy/old.py", kLeakyTrainPy);
  write("train.py", kCleanTrainPy);
  const RunOutput run = this->run({"--config", "other.toml", "."});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigOptionNamingAFileInTheWorkingDirectoryAppliesItsPerFileIgnores) {
  write("other.toml", "[per-file-ignores]\n\"scripts/*.py\" = [\"SL001\"]\n");
  write("scripts/once.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--config", "other.toml", "scripts/once.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigOptionNamingAFileInASubfolderAppliesItsExcludeBelowIt) {
  write("conf/other.toml", "exclude = [\"legacy\"]\n");
  write("conf/legacy/old.py", kLeakyTrainPy);
  write("legacy/old.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--config", "conf/other.toml", "."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("legacy/old.py" + std::string(kLeakAt))) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Found 1 finding (1 error) in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigOptionNamingAPyprojectWithoutTheTableIsAnError) {
  write("project/pyproject.toml", "[project]\nname = \"demo\"\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--config", "project/pyproject.toml", "train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("has no [tool.sealint] table")) << describe(run);
}

TEST_F(ConfigE2eTest, SelectOptionBeforeAPathStillAnalysesThePath) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--select", "SL001", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py" + std::string(kLeakAt))) << describe(run);
}

TEST_F(ConfigE2eTest, SelectOptionTurnsOffTheRulesNotListed) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--select", "SL002", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, SelectOptionReplacesTheSelectOfTheConfiguration) {
  write("pyproject.toml", "[tool.sealint]\nselect = [\"SL002\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--select", "SL001", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, StartsWith("train.py" + std::string(kLeakAt))) << describe(run);
}

TEST_F(ConfigE2eTest, IgnoreOptionBeforeAPathStillAnalysesThePath) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--ignore", "SL001", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, IgnoreOptionTakesCommaSeparatedIds) {
  write("train.py", kLeakyTrainPy);
  write("eval.py", kEvalPy);
  const RunOutput run = this->run({"--ignore", "SL006,SL001", "train.py", "eval.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 2 files.")) << describe(run);
}

TEST_F(ConfigE2eTest, IgnoreOptionIsRepeatable) {
  write("train.py", kLeakyTrainPy);
  write("eval.py", kEvalPy);
  const RunOutput run =
      this->run({"--ignore", "SL006", "--ignore", "SL001", "train.py", "eval.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 2 files.")) << describe(run);
}

TEST_F(ConfigE2eTest, IgnoreOptionAddsToTheIgnoreOfTheConfiguration) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL006\"]\n");
  write("train.py", kLeakyTrainPy);
  write("eval.py", kEvalPy);
  const RunOutput run = this->run({"--ignore", "SL001", "train.py", "eval.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 2 files.")) << describe(run);
}

TEST_F(ConfigE2eTest, SelectOptionNamingAnUnknownRuleIsAnError) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--select", "SL999", "train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("--select names an unknown rule 'SL999'")) << describe(run);
}

TEST_F(ConfigE2eTest, IgnoreOptionNamingAnUnknownRuleIsAnError) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--ignore", "SL001,nope", "train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("--ignore names an unknown rule 'nope'")) << describe(run);
}

TEST_F(ConfigE2eTest, UnknownKeyStopsTheRunNamingTheFileLineAndKey) {
  write("pyproject.toml", "[tool.sealint]\nselct = [\"SL001\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:2:")) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("`selct`")) << describe(run);
}

TEST_F(ConfigE2eTest, UnknownRuleInSelectStopsTheRun) {
  write("pyproject.toml", "[tool.sealint]\nselect = [\"SL001\", \"SL999\"]\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:2:")) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("'SL999'")) << describe(run);
}

TEST_F(ConfigE2eTest, InvalidTomlStopsTheRunNamingTheLine) {
  write("pyproject.toml", "[tool.sealint]\nselect = []\nignore = [\"SL001\"\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:3:")) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("invalid TOML")) << describe(run);
}

TEST_F(ConfigE2eTest, ABadBudgetStopsTheRunNamingTheOption) {
  write("pyproject.toml", "[tool.sealint.rules.SL003]\nbudget-gib = \"x\"\n");
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:2: rules.SL003.budget-gib")) << describe(run);
}

TEST_F(ConfigE2eTest, ABrokenFileBelowAFolderStopsTheRunWhenWalking) {
  write("train.py", kCleanTrainPy);
  write("sub/.sealint.toml", "severity = \"loud\"\n");
  write("sub/train.py", kCleanTrainPy);
  const RunOutput run = this->run({"."});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("sub/.sealint.toml:1:")) << describe(run);
}

TEST_F(ConfigE2eTest, SeverityErrorDropsWarnings) {
  write("pyproject.toml", "[tool.sealint]\nseverity = \"error\"\n");
  write("eval.py", kEvalPy);
  const RunOutput run = this->run({"eval.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("No findings in 1 file.")) << describe(run);
}

TEST_F(ConfigE2eTest, SeverityWarningKeepsWarnings) {
  write("pyproject.toml", "[tool.sealint]\nseverity = \"warning\"\n");
  write("eval.py", kEvalPy);
  const RunOutput run = this->run({"eval.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("eval.py:7:20: warning[SL006]")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandPrintsTheConfigurationInForce) {
  write("pyproject.toml",
        "[tool.sealint]\nselect = [\"SL001\", \"SL006\"]\nseverity = \"warning\"\n"
        "exclude = [\"legacy\"]\n");
  const RunOutput run = this->run({"config"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, StartsWith("# " + (cwd() / "pyproject.toml").string() + "\n"))
      << describe(run);
  EXPECT_THAT(run.out, HasSubstr("[tool.sealint]\n")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("select = [\"SL001\", \"SL006\"]\n")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("severity = \"warning\"\n")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("exclude = [\"legacy\"]\n")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandPrintsTheDefaultsWithoutAFile) {
  const RunOutput run = this->run({"config"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, StartsWith("# defaults (no configuration file found); ")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("# select: not set, so every rule that is on by default"))
      << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("\nselect = []"))) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("severity = \"note\"\n")) << describe(run);
}

// What `sealint config` prints is a configuration: pasted into the file it came from (or into
// a .sealint.toml, for a .sealint.toml), it reads back to the same output.
TEST_F(ConfigE2eTest, ConfigCommandOutputPastesBackIntoItsFile) {
  write("proj/.sealint.toml",
        "select = [\"SL001\", \"grad-accumulation\", \"SL006\"]\nexclude = [\"legacy\"]\n"
        "[per-file-ignores]\n\"tests/*\" = [\"SL004\"]\n[rules.SL003]\nbudget-gib = 1.5\n");
  const RunOutput first = this->run({"config", "proj"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  EXPECT_THAT(first.out, Not(HasSubstr("[tool.sealint]"))) << describe(first);
  EXPECT_THAT(first.out, HasSubstr("select = [\"SL001\", \"SL006\"]\n")) << describe(first);
  write("proj/.sealint.toml", first.out);
  const RunOutput again = this->run({"config", "proj"});
  EXPECT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(again.out, first.out);

  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL006\", \"SL006\"]\n");
  const RunOutput pyproject = this->run({"config"});
  ASSERT_EQ(pyproject.exit_code, 0) << describe(pyproject);
  EXPECT_THAT(pyproject.out, HasSubstr("ignore = [\"SL006\"]\n")) << describe(pyproject);
  write("pyproject.toml", pyproject.out);
  const RunOutput pasted = this->run({"config"});
  EXPECT_EQ(pasted.exit_code, 0) << describe(pasted);
  EXPECT_EQ(pasted.out, pyproject.out);
}

// ruff's `extend-exclude` adds globs to `exclude`.
TEST_F(ConfigE2eTest, ExtendExcludeAddsToExclude) {
  write("pyproject.toml", "[tool.sealint]\nexclude = [\"legacy\"]\nextend-exclude = [\"old\"]\n");
  write("legacy/a.py", kLeakyTrainPy);
  write("old/b.py", kLeakyTrainPy);
  write("src/c.py", kLeakyTrainPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("src/c.py")) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("legacy/a.py"))) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("old/b.py"))) << describe(run);
}

// ruff's `extend` (issue 39): the base's keys under this file's, its globs relative to its own
// folder, `sealint config` naming it; a cycle stops the run with one line.
TEST_F(ConfigE2eTest, ExtendReadsTheBaseUnderThisFilesKeys) {
  write("team/base.toml", "ignore = [\"SL001\"]\nexclude = [\"gen/*.py\"]\n");
  write("pyproject.toml",
        "[tool.sealint]\nextend = \"team/base.toml\"\nselect = [\"SL001\", \"SL006\"]\n");
  write("train.py", kLeakyTrainPy);
  write("eval.py", kEvalPy);
  write("team/gen/eval.py", kEvalPy);
  write("gen/eval.py", kEvalPy);
  const RunOutput run = this->run({"."});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("error[SL001]"))) << describe(run);  // the base ignores it
  EXPECT_THAT(run.out, HasSubstr("eval.py:7:20: warning[SL006]")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("gen/eval.py")) << describe(run);  // not the base's gen/
  EXPECT_THAT(run.out, Not(HasSubstr("team/gen/eval.py"))) << describe(run);
  const RunOutput shown = this->run({"config"});
  EXPECT_EQ(shown.exit_code, 0) << describe(shown);
  EXPECT_THAT(shown.out, HasSubstr("# extends " + (cwd() / "team/base.toml").string()));
  EXPECT_THAT(shown.out, HasSubstr("ignore = [\"SL001\"]"));
}

TEST_F(ConfigE2eTest, ExtendInACycleIsAnError) {
  write("pyproject.toml", "[tool.sealint]\nextend = \".sealint-base.toml\"\n");
  write(".sealint-base.toml", "extend = \"pyproject.toml\"\n");
  write("train.py", kCleanTrainPy);
  const RunOutput run = this->run({"train.py"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("`extend` makes a cycle: ")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandForAMissingPathIsAnError) {
  const RunOutput run = this->run({"config", "missing.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_EQ(run.out, "") << describe(run);
  EXPECT_THAT(run.err, HasSubstr("cannot read 'missing.py'")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandPicksTheNearestFileForAPath) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  write("sub/.sealint.toml", "ignore = [\"SL006\"]\n");
  write("sub/dir/train.py", kCleanTrainPy);
  const RunOutput run = this->run({"config", "sub/dir"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, StartsWith("# " + (cwd() / "sub/.sealint.toml").string() + "\n"))
      << describe(run);
  EXPECT_THAT(run.out, HasSubstr("ignore = [\"SL006\"]\n")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandShowsTheCommandLineOverrides) {
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL006\"]\n");
  const RunOutput run = this->run({"--select", "SL001", "--ignore", "SL002", "config"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("select = [\"SL001\"]\n")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("ignore = [\"SL006\", \"SL002\"]\n")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandStopsOnAnUnknownKey) {
  write("pyproject.toml", "[tool.sealint]\nselct = [\"SL001\"]\n");
  const RunOutput run = this->run({"config"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:2:")) << describe(run);
}

TEST_F(ConfigE2eTest, ConfigCommandStopsOnABadRuleOption) {
  write("pyproject.toml", "[tool.sealint.rules.SL003]\nbudget-gib = \"x\"\n");
  const RunOutput run = this->run({"config"});
  expect_one_error_line(run);
  EXPECT_THAT(run.err, HasSubstr("pyproject.toml:2: rules.SL003.budget-gib")) << describe(run);
}

// Issue 41: a pyproject.toml that another user put above the project (in /tmp, which every user
// may write) silenced it with `ignore = ["ALL"]`. The walk stops below such a folder: the finding
// is reported, the file passed over is named, and the result cache stays in the project.
class ForeignConfigTest : public ConfigE2eTest {
 protected:
  void SetUp() override {
    write("shared/pyproject.toml", "[tool.sealint]\nignore = [\"ALL\"]\n");
    write("shared/project/train.py", kLeakyTrainPy);
  }
  [[nodiscard]] std::filesystem::path shared() const { return cwd() / "shared"; }
  [[nodiscard]] RunOutput run_in_project() const {
    RunOutput output = run_sealint({"train.py"}, shared() / "project");
    EXPECT_FALSE(output.timed_out) << describe(output);
    return output;
  }
  void expect_not_silenced(const RunOutput& output, std::string_view why) const {
    EXPECT_EQ(output.exit_code, 1) << describe(output);
    EXPECT_THAT(output.out, HasSubstr(std::string("train.py") + std::string(kLeakAt)));
    EXPECT_THAT(output.err, HasSubstr(fmt::format("sealint: warning: '{}/pyproject.toml' is not "
                                                  "read: '{}' {}",
                                                  shared().string(), shared().string(), why)))
        << describe(output);
    EXPECT_TRUE(std::filesystem::exists(shared() / "project/.sealint_cache"));
    EXPECT_FALSE(std::filesystem::exists(shared() / ".sealint_cache"));
  }
};

TEST_F(ForeignConfigTest, AConfigurationInTheUsersOwnFolderApplies) {
  const RunOutput output = run_in_project();
  EXPECT_EQ(output.exit_code, 0) << describe(output);
  EXPECT_EQ(output.err, "") << describe(output);
}

TEST_F(ForeignConfigTest, AConfigurationInAFolderEveryUserMayWriteIsNotRead) {
  std::filesystem::permissions(shared(),
                               std::filesystem::perms::all | std::filesystem::perms::sticky_bit);
  expect_not_silenced(run_in_project(), "may be written by every user");
}

TEST_F(ForeignConfigTest, TheTrustedFoldersVariableOrConfigReadsItAnyway) {
  std::filesystem::permissions(shared(), std::filesystem::perms::all);
  const RunOutput listed = run_sealint({"train.py"}, shared() / "project", {}, false,
                                       {"SEALINT_TRUSTED_FOLDERS=/nowhere:" + shared().string()});
  EXPECT_EQ(listed.exit_code, 0) << describe(listed);
  EXPECT_EQ(listed.err, "") << describe(listed);
  const RunOutput named =
      run_sealint({"--config", "../pyproject.toml", "train.py"}, shared() / "project");
  EXPECT_EQ(named.exit_code, 0) << describe(named);
}

}  // namespace
}  // namespace sealint::e2e
