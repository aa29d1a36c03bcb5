#include "analyzer/report/report_charts.h"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/result_access.h"
#include "analyzer/confirm/trend.h"
#include "analyzer/confirm/units.h"

namespace sealint::report {

namespace {

using nlohmann::json;

struct Metric {
  std::string_view name;   // as the result spells it
  std::string_view label;  // as the chart's title says it
  bool bytes;
};

constexpr std::array<Metric, 3> kPlaceMetrics{{
    {"graph_nodes", "autograd nodes", false},
    {"length", "length", false},
    {"tensor_bytes", "tensor bytes", true},
}};
// rss_bytes is left out: the process's memory steps with the C allocator and says little drawn.
constexpr std::array<Metric, 3> kLoopMetrics{{
    {"cuda_allocated_bytes", "CUDA memory allocated", true},
    {"live_tensor_bytes", "live tensor bytes", true},
    {"saved_tensor_bytes", "bytes saved for backward per step", true},
}};

// "total_loss" -> "total_loss", "self.meter.sum" -> "self-meter-sum": a piece of an element id.
std::string id_piece(std::string_view name) {
  std::string out;
  for (const char ch : name) {
    const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                       (ch >= '0' && ch <= '9') || ch == '_';
    out += plain ? ch : '-';
  }
  return out;
}

Chart chart_of(const confirm::Series& values, const Metric& metric, std::string id,
               std::string title, std::string_view step) {
  Chart chart;
  chart.id = std::move(id);
  chart.title = std::move(title);
  chart.metric = std::string(metric.name);
  chart.bytes = metric.bytes;
  chart.values = values;
  chart.step = std::string(step);
  const confirm::Trend trend = confirm::read_trend(values);
  if (trend.samples >= confirm::kMinTrendSamples) {
    chart.fit = FitLine{trend.first, trend.intercept, trend.slope, trend.r_squared};
    // A steady growth is carried on as far again as it was measured: where it is heading.
    if (trend.steady) chart.projected = values.size() - 1;
  }
  return chart;
}

}  // namespace

std::vector<Chart> charts_for(const json& result, size_t id, const Confirmation& verdict,
                              const std::string& prefix, std::string_view step) {
  std::vector<Chart> charts;
  const json* found = confirm::finding_result(result, id);
  if (found == nullptr) return charts;
  for (const json& variable : confirm::field(*found, "variables")) {
    const std::string name = confirm::text_field(variable, "name");
    for (const Metric& metric : kPlaceMetrics) {
      const confirm::Series values = confirm::series_of(variable, metric.name);
      if (confirm::present(values).empty()) continue;
      charts.push_back(chart_of(values, metric,
                                fmt::format("{}-{}-{}", prefix, id_piece(name), metric.name),
                                fmt::format("`{}`: {}", name, metric.label), step));
    }
  }
  if (const json* loop = confirm::loop_of(result, *found)) {
    for (const Metric& metric : kLoopMetrics) {
      const confirm::Series values = confirm::series_of(*loop, metric.name);
      if (confirm::present(values).empty()) continue;
      charts.push_back(chart_of(values, metric, fmt::format("{}-loop-{}", prefix, metric.name),
                                fmt::format("the loop: {}", metric.label), step));
    }
  }
  if (verdict.runs_out_at) {
    // The projection the verdict gives, under the chart of the memory it was read from.
    for (Chart& chart : charts) {
      if (chart.bytes && chart.projected > 0 && chart.metric != "tensor_bytes") {
        chart.note = fmt::format("at this rate the memory runs out near {} {}", std::string(step),
                                 confirm::grouped(*verdict.runs_out_at));
        break;
      }
    }
  }
  return charts;
}

}  // namespace sealint::report
