#pragma once
// SL006 on an evaluation pass written as a comprehension over a loader:
// `outputs = [model.validation_step(b) for b in val_loader]`, `preds = [net(x) for x, _ in
// loader]` after `net.eval()`. The comprehension is the loop; the model runs once per batch.
#include <vector>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_runs.h"
#include "rules/SL006/mode_switches.h"

namespace sealint::rules::sl006 {

void check_comprehension_passes(const ir::Module& module, const ir::FileAnalysis& analysis,
                                semantic::ModelRuns& runs, const ir::Function& function,
                                bool evaluation_function, const std::vector<ModeSwitch>& switches,
                                DiagnosticSink& sink);

}  // namespace sealint::rules::sl006
