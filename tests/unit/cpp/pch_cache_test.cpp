#include "analyzer/cpp/pch_cache.h"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace sealint::cpp {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kVersionH =
    "#pragma once\n"
    "/// Indicates the major version of LibTorch.\n"
    "#define TORCH_VERSION_MAJOR 1\n"
    "#define TORCH_VERSION_MINOR 13\n"
    "#define TORCH_VERSION_PATCH 0\n"
    "#define TORCH_VERSION \"1.13.0\"\n";

class PchCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sealint-pch-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << "mkdtemp failed for " << templ;
    root_ = templ;
  }
  void TearDown() override {
    std::error_code error;
    fs::remove_all(root_, error);
  }
  fs::path write(const fs::path& relative, std::string_view text) const {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // A writer that writes `text` and counts its calls.
  PchWriter writer(std::atomic<int>& calls, std::string text = "pch") const {
    return [&calls, text](const std::string& path) -> std::optional<std::string> {
      ++calls;
      std::ofstream(path, std::ios::binary) << text;
      return std::nullopt;
    };
  }
  fs::path root_;
};

TEST_F(PchCacheTest, ReadsTheVersionFromTheThreeMacros) {
  EXPECT_EQ(parse_torch_version(kVersionH), "1.13.0");
}

TEST_F(PchCacheTest, HasNoVersionWithoutTheMacros) {
  EXPECT_EQ(parse_torch_version("#define TORCH_VERSION_MAJOR 2\n"), std::nullopt);
}

TEST_F(PchCacheTest, FindsTheVersionWhereClangWouldFindTheHeader) {
  write("old/torch/version.h",
        "#define TORCH_VERSION_MAJOR 1\n#define TORCH_VERSION_MINOR 9\n"
        "#define TORCH_VERSION_PATCH 1\n");
  write("new/torch/version.h", kVersionH);
  // -I folders are searched before -isystem ones, wherever they stand.
  const std::vector<std::string> args = {"-std=c++17", "-isystem" + (root_ / "old").string(), "-I",
                                         (root_ / "none").string(),
                                         "-I" + (root_ / "new").string()};
  EXPECT_EQ(find_torch_version(args), "1.13.0");
}

TEST_F(PchCacheTest, FindsNoVersionWhenNoIncludePathHoldsIt) {
  const std::vector<std::string> args = {"-std=c++17", "-I" + root_.string()};
  EXPECT_EQ(find_torch_version(args), std::nullopt);
}

TEST_F(PchCacheTest, TheSameArgumentsGiveTheSameFileAndOthersAnother) {
  const std::vector<std::string> args = {"-std=c++17", "-I/usr/include/torch/csrc/api/include"};
  std::vector<std::string> with_define = args;
  with_define.push_back("-DNDEBUG");
  const fs::path file = pch_file(root_, "1.13.0", "19.1.7", args);
  EXPECT_EQ(file, pch_file(root_, "1.13.0", "19.1.7", args));
  EXPECT_EQ(file.parent_path(), root_);
  EXPECT_TRUE(file.filename().string().starts_with("torch-1.13.0-clang-19.1.7-")) << file;
  EXPECT_NE(file, pch_file(root_, "1.13.0", "19.1.7", with_define));
  EXPECT_NE(file, pch_file(root_, "1.13.1", "19.1.7", args));
  EXPECT_NE(file, pch_file(root_, "1.13.0", "19.1.8", args));
}

TEST_F(PchCacheTest, MakesTheFileOnceThenReusesIt) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "pch" / "a.pch";
  auto first = ensure_pch(pch, std::nullopt, writer(calls));
  ASSERT_TRUE(first.has_value()) << first.error();
  auto second = ensure_pch(pch, std::nullopt, writer(calls));
  ASSERT_TRUE(second.has_value()) << second.error();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(first->identity, second->identity);
  EXPECT_TRUE(fs::is_regular_file(pch));
}

TEST_F(PchCacheTest, MakesTheRefusedFileAgain) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "a.pch";
  auto first = ensure_pch(pch, std::nullopt, writer(calls, "truncated"));
  ASSERT_TRUE(first.has_value()) << first.error();
  auto again = ensure_pch(pch, first->identity, writer(calls, "whole"));
  ASSERT_TRUE(again.has_value()) << again.error();
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(again->identity == first->identity);
  std::ifstream in(pch);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "whole");
}

