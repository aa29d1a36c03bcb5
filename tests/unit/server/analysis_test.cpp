#include "analyzer/server/analysis.h"

#include <gtest/gtest.h>

#include "tests/unit/scratch_folder.h"

namespace sealint::server {
namespace {

class CompileCommandsForTest : public testing::ScratchFolder {};

// A database in a folder above the workspace (another user's /tmp, the parent of a cloned
// repository) does not apply to the workspace's files.
TEST_F(CompileCommandsForTest, ADatabaseAboveTheWorkspaceFolderIsNotUsed) {
  write("compile_commands.json", "[]");
  const std::string file = write("repo/src/train.cpp", "").string();
  EXPECT_EQ(compile_commands_for(file, "", {(root() / "repo").string()}), "");
  EXPECT_EQ(compile_commands_for(file, "", {(root() / "repo/").string()}), "");
}

TEST_F(CompileCommandsForTest, TheNearestDatabaseUpToTheWorkspaceFolderIsUsed) {
  write("repo/build/compile_commands.json", "[]");
  const std::string file = write("repo/src/train.cpp", "").string();
  EXPECT_EQ(compile_commands_for(file, "", {"/elsewhere", (root() / "repo").string()}),
            (root() / "repo/build").string());
  write("repo/src/compile_commands.json", "[]");
  EXPECT_EQ(compile_commands_for(file, "", {(root() / "repo").string()}),
            (root() / "repo/src").string());
}

// Without a workspace folder holding the file, only the file's own folder is searched.
TEST_F(CompileCommandsForTest, AFileOutsideEveryWorkspaceFolderLooksOnlyBesideItself) {
  write("repo/build/compile_commands.json", "[]");
  const std::string file = write("repo/src/train.cpp", "").string();
  EXPECT_EQ(compile_commands_for(file, "", {}), "");
  EXPECT_EQ(compile_commands_for(file, "", {"/elsewhere"}), "");
  write("repo/src/build/compile_commands.json", "[]");
  EXPECT_EQ(compile_commands_for(file, "", {}), (root() / "repo/src/build").string());
}

TEST_F(CompileCommandsForTest, TheSettingWinsOverTheSearch) {
  write("repo/build/compile_commands.json", "[]");
  const std::string file = write("repo/src/train.cpp", "").string();
  EXPECT_EQ(compile_commands_for(file, (root() / "repo/build/compile_commands.json").string(),
                                 {(root() / "repo/src").string()}),
            (root() / "repo/build").string());
}

}  // namespace
}  // namespace sealint::server
