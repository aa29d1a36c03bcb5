#pragma once
// Shared by the rules that flag something growing across loop iterations (SL001, SL002).
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/ir/grad_flow.h"
#include "analyzer/ir/ir.h"
#include "analyzer/ir/training_loops.h"

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

// Related locations for a growing place: where it was bound before the loop, and the loop.
[[nodiscard]] std::vector<Related> growth_evidence(const ir::Function& function,
                                                   const ir::Stmt& loop, std::string_view key);

using ir::probe_hint;

// An expression as messages quote it: its source, or its first 40 bytes and "..." when it is
// longer or spans lines (then `complete` is false and a help should not build code from it).
struct QuotedExpr {
  std::string text;
  bool complete = true;
};
[[nodiscard]] QuotedExpr quote(const ir::Module& module, const ir::Expr& expr);

// `text.method` with parentheses around `text` when the expression needs them: `loss.item()`,
// `(total / n).item()`.
[[nodiscard]] std::string method_on(const ir::Expr& expr, std::string_view text,
                                    std::string_view method);

// `item()` in Python, `item<float>()` in C++ (LibTorch's item is a template).
[[nodiscard]] std::string_view item_method(const ir::Module& module);

// The fix that calls `.item()` on `value` (unsafe: it synchronises with the device every
// iteration and turns a tensor into a float).
[[nodiscard]] Fix item_fix(const ir::Module& module, const ir::Expr& value);

// A call that runs a model: `model(x)` on a module, or `model->forward(x)` / `model.forward(x)`.
[[nodiscard]] bool is_model_call(const ir::FileAnalysis& analysis, const ir::Expr& call);

// Names of the methods of `receiver`'s class that reset `attr` (`reset()` doing `self.sum = 0`).
[[nodiscard]] std::vector<std::string_view> reset_methods_for(const ir::FileAnalysis& analysis,
                                                              const ir::Fact& receiver,
                                                              std::string_view attr);

}  // namespace sealint::rules
