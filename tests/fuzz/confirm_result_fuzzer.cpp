// libFuzzer target: any bytes as the probe's result file (`sealint confirm --result FILE` reads
// one from disk), through the reader, the verdicts, the projections and every writer of them.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/run_end.h"
#include "analyzer/confirm/verdict.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/text_output.h"

namespace {

sealint::Diagnostic finding(std::string rule, sealint::ProbeMeasure measure,
                            std::vector<std::string> variables) {
  sealint::Diagnostic d;
  d.rule_id = std::move(rule);
  d.path = "train.py";
  d.span = {{12, 9}, {12, 22}};
  d.message = "fuzz";
  d.probe.emplace();
  d.probe->measure = measure;
  d.probe->loop_line = 10;
  d.probe->loop_end_line = 17;
  d.probe->variables = std::move(variables);
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sealint;
  const auto result = nlohmann::json::parse(data, data + size, nullptr, false);
  if (result.is_discarded()) return 0;  // sealint reports invalid JSON before reading it
  for (const bool timed_out : {false, true}) {
    const auto end = confirm::check_result(result, timed_out, 300);
    if (!end) continue;
    std::vector<Diagnostic> findings = {
        finding("SL001", ProbeMeasure::Growth, {"total_loss"}),
        finding("SL002", ProbeMeasure::Growth, {"self.history", "losses"}),
        finding("SL006", ProbeMeasure::Graph, {}),
    };
    confirm::judge(findings, result, *end);
    confirm::judge(findings, result, *end, uint64_t{80} << 30);
    WatchedLoop watched;
    watched.path = "train.py";
    watched.probe.loop_line = 30;
    watched.probe.loop_end_line = 40;
    watched.probe.variables = {"acc"};
    findings[0].after_fix = confirm::judge_watched(watched, 3, result, *end);
    (void)confirm::encloses_measured_loop(result, 3);
    (void)confirm::ended_badly(result);
    (void)confirm::measured_nothing(result);

    std::ostringstream out;
    output::write_text(out, findings,
                       [](std::string_view, const Position&) { return std::string(); }, {});
    output::write_json(out, findings);
    for (const Diagnostic& d : findings) {
      if (d.confirmation) out << output::confirmation_line(*d.confirmation);
    }
  }
  return 0;
}
