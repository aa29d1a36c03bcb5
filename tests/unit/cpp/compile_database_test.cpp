#include "analyzer/cpp/compile_database.h"

#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/scratch_folder.h"

namespace sealint::cpp {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

class CompileDatabaseTest : public testing::ScratchFolder {
 protected:
  // A database with one entry for `source`, compiled with `arguments` (the compiler first).
  void write_database(const std::string& source, const std::string& arguments) {
    write("build/compile_commands.json", "[{\"directory\": \"" + root().string() +
                                             "\", \"file\": \"" + source + "\", \"arguments\": [" +
                                             arguments + "]}]");
  }
  [[nodiscard]] std::string build() const { return (root() / "build").string(); }
};

// LLVM's own loading expands `@file` arguments: `@/dev/zero` ran out of memory and aborted.
TEST_F(CompileDatabaseTest, AResponseFileArgumentIsNeitherReadNorKept) {
  const std::string source = (root() / "train.cpp").string();
  ASSERT_EQ(::mkfifo((root() / "args.rsp").c_str(), 0600), 0);
  write_database(source, "\"c++\", \"@/dev/zero\", \"@" + (root() / "args.rsp").string() +
                             "\", \"-I\", \"@/dev/stdin\", \"-DX=1\", \"-c\", \"" + source + "\"");
  auto flags = database_flags_for(build(), source);
  ASSERT_TRUE(flags) << flags.error();
  ASSERT_TRUE(flags->has_value());
  EXPECT_THAT((*flags)->kept, Contains("-DX=1"));
  for (const std::string& kept : (*flags)->kept) EXPECT_THAT(kept, Not(HasSubstr("@"))) << kept;
  EXPECT_THAT((*flags)->dropped, Contains("@/dev/zero"));
}

TEST_F(CompileDatabaseTest, AnEmptyDatabaseHasNoEntry) {
  write("build/compile_commands.json", "[]");
  auto flags = database_flags_for(build(), "/repo/train.cpp");
  ASSERT_TRUE(flags) << flags.error();
  EXPECT_FALSE(flags->has_value());
}

// As LLVM's own loading does: a file the database lacks (a header) takes the flags of the
// nearest source it has.
TEST_F(CompileDatabaseTest, AFileWithoutAnEntryTakesTheNearestEntrysFlags) {
  write_database((root() / "src/train.cpp").string(), "\"c++\", \"-DNEAR\", \"-c\", \"train.cpp\"");
  auto flags = database_flags_for(build(), (root() / "src/train.h").string());
  ASSERT_TRUE(flags) << flags.error();
  ASSERT_TRUE(flags->has_value());
  EXPECT_THAT((*flags)->kept, Contains("-DNEAR"));
}

TEST_F(CompileDatabaseTest, MalformedJsonIsAnErrorThatSaysWhere) {
  write("build/compile_commands.json", "[{\"directory\": \"/repo\",,]");
  auto flags = database_flags_for(build(), "/repo/train.cpp");
  ASSERT_FALSE(flags);
  EXPECT_THAT(flags.error(), HasSubstr("compile_commands.json' is not valid JSON: [1:"));
}

TEST_F(CompileDatabaseTest, JsonThatIsNoDatabaseIsAnError) {
  write("build/compile_commands.json", "{\"file\": \"train.cpp\"}");
  auto flags = database_flags_for(build(), "/repo/train.cpp");
  ASSERT_FALSE(flags);
  EXPECT_THAT(flags.error(), HasSubstr("compile_commands.json' is not a compilation database"));
}

// A FIFO (or a device) in the database's place is not read: it could block for ever.
TEST_F(CompileDatabaseTest, ADatabaseThatIsNotARegularFileIsRefused) {
  std::filesystem::create_directories(root() / "build");
  ASSERT_EQ(::mkfifo((root() / "build/compile_commands.json").c_str(), 0600), 0);
  auto flags = database_flags_for(build(), "/repo/train.cpp");
  ASSERT_FALSE(flags);
  EXPECT_THAT(flags.error(), HasSubstr("not a regular file"));
}

}  // namespace
}  // namespace sealint::cpp
