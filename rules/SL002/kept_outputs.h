#pragma once
// SL002 on what a framework keeps for the epoch's end: PyTorch Lightning 1.x hands
// `training_epoch_end(outputs)` every `training_step` output of the epoch, and detaches only the
// "loss" of a returned dict. Another value returned with its graph (`"scalar_loss":
// scalar_loss`) keeps every batch's graph until the epoch ends.
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/hooks.h"

namespace sealint::rules::sl002 {

// Reports each graph-bearing value of a dict that `function` returns, when `repeated` (how a
// framework repeats `function`) is a hook whose outputs the framework keeps
// (knowledge::FrameworkHook::outputs_kept_for) and its class defines the hook that receives them.
void check_kept_outputs(const ir::Module& module, const ir::FileAnalysis& analysis,
                        const ir::Function& function, const semantic::RepeatedCall& repeated,
                        const RuleInfo& info, DiagnosticSink& sink);

}  // namespace sealint::rules::sl002
