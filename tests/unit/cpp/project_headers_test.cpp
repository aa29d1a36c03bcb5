// A project's own headers found without a compilation database: the include folder is guessed
// from where the project's headers are.
#include "analyzer/cpp/project_headers.h"

#include <gtest/gtest.h>

#include "tests/unit/scratch_folder.h"

namespace sealint::cpp {
namespace {

class ProjectHeadersTest : public testing::ScratchFolder {
 protected:
  void SetUp() override {
    ScratchFolder::SetUp();
    write(".git/HEAD", "ref: refs/heads/main\n");  // the project's root
  }
  [[nodiscard]] std::string folder(const std::string& relative) const {
    return (root() / relative).string();
  }
};

TEST_F(ProjectHeadersTest, FindsTheFolderAboveAHeaderNamedWithItsPath) {
  write("include/cpprl/storage.h", "#pragma once\n");
  write("utils/transforms.hpp", "#pragma once\n");
  const ProjectHeaders headers;
  EXPECT_EQ(headers.folders_for(root() / "src/a2c.cpp", {"cpprl/storage.h", "transforms.hpp"}),
            (std::vector<std::string>{folder("include"), folder("utils")}));
}

TEST_F(ProjectHeadersTest, PrefersTheHeaderNearestTheFile) {
  write("VAE/src/networks.hpp", "#pragma once\n");
  write("GAN/src/networks.hpp", "#pragma once\n");
  const ProjectHeaders headers;
  EXPECT_EQ(headers.folders_for(root() / "GAN/other/train.cpp", {"networks.hpp"}),
            std::vector<std::string>{folder("GAN/src")});
}

TEST_F(ProjectHeadersTest, AddsNothingForHeadersTheProjectLacksOrThatLeaveIt) {
  write("include/cpprl/storage.h", "#pragma once\n");
  const ProjectHeaders headers;
  EXPECT_TRUE(
      headers
          .folders_for(root() / "src/a2c.cpp", {"boost/program_options.hpp", "other/storage.h",
                                                "../storage.h", "/usr/include/storage.h"})
          .empty());
}

TEST_F(ProjectHeadersTest, SkipsToolFoldersAndEachFolderIsGivenOnce) {
  write("build/generated/config.h", "#pragma once\n");  // a build folder is not the project's
  write("include/a.h", "#pragma once\n");
  write("include/b.h", "#pragma once\n");
  const ProjectHeaders headers;
  EXPECT_EQ(headers.folders_for(root() / "src/main.cpp", {"config.h", "a.h", "b.h"}),
            std::vector<std::string>{folder("include")});
}

}  // namespace
}  // namespace sealint::cpp
