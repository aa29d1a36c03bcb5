// End-to-end: what the C++ frontend recovers from. A name sealint's model of LibTorch lacks is
// parsed with the real headers when the flags reach them (said once a run), else it is a warning
// that suggests them; neither is an error, and the rest of the file is analysed either way.
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

// A class deriving from LibTorch's custom-class holder (not in the model), and a leak below it.
constexpr std::string_view kGapCpp =
    "#include <torch/torch.h>\n"
    "struct Counter : torch::CustomClassHolder {\n"
    "  int64_t count = 0;\n"
    "};\n"
    "float train(torch::nn::Linear& model, torch::optim::SGD& optimizer, int steps) {\n"
    "  torch::Tensor total = torch::zeros({});\n"
    "  for (int step = 0; step < steps; ++step) {\n"
    "    torch::Tensor loss = model->forward(torch::randn({8, 4})).sum();\n"
    "    loss.backward();\n"
    "    optimizer.step();\n"
    "    total += loss;\n"
    "  }\n"
    "  return total.item<float>();\n"
    "}\n";

constexpr std::string_view kFallbackNote =
    "note: sealint's model of LibTorch lacks `torch::CustomClassHolder` (line 2): files that "
    "need more than the model are analysed with the installed LibTorch headers";

size_t count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class CppRecoveryTest : public E2eTest {};

TEST_F(CppRecoveryTest, AModelGapIsParsedWithTheRealHeadersAndTheRunSaysSoOnce) {
  write("a.cpp", kGapCpp);
  write("b.cpp", kGapCpp);
  const RunOutput run = this->run(
      {"--no-cache", "--cache-dir", test_cache_dir().string(), "--jobs", "2", "a.cpp", "b.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("a.cpp:11:5: error[SL001]"));
  EXPECT_THAT(run.out, HasSubstr("b.cpp:11:5: error[SL001]"));
  EXPECT_EQ(count(run.err, kFallbackNote), 1U) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("warning"))) << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("error"))) << describe(run);
}

TEST_F(CppRecoveryTest, WithoutRealHeadersAModelGapIsAWarningThatSuggestsThemAndTheLeakIsFound) {
  write("a.cpp", kGapCpp);
  // The entry's flags reach no LibTorch headers: the model is all there is.
  const std::string dir = cwd().string();
  const nlohmann::json database =
      nlohmann::json::array({{{"directory", dir},
                              {"file", dir + "/a.cpp"},
                              {"arguments", {"clang++", "-std=c++17", "-c", dir + "/a.cpp"}}}});
  write("build/compile_commands.json", database.dump());
  const RunOutput run = this->run({"-p", "build", "a.cpp"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("a.cpp:11:5: error[SL001]"));
  EXPECT_THAT(run.err,
              HasSubstr("a.cpp:2:25: warning: C++: sealint's model of LibTorch lacks "
                        "`torch::CustomClassHolder` (analysed without it: names are unresolved in "
                        "class `Counter` (line 2), so findings there may be missed; pass "
                        "--torch-headers=system where LibTorch is installed)"))
      << describe(run);
  EXPECT_THAT(run.err, Not(HasSubstr("expected class name"))) << describe(run);
}

// Without -p, the project's own headers are found where they are (project_headers.h): here
// `<mylib/scale.h>` in include/, two folders away from the file that includes it.
TEST_F(CppRecoveryTest, AProjectsOwnHeaderInAnotherFolderIsFoundWithoutADatabase) {
  write("include/mylib/scale.h",
        "#pragma once\n"
        "#include <torch/torch.h>\n"
        "inline torch::Tensor scale(const torch::Tensor& t) { return t * 2; }\n");
  write("src/train.cpp",
        "#include <torch/torch.h>\n"
        "#include <mylib/scale.h>\n"
        "float train(torch::nn::Linear& model, torch::optim::SGD& optimizer, int steps) {\n"
        "  torch::Tensor total = torch::zeros({});\n"
        "  for (int step = 0; step < steps; ++step) {\n"
        "    torch::Tensor loss = scale(model->forward(torch::randn({8, 4}))).sum();\n"
        "    loss.backward();\n"
        "    optimizer.step();\n"
        "    total += loss;\n"
        "  }\n"
        "  return total.item<float>();\n"
        "}\n");
  const RunOutput found = run({"--no-cache", "src/train.cpp"});
  EXPECT_EQ(found.exit_code, 1) << describe(found);
  EXPECT_THAT(found.out, HasSubstr("src/train.cpp:9:5: error[SL001]"));
  EXPECT_EQ(found.err, "") << describe(found);

  // The same file where the project has no such header: skipped, and said.
  std::filesystem::remove(cwd() / "include/mylib/scale.h");
  const RunOutput missing = run({"--no-cache", "src/train.cpp"});
  EXPECT_THAT(missing.err, HasSubstr("'mylib/scale.h' file not found")) << describe(missing);
}

}  // namespace
}  // namespace sealint::e2e
