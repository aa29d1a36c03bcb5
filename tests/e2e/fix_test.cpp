// End-to-end: --fix writes safe fixes (and unsafe ones when asked), --diff only shows them.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class FixTest : public E2eTest {
 protected:
  std::string read(const std::string& name) const {
    std::ifstream in(cwd() / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
};

TEST_F(FixTest, DiffPrintsTheUnsafeFixOnlyWhenAskedAndWritesNothing) {
  write("train.py", kLeakyTrainPy);
  const RunOutput safe_only = this->run({"--diff", "train.py"});
  EXPECT_EQ(safe_only.exit_code, 0) << describe(safe_only);  // SL001's .item() fix is unsafe
  EXPECT_EQ(safe_only.out, "");
  EXPECT_EQ(safe_only.err,
            "sealint: no safe fix to show; 1 fix available with `--diff --unsafe-fixes`\n");
  const RunOutput unsafe = this->run({"--diff", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(unsafe.exit_code, 1) << describe(unsafe);
  EXPECT_THAT(unsafe.out,
              HasSubstr("-        total += loss\n+        total += loss.detach().item()\n"));
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
}

TEST_F(FixTest, FixWritesTheFileAndReportsWhatRemains) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Fixed 1 finding."));
  EXPECT_THAT(read("train.py"), HasSubstr("total += loss.detach().item()\n"));
  // Atomic: the temporary file beside it is gone.
  for (const auto& entry : std::filesystem::directory_iterator(cwd())) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr(".sealint-")));
  }
  const RunOutput again = this->run({"train.py"});
  EXPECT_EQ(again.exit_code, 0) << describe(again);
}

TEST_F(FixTest, FixThroughASymlinkChangesTheTargetAndKeepsTheLink) {
  write("src/train.py", kLeakyTrainPy);
  std::filesystem::create_symlink("src/train.py", cwd() / "train.py");
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(std::filesystem::is_symlink(cwd() / "train.py"));
  EXPECT_THAT(read("src/train.py"), HasSubstr("total += loss.detach().item()\n"));
}

// The other names of a hard-linked file see the fix: it is the same file.
TEST_F(FixTest, FixKeepsHardLinksToTheSameFile) {
  write("train.py", kLeakyTrainPy);
  std::filesystem::create_hard_link(cwd() / "train.py", cwd() / "copy.py");
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(std::filesystem::hard_link_count(cwd() / "train.py"), 2U);
  EXPECT_THAT(read("copy.py"), HasSubstr("total += loss.detach().item()\n"));
}

// While it lives, a child started by the test cannot write a file past `limit` bytes: the write
// that crosses it is cut short and the next fails with EFBIG, as on a full disk or an exceeded
// quota. RLIMIT_FSIZE is inherited through fork and exec, and so is the ignored SIGXFSZ (else the
// signal would end the child instead).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t limit) : saved_signal_(std::signal(SIGXFSZ, SIG_IGN)) {
    EXPECT_EQ(::getrlimit(RLIMIT_FSIZE, &saved_), 0);
    struct rlimit lowered = saved_;
    lowered.rlim_cur = limit;
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &lowered), 0);
  }
  ~FileSizeLimit() {
    (void)::setrlimit(RLIMIT_FSIZE, &saved_);
    (void)std::signal(SIGXFSZ, saved_signal_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  struct rlimit saved_ {};
  void (*saved_signal_)(int);
};

// A hard-linked file is rewritten in place; a write cut short part-way must leave the old text
// whole, not a file cut inside the fixed line (`total += loss.detach(`).
TEST_F(FixTest, FixInPlaceCutShortLeavesTheOldText) {
  write("train.py", kLeakyTrainPy);
  std::filesystem::create_hard_link(cwd() / "train.py", cwd() / "copy.py");
  RunOutput run;
  {
    const FileSizeLimit limit(kLeakyTrainPy.size() + 5);  // the fix adds 16 bytes
    run = this->run({"--no-cache", "--fix", "--unsafe-fixes", "train.py"});
  }
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("cannot write 'train.py': File too large; the file is unchanged"))
      << describe(run);
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
  EXPECT_EQ(read("copy.py"), kLeakyTrainPy);
}

// The same cut on a file replaced by rename: the copy beside it is dropped, the file untouched.
TEST_F(FixTest, FixByRenameCutShortLeavesTheOldText) {
  write("train.py", kLeakyTrainPy);
  RunOutput run;
  {
    const FileSizeLimit limit(kLeakyTrainPy.size() + 5);
    run = this->run({"--no-cache", "--fix", "--unsafe-fixes", "train.py"});
  }
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("cannot write 'train.py': File too large")) << describe(run);
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
  for (const auto& entry : std::filesystem::directory_iterator(cwd())) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr(".sealint-")));
  }
}

// `chmod a-w` says the file must not change: refused, for root as well.
TEST_F(FixTest, FixRefusesAReadOnlyFile) {
  write("train.py", kLeakyTrainPy);
  std::filesystem::permissions(cwd() / "train.py", std::filesystem::perms::owner_read |
                                                       std::filesystem::perms::group_read |
                                                       std::filesystem::perms::others_read);
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("'train.py' is read-only; not fixed")) << describe(run);
  EXPECT_EQ(run.err.find("read-only"), run.err.rfind("read-only")) << "printed twice";
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
}

