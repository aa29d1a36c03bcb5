#include "rules/SL003_oversized_layer.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/core/diagnostic_sink.h"
#include "tests/unit/lower_for_test.h"

namespace sealint::rules {
namespace {

using sealint::testing::lower_python;

std::vector<Diagnostic> run(const Rule& rule, const std::string& body) {
  auto lowered = lower_python("import torch\nfrom torch import nn\n" + body);
  const ir::FileAnalysis analysis(*lowered.module);
  std::vector<Diagnostic> out;
  DiagnosticSink sink(lowered.module->file(), out);
  rule.check(*lowered.module, RuleContext{analysis}, sink);
  return out;
}

// A budget of about one byte: every layer is reported, and the help gives its exact count.
std::string parameters_of(const std::string& layer) {
  const auto rule = make_sl003_oversized_layer(1e-9);
  const auto found = run(*rule, "layer = " + layer + "\n");
  if (found.size() != 1) return "not reported";
  const std::string& help = found[0].help;
  const size_t begin = help.find("the estimate is ") + 16;
  return help.substr(begin, help.find(" parameters") - begin);
}

TEST(OversizedLayerTest, DefaultBudgetIsTwoGiB) {
  const auto rule = make_sl003_oversized_layer();
  // 8192 x 8192 + 8192 parameters at 16 bytes each: just over 1 GiB.
  EXPECT_TRUE(run(*rule, "fc = nn.Linear(8192, 8192)\n").empty());
  const auto found = run(*rule, "fc = nn.Linear(16384, 16384)\n");
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].message,
            "`nn.Linear(16384, 16384)` needs about 4.0 GiB for weights, grads and Adam state "
            "(budget 2.0 GiB)");
  EXPECT_EQ(found[0].severity, Severity::Warning);
}

TEST(OversizedLayerTest, BudgetComesFromTheConstructor) {
  const std::string code = "fc = nn.Linear(8192, 8192)\n";
  EXPECT_TRUE(run(*make_sl003_oversized_layer(1.5), code).empty());
  const auto found = run(*make_sl003_oversized_layer(1.0), code);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].message,
            "`nn.Linear(8192, 8192)` needs about 1.0 GiB for weights, grads and Adam state "
            "(budget 1.0 GiB)");
  const auto half = run(*make_sl003_oversized_layer(0.25), code);
  ASSERT_EQ(half.size(), 1U);
  EXPECT_NE(half[0].message.find("(budget 0.25 GiB)"), std::string::npos) << half[0].message;
}

TEST(OversizedLayerTest, ExactlyAtTheBudgetIsQuiet) {
  // 2^27 parameters x 4 bytes x 4 copies = 2 GiB exactly.
  EXPECT_TRUE(run(*make_sl003_oversized_layer(), "e = nn.Embedding(2**14, 2**13)\n").empty());
  EXPECT_EQ(run(*make_sl003_oversized_layer(), "e = nn.Embedding(2**14 + 1, 2**13)\n").size(), 1U);
}

TEST(OversizedLayerTest, CountsParametersAsPyTorchAllocatesThem) {
  // Each count checked against torch's own `sum(p.numel() for p in m.parameters())`.
  EXPECT_EQ(parameters_of("nn.Linear(65536, 65536)"), "4,295,032,832");
  EXPECT_EQ(parameters_of("nn.Linear(10, 20, bias=False)"), "200");
  EXPECT_EQ(parameters_of("nn.Bilinear(4096, 4096, 1024)"), "17,179,870,208");
  EXPECT_EQ(parameters_of("nn.Embedding(10, 3)"), "30");
  EXPECT_EQ(parameters_of("nn.EmbeddingBag(10, 3)"), "30");
  EXPECT_EQ(parameters_of("nn.Conv2d(8192, 8192, 5)"), "1,677,729,792");
  EXPECT_EQ(parameters_of("nn.ConvTranspose2d(64, 128, 3, groups=4)"), "18,560");
  EXPECT_EQ(parameters_of("nn.Conv3d(6, 9, (1, 2, 3), groups=3, bias=False)"), "108");
  EXPECT_EQ(parameters_of("nn.Conv1d(4, 8, kernel_size=[3])"), "104");
  EXPECT_EQ(parameters_of("nn.LSTM(8192, 8192, num_layers=4, bidirectional=True)"),
            "5,906,104,320");
  EXPECT_EQ(parameters_of("nn.LSTM(100, 64, num_layers=3, bidirectional=True, proj_size=32)"),
            "181,248");
  EXPECT_EQ(parameters_of("nn.GRU(100, 64, 2, False)"), "56,064");
  EXPECT_EQ(parameters_of("nn.RNN(100, 64, num_layers=2)"), "18,944");
  EXPECT_EQ(parameters_of("nn.LSTMCell(10, 20)"), "2,560");
  EXPECT_EQ(parameters_of("nn.RNNCell(10, 20, False)"), "600");
}

