// End-to-end: the result cache (docs/cache.md). A second run over an unchanged tree prints the
// same bytes in every format from cached results; a change to a file, to what it imports or to
// the configuration is seen; --no-cache, --cache-dir, SEALINT_CACHE_DIR and `sealint clean` do
// what they say; parallel runs, an unwritable folder and a planted link never change the
// findings.
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

namespace fs = std::filesystem;

constexpr std::string_view kHelpers =
    "class Meter:\n"
    "    def __init__(self):\n"
    "        self.sum = 0\n"
    "\n"
    "    def update(self, val):\n"
    "        self.sum += val\n";

// Two findings: `total += loss` here, and `meter.update(loss)` through helpers.py's Meter.
constexpr std::string_view kTrain =
    "import torch\n"
    "from helpers import Meter\n"
    "\n"
    "def train(model, loader, optimizer, criterion):\n"
    "    total = 0\n"
    "    meter = Meter()\n"
    "    for x, y in loader:\n"
    "        optimizer.zero_grad()\n"
    "        loss = criterion(model(x), y)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        total += loss\n"
    "        meter.update(loss)\n"
    "    return total\n";

constexpr std::string_view kMeterFindingAt = "train.py:13:9: error[SL001]";

class CacheTest : public E2eTest {
 protected:
  [[nodiscard]] fs::path folder() const { return cwd() / ".sealint_cache"; }

  // Each entry's inode: a hit leaves it, a store renames a new file over it.
  [[nodiscard]] std::map<std::string, ino_t> entries() const {
    std::map<std::string, ino_t> found;
    std::error_code missing;
    for (const auto& item : fs::directory_iterator(folder() / "results", missing)) {
      struct stat info {};
      if (::stat(item.path().c_str(), &info) == 0)
        found[item.path().filename().string()] = info.st_ino;
    }
    return found;
  }

  void write_project() const {
    write("pyproject.toml", "[project]\nname = \"demo\"\n");
    write("train.py", kTrain);
    write("helpers.py", kHelpers);
    write("suppressed.py", std::string(kLeakyTrainPy)
                               .replace(kLeakyTrainPy.find("total += loss\n"), 14,
                                        "total += loss  # noqa: SL001\n"));
    write("broken.py", "def f(:\n    pass\n");
    write("nb.ipynb", read_file(source_dir() / "examples/notebooks/leaky_total_loss.ipynb"));
  }

  // The run's result, and that of the same command without the cache, are the same bytes.
  void expect_as_uncached(const std::vector<std::string>& args, const RunOutput& cached) const {
    std::vector<std::string> uncached = {"--no-cache"};
    uncached.insert(uncached.end(), args.begin(), args.end());
    const RunOutput reference = run(uncached);
    EXPECT_EQ(cached.exit_code, reference.exit_code) << describe(cached);
    EXPECT_EQ(cached.out, reference.out);
    EXPECT_EQ(cached.err, reference.err);
  }
};

TEST_F(CacheTest, ASecondRunPrintsTheSameBytesInEveryFormatFromTheCache) {
  write_project();
  const std::vector<std::vector<std::string>> commands = {
      {"--format", "text"},        {"--format", "json"},       {"--format", "sarif"},
      {"--format", "github"},      {"--show-suppressed", "."}, {"--statistics"},
      {"--diff", "--unsafe-fixes"}};
  bool first = true;
  for (std::vector<std::string> args : commands) {
    if (args.back() != ".") args.emplace_back(".");
    const RunOutput filled = run(args);
    EXPECT_NE(filled.exit_code, 0) << describe(filled);  // a finding, and broken.py
    if (first) {
      // One entry per Python file and notebook; pyproject.toml is no input.
      EXPECT_EQ(entries().size(), 5U);
      first = false;
    }
    const std::map<std::string, ino_t> before = entries();
    const RunOutput again = run(args);
    EXPECT_EQ(entries(), before) << "an entry was written again: not every file was a hit";
    EXPECT_EQ(again.out, filled.out);
    EXPECT_EQ(again.err, filled.err);
    expect_as_uncached(args, again);
  }
  EXPECT_THAT(read_file(cwd() / "train.py"), HasSubstr("total += loss\n"));  // --diff wrote nothing
}

