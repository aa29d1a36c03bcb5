#pragma once
// What confirm mode needs from a finding (a ProbeHint, set by the rule) and what it learned by
// running the script (a Confirmation): plain values carried on the Diagnostic (docs/confirm.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealint {

// How a rule's pattern shows at run time.
enum class ProbeMeasure {
  Growth,  // something grows across the loop's iterations (SL001, SL002, SL005, SL010)
  Graph,   // an autograd graph is recorded on every iteration (SL006)
};

[[nodiscard]] std::string_view probe_measure_name(ProbeMeasure measure);

// What one step of the pattern is: an iteration of a loop statement, or a call of a function
// that a framework (or the model's caller) runs once per batch: a Lightning hook, `forward()`.
enum class ProbeRegion { Loop, Calls };

struct ProbeHint {
  ProbeMeasure measure = ProbeMeasure::Growth;
  // Loop: the header line, whose visits the probe counts. Calls: the `def` line of the function
  // whose calls it counts.
  uint32_t loop_line = 0;
  uint32_t loop_end_line = 0;  // the region's last line
  // Places to measure in the region's frame: a name, then attributes (`self.meter.sum`).
  std::vector<std::string> variables;
  ProbeRegion region = ProbeRegion::Loop;
  std::string function;  // Calls: the function's name (the code object's co_name)
  // A loop's iterations per pass, when its iterable says (`for x in loader`, `enumerate(loader)`,
  // `range(steps)`): the probe reads `len(length_of)`, or the int `count_of` is, or the literal
  // `count`. Turns "runs out near iteration 32,000" into which pass (epoch) that is.
  std::string length_of;
  std::string count_of;
  uint64_t count = 0;
  // False for a loop at a script's top level outside any other loop: one pass is all it runs.
  bool loop_repeats = true;
  // Count the bytes autograd saves for backward in each step (always for a Graph measure): the
  // activations a graph kept alive holds.
  bool saved_tensors = false;
  bool operator==(const ProbeHint&) const = default;
};

// A loop no finding measures the growth of (a training loop, or one that runs a model: an
// evaluation pass), which confirm mode measures too: a fixed script is shown flat, and growth the
// rules missed is shown with what holds it.
struct WatchedLoop {
  std::string path;
  ProbeHint probe;
  bool trains = true;  // a backward or an optimizer step runs in it; else it runs a model only
  // The findings on this loop that measure no growth (SL006: "SL006 at line 10").
  std::vector<std::string> findings_there;
  bool operator==(const WatchedLoop&) const = default;
};

// TooFewIterations: the loop ran, but fewer iterations than a trend needs; never read as
// "not confirmed", which would say the code is fine.
enum class Verdict { Confirmed, NotConfirmed, TooFewIterations, NotReached, NotMeasured };

[[nodiscard]] std::string_view verdict_name(Verdict verdict);  // "confirmed", "not confirmed", ...

// On CUDA, the live blocks whose allocation stack passes through the finding's line: what the
// flagged line itself keeps on the GPU.
struct CudaBlocks {
  uint64_t count = 0;
  uint64_t bytes = 0;
  bool at_end = false;  // counted at the end of the run, not while the loop ran
  // How much the blocks at the line grew per iteration between a count halfway through the
  // sampled iterations and the last one (a positive growth only).
  std::optional<double> bytes_per_iteration;
  bool operator==(const CudaBlocks&) const = default;
};

// One reference on the way from a root to the graph a growing value keeps (`self` (Trainer,
// local of fit) -> `.history` (dict) -> `['loss']` (list, 20 items) -> `[19]` (Tensor)).
struct HeldLink {
  std::string name;                // `self`, `.history`, `['loss']`, `[19]`
  std::string type;                // the object's class name
  std::optional<uint64_t> length;  // a container's
  std::string grad_fn;             // a tensor's autograd node class, empty without one
  std::string where;               // the root only: "local of fit", "global"
  bool operator==(const HeldLink&) const = default;
};

// "`[19]` (Tensor, grad_fn SumBackward0)"
[[nodiscard]] std::string held_link_text(const HeldLink& link);

// The numbers behind a verdict; per-iteration rates come from a least-squares fit (verdict.cpp).
struct Confirmation {
  Verdict verdict = Verdict::NotMeasured;
  uint32_t iterations = 0;  // iterations of the finding's loop that ran
  std::string subject;      // what the series measures: "`total_loss`", "the loop"
  std::string metric;       // "graph_nodes", "tensor_bytes", "length", ...
  std::optional<double> nodes_per_iteration;
  std::optional<double> bytes_per_iteration;
  std::optional<double> length_per_iteration;
  std::optional<double> fit;  // R² of the fit behind the verdict
  std::vector<double> trend;  // the series the verdict was read from
  std::optional<CudaBlocks> cuda_line;
  std::optional<uint64_t> runs_out_at;  // the iteration at which the memory there would run out
  std::vector<HeldLink> held_by;        // what holds a confirmed growth, root first
  // Bytes autograd saved for backward per step (median), where the probe counted them.
  std::optional<double> saved_bytes_per_iteration;
  std::string detail;  // why not measured, how the run ended, ...
  bool operator==(const Confirmation&) const = default;
};

}  // namespace sealint
