#include "analyzer/confirm/exhaustion.h"

#include <gtest/gtest.h>

#include "analyzer/confirm/units.h"
#include "analyzer/confirm/verdict.h"

namespace sealint::confirm {
namespace {

using nlohmann::json;

constexpr double kMiB = 1024.0 * 1024;
constexpr double kGiB = 1024.0 * kMiB;

TEST(Exhaustion, IterationWhereTheGrowthReachesTheLimit) {
  // 78 MiB after 20 iterations, +2.5 MiB each: 16 GiB is reached 6,523 iterations later.
  EXPECT_EQ(exhaustion_iteration(78 * kMiB, 2.5 * kMiB, 16 * kGiB, 20), 20U + 6523U);
  EXPECT_EQ(exhaustion_iteration(20 * kGiB, 2.5 * kMiB, 16 * kGiB, 20), 20U);  // already past
  EXPECT_EQ(exhaustion_iteration(0, 0, 16 * kGiB, 20), 20U);                   // no growth
}

TEST(Exhaustion, TheOptionWinsOverTheGpusSize) {
  const json result = {{"device_memory", {{"total", 80 * kGiB}}}};
  const auto gpu = memory_limit(result, std::nullopt);
  ASSERT_TRUE(gpu);
  EXPECT_DOUBLE_EQ(gpu->bytes, 80 * kGiB);
  EXPECT_FALSE(gpu->from_option);
  const auto given = memory_limit(result, static_cast<uint64_t>(16 * kGiB));
  ASSERT_TRUE(given);
  EXPECT_TRUE(given->from_option);
  EXPECT_FALSE(memory_limit(json::object(), std::nullopt));
  EXPECT_FALSE(memory_limit({{"device_memory", nullptr}}, std::nullopt));
}

TEST(Exhaustion, Sentences) {
  EXPECT_EQ(exhaustion_sentence({80 * kGiB, false}, 32456, 20),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 32,456");
  EXPECT_EQ(exhaustion_sentence({16 * kGiB, true}, 20, 20),
            "; the 16.0 GiB of --device-memory is already used up");
  EXPECT_EQ(grouped(0), "0");
  EXPECT_EQ(grouped(999), "999");
  EXPECT_EQ(grouped(1000), "1,000");
  EXPECT_EQ(grouped(1234567), "1,234,567");
}

// A confirmed SL001 whose loop's CUDA memory grows by 2.5 MiB per iteration from 78 MiB.
Confirmation judged_on_gpu(json device_memory, std::optional<uint64_t> option,
                           std::string_view metric = "cuda_allocated_bytes") {
  Diagnostic d;
  d.rule_id = "SL001";
  d.probe.emplace();
  d.probe->measure = ProbeMeasure::Growth;
  d.probe->loop_line = 10;
  d.probe->loop_end_line = 17;
  d.probe->variables = {"total_loss"};
  std::vector<Diagnostic> findings{d};
  json nodes = json::array({nullptr});
  json memory = json::array();
  for (int i = 0; i <= 20; ++i) {
    if (i > 0) nodes.push_back(8 * i);
    memory.push_back(28 * kMiB + 2.5 * kMiB * i);
  }
  const json result = {
      {"format", "sealint-confirm-result"},
      {"version", 1},
      {"exit", {{"kind", "stopped"}}},
      {"device_memory", std::move(device_memory)},
      {"loops", {{{"line", 10}, {"iterations", 20}, {"series", {{metric, memory}}}}}},
      {"findings",
       {{{"id", 0},
         {"loop", 0},
         {"iterations", 20},
         {"variables", {{{"name", "total_loss"}, {"series", {{"graph_nodes", nodes}}}}}}}}}};
  judge(findings, result, {"stopped", false, true}, option);
  return *findings[0].confirmation;
}

TEST(Exhaustion, ThePassOfTheLoopItRunsOutIn) {
  const MemoryLimit gpu{80 * kGiB, false};
  EXPECT_EQ(exhaustion_sentence(gpu, 32456, 20, "iteration", PassLength{1875, "`loader`", true}),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 32,456, in epoch 18 "
            "(1,875 batches each) if nothing frees it between epochs");
  EXPECT_EQ(exhaustion_sentence(gpu, 1200, 20, "iteration", PassLength{1875, "`loader`", true}),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 1,200, within the first "
            "epoch (1,875 batches)");
  EXPECT_EQ(exhaustion_sentence(gpu, 3750, 20, "iteration", PassLength{1875, "`rows`", false}),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 3,750, in pass 2 over "
            "`rows` (1,875 iterations each) if nothing frees it between passes");
  EXPECT_EQ(exhaustion_sentence(gpu, 500, 20, "iteration", PassLength{100, "", false}),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 500, in pass 5 of the loop "
            "(100 iterations each) if nothing frees it between passes");
  EXPECT_EQ(exhaustion_sentence(gpu, 50, 20, "iteration", PassLength{100, "", false}),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 50, before the loop's 100 "
            "iterations end");
}

TEST(Exhaustion, ALoopThatRunsOncePassEndsFirst) {
  PassLength once{100, "", false};
  once.repeats = false;
  EXPECT_EQ(exhaustion_sentence({80 * kGiB, false}, 81003, 20, "iteration", once),
            "; at this rate the GPU's 80.0 GiB would run out near iteration 81,003, but the loop "
            "ends after its 100 iterations");
  EXPECT_EQ(exhaustion_sentence({80 * kGiB, false}, 50, 20, "iteration", once),
            "; at this rate the GPU's 80.0 GiB runs out near iteration 50, before the loop's 100 "
            "iterations end");
}

TEST(Exhaustion, AConfirmedCudaGrowthIsProjectedAgainstTheGpu) {
  const Confirmation c = judged_on_gpu({{"total", 80 * kGiB}}, std::nullopt);
  ASSERT_EQ(c.verdict, Verdict::Confirmed) << c.detail;
  ASSERT_TRUE(c.runs_out_at);
  EXPECT_GT(*c.runs_out_at, 32000U);
  EXPECT_LT(*c.runs_out_at, 33000U);
  EXPECT_NE(c.detail.find("at this rate the GPU's 80.0 GiB runs out near iteration 32,"),
            std::string::npos)
      << c.detail;
}

TEST(Exhaustion, CpuMemoryNeedsTheOption) {
  EXPECT_FALSE(judged_on_gpu(nullptr, std::nullopt, "live_tensor_bytes").runs_out_at);
  const Confirmation c =
      judged_on_gpu(nullptr, static_cast<uint64_t>(16 * kGiB), "live_tensor_bytes");
  ASSERT_TRUE(c.runs_out_at);
  EXPECT_NE(c.detail.find("the 16.0 GiB of --device-memory runs out near iteration 6,5"),
            std::string::npos)
      << c.detail;
}

TEST(Exhaustion, NoProjectionPastTheHorizon) {
  // 4 B per iteration would "run out near iteration 4,294,906,491": nothing a run meets.
  const Projection tiny = project({16 * kGiB, true}, 1024, 4, 20, "iteration", std::nullopt, "");
  EXPECT_FALSE(tiny.runs_out_at);
  EXPECT_EQ(tiny.sentence,
            "; it does not threaten the device: +4 B per iteration, the 16.0 GiB of "
            "--device-memory would last past 10,000,000 more iterations");
  const Projection real =
      project({16 * kGiB, true}, 78 * kMiB, 2.5 * kMiB, 20, "iteration", std::nullopt, "");
  EXPECT_EQ(real.runs_out_at, 20U + 6523U);
}

TEST(Exhaustion, ALocalOfTheLoopsFunctionPeaksPerPass) {
  PassLength epoch;
  epoch.iterations = 40;
  epoch.epoch = true;
  // Freed when validate() returns: each pass peaks at 40 x 2.5 MiB, not a sum over epochs.
  const Projection per_pass =
      project({16 * kGiB, true}, 78 * kMiB, 2.5 * kMiB, 20, "iteration", epoch, "validate");
  EXPECT_FALSE(per_pass.runs_out_at);
  EXPECT_EQ(per_pass.sentence,
            "; a local of validate(), freed when it returns: a peak of 100.0 MiB per pass of 40 "
            "iterations, within the 16.0 GiB of --device-memory");
  // A pass long enough to run out: the projection stands, within the first pass.
  epoch.iterations = 100000;
  const Projection within =
      project({16 * kGiB, true}, 78 * kMiB, 2.5 * kMiB, 20, "iteration", epoch, "validate");
  EXPECT_EQ(within.runs_out_at, 20U + 6523U);
  EXPECT_NE(within.sentence.find("within the first epoch"), std::string::npos) << within.sentence;
  // Without a pass length the projection holds only if one pass runs that long.
  const Projection unknown =
      project({16 * kGiB, true}, 78 * kMiB, 2.5 * kMiB, 20, "iteration", std::nullopt, "check");
  EXPECT_EQ(unknown.runs_out_at, 20U + 6523U);
  EXPECT_NE(unknown.sentence.find(
                "if one pass runs that long (a local of check(), freed when it returns)"),
            std::string::npos)
      << unknown.sentence;
}

}  // namespace
}  // namespace sealint::confirm
