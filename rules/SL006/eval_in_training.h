#pragma once
// SL006 inside a loop that trains: a second model run whose result is only read as values (an
// accuracy printed every k steps, a preview image, the action a policy picks per environment
// step), directly or in a helper the loop calls. Its graph feeds no backward, and the names bound
// to it keep the activations alive until they are bound again.
#include <unordered_set>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules::sl006 {

// `stmt` runs in `loop` (its innermost loop) of `function`, with autograd on. `reported` holds
// the model runs of the file reported so far (a helper that two loops reach is reported once).
void check_in_training_loop(const ir::Module& module, const ir::FileAnalysis& analysis,
                            semantic::ModelRuns& runs, const ir::Function& function,
                            const ir::Stmt& loop, const ir::Stmt& stmt,
                            std::unordered_set<const ir::Expr*>& reported, DiagnosticSink& sink);

}  // namespace sealint::rules::sl006
