#pragma once
// How SL007 words a finding: a construction on every step of a training loop, or in a method a
// framework runs on every step (`forward()`, `training_step()`).
#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/constructions.h"

namespace sealint::rules::sl007 {

// SL007's metadata (defined with the rule in SL007_module_in_loop.cpp).
const RuleInfo& info();

// `stmt` builds `c` on every iteration of the step loop `loop` (one that trains, or a pass over
// data that takes no step: `trains` says which the message names); when `call` is given, through
// that call of `helper` (the function holding `stmt`) in the loop.
void report_in_loop(const ir::Module& module, const ir::Stmt& loop, bool trains,
                    const ir::Stmt& stmt, const semantic::Construction& c, DiagnosticSink& sink,
                    const ir::Expr* call = nullptr, const ir::Function* helper = nullptr);

// `stmt` builds `c` on every call of the per-step method `function`.
void report_in_method(const ir::Module& module, const ir::Function& function, const ir::Stmt& stmt,
                      const semantic::Construction& c, DiagnosticSink& sink);

}  // namespace sealint::rules::sl007
