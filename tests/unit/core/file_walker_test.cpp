#include "analyzer/core/file_walker.h"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace sealint {
namespace {

namespace fs = std::filesystem;

// Each test gets a fresh folder under the system temp dir, removed afterwards.
class FileWalkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sealint-walker-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << "mkdtemp failed for " << templ;
    root_ = fs::path(templ).lexically_normal().string();
  }

  void TearDown() override {
    if (root_.empty()) return;
    std::error_code error;
    fs::remove_all(root_, error);
  }

  // Absolute path of `relative` inside the temp folder, spelled as the walker prints it.
  std::string at(const std::string& relative) const {
    return (fs::path(root_) / relative).string();
  }

  void write(const std::string& relative, const std::string& content = "x = 1\n") const {
    const fs::path path = at(relative);
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
  }

  void make_folder(const std::string& relative) const { fs::create_directories(at(relative)); }

  WalkResult walk(const WalkOptions& options = {}) const { return walk_paths({root_}, options); }

  std::string root_;
};

std::vector<std::string> messages(const WalkResult& result) {
  std::vector<std::string> out;
  for (const InputError& error : result.errors) out.push_back(error.message);
  return out;
}

TEST_F(FileWalkerTest, FindsPythonFilesInNestedFolders) {
  write("a.py");
  write("pkg/b.py");
  write("pkg/sub/deep/c.py");
  const WalkResult result = walk();
  EXPECT_EQ(result.files,
            (std::vector<std::string>{at("a.py"), at("pkg/b.py"), at("pkg/sub/deep/c.py")}));
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(messages(result));
}

TEST_F(FileWalkerTest, SkipsNonPythonFilesInFolders) {
  write("train.py");
  write("README.md");
  write("notes.txt");
  write("train.pyc");
  write("Makefile");
  write("data/train.py.bak");
  EXPECT_EQ(walk().files, (std::vector<std::string>{at("train.py")}));
}

TEST_F(FileWalkerTest, WalksStubFilesByDefault) {
  write("api.pyi");
  EXPECT_EQ(walk().files, (std::vector<std::string>{at("api.pyi")}));
}

TEST_F(FileWalkerTest, WalksOnlyConfiguredExtensions) {
  write("api.py");
  write("api.pyi");
  WalkOptions options;
  options.extensions = {".py"};
  EXPECT_EQ(walk(options).files, (std::vector<std::string>{at("api.py")}));
}

TEST_F(FileWalkerTest, SkipsToolFolders) {
  write("main.py");
  for (const std::string folder : {".git", ".venv", "venv", "build", "dist", "lib/site-packages",
                                   "node_modules", "__pycache__", "pkg/.venv", "pkg/__pycache__"}) {
    write(folder + "/hidden.py");
  }
  EXPECT_EQ(walk().files, (std::vector<std::string>{at("main.py")}));
}

TEST_F(FileWalkerTest, SkipsWhatTheWorkTreesGitignoreFilesList) {
  make_folder(".git");
  write(".gitignore", "# generated\n/out/\ndata\n*_pb2.py\n!keep_pb2.py\n");
  write("train.py");
  write("out/gen.py");
  write("src/out/model.py");  // `/out/` is anchored to the top: this one stays
  write("src/data/loader.py");
  write("src/msg_pb2.py");
  write("src/keep_pb2.py");
  write("src/.gitignore", "scratch.py\n");
  write("src/scratch.py");
  EXPECT_EQ(walk().files, (std::vector<std::string>{at("src/keep_pb2.py"), at("src/out/model.py"),
                                                    at("train.py")}));
  WalkOptions all;
  all.respect_gitignore = false;
  EXPECT_EQ(walk(all).files.size(), 7U);
}

TEST_F(FileWalkerTest, ReadsNoGitignoreOutsideAWorkTree) {
  write(".gitignore", "*.py\n");
  write("train.py");
  EXPECT_EQ(walk().files, (std::vector<std::string>{at("train.py")}));
}

