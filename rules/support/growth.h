#pragma once
// Shared by the rules that flag something growing across loop iterations: where it grows, the
// evidence for it, and what resets it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/grad_flow.h"
#include "analyzer/ir/ir.h"
#include "analyzer/ir/training_loops.h"
#include "analyzer/semantic/hooks.h"
#include "analyzer/semantic/model_runs.h"
#include "rules/support/fixes.h"
#include "rules/support/quote.h"

namespace sealint::rules {

// The innermost loop, among `loops` (innermost last), across whose iterations the place `key`
// keeps growing: a loop that runs training or evaluation steps, outside of which `key` lives,
// with no loop between the statement and it resetting `key`, and no backward consuming `key`
// in the function. nullptr when the place does not grow.
[[nodiscard]] const ir::Stmt* growing_loop(const ir::FileAnalysis& analysis,
                                           const ir::Function& function,
                                           const std::vector<const ir::Stmt*>& loops,
                                           std::string_view key,
                                           const std::vector<std::string_view>& reset_methods = {});

// How a framework repeats `function` when the place `key` keeps growing across its calls: the
// framework runs it once per batch with autograd on, `key` lives in the receiver
// (`self.total`), the function does not reset it on every call, and no backward in it consumes
// it. Clearing it in another hook (an epoch-end one) does not help: every batch's graph is kept
// until then. nullopt when the place does not grow.
[[nodiscard]] std::optional<semantic::RepeatedCall> growing_across_calls(
    const ir::FileAnalysis& analysis, const ir::Function& function, std::string_view key);

// Related locations for a place that grows across a hook's calls: where `__init__` creates it,
// and the hook.
[[nodiscard]] std::vector<Related> hook_evidence(const ir::Function& function,
                                                 const semantic::RepeatedCall& call,
                                                 std::string_view key);

// Related locations for a growing place: where it was bound before the loop, and the loop.
[[nodiscard]] std::vector<Related> growth_evidence(const ir::Function& function,
                                                   const ir::Stmt& loop, std::string_view key);

using ir::calls_probe_hint;
using ir::probe_hint;

using semantic::is_model_call;

// " (in utils/meters.py)" for an instance of a class another file of
// the project defines (relative to `file`'s folder), else empty: the message's pointer to code
// the finding's own file does not show.
[[nodiscard]] std::string defined_elsewhere(const SourceFile& file, const ir::Fact& receiver);

// Names of the methods of `receiver`'s class that reset `attr` (`reset()` doing `self.sum = 0`).
[[nodiscard]] std::vector<std::string_view> reset_methods_for(const ir::FileAnalysis& analysis,
                                                              const ir::Fact& receiver,
                                                              std::string_view attr);

}  // namespace sealint::rules
