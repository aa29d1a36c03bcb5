#pragma once
// SL006 on a loop that one function runs for the training pass and the evaluation passes alike:
// every backward and optimizer step sits under a test of the mode (`if mode == "train":`,
// `if is_train:`, `if optimizer is not None:`) inside the loop, while the model runs outside it,
// with autograd on in every pass.
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules::sl006 {

void check_shared_passes(const ir::Module& module, const ir::FileAnalysis& analysis,
                         semantic::ModelRuns& runs, const ir::Function& function,
                         DiagnosticSink& sink);

}  // namespace sealint::rules::sl006