// Bytes flipped deep inside a PCH crash Clang when it reads them: such a file is made again.
TEST_F(PchCacheTest, MakesADamagedFileAgain) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "a.pch";
  ASSERT_TRUE(ensure_pch(pch, std::nullopt, writer(calls, "precompiled")).has_value());
  {
    std::fstream damage(pch, std::ios::in | std::ios::out | std::ios::binary);
    damage.seekp(5);
    damage.put('X');
  }
  auto again = ensure_pch(pch, std::nullopt, writer(calls, "precompiled"));
  ASSERT_TRUE(again.has_value()) << again.error();
  EXPECT_EQ(calls, 2);
  std::ifstream in(pch);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "precompiled");
}

// A PCH that another user could have written (a shared cache folder) is never used.
TEST_F(PchCacheTest, MakesAFileOthersCanWriteAgain) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "a.pch";
  ASSERT_TRUE(ensure_pch(pch, std::nullopt, writer(calls, "planted")).has_value());
  fs::permissions(pch, fs::perms::group_write | fs::perms::others_write, fs::perm_options::add);
  auto again = ensure_pch(pch, std::nullopt, writer(calls, "ours"));
  ASSERT_TRUE(again.has_value()) << again.error();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(fs::status(pch).permissions() & fs::perms::others_write, fs::perms::none);
}

TEST_F(PchCacheTest, AFileWithoutItsRecordedDigestIsMadeAgain) {
  std::atomic<int> calls = 0;
  const fs::path pch = write("a.pch", "planted without a digest");
  auto made = ensure_pch(pch, std::nullopt, writer(calls, "ours"));
  ASSERT_TRUE(made.has_value()) << made.error();
  EXPECT_EQ(calls, 1);
}

// The lock is on the folder: nothing but the PCH and its digest is left beside it (a 0-byte
// `.pch.lock` was, before).
TEST_F(PchCacheTest, LeavesNoLockFileBesideThePch) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "a.pch";
  auto made = ensure_pch(pch, std::nullopt, writer(calls));
  ASSERT_TRUE(made.has_value()) << made.error();
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(root_))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a.pch", "a.pch.digest"}));
}

TEST_F(PchCacheTest, AFailedWriteIsAnErrorAndLeavesNoFile) {
  const fs::path pch = root_ / "a.pch";
  auto made = ensure_pch(pch, std::nullopt, [](const std::string& path) {
    std::ofstream(path) << "half";
    return std::optional<std::string>("cannot precompile <torch/torch.h>: boom");
  });
  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error(), "cannot precompile <torch/torch.h>: boom");
  for (const auto& entry : fs::directory_iterator(root_)) {
    EXPECT_FALSE(entry.is_directory()) << entry.path();  // the private folder it wrote in
    EXPECT_NE(entry.path(), pch);
  }
}

TEST_F(PchCacheTest, AFolderThatCannotBeMadeIsAnError) {
  write("file", "not a folder");
  std::atomic<int> calls = 0;
  auto made = ensure_pch(root_ / "file" / "pch" / "a.pch", std::nullopt, writer(calls));
  ASSERT_FALSE(made.has_value());
  EXPECT_TRUE(made.error().starts_with("cannot create")) << made.error();
  EXPECT_EQ(calls, 0);
}

TEST_F(PchCacheTest, RacingWorkersMakeTheFileOnceAndBothUseIt) {
  std::atomic<int> calls = 0;
  const fs::path pch = root_ / "a.pch";
  std::vector<std::optional<FileIdentity>> seen(4);
  {
    std::vector<std::jthread> workers;
    for (size_t i = 0; i < seen.size(); ++i) {
      workers.emplace_back([&, i] {
        auto made = ensure_pch(pch, std::nullopt, writer(calls));
        if (made) seen[i] = made->identity;
      });
    }
  }
  EXPECT_EQ(calls, 1);
  for (const auto& identity : seen) {
    ASSERT_TRUE(identity.has_value());
    EXPECT_EQ(*identity, *seen[0]);
  }
}

}  // namespace
}  // namespace sealint::cpp
