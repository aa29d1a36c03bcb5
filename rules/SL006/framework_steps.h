#pragma once
// SL006 on the evaluation steps a framework runs once per batch of its own loop, with autograd
// on: a Hugging Face `prediction_step` or skorch `validation_step` override, a function handed to
// ignite's `Engine(...)`. No loop is in the file: the step's body is the loop's body.
#include <string>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/hooks.h"
#include "analyzer/semantic/model_runs.h"
#include "analyzer/semantic/regions.h"

namespace sealint::rules::sl006 {

// SL006's metadata (defined with the rule in SL006_eval_without_no_grad.cpp).
const RuleInfo& info();

// The model a call runs: `model` in `model(x)` and in `model->forward(x)` or
// `model.inference(x)` (which name the model, not its method).
const ir::Expr* model_of(const ir::Expr& call);

// How a message names the model a call runs: its place (`self.model`), else its source text.
std::string model_name(const ir::Module& module, const ir::Expr& call);

// `function` is a framework's evaluation hook run with autograd on, and runs a model.
void check_hook(const ir::Module& module, const ir::FileAnalysis& analysis,
                semantic::ModelRuns& runs, const ir::Function& function, DiagnosticSink& sink);

// The step handed to a framework's engine evaluates (by its name or the engine's) and runs a
// model with autograd on.
void check_handed_step(const ir::Module& module, const ir::FileAnalysis& analysis,
                       semantic::ModelRuns& runs, const semantic::HandedStep& step,
                       DiagnosticSink& sink);

}  // namespace sealint::rules::sl006