TEST_F(CacheTest, EditingAnImportedModuleChangesTheImportersFindings) {
  write_project();
  const RunOutput first = run({"train.py"});
  EXPECT_THAT(first.out, HasSubstr(kMeterFindingAt));
  const std::map<std::string, ino_t> cached = entries();
  ASSERT_EQ(cached.size(), 1U);

  write("helpers.py", std::string(kHelpers).replace(kHelpers.find("+= val"), 6, "+= float(val)"));
  const RunOutput edited = run({"train.py"});
  EXPECT_EQ(edited.exit_code, 1) << describe(edited);
  EXPECT_THAT(edited.out, Not(HasSubstr(kMeterFindingAt))) << describe(edited);
  EXPECT_NE(entries(), cached);
  expect_as_uncached({"train.py"}, edited);

  write("helpers.py", kHelpers);
  EXPECT_THAT(run({"train.py"}).out, HasSubstr(kMeterFindingAt));
}

TEST_F(CacheTest, AModuleThatAppearsChangesTheImportersFindings) {
  write("pyproject.toml", "[project]\nname = \"demo\"\n");
  write("train.py", kTrain);
  const RunOutput without = run({"train.py"});
  EXPECT_THAT(without.out, Not(HasSubstr(kMeterFindingAt))) << describe(without);
  write("helpers.py", kHelpers);
  const RunOutput with = run({"train.py"});
  EXPECT_THAT(with.out, HasSubstr(kMeterFindingAt)) << describe(with);
}

TEST_F(CacheTest, ChangingTheConfigurationOrTheFileChangesTheFindings) {
  write_project();
  EXPECT_EQ(run({"train.py"}).exit_code, 1);
  write("pyproject.toml", "[tool.sealint]\nignore = [\"SL001\"]\n");
  const RunOutput ignored = run({"train.py"});
  EXPECT_EQ(ignored.exit_code, 0) << describe(ignored);
  write("pyproject.toml", "[project]\nname = \"demo\"\n");
  EXPECT_EQ(run({"train.py"}).exit_code, 1);
  EXPECT_EQ(run({"--ignore", "SL001", "train.py"}).exit_code, 0);
  write("train.py", std::string(kTrain).replace(kTrain.find("total += loss"), 13, "pass"));
  const RunOutput edited = run({"train.py"});
  EXPECT_THAT(edited.out, Not(HasSubstr("train.py:12:"))) << describe(edited);
  EXPECT_THAT(edited.out, HasSubstr("train.py:13:9: error[SL001]")) << describe(edited);
}