TEST_F(FileWalkerTest, NamesToolFoldersAsSkipped) {
  EXPECT_TRUE(is_skipped_folder(".git"));
  EXPECT_TRUE(is_skipped_folder(".venv"));
  EXPECT_TRUE(is_skipped_folder("node_modules"));
  EXPECT_TRUE(is_skipped_folder("__pycache__"));
  EXPECT_TRUE(is_skipped_folder("venv"));
  EXPECT_TRUE(is_skipped_folder("site-packages"));
  EXPECT_TRUE(is_skipped_folder(".sealint_cache"));
  EXPECT_FALSE(is_skipped_folder("venv_tools"));
  EXPECT_FALSE(is_skipped_folder("builder"));
  EXPECT_FALSE(is_skipped_folder("src"));
}

TEST_F(FileWalkerTest, ExcludesFoldersNamedByGlob) {
  write("a/keep.py");
  write("a/legacy/old.py");
  write("legacy/older.py");
  write("a/legacy_v2/new.py");
  WalkOptions options;
  options.exclude = {"legacy"};
  EXPECT_EQ(walk(options).files,
            (std::vector<std::string>{at("a/keep.py"), at("a/legacy_v2/new.py")}));
}

TEST_F(FileWalkerTest, ExcludesFilesMatchingGlob) {
  write("model.py");
  write("tests/test_model.py");
  write("proto/model_pb2.py");
  WalkOptions options;
  options.exclude = {"test_*.py", "*_pb2.py"};
  EXPECT_EQ(walk(options).files, (std::vector<std::string>{at("model.py")}));
}

TEST_F(FileWalkerTest, ExcludesWithDoubleStarGlob) {
  write("app/models.py");
  write("app/migrations/0001_initial.py");
  WalkOptions options;
  options.exclude = {"**/migrations/**"};
  EXPECT_EQ(walk(options).files, (std::vector<std::string>{at("app/models.py")}));
}

TEST_F(FileWalkerTest, MatchesSlashGlobBelowAbsoluteRoot) {
  write("proj/keep.py");
  write("proj/tests/a.py");
  write("proj/tests/unit/b.py");
  WalkOptions options;
  options.exclude = {"tests/*"};
  const WalkResult result = walk_paths({at("proj")}, options);
  EXPECT_EQ(result.files, (std::vector<std::string>{at("proj/keep.py")}));
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(messages(result));
}

TEST_F(FileWalkerTest, MatchesSlashGlobBelowRelativeRoot) {
  write("proj/keep.py");
  write("proj/tests/a.py");
  const fs::path relative_root = fs::path(at("proj")).lexically_relative(fs::current_path());
  ASSERT_TRUE(relative_root.is_relative()) << relative_root;
  WalkOptions options;
  options.exclude = {"tests/*"};
  const WalkResult result = walk_paths({relative_root.string()}, options);
  EXPECT_EQ(result.files,
            (std::vector<std::string>{(relative_root / "keep.py").lexically_normal().string()}));
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(messages(result));
}

TEST_F(FileWalkerTest, DoesNotMatchSlashGlobAgainstFoldersAboveRoot) {
  write("tests/proj/a.py");
  WalkOptions options;
  options.exclude = {"tests/*"};
  EXPECT_EQ(walk_paths({at("tests/proj")}, options).files,
            (std::vector<std::string>{at("tests/proj/a.py")}));
}

TEST_F(FileWalkerTest, DoesNotMatchNameGlobAgainstFoldersAboveRoot) {
  write("legacy/proj/a.py");
  WalkOptions options;
  options.exclude = {"legacy"};
  EXPECT_EQ(walk_paths({at("legacy/proj")}, options).files,
            (std::vector<std::string>{at("legacy/proj/a.py")}));
}

TEST_F(FileWalkerTest, PrintsLexicallyNormalPathsForRootWithDotAndTrailingSlash) {
  write("proj/pkg/a.py");
  write("proj/tests/b.py");
  WalkOptions options;
  options.exclude = {"tests/*"};
  const WalkResult result = walk_paths({root_ + "/./proj/"}, options);
  EXPECT_EQ(result.files, (std::vector<std::string>{at("proj/pkg/a.py")}));
}

TEST_F(FileWalkerTest, ReportsMissingPath) {
  const std::string missing = at("nope.py");
  const WalkResult result = walk_paths({missing}, {});
  EXPECT_TRUE(result.files.empty());
  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].path, missing);
  EXPECT_EQ(result.errors[0].message, "cannot read '" + missing + "': no such file or folder");
}

