#include "analyzer/confirm/growth_verdict.h"

#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/result_access.h"
#include "analyzer/confirm/trend.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

using nlohmann::json;

std::optional<LoopMemory> loop_memory(const json* loop, bool with_process) {
  if (loop == nullptr) return std::nullopt;
  constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kMetrics{{
      {"cuda_allocated_bytes", "CUDA memory"},
      {"live_tensor_bytes", "live tensors"},
      {"rss_bytes", "process memory"},
  }};
  for (const auto& [metric, what] : kMetrics) {
    if (metric == "rss_bytes" && !with_process) continue;
    const Trend trend = read_trend(series_of(*loop, metric));
    // The process's memory is cited only when it grows alike throughout, not by a few jumps.
    if (trend.steady && (metric != "rss_bytes" || steady_in_each_third(trend))) {
      return LoopMemory{trend.slope, std::string(what), trend.values.back(),
                        metric == "cuda_allocated_bytes"};
    }
  }
  return std::nullopt;
}

namespace {

struct VariableTrend {
  std::string name;
  std::string metric;
  Trend trend;
  std::vector<double> shown;
};

std::string growth_sentence(const VariableTrend& v, uint32_t iterations, const StepWords& steps) {
  std::string amount;
  if (v.metric == "graph_nodes") {
    amount = counted(v.trend.slope, "autograd node");
  } else if (v.metric == "length") {
    amount = counted(v.trend.slope, "element");
  } else {
    amount = bytes_text(v.trend.slope) + " of tensors";
  }
  return fmt::format("`{}` grows by {} per {} over {} {} (fit R² {:.2f})", v.name, amount,
                     steps.one, iterations, steps.of(iterations), v.trend.r_squared);
}

}  // namespace

Confirmation judge_growth(const ProbeHint& probe, const json& found,
                          const std::optional<LoopMemory>& memory, uint32_t iterations,
                          bool watched) {
  const StepWords steps = step_words(probe);
  Confirmation c;
  c.iterations = iterations;
  std::optional<VariableTrend> best;
  std::optional<VariableTrend> flat;  // the most telling series that did not grow
  bool any_read = false;
  for (const json& variable : field(found, "variables")) {
    const std::string name = text_field(variable, "name");
    for (std::string_view metric : {"graph_nodes", "length", "tensor_bytes"}) {
      if (watched && metric == "length") continue;
      const Series series = series_of(variable, metric);
      if (present(series).empty()) continue;
      any_read = true;
      VariableTrend candidate{name, std::string(metric), read_trend(series), present(series)};
      if (candidate.trend.steady) {
        if (!best) best = candidate;
        if (metric == "graph_nodes") c.nodes_per_iteration = candidate.trend.slope;
        if (metric == "length") c.length_per_iteration = candidate.trend.slope;
        if (metric == "tensor_bytes") c.bytes_per_iteration = candidate.trend.slope;
      } else if (!flat) {
        flat = candidate;
      }
    }
    if (best) break;
  }
  const std::string first_place = probe.variables.empty()
                                      ? std::string("no variable")
                                      : fmt::format("`{}`", probe.variables.front());
  if (best) {
    c.verdict = Verdict::Confirmed;
    c.subject = best->name;
    c.metric = best->metric;
    c.fit = best->trend.r_squared;
    c.trend = best->shown;
    c.detail = growth_sentence(*best, iterations, steps);
    if (memory) {
      if (!c.bytes_per_iteration) c.bytes_per_iteration = memory->per_iteration;
      c.detail += fmt::format("; {} +{} per {}", memory->what, bytes_text(memory->per_iteration),
                              steps.one);
    }
    return c;
  }
  if (iterations < kMinTrendIterations) {
    c.verdict = Verdict::TooFewIterations;
    c.detail = too_few_detail(iterations, steps);
    if (flat) c.trend = flat->shown;
    return c;
  }
  if (watched && !memory) {
    c.verdict = Verdict::NotConfirmed;
    c.detail = fmt::format("no autograd graph or tensor memory grew over {} {}", iterations,
                           steps.of(iterations));
    if (flat) c.trend = flat->shown;
    return c;
  }
  if (!any_read || watched) {
    // Nothing named could be read (a place the probe cannot reach): the loop's memory is the
    // only evidence, and it says so.
    if (memory) {
      c.verdict = Verdict::Confirmed;
      c.subject = "the loop";
      c.metric = memory->what;
      c.bytes_per_iteration = memory->per_iteration;
      // "live tensors grow", "CUDA memory grows"
      c.detail = fmt::format("{} {} by {} per {} over {} {}", memory->what,
                             memory->what.ends_with('s') ? "grow" : "grows",
                             bytes_text(memory->per_iteration), steps.one, iterations,
                             steps.of(iterations));
      if (!watched) c.detail += fmt::format(" ({} could not be read)", first_place);
      return c;
    }
    c.verdict = Verdict::NotConfirmed;
    c.detail = fmt::format("nothing grew over {} {}, and {} could not be read", iterations,
                           steps.of(iterations), first_place);
    return c;
  }
  c.verdict = Verdict::NotConfirmed;
  c.subject = flat->name;
  c.metric = flat->metric;
  c.trend = flat->shown;
  if (flat->trend.samples < kMinTrendSamples) {
    c.verdict = Verdict::TooFewIterations;
    c.detail = too_few_detail(iterations, steps);
  } else {
    c.fit = flat->trend.r_squared;
    const std::string_view what = flat->metric == "graph_nodes" ? "autograd nodes"
                                  : flat->metric == "length"    ? "length"
                                                                : "tensor bytes";
    c.detail = fmt::format("`{}` did not grow steadily over {} {} ({} {} to {})", flat->name,
                           iterations, steps.of(iterations), what, count_text(flat->shown.front()),
                           count_text(flat->shown.back()));
  }
  return c;
}

void read_collected_outputs(Confirmation& c, const ProbeHint& probe,
                            const std::optional<PassLength>& pass, const StepWords& steps) {
  if (c.verdict != Verdict::Confirmed || c.metric != "tensor_bytes" ||
      probe.region != ProbeRegion::Loop || c.subject.find('.') != std::string::npos ||
      !c.bytes_per_iteration)
    return;
  c.verdict = Verdict::NotConfirmed;
  c.detail = fmt::format(
      "`{}` collects {} of tensors per {} without an autograd graph: what one pass produces, "
      "held by a local until its function returns{}",
      c.subject, bytes_text(*c.bytes_per_iteration), steps.one,
      pass ? fmt::format(" (at most {} for a pass of {} {})",
                         bytes_text(*c.bytes_per_iteration * static_cast<double>(pass->iterations)),
                         grouped(pass->iterations), steps.many)
           : std::string());
}

}  // namespace sealint::confirm