TEST_F(CacheTest, NoCacheNeitherMakesNorReadsTheFolder) {
  write_project();
  EXPECT_NE(run({"--no-cache", "."}).exit_code, 0);
  EXPECT_FALSE(fs::exists(folder()));
  // stdin, --parse-only and C++ alone make none either.
  EXPECT_EQ(run({"-"}, kLeakyTrainPy).exit_code, 1);
  EXPECT_EQ(run({"--parse-only", "train.py"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(folder()));
}

TEST_F(CacheTest, TheFolderIsAtTheProjectRootAndGitIgnoresItself) {
  write_project();
  write("sub/deep/step.py", kLeakyTrainPy);
  const RunOutput run = run_sealint({"step.py"}, cwd() / "sub/deep");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_TRUE(fs::exists(folder() / "CACHEDIR.TAG"));
  EXPECT_EQ(read_file(folder() / ".gitignore"), "# Automatically created by sealint.\n*\n");
  EXPECT_FALSE(fs::exists(cwd() / "sub/deep/.sealint_cache"));
  // A walk never goes into it.
  const RunOutput walked = this->run({"--format", "json", "."});
  EXPECT_THAT(walked.out, Not(HasSubstr(".sealint_cache")));
}

TEST_F(CacheTest, CacheDirAndTheEnvironmentNameTheFolder) {
  write_project();
  EXPECT_EQ(run({"--cache-dir", "mine", "train.py"}).exit_code, 1);
  EXPECT_TRUE(fs::exists(cwd() / "mine/CACHEDIR.TAG"));
  EXPECT_TRUE(fs::exists(cwd() / "mine/results"));
  const RunOutput from_env = run_sealint({"train.py"}, cwd(), {}, false,
                                         {"SEALINT_CACHE_DIR=" + (cwd() / "env").string()});
  EXPECT_EQ(from_env.exit_code, 1) << describe(from_env);
  EXPECT_TRUE(fs::exists(cwd() / "env/CACHEDIR.TAG"));
  EXPECT_FALSE(fs::exists(folder()));
  // A folder of the user's own with other files in it is left alone, with one warning.
  write("notes/todo.txt", "mine\n");
  const RunOutput refused = run({"--cache-dir", "notes", "train.py"});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("sealint: warning: results not cached: 'notes' is not a "
                                     "sealint cache folder"));
  EXPECT_EQ(count_lines(refused.err), 1U) << describe(refused);
  EXPECT_FALSE(fs::exists(cwd() / "notes/.gitignore"));
}

TEST_F(CacheTest, CleanRemovesOnlySealintsFolder) {
  write_project();
  EXPECT_EQ(run({"train.py"}).exit_code, 1);
  ASSERT_TRUE(fs::exists(folder()));
  const RunOutput cleaned = run({"clean"});
  EXPECT_EQ(cleaned.exit_code, 0) << describe(cleaned);
  EXPECT_EQ(cleaned.out, fmt::format("removed '{}'\n", folder().string()));
  EXPECT_FALSE(fs::exists(folder()));
  const RunOutput nothing = run({"clean"});
  EXPECT_EQ(nothing.exit_code, 0) << describe(nothing);
  EXPECT_EQ(nothing.out, fmt::format("no cache at '{}'\n", folder().string()));

  write("notes/todo.txt", "mine\n");
  const RunOutput refused = run({"clean", "--cache-dir", "notes"});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("'notes' is not a sealint cache folder"));
  EXPECT_TRUE(fs::exists(cwd() / "notes/todo.txt"));
  fs::create_directory_symlink(cwd() / "notes", folder());
  EXPECT_EQ(run({"clean"}).exit_code, 2);
  EXPECT_TRUE(fs::exists(cwd() / "notes/todo.txt"));
}

