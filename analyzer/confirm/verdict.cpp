#include "analyzer/confirm/verdict.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/confirm/cuda_line.h"
#include "analyzer/confirm/exhaustion.h"
#include "analyzer/confirm/graph_verdict.h"
#include "analyzer/confirm/growth_verdict.h"
#include "analyzer/confirm/held_by.h"
#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/result_access.h"
#include "analyzer/confirm/saved_tensors.h"
#include "analyzer/confirm/step_words.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

namespace {

using nlohmann::json;

// Iterations the probe sampled: the loop may run past --steps while a slower flagged loop has
// not reached them yet, but samples stop at --steps.
uint32_t measured_iterations(const json& found, const json* loop, uint32_t iterations) {
  size_t longest = loop != nullptr ? longest_series(*loop) : 0;
  for (const json& variable : field(found, "variables"))
    longest = std::max(longest, longest_series(variable));
  if (longest == 0) return iterations;
  return std::min(iterations, static_cast<uint32_t>(longest - 1));
}

// A run cut short explains a verdict read from fewer iterations than asked for.
void add_run_end(Confirmation& c, const RunEnd& end) {
  if (c.verdict == Verdict::NotConfirmed && !end.stopped)
    c.detail += fmt::format("; {}", end.summary);
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

// When a confirmed growth of the loop's memory would use up the memory there is.
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
