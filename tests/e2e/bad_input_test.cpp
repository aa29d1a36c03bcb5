// End-to-end: an input sealint cannot analyse gets one stderr line naming it and why, exit 2,
// and the other inputs of the same run are still analysed and reported.
#include <fcntl.h>   // openat
#include <unistd.h>  // geteuid, mkdirat, unlinkat

#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

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

// As ruff does: a warning, and the exit status the other files give (0 for a folder alone).
TEST_F(BadInputTest, WarnsOfAFolderWithoutPythonFilesAndAnalysesTheRest) {
  write("docs/readme.txt", "not python\n");
  const RunOutput run = this->run({"docs", "good.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "docs: warning: no Python or C++ files found under 'docs'\n");
  EXPECT_THAT(run.out, HasSubstr(std::string(kGoodFile) + std::string(kLeakAt))) << describe(run);
  std::filesystem::create_directory(cwd() / "empty");
  const RunOutput empty = this->run({"empty"});
  EXPECT_EQ(empty.exit_code, 0) << describe(empty);
  EXPECT_EQ(empty.err, "empty: warning: no Python or C++ files found under 'empty'\n");
  EXPECT_THAT(empty.out, HasSubstr("No findings in 0 files; 1 input warning (see stderr)."));
}

// Root reads any file whatever its mode, so sealint runs as `nobody` here (the folder is opened
// up for it; the file itself is mode 000).
TEST_F(BadInputTest, ReportsAnUnreadableFileAndAnalysesTheRest) {
  const std::filesystem::path secret = write("secret.py", kCleanTrainPy);
  std::filesystem::permissions(secret.parent_path(), std::filesystem::perms::all);
  std::filesystem::permissions(secret, std::filesystem::perms::none);
  // `nobody` has no home for the result cache's key (/nonexistent): --no-cache keeps that
  // warning out of the one line this test counts.
  const RunOutput run = this->run({"--no-cache", "secret.py", "good.py"}, {}, /*as_nobody=*/true);
  expect_reported(run, "secret.py", "permission denied");  // lowercase, as STYLE.md §5 asks
}

// A walk stays inside the folder it was given: a link out of it (to a secret, to another
// checkout) is skipped with a warning and its text never read; a link within it is analysed once;
// the outside file named by itself is analysed.
TEST_F(BadInputTest, SkipsALinkThatLeadsOutOfTheWalkedFolder) {
  write("elsewhere/secret.py", "password = (\n");
  write("project/train.py", kLeakyTrainPy);
  std::filesystem::create_symlink("../elsewhere/secret.py", cwd() / "project" / "out.py");
  std::filesystem::create_symlink("train.py", cwd() / "project" / "same.py");
  const RunOutput run = this->run({"project"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("warning: skipped 'project/out.py': a symbolic link to a file "
                                 "outside 'project'"))
      << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("password"))) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("syntax error"))) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("in 1 file")) << describe(run);
  const RunOutput named = this->run({"project/out.py"});
  EXPECT_EQ(named.exit_code, 2) << describe(named);
  EXPECT_THAT(named.err, HasSubstr("syntax error")) << describe(named);
}

// Folders nested past PATH_MAX (4096 bytes) hold a file the system will not name by its path:
// the walk says so instead of skipping it silently and reporting an empty folder.
TEST_F(BadInputTest, SaysAPathPastTheSystemLimitCannotBeRead) {
  const std::string level(100, 'd');
  // Made and removed level by level, each relative to the one above: the fixture's own
  // clean-up names paths whole, and these are too long to name.
  std::vector<int> folders = {::open(cwd().c_str(), O_RDONLY | O_DIRECTORY)};
  for (int depth = 0; depth < 45 && folders.back() >= 0; ++depth) {  // 45 x 101 bytes
    if (::mkdirat(folders.back(), level.c_str(), 0700) != 0) break;
    folders.push_back(::openat(folders.back(), level.c_str(), O_RDONLY | O_DIRECTORY));
  }
  const int file = ::openat(folders.back(), "train.py", O_WRONLY | O_CREAT, 0600);
  const bool made = folders.size() == 46 && folders.back() >= 0 && file >= 0;
  if (file >= 0) ::close(file);
  const RunOutput run = this->run({"."});
  ::unlinkat(folders.back(), "train.py", 0);
  for (size_t i = folders.size() - 1; i > 0; --i) {
    ::close(folders[i]);
    ::unlinkat(folders[i - 1], level.c_str(), AT_REMOVEDIR);
  }
  ::close(folders.front());
  ASSERT_TRUE(made) << std::strerror(errno);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("': file name too long")) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("no Python or C++ files found"))) << describe(run);
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
  const RunOutput run = this->run({"--no-cache", "project"}, {}, /*as_nobody=*/true);
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
