#include "analyzer/confirm/verdict.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/confirm/exhaustion.h"
#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/saved_tensors.h"
#include "analyzer/confirm/trend.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

namespace {

using Series = std::vector<std::optional<double>>;
using nlohmann::json;

// The series named `metric` of an object's "series", numbers and booleans as numbers.
Series series_of(const json& owner, std::string_view metric) {
  Series out;
  if (!owner.is_object()) return out;
  const auto series = owner.find("series");
  if (series == owner.end() || !series->is_object()) return out;
  const auto values = series->find(std::string(metric));
  if (values == series->end() || !values->is_array()) return out;
  for (const json& v : *values) {
    if (v.is_number()) {
      out.emplace_back(v.get<double>());
    } else if (v.is_boolean()) {
      out.emplace_back(v.get<bool>() ? 1.0 : 0.0);
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

std::vector<double> present(const Series& series) {
  std::vector<double> out;
  for (const auto& v : series)
    if (v) out.push_back(*v);
  return out;
}

// A non-negative integer (parsed JSON has them unsigned, built JSON signed).
std::optional<size_t> index_of(const json& value) {
  if (!value.is_number_integer() || value.get<long long>() < 0) return std::nullopt;
  return value.get<size_t>();
}

const json* element(const json& array, const json& index) {
  if (!array.is_array() || !index_of(index)) return nullptr;
  const size_t i = *index_of(index);
  return i < array.size() ? &array[i] : nullptr;
}

// The finding's entry in the result, by id.
const json* finding_result(const json& result, size_t id) {
  const auto findings = result.find("findings");
  if (findings == result.end() || !findings->is_array()) return nullptr;
  for (const json& f : *findings) {
    if (f.is_object() && index_of(f.value("id", json())) == id) return &f;
  }
  return nullptr;
}

// The loop's memory per iteration, when it grows steadily: on CUDA the allocator's count, on CPU
// the tensors Python can see, else the process's resident memory.
struct LoopMemory {
  double per_iteration = 0;
  std::string what;
  double last = 0;    // the last sample: where the growth has got to
  bool cuda = false;  // the allocator's count, which the GPU's size bounds
};
// Resident memory steps with the C allocator, so alone it confirms nothing in a loop no rule
// flagged (`with_process` false).
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
    if (trend.steady) {
      return LoopMemory{trend.slope, std::string(what), trend.values.back(),
                        metric == "cuda_allocated_bytes"};
    }
  }
  return std::nullopt;
}

// The length of the longest series an object (a variable, a loop) has.
size_t longest_series(const json& owner) {
  size_t longest = 0;
  const json& series = field(owner, "series");
  if (!series.is_object()) return longest;
  for (const auto& [metric, values] : series.items())
    if (values.is_array()) longest = std::max(longest, values.size());
  return longest;
}

// Iterations the probe sampled: the loop may run past --steps while a slower flagged loop has
// not reached them yet, but samples stop at --steps.
uint32_t measured_iterations(const json& found, const json* loop, uint32_t iterations) {
  size_t longest = loop != nullptr ? longest_series(*loop) : 0;
  for (const json& variable : field(found, "variables"))
    longest = std::max(longest, longest_series(variable));
  if (longest == 0) return iterations;
  return std::min(iterations, static_cast<uint32_t>(longest - 1));
}

// What one sample step is: a loop's iteration, or a call of a function a framework runs per
// batch (a hook, `forward()`).
struct StepWords {
  std::string_view one = "iteration";
  std::string_view many = "iterations";
  [[nodiscard]] std::string_view of(double n) const { return n == 1 ? one : many; }
};

StepWords step_words(const ProbeHint& probe) {
  if (probe.region == ProbeRegion::Calls) return {"call", "calls"};
  return {};
}

std::string too_few_detail(uint32_t iterations, const StepWords& steps) {
  return fmt::format("only {} {} ran, too few to see a trend (raise --steps{})", iterations,
                     steps.of(iterations),
                     steps.one == "call" ? ", or run the script longer" : ", or the loop's length");
}

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

// `watched`: a loop no rule flagged, where only a graph or tensor memory counts as growth.
// `memory`: the loop's own growth (loop_memory), read once for the verdict and its projection.
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

// A run cut short explains a verdict read from fewer iterations than asked for.
void add_run_end(Confirmation& c, const RunEnd& end) {
  if (c.verdict == Verdict::NotConfirmed && !end.stopped)
    c.detail += fmt::format("; {}", end.summary);
}

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

// On CUDA, the blocks allocated at the finding's line and still live when the probe counted them
// (docs/confirm.md, `cuda_blocks`); none when the line holds no block.
std::optional<CudaBlocks> cuda_line(const json& found) {
  const json blocks = found.value("cuda_blocks", json());
  if (!blocks.is_object()) return std::nullopt;
  const json line = blocks.value("line", json());
  if (!line.is_object()) return std::nullopt;
  const std::optional<size_t> count = index_of(line.value("count", json()));
  const std::optional<size_t> bytes = index_of(line.value("bytes", json()));
  if (!count || *count == 0 || !bytes) return std::nullopt;
  CudaBlocks out{*count, *bytes, text_field(blocks, "when") == "end", std::nullopt};
  // The count halfway there: the growth per iteration of what this line keeps on the GPU.
  const json earlier = blocks.value("earlier", json());
  const std::optional<size_t> at = index_of(blocks.value("iteration", json()));
  if (earlier.is_object() && at) {
    const std::optional<size_t> earlier_at = index_of(earlier.value("iteration", json()));
    const json earlier_line = earlier.value("line", json());
    const std::optional<size_t> earlier_bytes =
        earlier_line.is_object() ? index_of(earlier_line.value("bytes", json())) : std::nullopt;
    if (earlier_at && earlier_bytes && *at > *earlier_at && *bytes > *earlier_bytes) {
      out.bytes_per_iteration =
          static_cast<double>(*bytes - *earlier_bytes) / static_cast<double>(*at - *earlier_at);
    }
  }
  return out;
}

void add_cuda_line(Confirmation& c, const json& found, std::string_view step) {
  c.cuda_line = cuda_line(found);
  if (!c.cuda_line) return;
  c.detail += fmt::format(
      "; on the GPU, {} allocated at this line {} live ({}{}){}",
      counted(static_cast<double>(c.cuda_line->count), "block"),
      c.cuda_line->count == 1 ? "is" : "are", bytes_text(static_cast<double>(c.cuda_line->bytes)),
      c.cuda_line->bytes_per_iteration
          ? fmt::format(", +{} per {}", bytes_text(*c.cuda_line->bytes_per_iteration), step)
          : std::string(),
      c.cuda_line->at_end ? " at the end of the run" : "");
}

// For a loop that encloses other measured loops (an epoch loop around `train()`): the run stops
// once the inner loops have their iterations, so this one has few. Says which, in words.
std::string enclosed_note(const json& loops, const json& loop) {
  std::vector<std::string> lines;
  for (const json& index : field(loop, "encloses")) {
    const json* inner = element(loops, index);
    if (const auto line = inner != nullptr ? integer_field(*inner, "line") : std::nullopt)
      lines.push_back(fmt::format("{}", *line));
  }
  if (lines.empty()) return {};
  return fmt::format(
      "; each of its iterations runs the measured loop{} at line{} {}, which the "
      "run was stopped on",
      lines.size() == 1 ? "" : "s", lines.size() == 1 ? "" : "s", fmt::join(lines, ", "));
}

// The probe's chain of references for the variable a growth verdict was read from.
std::vector<HeldLink> held_by(const json& found, std::string_view subject) {
  std::vector<HeldLink> links;
  for (const json& variable : field(found, "variables")) {
    if (!variable.is_object() || text_field(variable, "name") != subject) continue;
    const json& chain = field(variable, "held_by");
    if (!chain.is_array()) return links;
    for (const json& link : chain) {
      if (!link.is_object() || !link.value("name", json()).is_string()) return {};
      HeldLink held;
      held.name = link["name"].get<std::string>();
      held.type = link.value("type", json()).is_string() ? link["type"].get<std::string>() : "?";
      held.length = index_of(link.value("length", json()));
      if (link.value("grad_fn", json()).is_string()) held.grad_fn = link["grad_fn"];
      if (link.value("where", json()).is_string()) held.where = link["where"];
      links.push_back(std::move(held));
    }
  }
  return links;
}

// When a confirmed growth of the loop's memory would use up the memory there is.
// One pass of the loop, when the probe read its length at the loop's entry.
std::optional<PassLength> pass_length(const ProbeHint& probe, const json* loop) {
  if (loop == nullptr || !loop->is_object() || probe.region != ProbeRegion::Loop)
    return std::nullopt;
  const std::optional<size_t> length = index_of(loop->value("length", json()));
  if (!length || *length == 0) return std::nullopt;
  PassLength pass;
  pass.iterations = *length;
  pass.epoch = text_field(*loop, "length_unit") == "epoch";
  pass.repeats = probe.loop_repeats;
  if (!probe.length_of.empty()) pass.over = fmt::format("`{}`", probe.length_of);
  return pass;
}

// The function whose plain local holds the growth (`total_loss`, local of validate; a local list
// and what it holds): freed when that function returns. Not `self`'s attributes, nor a module's.
std::string holder_local_of(const std::vector<HeldLink>& held) {
  constexpr std::string_view kLocal = "local of ";
  if (held.empty() || !held.front().where.starts_with(kLocal)) return {};
  if (held.size() > 1 && held[1].name.starts_with('.')) return {};
  std::string function = held.front().where.substr(kLocal.size());
  return function == "<module>" ? std::string() : function;
}

void add_exhaustion(Confirmation& c, const std::optional<LoopMemory>& memory,
                    const std::optional<MemoryLimit>& limit, const StepWords& steps,
                    const std::optional<PassLength>& pass) {
  if (c.verdict != Verdict::Confirmed || !memory || !limit) return;
  if (!memory->cuda && !limit->from_option) return;  // the GPU's size bounds GPU memory only
  const Projection projection = project(*limit, memory->last, memory->per_iteration, c.iterations,
                                        steps.one, pass, holder_local_of(c.held_by));
  c.runs_out_at = projection.runs_out_at;
  c.detail += projection.sentence;
}

// A loop no finding is in that fills a local with tensors that carry no graph (predictions kept
// for a metric: `preds.append(out.argmax(1))`) keeps what one pass produces, and the function's
// return frees it: bounded by the pass, no leak across passes. Said as such, not as a leak.
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

// The verdict on plan entry `id`, measured as `probe` says; `watched`: a loop no finding is in.
Confirmation judge_probe(const ProbeHint& probe, size_t id, const json& result, const RunEnd& end,
                         std::optional<uint64_t> device_memory, bool watched) {
  Confirmation c;
  const json* found = finding_result(result, id);
  if (found == nullptr) {
    c.detail = "the probe's result has no entry for this finding";
    return c;
  }
  const auto iterations =
      static_cast<uint32_t>(index_of(found->value("iterations", json())).value_or(0));
  const json& loops = field(result, "loops");
  const json* loop = element(loops, field(*found, "loop"));
  const StepWords steps = step_words(probe);
  if (iterations == 0) {
    const bool entered =
        loop != nullptr && loop->is_object() && index_of(loop->value("entries", json())) > 0U;
    c.verdict = entered ? Verdict::TooFewIterations : Verdict::NotReached;
    if (probe.region == ProbeRegion::Calls) {
      c.detail = entered ? fmt::format("`{}()` was called but never returned ({})", probe.function,
                                       end.summary)
                         : fmt::format("`{}()` was never called ({})", probe.function, end.summary);
      return c;
    }
    c.detail =
        entered ? fmt::format(
                      "the loop at line {} was entered but finished no iteration "
                      "({}){}",
                      probe.loop_line, end.summary, enclosed_note(loops, *loop))
                : fmt::format("the loop at line {} never ran ({})", probe.loop_line, end.summary);
    return c;
  }
  const uint32_t measured = measured_iterations(*found, loop, iterations);
  if (probe.measure == ProbeMeasure::Graph) {
    // What the finding claims, read at its line: autograd on, activations saved per step. The
    // output's graph (when it is bound to a name) is the evidence where the line was not seen.
    const Confirmation named = judge_graph(*found, measured, steps);
    const std::optional<Confirmation> by_mode =
        judge_grad_mode(*found, loop, measured, steps.one, steps.many);
    c = by_mode ? *by_mode : named;
    if (by_mode && named.verdict == Verdict::Confirmed && c.verdict == Verdict::Confirmed)
      c.nodes_per_iteration = named.nodes_per_iteration;
  } else {
    const std::optional<LoopMemory> memory = loop_memory(loop, !watched);
    c = judge_growth(probe, *found, memory, measured, watched);
    if (c.verdict == Verdict::Confirmed) c.held_by = held_by(*found, c.subject);
    if (watched) read_collected_outputs(c, probe, pass_length(probe, loop), steps);
    add_exhaustion(c, memory, memory_limit(result, device_memory), steps, pass_length(probe, loop));
    // A loop that runs a model and no backward: the graph it keeps holds what each step saved.
    if (const std::optional<double> saved = saved_bytes_per_step(loop);
        watched && c.verdict == Verdict::Confirmed && c.metric == "graph_nodes" && saved &&
        *saved > 0) {
      c.saved_bytes_per_iteration = saved;
      c.detail += fmt::format(
          "; each {} also saved {} of activations for backward, which the "
          "graph it keeps holds",
          steps.one, bytes_text(*saved));
    }
  }
  if (c.verdict == Verdict::TooFewIterations && !end.crash.empty()) {
    // More steps would not help: the script stopped itself. Say how.
    c.detail =
        fmt::format("the script crashed after {} {}: {}", measured, steps.of(measured), end.crash);
  } else if (c.verdict == Verdict::TooFewIterations && loop != nullptr && loop->is_object()) {
    c.detail += enclosed_note(loops, *loop);
  }
  // A loop no rule flagged has no line of its own to attribute blocks to.
  if (!watched) add_cuda_line(c, *found, steps.one);
  add_run_end(c, end);
  return c;
}

}  // namespace

void judge(std::vector<Diagnostic>& findings, const json& result, const RunEnd& end,
           std::optional<uint64_t> device_memory) {
  for (size_t id = 0; id < findings.size(); ++id) {
    Diagnostic& d = findings[id];
    if (d.probe) {
      d.confirmation = judge_probe(*d.probe, id, result, end, device_memory, false);
      // The crash is what this finding predicts: say so rather than leave it a bare error.
      // SL005 and SL010 keep an earlier iteration's graph; an in-place change (an optimizer
      // step) of a tensor it saved breaks the next backward through it.
      if ((d.rule_id == "SL005" || d.rule_id == "SL010") && end.inplace_after_kept_graph) {
        d.confirmation->detail +=
            "; this crash is the finding's symptom: the graph kept from an earlier iteration saved "
            "a tensor that was then changed in place (an optimizer step), so the backward through "
            "it fails";
      }
      continue;
    }
    Confirmation c;
    c.detail = fmt::format("{} is not a per-iteration effect: confirm mode has nothing to count",
                           d.rule_id);
    d.confirmation = std::move(c);
  }
}

Confirmation judge_watched(const WatchedLoop& watched, size_t id, const json& result,
                           const RunEnd& end, std::optional<uint64_t> device_memory) {
  return judge_probe(watched.probe, id, result, end, device_memory, true);
}

bool encloses_measured_loop(const json& result, size_t id) {
  const json* found = finding_result(result, id);
  if (found == nullptr) return false;
  const json* loop = element(field(result, "loops"), field(*found, "loop"));
  if (loop == nullptr || !loop->is_object()) return false;
  const json& encloses = field(*loop, "encloses");
  return encloses.is_array() && !encloses.empty();
}

std::vector<size_t> entries_called_inside(const json& result, size_t id) {
  std::vector<size_t> ids;
  const json* found = finding_result(result, id);
  if (found == nullptr) return ids;
  const json& loops = field(result, "loops");
  const json* loop = element(loops, field(*found, "loop"));
  if (loop == nullptr || !loop->is_object()) return ids;
  const json& runs = field(*loop, "runs");
  if (!runs.is_array() || runs.empty()) return ids;
  for (const json& entry : field(result, "findings")) {
    const json& region = field(entry, "loop");
    const std::optional<size_t> entry_id = index_of(field(entry, "id"));
    if (!entry_id || !index_of(region)) continue;
    if (std::find(runs.begin(), runs.end(), region) != runs.end()) ids.push_back(*entry_id);
  }
  return ids;
}

}  // namespace sealint::confirm