// Root writes anywhere, so sealint runs as `nobody` here: the working directory is open to it
// for reading only.
TEST_F(CacheTest, AnUnwritableFolderStillGivesTheFindingsAndOneWarning) {
  write_project();
  fs::permissions(cwd(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
  const RunOutput cannot_make = run({"train.py"}, {}, /*as_nobody=*/true);
  EXPECT_EQ(cannot_make.exit_code, 1) << describe(cannot_make);
  EXPECT_THAT(cannot_make.out, HasSubstr(kMeterFindingAt));
  EXPECT_THAT(cannot_make.err, HasSubstr("sealint: warning: results not cached: cannot make"));
  EXPECT_EQ(count_lines(cannot_make.err), 1U) << describe(cannot_make);

  // Made by root: nobody may read it, but trusts none of root's entries and writes none.
  EXPECT_EQ(run({"train.py"}).exit_code, 1);
  const std::map<std::string, ino_t> before = entries();
  const RunOutput cannot_write = run({"train.py"}, {}, /*as_nobody=*/true);
  EXPECT_EQ(cannot_write.exit_code, 1) << describe(cannot_write);
  EXPECT_EQ(cannot_write.out, cannot_make.out);
  EXPECT_THAT(cannot_write.err, HasSubstr("sealint: warning: results not cached: cannot write"));
  EXPECT_EQ(count_lines(cannot_write.err), 1U) << describe(cannot_write);
  EXPECT_EQ(entries(), before);
}

// Issue 41: a repository can commit `.sealint_cache` with entries its author's sealint wrote (or
// forged) so that CI reports nothing. Entries are sealed with the user's own key (kept in
// ~/.cache/sealint, never in the project), so another user's are misses and are written again.
TEST_F(CacheTest, EntriesAnotherUserWroteAreNeverUsed) {
  write_project();
  const RunOutput theirs =
      run_sealint({"train.py"}, cwd(), {}, false, {"XDG_CACHE_HOME=" + (cwd() / "them").string()});
  ASSERT_EQ(theirs.exit_code, 1) << describe(theirs);
  ASSERT_TRUE(fs::exists(cwd() / "them/sealint/cache-key"));
  const std::map<std::string, ino_t> shipped = entries();
  ASSERT_FALSE(shipped.empty());
  const RunOutput mine = run({"train.py"});
  EXPECT_EQ(mine.exit_code, 1) << describe(mine);
  EXPECT_THAT(mine.out, HasSubstr(kMeterFindingAt));
  for (const auto& [name, inode] : entries()) {
    auto it = shipped.find(name);
    if (it != shipped.end()) {
      EXPECT_NE(inode, it->second) << name << " was used as shipped";
    }
  }
  const std::map<std::string, ino_t> written = entries();
  EXPECT_EQ(run({"train.py"}).out, mine.out);
  EXPECT_EQ(entries(), written);  // and the user's own entries are hits
}

// A repository can ship `.sealint_cache` as a link into the user's files.
TEST_F(CacheTest, ALinkedFolderIsNeverWrittenThrough) {
  write_project();
  fs::create_directory(cwd() / "elsewhere");
  fs::create_directory_symlink(cwd() / "elsewhere", folder());
  const RunOutput linked = run({"train.py"});
  EXPECT_EQ(linked.exit_code, 1) << describe(linked);
  EXPECT_THAT(linked.out, HasSubstr(kMeterFindingAt));
  EXPECT_THAT(linked.err, HasSubstr("is a link, not a folder"));
  EXPECT_EQ(count_lines(linked.err), 1U) << describe(linked);
  EXPECT_TRUE(fs::is_empty(cwd() / "elsewhere"));
}

TEST_F(CacheTest, FixAppliesTheCachedFindingsFixes) {
  write_project();
  write("copy/train.py", kTrain);
  write("copy/helpers.py", kHelpers);
  EXPECT_EQ(run({"train.py"}).exit_code, 1);  // cached
  const RunOutput fixed = run({"--fix", "--unsafe-fixes", "train.py"});
  const RunOutput reference = run({"--no-cache", "--fix", "--unsafe-fixes", "copy/train.py"});
  EXPECT_EQ(fixed.exit_code, reference.exit_code) << describe(fixed);
  EXPECT_THAT(fixed.out, HasSubstr("Fixed 2 findings")) << describe(fixed);
  EXPECT_EQ(read_file(cwd() / "train.py"), read_file(cwd() / "copy/train.py"));
  const RunOutput after = run({"train.py"});  // the fixed file is analysed again
  EXPECT_EQ(after.exit_code, 0) << describe(after);
}

// Two runs at once over one tree, cold and then warm, each print what a run without the cache
// prints, and leave whole entries that a third run uses.
TEST_F(CacheTest, ParallelRunsOverOneTreeGiveTheSameFindings) {
  write("pyproject.toml", "[project]\nname = \"demo\"\n");
  write("helpers.py", kHelpers);
  for (int i = 0; i < 40; ++i) {
    write(fmt::format("pkg/train_{}.py", i), i % 2 == 0 ? kTrain : kCleanTrainPy);
    write(fmt::format("pkg/step_{}.py", i), kLeakyTrainPy);
  }
  const std::vector<std::string> args = {"--format", "json", "--jobs", "2", "."};
  std::vector<std::string> uncached = args;
  uncached.insert(uncached.begin(), "--no-cache");
  const RunOutput reference = run(uncached);
  ASSERT_EQ(reference.exit_code, 1) << describe(reference);
  for (int round = 0; round < 3; ++round) {
    RunOutput a;
    RunOutput b;
    {
      std::jthread first([&] { a = run_sealint(args, cwd()); });
      std::jthread second([&] { b = run_sealint(args, cwd()); });
    }
    for (const RunOutput* out : {&a, &b}) {
      EXPECT_EQ(out->exit_code, 1) << describe(*out);
      EXPECT_EQ(out->out, reference.out) << "round " << round;
      EXPECT_EQ(out->err, reference.err) << "round " << round;
    }
    if (round == 1) fs::remove_all(folder());  // the last round starts cold again
  }
  const std::map<std::string, ino_t> before = entries();
  EXPECT_EQ(before.size(), 81U);
  for (const auto& [name, inode] : before) EXPECT_FALSE(name.starts_with(".tmp-")) << name;
  EXPECT_EQ(run(args).out, reference.out);
  EXPECT_EQ(entries(), before);
}

// C++ (docs/cache.md "C++"): a translation unit's entry holds while every file its parse read
// keeps its bytes, as a compiler cache's manifest does.
constexpr std::string_view kCppHelpers =
    "#pragma once\n"
    "#include <torch/torch.h>\n"
    "inline torch::Tensor scaled(const torch::Tensor& t) { return t * 2; }\n";

// `total += loss` in a loop: SL001 here, whatever the header says.
constexpr std::string_view kCppTrain =
    "#include <torch/torch.h>\n"
    "#include \"helpers.h\"\n"
    "\n"
    "void train(torch::nn::Linear& model, torch::optim::SGD& optimizer, torch::Tensor x) {\n"
    "  torch::Tensor total = torch::zeros({1});\n"
    "  for (int i = 0; i < 10; ++i) {\n"
    "    optimizer.zero_grad();\n"
    "    torch::Tensor loss = scaled(model(x)).sum();\n"
    "    loss.backward();\n"
    "    optimizer.step();\n"
    "    total += loss;\n"
    "  }\n"
    "}\n";

constexpr std::string_view kCppFindingAt = "train.cpp:11:5: error[SL001]";

TEST_F(CacheTest, AWarmRunOfCppFilesIsServedFromTheCache) {
  write("helpers.h", kCppHelpers);
  write("train.cpp", kCppTrain);
  write("other.cpp", std::string(kCppTrain).replace(kCppTrain.find("#include \"helpers.h\"\n"), 21,
                                                    "#define scaled(t) (t)\n"));
  const RunOutput cold = run({"."});
  EXPECT_EQ(cold.exit_code, 1) << describe(cold);
  EXPECT_THAT(cold.out, HasSubstr(kCppFindingAt));
  const std::map<std::string, ino_t> cached = entries();
  ASSERT_EQ(cached.size(), 2U) << "one entry per C++ file";

  const RunOutput warm = run({"."});
  EXPECT_EQ(entries(), cached) << "an entry was written again: not every C++ file was a hit";
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_EQ(warm.err, cold.err);
  expect_as_uncached({"."}, warm);
}

TEST_F(CacheTest, EditingAHeaderReanalysesExactlyItsIncluders) {
  write("helpers.h", kCppHelpers);
  write("train.cpp", kCppTrain);
  write("other.cpp", std::string(kCppTrain).replace(kCppTrain.find("#include \"helpers.h\"\n"), 21,
                                                    "#define scaled(t) (t)\n"));
  EXPECT_EQ(run({"."}).exit_code, 1);
  const std::map<std::string, ino_t> cached = entries();
  ASSERT_EQ(cached.size(), 2U);

  // Same bytes again (a checkout that restores them): no entry changes.
  write("helpers.h", kCppHelpers);
  EXPECT_EQ(run({"."}).exit_code, 1);
  EXPECT_EQ(entries(), cached);

  // The header now detaches what it returns: train.cpp's finding goes, other.cpp's stays.
  write("helpers.h", std::string(kCppHelpers)
                         .replace(kCppHelpers.find("t * 2"), std::string_view("t * 2").size(),
                                  "(t * 2).detach()"));
  const RunOutput edited = run({"."});
  const std::map<std::string, ino_t> after = entries();
  ASSERT_EQ(after.size(), 2U);
  size_t rewritten = 0;
  for (const auto& [name, inode] : after) rewritten += cached.at(name) != inode ? 1U : 0U;
  EXPECT_EQ(rewritten, 1U) << "only the includer of helpers.h is analysed again";
  EXPECT_THAT(edited.out, HasSubstr("other.cpp:11:5: error[SL001]"));
  expect_as_uncached({"."}, edited);

  // A header that was missing appears: its includer is analysed again.
  write("train.cpp", std::string(kCppTrain).insert(0, "#include \"config.h\"\n"));
  EXPECT_EQ(run({"."}).exit_code, 1);
  const std::map<std::string, ino_t> missing = entries();
  write("config.h", "#pragma once\n");
  const RunOutput appeared = run({"."});
  EXPECT_THAT(appeared.err, Not(HasSubstr("config.h' file not found")));
  EXPECT_NE(entries(), missing);
  expect_as_uncached({"."}, appeared);
}

}  // namespace
}  // namespace sealint::e2e
