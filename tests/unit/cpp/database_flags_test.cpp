#include "analyzer/cpp/database_flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sealint::cpp {
namespace {

using ::testing::ElementsAre;

TEST(DatabaseFlagsTest, KeepsWhatChangesTheParseAndResolvesIncludeFoldersAgainstTheEntry) {
  const DatabaseFlags flags =
      parse_flags_of_entry({"/usr/bin/c++", "-Iinclude",     "-I",           "/opt/torch/include",
                            "-isystem",     "third_party",   "-DUSE_CUDA=1", "-D",
                            "NDEBUG",       "-UFOO",         "-std=c++17",   "-fno-exceptions",
                            "-x",           "c++",           "-O2",          "-Wall",
                            "-c",           "src/train.cpp", "-o",           "train.o"},
                           "/repo/src/train.cpp", "/repo/build");
  EXPECT_THAT(flags.kept,
              ElementsAre("-I", "/repo/build/include", "-I", "/opt/torch/include", "-isystem",
                          "/repo/build/third_party", "-DUSE_CUDA=1", "-DNDEBUG", "-UFOO",
                          "-std=c++17", "-fno-exceptions", "-x", "c++"));
}

TEST(DatabaseFlagsTest, DropsFlagsThatRunProgramsWriteFilesOrReadUnboundedInput) {
  const DatabaseFlags flags = parse_flags_of_entry({"clang++",
                                                    "-x",
                                                    "hip",
                                                    "--offload-arch=native",
                                                    "-Btools",
                                                    "--amdgpu-arch-tool=/tmp/x",
                                                    "--nvptx-arch-tool=/tmp/y",
                                                    "-fopenmp",
                                                    "-H",
                                                    "-Xclang",
                                                    "-header-include-file",
                                                    "-Xclang",
                                                    "/home/me/.bashrc",
                                                    "-fmodules-cache-path=/etc/x",
                                                    "-fsanitize-ignorelist=bad.txt",
                                                    "-MF",
                                                    "dep.d",
                                                    "-include",
                                                    "/dev/zero",
                                                    "-include-pch",
                                                    "x.pch",
                                                    "-isystem-after",
                                                    "y",
                                                    "train.cpp"},
                                                   "/repo/train.cpp", "/repo");
  EXPECT_TRUE(flags.kept.empty()) << ::testing::PrintToString(flags.kept);
  EXPECT_FALSE(flags.dropped.empty());
}

// A response file (`@file`) is read whole by whatever expands it: never passed on, not even as
// the folder of `-I`.
TEST(DatabaseFlagsTest, DropsResponseFilesWhereverTheyStand) {
  const DatabaseFlags flags = parse_flags_of_entry(
      {"c++", "@/dev/zero", "-I", "@/dev/stdin", "-DX", "train.cpp"}, "/repo/train.cpp", "");
  EXPECT_THAT(flags.kept, ElementsAre("-DX"));
  EXPECT_THAT(flags.dropped, ElementsAre("@/dev/zero", "-I", "@/dev/stdin"));
}

}  // namespace
}  // namespace sealint::cpp
