#include "analyzer/report/html_report.h"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sealint::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A CUDA run's result, as the probe writes it on a GPU machine (docs/confirm.md, "Result").
nlohmann::json cuda_result() {
  return nlohmann::json::parse(R"json({
    "format": "sealint-confirm-result", "version": 1, "device": "cuda:0 (NVIDIA H200)",
    "python": "3.11.2", "torch": "2.5.1",
    "loops": [{"file": "/w/train.py", "line": 10, "end_line": 17, "iterations": 6, "entries": 1,
               "series": {"live_tensor_bytes": null, "rss_bytes": [1, 2, 3, 4, 5, 6, 7],
                          "cuda_allocated_bytes": [0, 100, 200, 300, 400, 500, 600]}}],
    "findings": [{"id": 0, "loop": 0, "iterations": 6,
                  "variables": [{"name": "total", "held_by": null,
                                 "series": {"graph_nodes": [null, 7, 14, 21, 28, 35, 42],
                                            "tensor_bytes": null, "length": null}}],
                  "cuda_blocks": {"line": {"count": 6, "bytes": 3072}, "when": "steps"}}],
    "snapshot": {"path": "/gpu/mem.pickle", "written": true, "error": null}, "errors": []})json");
}

class HtmlReportTest : public ::testing::Test {
 protected:
  std::string page(const std::string& snapshot) {
    Diagnostic d;
    d.rule_id = "SL001";
    d.rule_name = "grad-accumulation";
    d.path = "train.py";
    d.span.begin.line = d.span.end.line = 2;
    d.message = "`loss` is added to `total` <with its graph>";
    d.probe = ProbeHint{};
    Confirmation c;
    c.verdict = Verdict::Confirmed;
    c.detail = "`total` grows";
    c.cuda_line = CudaBlocks{6, 3072, false, 512.0};
    d.confirmation = c;
    findings.push_back(d);
    const output::ConfirmReport report{.findings = findings,
                                       .watched = watched,
                                       .rules = rules,
                                       .lines = lines,
                                       .tool_version = "0.1.0",
                                       .source_root = {},
                                       .color = false,
                                       .script = "train.py",
                                       .found_in = "train.py",
                                       .run_summary = "stopped after --steps iterations",
                                       .seconds = 2.0};
    const nlohmann::json result = cuda_result();
    std::ostringstream out;
    write_html_report(out, {report,
                            result,
                            {},
                            [](std::string_view) -> std::optional<std::string> {
                              return std::string("for x in d:\n    total += loss\n");
                            },
                            snapshot});
    return out.str();
  }
  std::vector<Diagnostic> findings;
  output::WatchedVerdicts watched;
  std::vector<output::SarifRule> rules;
  output::LineLookup lines = [](std::string_view, const Position&) { return std::string(); };
};

TEST_F(HtmlReportTest, ChartsTheCudaSeriesAndShowsTheBlocksAtTheLine) {
  const std::string html = page("/gpu/mem.pickle");
  EXPECT_THAT(html, HasSubstr(R"(id="finding-0-loop-cuda_allocated_bytes")"));
  EXPECT_THAT(html, HasSubstr(R"(data-values="0,100,200,300,400,500,600")"));
  EXPECT_THAT(html, HasSubstr("on the GPU: 6 blocks allocated at this line are live, 3.0 KiB, +512 "
                              "B per iteration"));
  EXPECT_THAT(html, HasSubstr(R"(<a class="snapshot" href="file:///gpu/mem.pickle">)"));
  EXPECT_THAT(html, HasSubstr("cuda:0 (NVIDIA H200)"));
}

TEST_F(HtmlReportTest, LinksToTheSnapshotByAFileUrl) {
  EXPECT_THAT(page("/gpu/my run#2.pickle"), HasSubstr(R"(href="file:///gpu/my%20run%232.pickle")"));
}

TEST_F(HtmlReportTest, LeavesOutSeriesThatMeasuredNothingAndProcessMemory) {
  const std::string html = page("");
  EXPECT_THAT(html, Not(HasSubstr("live_tensor_bytes")));
  EXPECT_THAT(html, Not(HasSubstr("rss_bytes")));
  EXPECT_THAT(html, Not(HasSubstr("snapshot")));
}

TEST_F(HtmlReportTest, EscapesWhatTheFindingSays) {
  const std::string html = page("");
  EXPECT_THAT(html, HasSubstr("`total` &lt;with its graph&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<with its graph>")));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
}

}  // namespace
}  // namespace sealint::report
