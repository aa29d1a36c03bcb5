// The C++ half of the result cache's key: the files a parse read (its manifest, as a compiler
// cache keeps one) and where its missing headers would be, replayed against the files as they
// are now.
#include "analyzer/driver/cpp_dependencies.h"

#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "analyzer/core/fixes.h"
#include "tests/unit/scratch_folder.h"

namespace sealint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMain =
    "#include <torch/torch.h>\n"
    "#include \"helpers.h\"\n"
    "#include \"not_yet.h\"\n"
    "int main() { return twice(1); }\n";

class CppDependenciesTest : public testing::ScratchFolder {
 protected:
  // Parses main.cpp with sealint's model of LibTorch; what the parse read.
  [[nodiscard]] cpp::CppInputs parse() const {
    const fs::path main = root() / "main.cpp";
    auto file = SourceFile::from_bytes(main.string(), read(main));
    EXPECT_TRUE(file.has_value());
    cpp::CppFrontend frontend({});
    cpp::CppInputs inputs;
    auto lowered = frontend.lower(std::make_shared<const SourceFile>(std::move(*file)),
                                  main.string(), &inputs);
    EXPECT_TRUE(lowered.has_value());
    return inputs;
  }
  void write_project() const {
    write("main.cpp", kMain);
    write("helpers.h",
          "#pragma once\n#include \"deeper.h\"\ninline int twice(int x) { return 2 * x; }\n");
    write("deeper.h", "#pragma once\n");
  }
  static bool has(const std::vector<std::string>& paths, const fs::path& path) {
    return std::find(paths.begin(), paths.end(), path.string()) != paths.end();
  }
};

TEST_F(CppDependenciesTest, ListsEveryHeaderReadAtAnyDepthButNotTheModelOrTheFileItself) {
  write_project();
  const cpp::CppInputs inputs = parse();
  EXPECT_TRUE(has(inputs.files, root() / "helpers.h"));
  EXPECT_TRUE(has(inputs.files, root() / "deeper.h"));   // included by helpers.h
  EXPECT_FALSE(has(inputs.files, root() / "main.cpp"));  // keyed by its own digest
  // The model of LibTorch is served from memory: part of sealint's build, not of the files read.
  EXPECT_TRUE(std::none_of(inputs.files.begin(), inputs.files.end(), [](const std::string& p) {
    return p.find("sealint-torch-model") != std::string::npos;
  }));
  // The standard library the model includes is read from the system, and keyed like the rest.
  EXPECT_TRUE(std::any_of(inputs.files.begin(), inputs.files.end(),
                          [](const std::string& p) { return p.ends_with("/vector"); }));
  // A quoted header that was not found would have been found beside its includer first.
  EXPECT_TRUE(has(inputs.absent, root() / "not_yet.h"));
}

TEST_F(CppDependenciesTest, HoldWhileTheHeadersKeepTheirBytes) {
  write_project();
  const project::DependencyCheck at_parse;
  const auto dependencies = cpp_dependencies(parse(), at_parse);
  ASSERT_TRUE(dependencies.has_value());
  EXPECT_EQ(dependencies->files.at((root() / "helpers.h").string()),
            content_digest(read(root() / "helpers.h")));
  EXPECT_FALSE(dependencies->files.at((root() / "not_yet.h").string()).has_value());

  // Rewritten with the same bytes (a checkout, a touch): still the same.
  write("deeper.h", "#pragma once\n");
  EXPECT_TRUE(project::DependencyCheck().holds(*dependencies));

  write("deeper.h", "#pragma once\n#define EDITED 1\n");
  EXPECT_FALSE(project::DependencyCheck().holds(*dependencies));
}

TEST_F(CppDependenciesTest, DoNotHoldOnceAMissingHeaderAppears) {
  write_project();
  const auto dependencies = cpp_dependencies(parse(), project::DependencyCheck());
  ASSERT_TRUE(dependencies.has_value());
  EXPECT_TRUE(project::DependencyCheck().holds(*dependencies));
  write("not_yet.h", "#pragma once\n");
  EXPECT_FALSE(project::DependencyCheck().holds(*dependencies));
}

TEST_F(CppDependenciesTest, AreNoneWhenAFileReadCannotBeKeyed) {
  write_project();
  cpp::CppInputs inputs = parse();
  fs::remove(root() / "helpers.h");  // gone between the parse and the key
  EXPECT_FALSE(cpp_dependencies(inputs, project::DependencyCheck()).has_value());

  // A missing header made between the parse and the key: the result is stale already.
  write_project();
  inputs = parse();
  write("not_yet.h", "#pragma once\n");
  EXPECT_FALSE(cpp_dependencies(inputs, project::DependencyCheck()).has_value());
}

TEST_F(CppDependenciesTest, SettingsKeyChangesWithTheHeaderModeAndTheDatabase) {
  cpp::CppOptions model;
  cpp::CppOptions system;
  system.headers = cpp::TorchHeaders::System;
  cpp::CppOptions database;
  database.compile_commands_dir = "/work/build";
  EXPECT_NE(cpp_settings_key(model), cpp_settings_key(system));
  EXPECT_NE(cpp_settings_key(model), cpp_settings_key(database));
  // The PCH folder changes speed, not findings.
  cpp::CppOptions elsewhere;
  elsewhere.pch_dir = "/elsewhere";
  EXPECT_EQ(cpp_settings_key(model), cpp_settings_key(elsewhere));
}

}  // namespace
}  // namespace sealint
