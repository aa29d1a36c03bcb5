// End-to-end: LibTorch C++ files, compile_commands.json (-p), and C++ input problems.
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/e2e/e2e_test.h"

namespace sealint::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kTrainCpp =
    "#include <torch/torch.h>\n"
    "#include \"net.h\"\n"
    "float train(Net& model, torch::optim::SGD& optimizer, int steps) {\n"
    "  torch::Tensor total = torch::zeros({});\n"
    "  for (int step = 0; step < steps; ++step) {\n"
    "    torch::Tensor loss = torch::mse_loss(model->forward(torch::randn({8, 4})), "
    "torch::randn({8, 1}));\n"
    "    loss.backward();\n"
    "    optimizer.step();\n"
    "    total += loss;\n"
    "  }\n"
    "  return total.item<float>();\n"
    "}\n";

constexpr std::string_view kNetH =
    "#pragma once\n"
    "#include <torch/torch.h>\n"
    "struct NetImpl : torch::nn::Module {\n"
    "  NetImpl() : fc(register_module(\"fc\", torch::nn::Linear(4, 1))) {}\n"
    "  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }\n"
    "  torch::nn::Linear fc{nullptr};\n"
    "};\n"
    "TORCH_MODULE(Net);\n";

class CppTest : public E2eTest {
 protected:
  void SetUp() override {
    write("src/train.cpp", kTrainCpp);
    write("include/net.h", kNetH);
  }
};