TEST_F(FileWalkerTest, ReportsDanglingSymlinkNamedOnCommandLine) {
  const std::string link = at("gone.py");
  fs::create_symlink(at("target-that-does-not-exist.py"), link);
  const WalkResult result = walk_paths({link}, {});
  EXPECT_TRUE(result.files.empty());
  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_NE(result.errors[0].message.find("dangling"), std::string::npos)
      << result.errors[0].message;
  EXPECT_NE(result.errors[0].message.find(link), std::string::npos) << result.errors[0].message;
}

TEST_F(FileWalkerTest, ReportsDanglingSymlinkInsideFolder) {
  write("ok.py");
  fs::create_symlink(at("missing.py"), at("gone.py"));
  const WalkResult result = walk();
  EXPECT_EQ(result.files, (std::vector<std::string>{at("ok.py")}));
  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].path, at("gone.py"));
  EXPECT_NE(result.errors[0].message.find("dangling"), std::string::npos)
      << result.errors[0].message;
}

TEST_F(FileWalkerTest, FollowsSymlinkToFileInsideFolder) {
  write("real/impl.py");
  make_folder("pkg");
  fs::create_symlink(at("real/impl.py"), at("pkg/alias.py"));
  WalkOptions options;
  options.exclude = {"real"};
  EXPECT_EQ(walk(options).files, (std::vector<std::string>{at("pkg/alias.py")}));
}

TEST_F(FileWalkerTest, DoesNotWalkIntoSymlinkedFolders) {
  write("pkg/a.py");
  fs::create_directory_symlink(at("pkg"), at("pkg/loop"));
  const WalkResult result = walk();
  EXPECT_EQ(result.files, (std::vector<std::string>{at("pkg/a.py")}));
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(messages(result));
}

TEST_F(FileWalkerTest, ReportsFolderWithoutPythonFiles) {
  write("docs/index.md");
  write(".venv/lib/site.py");
  const WalkResult result = walk();
  EXPECT_TRUE(result.files.empty());
  ASSERT_EQ(result.errors.size(), 1U);
  EXPECT_EQ(result.errors[0].path, root_);
  EXPECT_NE(result.errors[0].message.find("no Python or C++ files"), std::string::npos)
      << result.errors[0].message;
}

TEST_F(FileWalkerTest, KeepsExplicitlyNamedNonPythonFile) {
  write("bin/run-training", "#!/usr/bin/env python3\nimport torch\n");
  const WalkResult result = walk_paths({at("bin/run-training")}, {});
  EXPECT_EQ(result.files, (std::vector<std::string>{at("bin/run-training")}));
  EXPECT_TRUE(result.errors.empty()) << ::testing::PrintToString(messages(result));
}

TEST_F(FileWalkerTest, SortsFilesWhateverTheOrderOfPaths) {
  write("z.py");
  write("a.py");
  write("m/b.py");
  const WalkResult result = walk_paths({at("z.py"), at("m"), at("a.py")}, {});
  EXPECT_EQ(result.files, (std::vector<std::string>{at("a.py"), at("m/b.py"), at("z.py")}));
}

TEST_F(FileWalkerTest, ListsFileNamedTwiceOnce) {
  write("pkg/a.py");
  write("pkg/b.py");
  const WalkResult result = walk_paths({at("pkg"), at("pkg/a.py"), at("pkg/./a.py")}, {});
  EXPECT_EQ(result.files, (std::vector<std::string>{at("pkg/a.py"), at("pkg/b.py")}));
  EXPECT_TRUE(std::is_sorted(result.files.begin(), result.files.end()));
}

TEST_F(FileWalkerTest, ReportsEachBadPathAndKeepsTheGoodOnes) {
  write("good.py");
  const WalkResult result = walk_paths({at("good.py"), at("missing-1.py"), at("missing-2")}, {});
  EXPECT_EQ(result.files, (std::vector<std::string>{at("good.py")}));
  EXPECT_EQ(result.errors.size(), 2U);
}

}  // namespace
}  // namespace sealint
