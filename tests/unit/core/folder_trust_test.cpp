#include "analyzer/core/folder_trust.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/core/config.h"
#include "analyzer/core/project_root.h"
#include "tests/unit/scratch_folder.h"

namespace sealint {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kUser = 1000;
constexpr uid_t kOtherUser = 65534;  // `nobody`: the uid a root test can give a folder

// Folder owners from a table, every folder not in it the user's own with mode 0755: the checks
// run as any user, root or not.
FolderTrust injected(std::map<fs::path, FolderOwner> owners, std::vector<fs::path> trusted = {}) {
  return FolderTrust(
      kUser,
      [owners = std::move(owners)](const fs::path& folder) -> std::optional<FolderOwner> {
        auto it = owners.find(folder);
        return it == owners.end() ? FolderOwner{kUser, S_IFDIR | 0755} : it->second;
      },
      std::move(trusted));
}

std::vector<std::string> is_rule(std::string_view id) {
  if (id == "ALL" || (id.starts_with("SL0") && id.size() == 5)) return {std::string(id)};
  return {};
}

TEST(FolderTrustTest, TrustsTheUsersAndRootsFoldersThatOnlyTheirOwnerWrites) {
  const FolderTrust trust =
      injected({{"/srv", {0, S_IFDIR | 0755}}, {"/shared", {kUser, S_IFDIR | 0775}}});
  EXPECT_EQ(trust.distrust("/home/me/project"), std::nullopt);
  EXPECT_EQ(trust.distrust("/srv"), std::nullopt);
  EXPECT_EQ(trust.distrust("/shared"), std::nullopt);  // a group's folder: umask 002 makes them
}

TEST(FolderTrustTest, DistrustsAFolderOfAnotherUser) {
  const FolderTrust trust = injected({{"/home/bob", {kOtherUser, S_IFDIR | 0755}}});
  EXPECT_EQ(trust.distrust("/home/bob"), "'/home/bob' belongs to another user (uid 65534)");
}

TEST(FolderTrustTest, DistrustsAFolderEveryUserMayWriteStickyBitOrNot) {
  const FolderTrust trust =
      injected({{"/tmp", {0, S_IFDIR | 01777}}, {"/scratch", {kUser, S_IFDIR | 0777}}});
  EXPECT_EQ(trust.distrust("/tmp"), "'/tmp' may be written by every user");
  EXPECT_EQ(trust.distrust("/scratch"), "'/scratch' may be written by every user");
}

TEST(FolderTrustTest, TrustsWhatTheListNamesAndWhatIsBelowIt) {
  const FolderTrust trust = injected({{"/work", {kOtherUser, S_IFDIR | 0755}},
                                      {"/work/repo", {kOtherUser, S_IFDIR | 0755}},
                                      {"/work/repo/src", {kOtherUser, S_IFDIR | 0755}}},
                                     {"/work/repo"});
  EXPECT_EQ(trust.distrust("/work/repo"), std::nullopt);
  EXPECT_EQ(trust.distrust("/work/repo/src"), std::nullopt);
  EXPECT_NE(trust.distrust("/work"), std::nullopt);
}

// The same checks on the real file system, through stat(2).
class FolderTrustOnDiskTest : public testing::ScratchFolder {};

TEST_F(FolderTrustOnDiskTest, DistrustsAFolderMadeWritableByEveryUser) {
  const fs::path shared = root() / "shared";
  fs::create_directory(shared);
  EXPECT_EQ(FolderTrust().distrust(shared), std::nullopt);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  EXPECT_EQ(FolderTrust().distrust(shared),
            fmt::format("'{}' may be written by every user", shared.string()));
}

// A folder on disk that belongs to someone other than the reader, through stat(2): root gives
// it to uid 65534 and reads as itself; any other user cannot give a folder away, so its own
// folder is read by a reader of another uid. Both run, as whoever runs the suite.
struct ForeignFolder {
  FolderTrust reader;
  uid_t owner;
};

ForeignFolder make_foreign(const fs::path& folder) {
  if (::geteuid() == 0) {
    EXPECT_EQ(::chown(folder.c_str(), kOtherUser, kOtherUser), 0);
    return {FolderTrust(), kOtherUser};
  }
  return {FolderTrust(::geteuid() + 1, stat_owner), ::geteuid()};
}

TEST_F(FolderTrustOnDiskTest, DistrustsAFolderOfAnotherUser) {
  const fs::path theirs = root() / "theirs";
  fs::create_directory(theirs);
  const ForeignFolder foreign = make_foreign(theirs);
  EXPECT_EQ(foreign.reader.distrust(theirs),
            fmt::format("'{}' belongs to another user (uid {})", theirs.string(), foreign.owner));
}

// ConfigFinder: a pyproject.toml above the project, in a folder the user does not control, is
// never applied (issue 41: `ignore = ["ALL"]` in /tmp silenced every project under it).
class ConfigWalkTest : public testing::ScratchFolder {
 protected:
  void SetUp() override {
    testing::ScratchFolder::SetUp();
    write("shared/pyproject.toml", "[tool.sealint]\nignore = [\"ALL\"]\n");
    write("shared/project/train.py", "x = 1\n");
  }
  [[nodiscard]] fs::path shared() const { return root() / "shared"; }
  [[nodiscard]] fs::path train() const { return root() / "shared/project/train.py"; }
};

TEST_F(ConfigWalkTest, ReadsAConfigurationInTheUsersOwnFolder) {
  ConfigFinder finder(is_rule, injected({}));
  auto found = finder.find(train());
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->path, (shared() / "pyproject.toml").string());
  EXPECT_TRUE(finder.passed_over().empty());
}

TEST_F(ConfigWalkTest, StopsBelowAFolderOfAnotherUserAndSaysWhatItPassedOver) {
  ConfigFinder finder(is_rule, injected({{shared(), {kOtherUser, S_IFDIR | 0755}}}));
  auto found = finder.find(train());
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->path, "");  // the defaults
  EXPECT_TRUE((*found)->ignore.empty());
  ASSERT_EQ(finder.passed_over().size(), 1U);
  EXPECT_EQ(finder.passed_over()[0],
            fmt::format("'{}/pyproject.toml' is not read: '{}' belongs to another user (uid 65534)",
                        shared().string(), shared().string()));
  // The second file of the folder is answered from the walk's memory, and said once.
  ASSERT_TRUE(finder.find(train()));
  EXPECT_EQ(finder.passed_over().size(), 1U);
}

TEST_F(ConfigWalkTest, StopsBelowAFolderEveryUserMayWrite) {
  ASSERT_EQ(::chmod(shared().c_str(), 01777), 0);
  ConfigFinder finder(is_rule);
  auto found = finder.find(train());
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->path, "");
  EXPECT_EQ(finder.passed_over().size(), 1U);
}

TEST_F(ConfigWalkTest, StopsBelowAFolderOfAnotherUserOnDisk) {
  const ForeignFolder foreign = make_foreign(shared());
  ConfigFinder finder(is_rule, foreign.reader);
  auto found = finder.find(train());
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ((*found)->path, "");
}

TEST_F(ConfigWalkTest, TheProjectRootWalkStopsThereToo) {
  const fs::path project = shared() / "project";
  EXPECT_EQ(project_root_from(project, injected({})), shared());
  EXPECT_EQ(project_root_from(project, injected({{shared(), {kOtherUser, S_IFDIR | 0755}}})),
            project);
  ASSERT_EQ(::chmod(shared().c_str(), 0777), 0);
  EXPECT_EQ(project_root_from(project, FolderTrust()), project);
}

}  // namespace
}  // namespace sealint
