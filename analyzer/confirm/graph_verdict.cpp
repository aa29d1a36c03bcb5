#include "analyzer/confirm/graph_verdict.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/result_access.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

using nlohmann::json;

Confirmation judge_graph(const json& found, uint32_t iterations, const StepWords& steps) {
  Confirmation c;
  c.iterations = iterations;
  c.metric = "graph_nodes";
  for (const json& variable : field(found, "variables")) {
    const Series series = series_of(variable, "graph_nodes");
    // The entry sample is before the first iteration.
    std::vector<double> samples =
        present(series.empty() ? series : Series(std::next(series.begin()), series.end()));
    if (samples.empty()) continue;
    if (samples.size() < 2) {
      c.verdict = Verdict::TooFewIterations;
      c.subject = text_field(variable, "name");
      c.detail = too_few_detail(static_cast<uint32_t>(samples.size()), steps);
      return c;
    }
    const auto with_graph = static_cast<size_t>(
        std::count_if(samples.begin(), samples.end(), [](double n) { return n > 0; }));
    c.subject = text_field(variable, "name");
    c.trend = samples;
    if (with_graph * 5 >= samples.size() * 4 && with_graph >= 2) {
      std::vector<double> sorted = samples;
      std::sort(sorted.begin(), sorted.end());
      c.verdict = Verdict::Confirmed;
      c.nodes_per_iteration = sorted[sorted.size() / 2];
      c.detail = fmt::format(
          "`{}` carries an autograd graph of {} on {} of {} {}, never used by a backward",
          c.subject, counted(*c.nodes_per_iteration, "node"), with_graph, samples.size(),
          steps.of(static_cast<double>(samples.size())));
    } else {
      c.verdict = Verdict::NotConfirmed;
      c.detail = fmt::format("`{}` carried no autograd graph on {} of {} {}", c.subject,
                             samples.size() - with_graph, samples.size(),
                             steps.of(static_cast<double>(samples.size())));
    }
    return c;
  }
  c.verdict = Verdict::NotMeasured;
  c.detail = "the model's output is not bound to a name the probe can read";
  return c;
}

}  // namespace sealint::confirm
