#pragma once
// One measured series drawn as an inline SVG chart (no script, so the page reads with JavaScript
// off): the samples over iterations, the least-squares line the verdict fitted, and that line
// carried on past the last sample as the projection.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sealint::report {

// The fitted line: `intercept` at sample `first`, rising by `slope` per sample.
struct FitLine {
  size_t first = 0;
  double intercept = 0;
  double slope = 0;
  double r_squared = 0;
};

struct Chart {
  std::string id;      // unique in the page: "finding-0-total-graph_nodes"
  std::string title;   // "`total`: autograd nodes"
  std::string metric;  // the result's name of the series: "graph_nodes", "live_tensor_bytes"
  bool bytes = false;  // the values are bytes: the axis reads in KiB, MiB, ...
  std::vector<std::optional<double>> values;  // sample k: after k steps; nullopt: not measured
  std::optional<FitLine> fit;
  size_t projected = 0;            // samples past the last one the fit is carried (dashed)
  std::string step = "iteration";  // what a sample step is: "iteration", "call"
  std::string note;                // a line under the chart ("runs out near iteration 32,456")
};

// The chart as an `<svg>` element. Its measured series is a `<g class="series">` whose
// `data-values` lists the samples as the result has them ("null,10,20"), so that a test can hold
// the drawing against the result.
[[nodiscard]] std::string svg_chart(const Chart& chart);

}  // namespace sealint::report
