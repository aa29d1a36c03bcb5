#include "analyzer/confirm/verdict.h"

#include <gtest/gtest.h>

namespace sealint::confirm {
namespace {

using nlohmann::json;

Diagnostic growth_finding(std::vector<std::string> variables) {
  Diagnostic d;
  d.rule_id = "SL001";
  d.path = "train.py";
  d.probe.emplace();
  d.probe->measure = ProbeMeasure::Growth;
  d.probe->loop_line = 10;
  d.probe->loop_end_line = 17;
  d.probe->variables = std::move(variables);
  return d;
}

json counting(double start, double step, size_t n) {
  json out = json::array({nullptr});
  for (size_t i = 1; i < n; ++i) out.push_back(start + step * static_cast<double>(i));
  return out;
}

json result_with(json findings, json loops = json::array()) {
  return {{"format", "sealint-confirm-result"},
          {"version", 1},
          {"exit", {{"kind", "stopped"}, {"code", nullptr}, {"exception", nullptr}}},
          {"seconds", 1.0},
          {"loops", loops},
          {"findings", findings},
          {"errors", json::array()}};
}

TEST(Verdict, GrowingGraphIsConfirmedWithNodesPerIteration) {
  std::vector<Diagnostic> findings{growth_finding({"total_loss"})};
  const json result = result_with(json::array(
      {{{"id", 0},
        {"loop", 0},
        {"iterations", 20},
        {"variables", json::array({{{"name", "total_loss"},
                                    {"series", {{"graph_nodes", counting(0, 10, 21)}}}}})}}}));
  judge(findings, result, {"stopped", false});
  ASSERT_TRUE(findings[0].confirmation);
  const Confirmation& c = *findings[0].confirmation;
  EXPECT_EQ(c.verdict, Verdict::Confirmed) << c.detail;
  ASSERT_TRUE(c.nodes_per_iteration);
  EXPECT_DOUBLE_EQ(*c.nodes_per_iteration, 10);
  EXPECT_EQ(c.iterations, 20U);
  EXPECT_NE(c.detail.find("10 autograd nodes per iteration"), std::string::npos) << c.detail;
}

TEST(Verdict, FlatSeriesIsNotConfirmed) {
  std::vector<Diagnostic> findings{growth_finding({"total_loss"})};
  const json result = result_with(json::array(
      {{{"id", 0},
        {"loop", nullptr},
        {"iterations", 20},
        {"variables", json::array({{{"name", "total_loss"},
                                    {"series", {{"graph_nodes", counting(0, 0, 21)}}}}})}}}));
  judge(findings, result, {"stopped", false});
  EXPECT_EQ(findings[0].confirmation->verdict, Verdict::NotConfirmed);
}

TEST(Verdict, ALoopThatNeverRanIsNotReached) {
  std::vector<Diagnostic> findings{growth_finding({"total_loss"})};
  const json result = result_with(json::array(
      {{{"id", 0}, {"loop", nullptr}, {"iterations", 0}, {"variables", json::array()}}}));
  judge(findings, result, {"the script ended", false});
  EXPECT_EQ(findings[0].confirmation->verdict, Verdict::NotReached);
  EXPECT_NE(findings[0].confirmation->detail.find("line 10"), std::string::npos);
}

TEST(Verdict, ARuleWithoutAProbeIsNotMeasured) {
  Diagnostic d;
  d.rule_id = "SL003";
  std::vector<Diagnostic> findings{d};
  judge(findings, result_with(json::array()), {"stopped", false});
  EXPECT_EQ(findings[0].confirmation->verdict, Verdict::NotMeasured);
}

// An SL006 finding on `out`, whose graph has `nodes` nodes on each of 10 iterations.
std::vector<Diagnostic> judged_graph(double nodes) {
  Diagnostic d = growth_finding({"out"});
  d.probe->measure = ProbeMeasure::Graph;
  std::vector<Diagnostic> findings{d};
  json series = json::array({nullptr});
  for (int i = 0; i < 10; ++i) series.push_back(nodes);
  const json result = result_with(json::array(
      {{{"id", 0},
        {"loop", nullptr},
        {"iterations", 10},
        {"variables", json::array({{{"name", "out"}, {"series", {{"graph_nodes", series}}}}})}}}));
  judge(findings, result, {"stopped", false});
  return findings;
}

TEST(Verdict, GraphRecordedEveryIterationIsConfirmed) {
  const auto findings = judged_graph(7);
  EXPECT_EQ(findings[0].confirmation->verdict, Verdict::Confirmed);
  EXPECT_DOUBLE_EQ(*findings[0].confirmation->nodes_per_iteration, 7);
}

TEST(Verdict, NoGraphUnderNoGradIsNotConfirmed) {
  EXPECT_EQ(judged_graph(0)[0].confirmation->verdict, Verdict::NotConfirmed);
}

TEST(Verdict, OneNodeIsSingular) {
  const auto findings = judged_graph(1);
  EXPECT_NE(findings[0].confirmation->detail.find("graph of 1 node on"), std::string::npos)
      << findings[0].confirmation->detail;
}

// An SL006 finding with no name to read: grad mode at its line each of 10 iterations (`grad`,
// null where the line did not run) and the loop's saved bytes per iteration (`saved`, or null).
Confirmation judged_at_the_line(const json& grad, const json& saved) {
  Diagnostic d = growth_finding({});
  d.rule_id = "SL006";
  d.probe->measure = ProbeMeasure::Graph;
  std::vector<Diagnostic> findings{d};
  json grad_series = json::array({nullptr});
  json saved_series = json::array({nullptr});
  for (int i = 0; i < 10; ++i) {
    grad_series.push_back(grad);
    saved_series.push_back(saved);
  }
  const json loop = {{"line", 10},
                     {"iterations", 10},
                     {"entries", 1},
                     {"series", {{"saved_tensor_bytes", saved.is_null() ? json() : saved_series}}}};
  const json result = result_with(json::array({{{"id", 0},
                                                {"loop", 0},
                                                {"iterations", 10},
                                                {"variables", json::array()},
                                                {"grad_enabled", grad_series}}}),
                                  json::array({loop}));
  judge(findings, result, {"stopped", false});
  return *findings[0].confirmation;
}

TEST(Verdict, Sl006IsReadFromGradModeAndSavedBytesWithoutAName) {
  const Confirmation on = judged_at_the_line(true, 40960);
  EXPECT_EQ(on.verdict, Verdict::Confirmed) << on.detail;
  EXPECT_EQ(on.saved_bytes_per_iteration, 40960.0);
  EXPECT_EQ(on.detail,
            "autograd was on when this line ran (10 of 10 iterations), and each iteration saved "
            "40.0 KiB of activations for a backward (median)");
  const Confirmation off = judged_at_the_line(false, 0);
  EXPECT_EQ(off.verdict, Verdict::NotConfirmed) << off.detail;
  EXPECT_TRUE(off.detail.starts_with("autograd was off when this line ran, on 10 of 10 iterations"))
      << off.detail;
  // Autograd on but nothing saved (a model of constants): the claim does not hold.
  EXPECT_EQ(judged_at_the_line(true, 0).verdict, Verdict::NotConfirmed);
  // The saved bytes were not counted (the hooks could not be pushed): not measured.
  EXPECT_EQ(judged_at_the_line(true, nullptr).verdict, Verdict::NotMeasured);
  // The line never ran while watched, and no name was bound: not measured, as before.
  EXPECT_EQ(judged_at_the_line(nullptr, 40960).verdict, Verdict::NotMeasured);
}

// A growing `total_loss` whose finding's line holds `blocks` on the GPU, counted `when`.
Confirmation judged_with_blocks(json blocks) {
  std::vector<Diagnostic> findings{growth_finding({"total_loss"})};
  const json result = result_with(json::array(
      {{{"id", 0},
        {"loop", nullptr},
        {"iterations", 20},
        {"variables", json::array({{{"name", "total_loss"},
                                    {"series", {{"graph_nodes", counting(0, 8, 21)}}}}})},
        {"cuda_blocks", std::move(blocks)}}}));
  judge(findings, result, {"stopped", false});
  return *findings[0].confirmation;
}

TEST(Verdict, CudaBlocksAtTheFindingsLineAreNamed) {
  const Confirmation c = judged_with_blocks({{"line", {{"count", 63}, {"bytes", 76761600}}},
                                             {"loop", {{"count", 103}, {"bytes", 87288320}}},
                                             {"when", "steps"}});
  ASSERT_TRUE(c.cuda_line);
  EXPECT_EQ(c.cuda_line->count, 63U);
  EXPECT_EQ(c.cuda_line->bytes, 76761600U);
  EXPECT_FALSE(c.cuda_line->at_end);
  EXPECT_NE(c.detail.find("on the GPU, 63 blocks allocated at this line are live (73.2 MiB)"),
            std::string::npos)
      << c.detail;
  EXPECT_EQ(c.detail.find("at the end of the run"), std::string::npos) << c.detail;
}

TEST(Verdict, CudaBlocksCountedHalfwayGiveTheLinesGrowthPerIteration) {
  const Confirmation c = judged_with_blocks(
      {{"line", {{"count", 80}, {"bytes", 80 * 1048576}}},
       {"loop", {{"count", 90}, {"bytes", 90 * 1048576}}},
       {"when", "steps"},
       {"iteration", 20},
       {"earlier", {{"iteration", 10}, {"line", {{"count", 40}, {"bytes", 40 * 1048576}}}}}});
  ASSERT_TRUE(c.cuda_line);
  ASSERT_TRUE(c.cuda_line->bytes_per_iteration);
  EXPECT_DOUBLE_EQ(*c.cuda_line->bytes_per_iteration, 4 * 1048576.0);
  EXPECT_NE(c.detail.find("80 blocks allocated at this line are live (80.0 MiB, +4.0 MiB per "
                          "iteration)"),
            std::string::npos)
      << c.detail;
}

TEST(Verdict, CudaBlocksCountedAtTheEndSaySo) {
  const Confirmation c = judged_with_blocks({{"line", {{"count", 1}, {"bytes", 512}}},
                                             {"loop", {{"count", 1}, {"bytes", 512}}},
                                             {"when", "end"}});
  ASSERT_TRUE(c.cuda_line);
  EXPECT_NE(c.detail.find("1 block allocated at this line is live (512 B) at the end of the run"),
            std::string::npos)
      << c.detail;
}

TEST(Verdict, NoCudaBlocksAtTheLineAddNothing) {
  // The loop's blocks (a cuBLAS workspace, the last batch) are not the finding's.
  const Confirmation c = judged_with_blocks({{"line", {{"count", 0}, {"bytes", 0}}},
                                             {"loop", {{"count", 5}, {"bytes", 34639872}}},
                                             {"when", "steps"}});
  EXPECT_FALSE(c.cuda_line);
  EXPECT_EQ(c.detail.find("GPU"), std::string::npos) << c.detail;
  EXPECT_FALSE(judged_with_blocks(nullptr).cuda_line);
  EXPECT_FALSE(judged_with_blocks({{"line", "garbage"}}).cuda_line);
}

TEST(Verdict, ResultOfAnotherFormatIsRefused) {
  EXPECT_FALSE(check_result(json{{"format", "other"}}, false, 300));
  json wrong_version = result_with(json::array());
  wrong_version["version"] = 2;
  EXPECT_FALSE(check_result(wrong_version, false, 300));
  EXPECT_TRUE(check_result(result_with(json::array()), false, 300));
}

TEST(Verdict, AnExceptionIsSummarisedWithItsLine) {
  json result = result_with(json::array());
  result["exit"] = {{"kind", "exception"},
                    {"exception", {{"type", "ValueError"}, {"message", "bad"}, {"line", 31}}}};
  auto end = check_result(result, false, 300);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->summary, "the script raised ValueError: bad (line 31)");
}

Diagnostic hook_finding(ProbeMeasure measure, std::string variable) {
  Diagnostic d;
  d.rule_id = "SL002";
  d.path = "lit.py";
  d.probe.emplace();
  d.probe->measure = measure;
  d.probe->loop_line = 15;
  d.probe->loop_end_line = 19;
  d.probe->variables = {std::move(variable)};
  d.probe->region = ProbeRegion::Calls;
  d.probe->function = "training_step";
  return d;
}

TEST(Verdict, AHooksGrowthIsCountedPerCall) {
  std::vector<Diagnostic> findings{hook_finding(ProbeMeasure::Growth, "self.losses")};
  const json result = result_with(
      json::array({{{"id", 0},
                    {"loop", 0},
                    {"iterations", 20},
                    {"variables", json::array({{{"name", "self.losses"},
                                                {"series", {{"length", counting(0, 1, 21)}}}}})}}}),
      json::array({{{"line", 15},
                    {"counts", "calls"},
                    {"function", "training_step"},
                    {"iterations", 20},
                    {"series", {{"cuda_allocated_bytes", counting(1000, 4096, 21)}}}}}));
  judge(findings, result, {"stopped", false}, 1U << 20);
  const Confirmation& c = *findings[0].confirmation;
  EXPECT_EQ(c.verdict, Verdict::Confirmed) << c.detail;
  EXPECT_NE(c.detail.find("grows by 1 element per call over 20 calls"), std::string::npos)
      << c.detail;
  EXPECT_NE(c.detail.find("CUDA memory +4.0 KiB per call"), std::string::npos) << c.detail;
  EXPECT_NE(c.detail.find("runs out near call "), std::string::npos) << c.detail;
}

TEST(Verdict, AHookNeverCalledIsNotReachedAndSaysSo) {
  std::vector<Diagnostic> findings{hook_finding(ProbeMeasure::Growth, "self.losses")};
  const json result = result_with(
      json::array({{{"id", 0}, {"loop", 0}, {"iterations", 0}, {"variables", json::array()}}}),
      json::array({{{"line", 15}, {"iterations", 0}, {"entries", 0}}}));
  judge(findings, result, {"the script completed", false});
  const Confirmation& c = *findings[0].confirmation;
  EXPECT_EQ(c.verdict, Verdict::NotReached);
  EXPECT_EQ(c.detail, "`training_step()` was never called (the script completed)");
}

TEST(Verdict, AHooksGraphIsCountedOnCalls) {
  std::vector<Diagnostic> findings{hook_finding(ProbeMeasure::Graph, "out")};
  const json result = result_with(json::array(
      {{{"id", 0},
        {"loop", 0},
        {"iterations", 3},
        {"variables",
         json::array({{{"name", "out"}, {"series", {{"graph_nodes", {nullptr, 4, 4, 4}}}}}})}}}));
  judge(findings, result, {"stopped", false});
  const Confirmation& c = *findings[0].confirmation;
  EXPECT_EQ(c.verdict, Verdict::Confirmed) << c.detail;
  EXPECT_EQ(c.detail,
            "`out` carries an autograd graph of 4 nodes on 3 of 3 calls, never used by "
            "a backward");
}

TEST(Verdict, AWatchedLoopNamesTheFlaggedFunctionsItCalls) {
  const json result = result_with(
      json::array({{{"id", 0}, {"loop", 0}}, {{"id", 1}, {"loop", 1}}, {{"id", 2}, {"loop", 2}}}),
      json::array(
          {{{"line", 11}, {"counts", "calls"}, {"function", "forward"}, {"runs", json::array()}},
           {{"line", 20}, {"runs", {0}}},
           {{"line", 30}, {"runs", json::array()}}}));
  EXPECT_EQ(entries_called_inside(result, 1), std::vector<size_t>{0});
  EXPECT_TRUE(entries_called_inside(result, 2).empty());
  EXPECT_TRUE(entries_called_inside(result, 7).empty());
}

// A growing graph in a loop whose resident memory is `rss`: the verdict's detail.
std::string detail_with_process_memory(const json& rss) {
  std::vector<Diagnostic> findings{growth_finding({"total_loss"})};
  const json loops = json::array({{{"file", "train.py"},
                                   {"line", 10},
                                   {"end_line", 17},
                                   {"iterations", 20},
                                   {"entries", 1},
                                   {"series", {{"rss_bytes", rss}}}}});
  const json result = result_with(
      json::array(
          {{{"id", 0},
            {"loop", 0},
            {"iterations", 20},
            {"variables", json::array({{{"name", "total_loss"},
                                        {"series", {{"graph_nodes", counting(0, 7, 21)}}}}})}}}),
      loops);
  judge(findings, result, {"stopped", false});
  return findings[0].confirmation->detail;
}

TEST(Verdict, ProcessMemoryGrowingAlikeThroughoutIsCited) {
  json rss = json::array();
  for (int i = 0; i <= 20; ++i) rss.push_back(100.0 * 1048576 + i * 524288.0);
  EXPECT_NE(detail_with_process_memory(rss).find("process memory +512.0 KiB per iteration"),
            std::string::npos);
}

TEST(Verdict, ProcessMemoryGrowingByAllocatorJumpsIsNotCited) {
  // Two 40 MiB arenas over 20 iterations: a least-squares "+6.2 MiB per iteration" that another
  // run of the same script would not show.
  json rss = json::array();
  for (int i = 0; i <= 20; ++i)
    rss.push_back(100.0 * 1048576 + i * 8192.0 + (i >= 9 ? 40.0 * 1048576 : 0) +
                  (i >= 15 ? 40.0 * 1048576 : 0));
  const std::string detail = detail_with_process_memory(rss);
  EXPECT_EQ(detail.find("process memory"), std::string::npos) << detail;
  EXPECT_NE(detail.find("`total_loss` grows by 7 autograd nodes"), std::string::npos) << detail;
}

}  // namespace
}  // namespace sealint::confirm