// Without compile_commands.json, the project's include/ folder is guessed from where net.h is
// (project_headers.h); a header the project lacks is still a warning.
TEST_F(CppTest, WithoutCompileCommandsTheProjectsHeaderIsFoundAndAMissingOneIsAWarning) {
  const RunOutput run = this->run({"src/train.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));

  std::filesystem::rename(cwd() / "include/net.h", cwd() / "include/other.h");
  const RunOutput missing = this->run({"src/train.cpp"});
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_THAT(missing.err, HasSubstr("warning: C++: 'net.h' file not found"));
  EXPECT_THAT(missing.err, HasSubstr("pass -p BUILD_DIR"));
  EXPECT_THAT(missing.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));
}

TEST_F(CppTest, CompileCommandsGiveTheIncludePaths) {
  const std::string dir = cwd().string();
  const nlohmann::json database =
      nlohmann::json::array({{{"directory", dir},
                              {"file", dir + "/src/train.cpp"},
                              {"arguments",
                               {"clang++", "-std=c++17", "-I" + dir + "/include", "-c",
                                dir + "/src/train.cpp", "-o", "train.o"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));
}

TEST_F(CppTest, RelativeIncludeFoldersResolveAgainstTheEntrysDirectory) {
  const std::string dir = cwd().string();
  const nlohmann::json database = nlohmann::json::array(
      {{{"directory", dir + "/build"},
        {"file", dir + "/src/train.cpp"},
        {"arguments", {"clang++", "-std=c++17", "-I../include", "-c", "../src/train.cpp"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));
}

// A repository that commits a database and a "GPU-detection tool": lint mode must never run it,
// nor let the database write files (issue: hostile inputs).
TEST_F(CppTest, AHostileCompileCommandsRunsNothingAndWritesNothing) {
  const std::string dir = cwd().string();
  write("tools/amdgpu-arch", "#!/bin/sh\ntouch \"$(dirname \"$0\")/../ran\"\necho gfx90a\n");
  std::filesystem::permissions(cwd() / "tools/amdgpu-arch", std::filesystem::perms::owner_all);
  write("tools/nvptx-arch", "#!/bin/sh\ntouch \"$(dirname \"$0\")/../ran\"\necho sm_80\n");
  std::filesystem::permissions(cwd() / "tools/nvptx-arch", std::filesystem::perms::owner_all);
  const nlohmann::json database = nlohmann::json::array(
      {{{"directory", dir},
        {"file", dir + "/src/train.cpp"},
        {"arguments",
         {"clang++", "-x", "hip", "--offload-arch=native", "-B" + dir + "/tools",
          "--amdgpu-arch-tool=" + dir + "/tools/amdgpu-arch",
          "--nvptx-arch-tool=" + dir + "/tools/nvptx-arch", "-H", "-Xclang", "-header-include-file",
          "-Xclang", dir + "/written", "-fmodules-cache-path=" + dir + "/cache",
          "-I" + dir + "/include", "-c", dir + "/src/train.cpp"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  EXPECT_THAT(run.out, HasSubstr("src/train.cpp:9:5: error[SL001]")) << describe(run);
  EXPECT_FALSE(std::filesystem::exists(cwd() / "ran")) << describe(run);
  EXPECT_FALSE(std::filesystem::exists(cwd() / "written")) << describe(run);
  EXPECT_FALSE(std::filesystem::exists(cwd() / "cache")) << describe(run);
}

// LLVM's loading of a database expands `@file` arguments before any allowlist: `@/dev/zero`
// aborted the run ("LLVM ERROR: out of memory") and `@fifo` hung it.
TEST_F(CppTest, ResponseFilesInTheDatabaseAreNeitherReadNorPassedOn) {
  const std::string dir = cwd().string();
  ASSERT_EQ(::mkfifo((cwd() / "args.rsp").c_str(), 0600), 0);
  const nlohmann::json database =
      nlohmann::json::array({{{"directory", dir},
                              {"file", dir + "/src/train.cpp"},
                              {"arguments",
                               {"clang++", "@/dev/zero", "@" + dir + "/args.rsp",
                                "-I" + dir + "/include", "-c", dir + "/src/train.cpp"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
  EXPECT_THAT(run.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));
}

// Not LLVM's YAML parser on stderr: the file, where it breaks, and that the defaults were used.
TEST_F(CppTest, AMalformedDatabaseIsNamedWithWhereItBreaks) {
  write("build/compile_commands.json", "[{\"directory\": \"/repo\",,]");
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  EXPECT_THAT(run.err, HasSubstr("src/train.cpp: warning: '"));
  EXPECT_THAT(run.err, HasSubstr("compile_commands.json' is not valid JSON: [1:")) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("C++17 defaults used")) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("YAML"))) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("error:"))) << describe(run);
}

TEST_F(CppTest, DashPTakesTheDatabaseFileAsWellAsItsFolder) {
  const std::string dir = cwd().string();
  const nlohmann::json database = nlohmann::json::array(
      {{{"directory", dir},
        {"file", dir + "/src/train.cpp"},
        {"arguments", {"clang++", "-I" + dir + "/include", "-c", dir + "/src/train.cpp"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build/compile_commands.json", "src/train.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.err, "") << describe(run);
}

TEST_F(CppTest, DashPNamingNothingUsableIsAnErrorThatNamesIt) {
  const RunOutput missing = this->run({"-p", "nowhere", "src/train.cpp"});
  EXPECT_EQ(missing.exit_code, 2) << describe(missing);
  EXPECT_THAT(missing.err, HasSubstr("-p 'nowhere': no such folder or file"));
  const RunOutput empty = this->run({"-p", "include", "src/train.cpp"});
  EXPECT_EQ(empty.exit_code, 2) << describe(empty);
  EXPECT_THAT(empty.err, HasSubstr("-p 'include': the folder has no compile_commands.json"));
}

TEST_F(CppTest, TheEvaluationHelpNamesTheCppGuardNotPythonsDecorator) {
  write("src/eval.cpp",
        "#include <torch/torch.h>\n"
        "double evaluate(torch::nn::Linear& model, const std::vector<torch::Tensor>& xs) {\n"
        "  model->eval();\n"
        "  double total = 0;\n"
        "  for (const auto& x : xs) {\n"
        "    auto out = model->forward(x);\n"
        "    total += out.sum().item<double>();\n"
        "  }\n"
        "  return total;\n"
        "}\n");
  const RunOutput run = this->run({"src/eval.cpp"});
  EXPECT_THAT(run.out, HasSubstr("warning[SL006]")) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("torch::NoGradGuard")) << describe(run);
  EXPECT_THAT(run.out, Not(HasSubstr("@torch.no_grad()"))) << describe(run);
}

TEST_F(CppTest, AFileMissingFromCompileCommandsFallsBackToDefaultsAndSaysSo) {
  write("build/compile_commands.json", "[]");
  const RunOutput run = this->run({"-p", "build", "src/train.cpp"});
  // The shape of every input problem: the file, then `warning:`.
  EXPECT_THAT(run.err,
              HasSubstr("src/train.cpp: warning: no compile_commands.json entry for this file"));
  EXPECT_THAT(run.out, HasSubstr("error[SL001]"));
}

TEST_F(CppTest, ASyntaxErrorInUserCodeIsAnInputErrorAndOtherFilesAreStillAnalysed) {
  write("src/broken.cpp", "#include <torch/torch.h>\nint main() { return 0 }\n");
  const RunOutput run = this->run({"src/broken.cpp", "src/train.cpp"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("src/broken.cpp:2:"));
  EXPECT_THAT(run.err, HasSubstr("error: C++: expected ';'"));
  EXPECT_THAT(run.out, HasSubstr("error[SL001]"));
}

TEST_F(CppTest, AFileThatIsNotCppIsAnInputErrorNotACrash) {
  write("src/notes.cpp", "This is a note, not C++ at all: {{{ ]]\n");
  const RunOutput run = this->run({"src/notes.cpp"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("src/notes.cpp:1:"));
}

TEST_F(CppTest, DeepNestingIsReportedNotACrash) {
  write("src/deep.cpp",
        "int f() { return " + std::string(5000, '(') + "1" + std::string(5000, ')') + "; }\n");
  const RunOutput run = this->run({"src/deep.cpp"});
  EXPECT_TRUE(run.exited) << describe(run);
  EXPECT_EQ(run.exit_code, 2) << describe(run);
}

TEST_F(CppTest, SarifOfACppFileCarriesTheFinding) {
  const RunOutput run = this->run({"--format", "sarif", "src/train.cpp"});
  const auto log = nlohmann::json::parse(run.out);
  ASSERT_FALSE(log["runs"][0]["results"].empty());
  EXPECT_EQ(log["runs"][0]["results"][0]["ruleId"], "SL001");
  EXPECT_EQ(
      log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "src/train.cpp");
}

}  // namespace
}  // namespace sealint::e2e
