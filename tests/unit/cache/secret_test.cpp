#include "analyzer/cache/secret.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "tests/unit/scratch_folder.h"

namespace sealint::cache {
namespace {

namespace fs = std::filesystem;

class SecretTest : public testing::ScratchFolder {
 protected:
  [[nodiscard]] fs::path folder() const { return root() / "home/.cache/sealint"; }
};

TEST_F(SecretTest, MakesOneSecretOnlyTheUserMayReadAndKeepsIt) {
  auto made = user_secret(folder());
  ASSERT_TRUE(made) << made.error();
  struct stat info {};
  ASSERT_EQ(::stat((folder() / kSecretFileName).c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600U);
  EXPECT_EQ(info.st_size, 32);
  ASSERT_EQ(::stat(folder().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0700U);
  auto again = user_secret(folder());
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(*again, *made);
  EXPECT_NE(*made, Secret{});
}

TEST_F(SecretTest, RefusesAKeyOthersMayReadOrAFolderOthersMayWrite) {
  ASSERT_TRUE(user_secret(folder()));
  ASSERT_EQ(::chmod((folder() / kSecretFileName).c_str(), 0644), 0);
  auto readable = user_secret(folder());
  ASSERT_FALSE(readable);
  EXPECT_NE(readable.error().find("only its owner, this user, may read"), std::string::npos);
  ASSERT_EQ(::chmod((folder() / kSecretFileName).c_str(), 0600), 0);
  ASSERT_EQ(::chmod(folder().c_str(), 0777), 0);
  auto writable = user_secret(folder());
  ASSERT_FALSE(writable);
  EXPECT_NE(writable.error().find("is not this user's alone"), std::string::npos);
}

TEST_F(SecretTest, RefusesAKeyThatIsALinkOrOfAnotherSize) {
  fs::create_directories(folder());
  ASSERT_EQ(::chmod(folder().c_str(), 0700), 0);
  const fs::path elsewhere = write("elsewhere", std::string(32, 'k'));
  ASSERT_EQ(::chmod(elsewhere.c_str(), 0600), 0);
  fs::create_symlink(elsewhere, folder() / kSecretFileName);
  EXPECT_FALSE(user_secret(folder()));
  fs::remove(folder() / kSecretFileName);
  write("home/.cache/sealint/cache-key", "short");
  ASSERT_EQ(::chmod((folder() / kSecretFileName).c_str(), 0600), 0);
  EXPECT_FALSE(user_secret(folder()));
}

}  // namespace
}  // namespace sealint::cache
