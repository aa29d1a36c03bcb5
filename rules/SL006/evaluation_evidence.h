#pragma once
// What says that a function drives evaluation, for SL006: its name, its class's, the name of the
// script it is the top level or `main()` of; and how a message names it.
#include <string>
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules::sl006 {

// A script named for evaluation (`test.py`, `eval.py`, `inference.py`, `evaluate_ckpt.py`): its
// top level and its `main()` drive evaluation. Unit tests (semantic/test_code.h) are left out
// by the driver, not here.
[[nodiscard]] bool is_evaluation_script(const ir::Module& module, const ir::Function& function);
// What a script named for evaluation is named for: "generation" (`generate_waveform.py`) or
// "evaluation" (`test.py`), as messages say it.
[[nodiscard]] std::string_view script_purpose(const ir::Module& module);

// The function drives evaluation by its name (`evaluate`, `run_validation`), its class's
// (`ValLoop.run`, `Evaluator.step`) or its script's. A model's own methods are the model, not a
// driver: a loop over layers in `TestNet.forward` evaluates nothing, and whether autograd is on in
// a model's `inference()` or `predict()` is its caller's choice (an evaluation loop elsewhere,
// under `no_grad` or not).
[[nodiscard]] bool is_evaluation_function(const ir::Module& module,
                                          const ir::FileAnalysis& analysis,
                                          const ir::Function& function);

// How a message names the function that runs the loop, in backticks: with its class when the
// class's name is the evidence (`ValLoop.run()`); the top level by its file (`test.py`).
[[nodiscard]] std::string shown_name(const ir::Module& module, const ir::Function& function);

}  // namespace sealint::rules::sl006
