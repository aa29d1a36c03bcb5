// End-to-end: an input sealint cannot analyse gets one stderr line naming it and why, exit 2,
// and the other inputs of the same run are still analysed and reported.
#include <unistd.h>  // geteuid

#include <filesystem>
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// Each test passes its bad input together with this good, leaky file.
constexpr std::string_view kGoodFile = "good.py";

class BadInputTest : public E2eTest {
 protected:
  void SetUp() override { write(std::string(kGoodFile), kLeakyTrainPy); }

  // Exit 2, exactly one stderr line that names `bad` and says `reason`, and good.py's leak
  // still on stdout.
  static void expect_reported(const RunOutput& run, std::string_view bad, std::string_view reason) {
    EXPECT_TRUE(run.exited) << describe(run);
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_EQ(count_lines(run.err), 1U) << describe(run);
    EXPECT_THAT(run.err,
                AllOf(HasSubstr(std::string(bad)), HasSubstr(std::string(reason)), EndsWith("\n")))
        << describe(run);
    EXPECT_THAT(run.out, HasSubstr(std::string(kGoodFile) + std::string(kLeakAt))) << describe(run);
  }
};

TEST_F(BadInputTest, ReportsAMissingPathAndAnalysesTheRest) {
  const RunOutput run = this->run({"missing.py", "good.py"});
  expect_reported(run, "missing.py", "no such file");
}

// Findings name a file relative to the working directory; so must an input error.
TEST_F(BadInputTest, ReportsAMissingAbsolutePathRelativeToTheWorkingDirectory) {
  const RunOutput run = this->run({(cwd() / "missing.py").string(), "good.py"});
  expect_reported(run, "'missing.py'", "no such file");
  EXPECT_THAT(run.err, Not(HasSubstr(cwd().string()))) << describe(run);
}

TEST_F(BadInputTest, ReportsADanglingSymlinkAndAnalysesTheRest) {
  std::filesystem::create_symlink("nowhere.py", cwd() / "dangling.py");
  const RunOutput run = this->run({"dangling.py", "good.py"});
  expect_reported(run, "dangling.py", "dangling symbolic link");
}

TEST_F(BadInputTest, ReportsAFolderWithoutPythonFilesAndAnalysesTheRest) {
  write("docs/readme.txt", "not python\n");
  const RunOutput run = this->run({"docs", "good.py"});
  expect_reported(run, "docs", "no Python or C++ files");
}

// Root reads any file whatever its mode, so sealint runs as `nobody` here (the folder is opened
// up for it; the file itself is mode 000).
TEST_F(BadInputTest, ReportsAnUnreadableFileAndAnalysesTheRest) {
  const std::filesystem::path secret = write("secret.py", kCleanTrainPy);
  std::filesystem::permissions(secret.parent_path(), std::filesystem::perms::all);
  std::filesystem::permissions(secret, std::filesystem::perms::none);
  const RunOutput run = this->run({"secret.py", "good.py"}, {}, /*as_nobody=*/true);
  expect_reported(run, "secret.py", "permission denied");  // lowercase, as STYLE.md §5 asks
}

// A link in a walked folder that leads into a folder this user cannot enter: the reason is the
// permission, not "not a regular file".
TEST_F(BadInputTest, ReportsALinkIntoAnUnreadableFolderWithItsReason) {
  write("locked/x.py", kCleanTrainPy);
  write("project/good.py", kCleanTrainPy);
  std::filesystem::create_symlink("../locked/x.py", cwd() / "project" / "link.py");
  std::filesystem::permissions(cwd(), std::filesystem::perms::all);
  std::filesystem::permissions(cwd() / "project", std::filesystem::perms::all);
  std::filesystem::permissions(cwd() / "locked", std::filesystem::perms::owner_all);
  const RunOutput run = this->run({"project"}, {}, /*as_nobody=*/true);
  EXPECT_THAT(run.err, HasSubstr("cannot read 'project/link.py': permission denied"))
      << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("not a regular file"))) << describe(run);
}

TEST_F(BadInputTest, ReportsABinaryFileAndAnalysesTheRest) {
  write("weights.bin", std::string_view("import torch\n\0\x01\x02\x03", 17));
  const RunOutput run = this->run({"weights.bin", "good.py"});
  expect_reported(run, "weights.bin", "binary file");
}

TEST_F(BadInputTest, ReportsInvalidUtf8AndAnalysesTheRest) {
  write("latin1.py", "import torch\nname = \"caf\xff\"\n");
  const RunOutput run = this->run({"latin1.py", "good.py"});
  expect_reported(run, "latin1.py", "not valid UTF-8");
}

TEST_F(BadInputTest, ReportsTheFirstSyntaxErrorWithItsLocationAndAnalysesTheRest) {
  write("broken.py", "import torch\nx = = 1\n");
  const RunOutput run = this->run({"broken.py", "good.py"});
  expect_reported(run, "broken.py", "syntax error");
  EXPECT_THAT(run.err, StartsWith("broken.py:2:5:")) << describe(run);
}

}  // namespace
}  // namespace sealint::e2e
