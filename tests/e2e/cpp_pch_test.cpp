// End-to-end: --torch-headers=system keeps a precompiled <torch/torch.h> in the cache folder, made
// on the first run, reused on the next, made again when corrupt, and never needed for the findings.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// The example's `total_loss += loss;`.
constexpr std::string_view kCppLeakAt = "train.cpp:47:5: error[SL001]";

// The one line on stderr while a PCH is made, so that a slow first run is not taken for a hang.
const auto kPchNote = ::testing::MatchesRegex(
    "train.cpp: note: precompiling the LibTorch headers for its flags into '.*' \\(once; about "
    "15 s\\)\n");

class CppPchTest : public E2eTest {
 protected:
  void SetUp() override {
    write("train.cpp", read_file(source_dir() / "examples/cpp/leaky_train.cpp"));
  }

  // Without the result cache: each run parses, with the PCH.
  [[nodiscard]] RunOutput run_system(bool as_nobody = false) const {
    return run({"--torch-headers=system", "--no-cache", "--cache-dir", "cache", "train.cpp"}, {},
               as_nobody);
  }

  // The state a first run leaves (this file's PCH and its digest in the cache folder), for the
  // tests of what later runs do with it, without making the PCH here (15-35 s): it is made once per
  // build tree in test_cache_dir(), which the fixture runner and other C++ tests share, and copied.
  // Returns that run's output. Copies nothing when that folder holds no real-headers PCH, or
  // several (another argument list): the first run here then makes it, as it would by itself.
  [[nodiscard]] RunOutput run_system_from_shared_pch() const {
    const RunOutput shared = run({"--torch-headers=system", "--no-cache", "--cache-dir",
                                  test_cache_dir().string(), "train.cpp"});
    std::vector<fs::path> candidates;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(test_cache_dir() / "pch", error)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".pch" && name.starts_with("torch-") &&
          !name.starts_with("torch-model-")) {
        candidates.push_back(entry.path());
      }
    }
    if (shared.exit_code != 1 || candidates.size() != 1) return run_system();
    fs::create_directories(cwd() / "cache" / "pch");
    for (const fs::path& from : {candidates[0], fs::path(candidates[0].string() + ".digest")}) {
      fs::copy_file(from, cwd() / "cache" / "pch" / from.filename());
    }
    return shared;
  }

  // A LibTorch made of sealint's model of the API plus a torch/version.h, reached through a
  // compilation database: --torch-headers=system precompiles it as it would the real headers, in
  // a second or two. For the tests that make a PCH several times. Returns the arguments of a run
  // with it (without the result cache, the PCH in `cache`).
  [[nodiscard]] std::vector<std::string> use_small_libtorch() const {
    fs::copy(source_dir() / "analyzer/cpp/torch_model", cwd() / "libtorch",
             fs::copy_options::recursive);
    write("libtorch/torch/version.h",
          "#pragma once\n#define TORCH_VERSION_MAJOR 1\n#define TORCH_VERSION_MINOR 13\n"
          "#define TORCH_VERSION_PATCH 0\n");
    const std::string dir = cwd().string();
    const nlohmann::json database = nlohmann::json::array(
        {{{"directory", dir},
          {"file", dir + "/train.cpp"},
          {"arguments",
           {"clang++", "-std=c++17", "-I" + dir + "/libtorch", "-c", dir + "/train.cpp"}}}});
    write("build/compile_commands.json", database.dump());
    return {
        "--torch-headers=system", "-p", "build", "--no-cache", "--cache-dir", "cache", "train.cpp"};
  }

  // The precompiled headers in the cache folder.
  [[nodiscard]] std::vector<fs::path> pch_files() const {
    std::vector<fs::path> out;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(cwd() / "cache" / "pch", error)) {
      if (entry.path().extension() == ".pch") out.push_back(entry.path());
    }
    return out;
  }
};

TEST_F(CppPchTest, TheFirstRunMakesThePchAndTheSecondUsesItWithTheSameFindings) {
  const RunOutput first = run_system();
  EXPECT_EQ(first.exit_code, 1) << describe(first);
  // One note while the PCH is made, so that a slow first run is not taken for a hang.
  EXPECT_THAT(first.err, kPchNote) << describe(first);
  EXPECT_THAT(first.out, HasSubstr(kCppLeakAt));
  const std::vector<fs::path> made = pch_files();
  ASSERT_EQ(made.size(), 1U);
  EXPECT_THAT(made[0].filename().string(), HasSubstr("torch-1.13."));
  const auto written = fs::last_write_time(made[0]);

  const RunOutput second = run_system();
  EXPECT_EQ(second.exit_code, 1) << describe(second);
  EXPECT_EQ(second.err, "") << describe(second);
  EXPECT_EQ(second.out, first.out);
  EXPECT_EQ(pch_files(), made);
  EXPECT_EQ(fs::last_write_time(made[0]), written) << "the PCH was made again";
}