TEST_F(FixTest, FixKeepsTheFilesModeOwnerAndExtendedAttributes) {
  write("train.py", kLeakyTrainPy);
  const std::string path = (cwd() / "train.py").string();
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);  // nobody:nogroup
  }
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  constexpr std::string_view kValue = "reviewed";
  const bool attributes =
      ::setxattr(path.c_str(), "user.sealint.test", kValue.data(), kValue.size(), 0) == 0;
  if (!attributes) {
    ASSERT_EQ(errno, ENOTSUP) << "setxattr failed for another reason";
  }

  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(read("train.py"), HasSubstr("total += loss.detach().item()\n"));
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_mode & 07777, 0640U);
  // The owner the file had (nobody:nogroup when root could give it away, else this user's).
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_EQ(after.st_gid, before.st_gid);
  if (root) {
    EXPECT_EQ(after.st_uid, 65534U);
  }
  // A file system without user.* attributes (ENOTSUP above) has none to keep; the rewrite still
  // must not add one.
  char value[32] = {};
  const ssize_t size = ::getxattr(path.c_str(), "user.sealint.test", value, sizeof value);
  if (attributes) {
    EXPECT_EQ(size, static_cast<ssize_t>(kValue.size()));
    EXPECT_EQ(std::string_view(value), kValue);
  } else {
    EXPECT_EQ(size, -1);
  }
}

TEST_F(FixTest, OutputNamingAFileBeingAnalysedIsRefused) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"-o", "./train.py", "train.py"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("-o './train.py' names a file being analysed")) << describe(run);
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
}

TEST_F(FixTest, FixWithoutUnsafeLeavesAnUnsafeFixAndSaysHowToApplyIt) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--fix", "train.py"});
  EXPECT_THAT(run.out, HasSubstr("1 fix available with `--fix --unsafe-fixes`."));
}

TEST_F(FixTest, FixWithoutUnsafeLeavesAnUnsafeFixAndStillReportsIt) {
  write("train.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--fix", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(read("train.py"), kLeakyTrainPy);
}

// `--fix -` is an editor's pipe, as ruff's: the fixed source on stdout, the rest on stderr.
TEST_F(FixTest, FixOfStdinPrintsTheFixedSourceAndReportsOnStderr) {
  const RunOutput run =
      this->run({"--fix", "--unsafe-fixes", "-", "--stdin-filename", "train.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  std::string expected(kLeakyTrainPy);
  expected.replace(expected.find("total += loss\n"), 14, "total += loss.detach().item()\n");
  EXPECT_EQ(run.out, expected) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("Fixed 1 finding."));
  EXPECT_THAT(run.err, HasSubstr("No findings in 1 file."));
}

TEST_F(FixTest, FixOfStdinWithNothingToFixPrintsItUnchangedAndTheFindingOnStderr) {
  const RunOutput run = this->run({"--fix", "-", "--stdin-filename", "train.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, kLeakyTrainPy) << describe(run);
  EXPECT_THAT(run.err, HasSubstr(std::string("train.py") + std::string(kLeakAt)));
}

TEST_F(FixTest, FixWithDiffOfStdinPrintsTheDiff) {
  const RunOutput run = this->run(
      {"--fix", "--diff", "--unsafe-fixes", "-", "--stdin-filename", "train.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("+++ b/train.py")) << describe(run);
}

TEST_F(FixTest, FixOfStdinBesideAFileIsRefused) {
  write("other.py", kCleanTrainPy);
  const RunOutput run = this->run({"--fix", "-", "other.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("name no other path"));
}

TEST_F(FixTest, ShowFixesListsWhatWasFixedPerFileAndRule) {
  write("a.py", kLeakyTrainPy);
  write("b.py", kLeakyTrainPy);
  const RunOutput run = this->run({"--fix", "--unsafe-fixes", "--show-fixes", "a.py", "b.py"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("Fixed 2 findings:\n- a.py:\n    1 × SL001 (grad-accumulation)\n"
                                 "- b.py:\n    1 × SL001 (grad-accumulation)\n"));
}

TEST_F(FixTest, AFindingWithAFixThatFixWouldApplyIsMarked) {
  write("train.py", kLeakyTrainPy);
  // SL001's fix is unsafe: marked only when --unsafe-fixes would let --fix apply it.
  EXPECT_THAT(this->run({"train.py"}).out, Not(HasSubstr("[*]")));
  EXPECT_THAT(this->run({"--unsafe-fixes", "train.py"}).out,
              HasSubstr("error[SL001]: [*] `loss` is added to `total`"));
}

// Two one-line fixes 35 lines apart: two hunks, each with three lines of context, not one hunk
// deleting and re-adding everything between them.
TEST_F(FixTest, DiffPrintsFixesFarApartAsSeparateHunks) {
  std::string code(kLeakyTrainPy);  // its `total += loss` is line 10
  for (int i = 0; i < 26; ++i) code += "# filler\n";
  std::string second(kLeakyTrainPy.substr(kLeakyTrainPy.find("def train")));
  second.replace(second.find("def train"), 9, "def train_again");
  code += second;  // it starts on line 38: its `total += loss` is line 45
  code += "# end\n# end\n# end\n";
  write("train.py", code);
  const RunOutput run = this->run({"--diff", "--unsafe-fixes", "train.py"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("@@ -7,7 +7,7 @@\n"));
  EXPECT_THAT(run.out, HasSubstr("@@ -42,7 +42,7 @@\n"));
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 2 + 2 * (1 + 8)) << run.out;
}

TEST_F(FixTest, DiffWorksOnStdin) {
  const RunOutput run =
      this->run({"--diff", "--unsafe-fixes", "-", "--stdin-filename", "train.py"}, kLeakyTrainPy);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("+++ b/train.py"));
}

}  // namespace
}  // namespace sealint::e2e
