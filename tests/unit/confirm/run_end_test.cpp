// A result file of the wrong shape is read as far as it makes sense, never with an exception or
// an undefined conversion: inputs the confirm-result fuzz target found (tests/fuzz/).
#include "analyzer/confirm/run_end.h"

#include <gtest/gtest.h>

#include "analyzer/confirm/verdict.h"

namespace sealint::confirm {
namespace {

using nlohmann::json;

json result(json exit) {
  return {{"format", "sealint-confirm-result"}, {"version", 1}, {"exit", std::move(exit)}};
}

TEST(RunEnd, AVersionOfTheWrongTypeIsAnErrorNotAnException) {
  const json bad = json::parse(R"({"format": "sealint-confirm-result", "version": []})");
  const auto end = check_result(bad, false, 300);
  ASSERT_FALSE(end.has_value());
  EXPECT_EQ(end.error(), "the probe's result has version []; this sealint reads version 1");
  EXPECT_FALSE(check_result(json::parse(R"({"format": 7})"), false, 300).has_value());
  EXPECT_FALSE(check_result(json::array(), false, 300).has_value());
}

TEST(RunEnd, AnExceptionWithFieldsOfTheWrongTypeStillEndsTheRun) {
  const json r =
      result({{"kind", "exception"},
              {"exception", {{"type", 3}, {"message", json::array()}, {"line", 1e300}}}});
  const auto end = check_result(r, false, 300);
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->summary, "the script raised ?: ");
  EXPECT_TRUE(ended_badly(r));
}

TEST(RunEnd, AnExitCodeThatIsNotAnIntegerIsNotASuccess) {
  EXPECT_TRUE(ended_badly(result({{"kind", "exit"}, {"code", "0"}})));
  EXPECT_FALSE(ended_badly(result({{"kind", "exit"}, {"code", 0}})));
  EXPECT_FALSE(ended_badly(json::array()));
}

TEST(RunEnd, VariablesAndBlocksOfTheWrongTypeGiveAVerdictWithoutThrowing) {
  json r = result({{"kind", "stopped"}});
  r["loops"] = json::array({{{"line", 10}, {"iterations", 5}, {"entries", 1}, {"encloses", {0}}}});
  r["findings"] = json::array(
      {{{"id", 0},
        {"loop", 0},
        {"iterations", 5},
        {"variables", json::array({7, {{"name", 1}}})},
        {"cuda_blocks", {{"line", {{"count", 1}, {"bytes", 8}}}, {"when", json::object()}}}}});
  Diagnostic d;
  d.rule_id = "SL001";
  d.probe.emplace();
  d.probe->measure = ProbeMeasure::Growth;
  d.probe->loop_line = 10;
  d.probe->loop_end_line = 17;
  d.probe->variables = {"total"};
  std::vector<Diagnostic> findings{d};
  judge(findings, r, *check_result(r, false, 300));
  ASSERT_TRUE(findings[0].confirmation.has_value());
  EXPECT_NE(findings[0].confirmation->verdict, Verdict::Confirmed);
  EXPECT_NE(findings[0].confirmation->detail.find("`total` could not be read"), std::string::npos)
      << findings[0].confirmation->detail;
}

TEST(RunEnd, ACrashIsNamedWithItsFileAndLine) {
  const auto end = check_result(
      result({{"kind", "exception"},
              {"exception",
               {{"type", "RuntimeError"},
                {"message",
                 "one of the variables needed for gradient computation has been modified by an "
                 "inplace operation: [torch.FloatTensor [16, 16]]\nHint: ..."},
                {"file", "/abs/rnn.py"},
                {"line", 12}}}}),
      false, 300);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->crash,
            "RuntimeError: one of the variables needed for gradient computation has been modified "
            "by an inplace operation: [torch.FloatTensor [16, 16]] (rnn.py, line 12)");
  EXPECT_TRUE(end->inplace_after_kept_graph);
  // Ctrl-C is no crash of the script.
  const auto interrupted = check_result(
      result({{"kind", "exception"}, {"exception", {{"type", "KeyboardInterrupt"}}}}), false, 300);
  ASSERT_TRUE(interrupted);
  EXPECT_EQ(interrupted->crash, "");
}

}  // namespace
}  // namespace sealint::confirm