// The PCH's recorded digest catches a truncated file and one damaged in place, and the run makes
// it again before Clang reads it. With the small LibTorch (use_small_libtorch) the two remakes
// take seconds: the real headers' PCH took 15-35 s each, over two minutes under AddressSanitizer
// on a loaded machine, through the same code (parse_with_pch, ensure_pch).
TEST_F(CppPchTest, ATruncatedOrDamagedPchIsMadeAgain) {
  const std::vector<std::string> args = use_small_libtorch();
  const RunOutput first = run(args);
  ASSERT_EQ(first.exit_code, 1) << describe(first);
  EXPECT_THAT(first.err, kPchNote) << describe(first);
  EXPECT_THAT(first.out, HasSubstr(kCppLeakAt));
  const std::vector<fs::path> made = pch_files();
  ASSERT_EQ(made.size(), 1U);
  EXPECT_THAT(made[0].filename().string(), HasSubstr("torch-1.13.")) << "the headers' PCH";
  const uintmax_t size = fs::file_size(made[0]);
  ASSERT_GT(size, 4 * 4096U) << "too small to be damaged inside";
  fs::resize_file(made[0], size / 2);

  const RunOutput second = run(args);
  EXPECT_EQ(second.exit_code, 1) << describe(second);
  EXPECT_THAT(second.err, kPchNote) << "made again: " << describe(second);
  EXPECT_EQ(second.out, first.out);
  EXPECT_EQ(fs::file_size(made[0]), size);

  // Same size, bytes flipped deep inside: Clang would read them and crash on every later run.
  {
    std::fstream damage(made[0], std::ios::in | std::ios::out | std::ios::binary);
    damage.seekp(static_cast<std::streamoff>(size * 3 / 4));
    const std::string garbage(4096, '\xff');
    damage.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const RunOutput third = run(args);
  EXPECT_EQ(third.exit_code, 1) << describe(third);
  EXPECT_THAT(third.err, kPchNote) << "made again: " << describe(third);
  EXPECT_EQ(third.out, first.out);
}

// Root writes anywhere, so sealint runs as `nobody` here (the folder is opened to it).
TEST_F(CppPchTest, AnUnwritableCacheFolderStillGivesTheFindingsAndOneWarning) {
  fs::permissions(cwd(), fs::perms::all);
  fs::create_directory(cwd() / "cache");
  fs::permissions(cwd() / "cache", fs::perms::owner_read | fs::perms::owner_exec |
                                       fs::perms::group_read | fs::perms::group_exec |
                                       fs::perms::others_read | fs::perms::others_exec);
  const RunOutput run = run_system(/*as_nobody=*/true);
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr(kCppLeakAt));
  EXPECT_THAT(run.err, HasSubstr("warning: LibTorch headers parsed without a precompiled header"));
  EXPECT_EQ(count_lines(run.err), 1U) << describe(run);
  EXPECT_TRUE(pch_files().empty());
}

// Clang refuses a C++ PCH for CUDA: a .cu file is parsed from source on purpose, says so, and
// leaves the C++ PCH as it was (it used to make it again, overwrite it, then parse without it).
TEST_F(CppPchTest, ACudaFileIsParsedWithoutThePchAndLeavesTheCppPchAlone) {
  const RunOutput first = run_system_from_shared_pch();
  EXPECT_EQ(first.exit_code, 1) << describe(first);
  const std::vector<fs::path> made = pch_files();
  ASSERT_EQ(made.size(), 1U);
  const auto written = fs::last_write_time(made[0]);

  write("kernel.cu", read_file(cwd() / "train.cpp"));
  const RunOutput cuda = run(
      {"--torch-headers=system", "--no-cache", "--cache-dir", "cache", "kernel.cu", "train.cpp"});
  EXPECT_EQ(cuda.exit_code, 1) << describe(cuda);
  EXPECT_THAT(cuda.out, HasSubstr("kernel.cu:47:5: error[SL001]"));
  EXPECT_THAT(cuda.out, HasSubstr(kCppLeakAt));
  EXPECT_THAT(cuda.err, HasSubstr("kernel.cu: warning: LibTorch headers parsed without a "
                                  "precompiled header (a CUDA file: the precompiled headers are "
                                  "C++ only)"))
      << describe(cuda);
  EXPECT_THAT(cuda.err, Not(HasSubstr("precompiling"))) << describe(cuda);
  EXPECT_THAT(cuda.err, Not(HasSubstr("refuses"))) << describe(cuda);
  EXPECT_EQ(pch_files(), made);
  EXPECT_EQ(fs::last_write_time(made[0]), written);
}

}  // namespace
}  // namespace sealint::e2e
