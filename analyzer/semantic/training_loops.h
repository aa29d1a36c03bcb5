#pragma once
// The loops confirm mode watches where no rule reported: the innermost loops that train, and the
// places they carry from one iteration to the next, so that a fixed script can be shown flat.
#include <string>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::ir {

struct TrainingLoop {
  const Function* function = nullptr;
  const Stmt* loop = nullptr;
  // Bound outside the loop and accumulated into (`total += x`) or appended to
  // (`losses.append(x)`) inside it, not reset every iteration: place keys, in source order.
  std::vector<std::string> carried;
  bool trains = true;  // false: it runs a model (an evaluation pass) and trains nothing
};

// What confirm mode measures for a finding in `loop` (docs/confirm.md): the places `keys`
// (place_key), a subscripted place measured as its container.
[[nodiscard]] ProbeHint probe_hint(const Module& module, const Stmt& loop, ProbeMeasure measure,
                                   const std::vector<std::string>& keys);

// What confirm mode measures for a finding whose step is a call of `function` (a framework's
// hook, `forward()`): the probe counts its calls and reads the places `keys` in its frame.
[[nodiscard]] ProbeHint calls_probe_hint(const Module& module, const Function& function,
                                         ProbeMeasure measure,
                                         const std::vector<std::string>& keys);

// The places the value of `call` is assigned to in `body` (`out = model(x)`), where confirm mode
// looks for the graph a model call records.
[[nodiscard]] std::vector<std::string> places_bound_to(const std::vector<Stmt*>& body,
                                                       const Expr& call);

// Loops that train (a backward or an optimizer step) with no nested loop that trains.
[[nodiscard]] std::vector<TrainingLoop> training_loops(const Module& module,
                                                       const FileAnalysis& analysis);

// Loops that run a model (a model call, or a call of the file's function that makes one once per
// call) without training, with no nested loop that does: validation and inference passes, by
// what they call, whatever their names.
[[nodiscard]] std::vector<TrainingLoop> model_loops(const Module& module,
                                                    const FileAnalysis& analysis);

}  // namespace sealint::ir
