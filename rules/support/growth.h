#pragma once
// Shared by the rules that flag something growing across a region's runs (semantic/regions.h
// says where it grows): what resets it, and where the code that keeps it lives.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_runs.h"
#include "analyzer/semantic/regions.h"
#include "analyzer/semantic/training_loops.h"
#include "rules/support/fixes.h"
#include "rules/support/quote.h"

namespace sealint::rules {

using ir::probe_hint;
using semantic::growth_region;
using semantic::Region;

using semantic::is_model_call;

// " (in utils/meters.py)" for an instance of a class another file of
// the project defines (relative to `file`'s folder), else empty: the message's pointer to code
// the finding's own file does not show.
[[nodiscard]] std::string defined_elsewhere(const SourceFile& file, const ir::Fact& receiver);

// Names of the methods of `receiver`'s class that reset `attr` (`reset()` doing `self.sum = 0`).
[[nodiscard]] std::vector<std::string_view> reset_methods_for(const ir::FileAnalysis& analysis,
                                                              const ir::Fact& receiver,
                                                              std::string_view attr);

// Does every argument that `call` binds to a parameter in `params` (bit p: parameter p; the
// receiver, 0, is not an argument) carry no graph, with at least one bound? Then a value the
// method computes from them has none either, though it calls a loss: `F.kl_div(y_pred, y)` of
// inputs the caller detached. Never when the method itself runs a model or trains: its graph is
// made inside whatever its arguments carry (`loss = F.cross_entropy(self.model(x), y)`).
[[nodiscard]] bool arguments_without_graph(const ir::FileAnalysis& analysis, const ir::Expr& call,
                                           const ir::Callee& method, uint32_t params);

}  // namespace sealint::rules