TEST(OversizedLayerTest, CallsPyTorchRejectsAreQuiet) {
  EXPECT_EQ(parameters_of("nn.Conv2d(6, 9, 3, groups=4)"), "not reported");
  EXPECT_EQ(parameters_of("nn.Conv2d(6, 9, (3, 3, 3))"), "not reported");
  EXPECT_EQ(parameters_of("nn.Linear(10, 20, True, None, None, 1)"), "not reported");
  EXPECT_EQ(parameters_of("nn.Linear(10, 20, in_features=3)"), "not reported");
  EXPECT_EQ(parameters_of("nn.Linear(10, 20, width=3)"), "not reported");
  EXPECT_EQ(parameters_of("nn.LSTM(10, 20, proj_size=20)"), "not reported");
  EXPECT_EQ(parameters_of("nn.LSTM(10, 20, num_layers=0)"), "not reported");
  EXPECT_EQ(parameters_of("nn.Linear(-10, 20)"), "not reported");
}

TEST(OversizedLayerTest, DtypeSetsTheElementSize) {
  const auto rule = make_sl003_oversized_layer();
  const auto found = run(*rule,
                         "a = nn.Linear(32768, 32768, dtype=torch.float16)\n"
                         "b = nn.Linear(32768, 32768, dtype=torch.float64)\n"
                         "c = nn.Linear(32768, 32768).bfloat16()\n"
                         "d = nn.Linear(32768, 32768).to(torch.device('cuda'), torch.half)\n"
                         "e = nn.Linear(32768, 32768, dtype=torch.int8)\n"
                         "f = nn.Linear(32768, 32768).to(dtype)\n");
  ASSERT_EQ(found.size(), 4U);
  EXPECT_NE(found[0].message.find("about 8.0 GiB"), std::string::npos) << found[0].message;
  EXPECT_NE(found[1].message.find("about 32.0 GiB"), std::string::npos) << found[1].message;
  EXPECT_NE(found[2].message.find("about 8.0 GiB"), std::string::npos) << found[2].message;
  EXPECT_NE(found[3].message.find("about 8.0 GiB"), std::string::npos) << found[3].message;
}

TEST(OversizedLayerTest, ChangingTheDefaultDtypeMakesTheElementSizeUnknown) {
  const auto rule = make_sl003_oversized_layer();
  EXPECT_TRUE(run(*rule,
                  "torch.set_default_dtype(torch.float16)\n"
                  "fc = nn.Linear(65536, 65536)\n")
                  .empty());
  EXPECT_EQ(run(*rule,
                "torch.set_default_dtype(torch.float16)\n"
                "fc = nn.Linear(65536, 65536, dtype=torch.float32)\n")
                .size(),
            1U);
}

TEST(OversizedLayerTest, LayersBuiltWithoutMemoryOfTheirOwnAreQuiet) {
  const auto rule = make_sl003_oversized_layer();
  EXPECT_TRUE(run(*rule,
                  "with torch.device('meta'):\n    a = nn.Linear(65536, 65536)\n"
                  "with init_empty_weights():\n    b = nn.Linear(65536, 65536)\n"
                  "with deepspeed.zero.Init():\n    c = nn.Linear(65536, 65536)\n"
                  "d = nn.Linear(65536, 65536, device=torch.device('meta'))\n"
                  "e = nn.Linear(65536, 65536).to('meta')\n")
                  .empty());
  EXPECT_TRUE(
      run(*rule, "torch.set_default_device('meta')\nfc = nn.Linear(65536, 65536)\n").empty());
}

TEST(OversizedLayerTest, HugeSizesAreReportedWithoutOverflow) {
  const auto found = run(*make_sl003_oversized_layer(),
                         "fc = nn.Linear(2**200, 2**200)\nx = nn.Linear(2**62, 1)\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_NE(found[0].message.find("needs more than"), std::string::npos) << found[0].message;
  EXPECT_NE(found[1].message.find("needs more than"), std::string::npos) << found[1].message;
}

TEST(OversizedLayerTest, OptionsParseFromATable) {
  const auto defaults = OversizedLayerOptions::parse({});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->budget_gib, 2.0);
  const auto one_and_a_half = OversizedLayerOptions::parse({{"budget-gib", "1.5"}});
  ASSERT_TRUE(one_and_a_half.has_value());
  EXPECT_EQ(one_and_a_half->budget_gib, 1.5);
  EXPECT_FALSE(OversizedLayerOptions::parse({{"budget-gib", "abc"}}).has_value());
  EXPECT_FALSE(OversizedLayerOptions::parse({{"budget-gib", "0"}}).has_value());
  EXPECT_FALSE(OversizedLayerOptions::parse({{"budget-gib", "-1"}}).has_value());
  EXPECT_FALSE(OversizedLayerOptions::parse({{"budget-gib", "inf"}}).has_value());
  EXPECT_FALSE(OversizedLayerOptions::parse({{"budget-gib", "2 GiB"}}).has_value());
  const auto unknown = OversizedLayerOptions::parse({{"budget", "2"}});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error(), "unknown option 'budget' for SL003");
}

}  // namespace
}  // namespace sealint::rules
