#pragma once
// SL006 on an object's inference entry point: a class that keeps a model frozen for inference
// (eval mode set when it is built, never switched back) and runs it in `__call__` or `predict`
// once per input its callers pass (a detector called on every frame of a video, an embedder on
// every request). The loop is the caller's, often in another module.
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules::sl006 {

void check_inference_entry(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink);

// SL006 on a request handler (semantic/request_handlers.h): `@app.route(...)` running a model
// with autograd on, directly or through the file's functions, once per request.
void check_request_handler(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink);

// SL006 on a method that runs again and again though no loop of the file calls it (it counts its
// calls, or another method drains what it collects on `self`), switching its model to eval mode
// and running it with autograd on: a validation step a federated-learning runtime calls per batch.
void check_repeated_method(const ir::Module& module, const ir::FileAnalysis& analysis,
                           semantic::ModelRuns& runs, const ir::Function& function,
                           DiagnosticSink& sink);

}  // namespace sealint::rules::sl006
