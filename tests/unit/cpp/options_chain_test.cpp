// LibTorch options chains lowered as keyword calls (analyzer/cpp/options_chain.h), through the
// real frontend and sealint's LibTorch model.
#include <gtest/gtest.h>

#include "analyzer/cpp/frontend.h"
#include "analyzer/ir/walk.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::function_named;

ir::LoweredFile lower_cpp(std::string code) {
  auto file = SourceFile::from_bytes("options.cpp", std::move(code));
  EXPECT_TRUE(file.has_value());
  cpp::CppFrontend frontend(cpp::CppOptions{});
  auto lowered =
      frontend.lower(std::make_shared<const SourceFile>(std::move(*file)), "options.cpp");
  EXPECT_TRUE(lowered.has_value());
  EXPECT_TRUE(lowered->problems.empty());
  return std::move(*lowered);
}

// The first call whose callee's dotted name ends with `suffix`, anywhere in `function`.
const ir::Expr* call_ending(const ir::Function& function, std::string_view suffix) {
  const ir::Expr* found = nullptr;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    ir::for_each_expr(stmt, [&](const ir::Expr& e) {
      if (found == nullptr && e.kind == ir::ExprKind::Call &&
          ir::dotted_name(e.callee()).ends_with(suffix))
        found = &e;
    });
  });
  return found;
}

TEST(OptionsChainTest, SettersBecomeKeywordsOfTheOptionsCall) {
  const ir::LoweredFile lowered = lower_cpp(
      "#include <torch/torch.h>\n"
      "void build() {\n"
      "  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 64, "
      "3).stride(2).padding(1).stride(1));\n"
      "}\n");
  const ir::Expr* options = call_ending(function_named(*lowered.module, "build"), "Options");
  ASSERT_NE(options, nullptr);
  EXPECT_EQ(options->arg_count(), 3U);
  ASSERT_EQ(options->keywords.size(), 2U);  // the later stride(1) replaced stride(2)
  EXPECT_EQ(options->keywords[0].name, "padding");
  EXPECT_EQ(options->keywords[1].name, "stride");
  EXPECT_EQ(options->keywords[1].value->text, "1");
  ASSERT_NE(options->keyword("stride"), nullptr);
  // The call spans the whole chain, as a quote of it should.
  const std::string_view code = lowered.module->file().code();
  EXPECT_EQ(code.substr(options->range.begin, options->range.end - options->range.begin),
            "torch::nn::Conv2dOptions(3, 64, 3).stride(2).padding(1).stride(1)");
}

TEST(OptionsChainTest, ASetterOnAVariableStaysAMethodCall) {
  const ir::LoweredFile lowered = lower_cpp(
      "#include <torch/torch.h>\n"
      "void build() {\n"
      "  torch::nn::LinearOptions options(4, 8);\n"
      "  options.bias(false);\n"
      "  torch::Tensor x = torch::ones({2});\n"
      "  x.add_(1);\n"
      "}\n");
  const ir::Function& build = function_named(*lowered.module, "build");
  const ir::Expr* bias = nullptr;
  ir::for_each_nested(build.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind == ir::StmtKind::ExprStmt && stmt.value != nullptr &&
        stmt.value->kind == ir::ExprKind::Call &&
        stmt.value->callee()->kind == ir::ExprKind::Attr && stmt.value->callee()->text == "bias")
      bias = stmt.value;
  });
  ASSERT_NE(bias, nullptr);
  EXPECT_TRUE(bias->keywords.empty());
  EXPECT_EQ(bias->arg_count(), 1U);
}

}  // namespace
}  // namespace sealint
