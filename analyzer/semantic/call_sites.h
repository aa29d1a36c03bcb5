#pragma once
// The file's call graph, read backwards: which calls of the file reach a function of the file,
// and which argument each passes to a parameter. A rule that follows a parameter to what the
// callers pass (`def make_loader(dataset, workers): return DataLoader(dataset, ...)`) asks here.
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

struct CallSite {
  const ir::Function* caller = nullptr;
  const ir::Expr* call = nullptr;
};

// The calls of one file, by the function they reach (FileAnalysis::resolve_callee), indexed on
// first use.
class CallSites {
 public:
  CallSites(const ir::Module& module, const ir::FileAnalysis& analysis)
      : module_(module), analysis_(analysis) {}

  // The calls of the file that reach `callee`, in source order of their callers.
  [[nodiscard]] const std::vector<CallSite>& of(const ir::Function& callee);

 private:
  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  bool indexed_ = false;
  std::unordered_map<const ir::Function*, std::vector<CallSite>> calls_;
};

// A call in a loop of the file that runs a function, directly or through other functions of
// the file: `train()`'s loop calling `self.test()`, which calls `run_predictions()`.
struct LoopCall {
  const ir::Function* caller = nullptr;
  const ir::Expr* call = nullptr;  // the call in `caller`'s loop
  const ir::Stmt* loop = nullptr;  // the innermost loop around it
};

// The first call in a loop that reaches `function` through at most `depth` calls of the file
// (1: a direct call), skipping loops that run a written-out handful of times; nullopt when no
// loop of the file does.
[[nodiscard]] std::optional<LoopCall> called_from_loop(const ir::Module& module, CallSites& calls,
                                                       const ir::Function& function, int depth);

// The receiver parameter of a method (`self`), or empty: a function, or a method with none.
[[nodiscard]] std::string_view receiver_name(const ir::Function& function);

// The index of `function`'s parameter called `name`.
[[nodiscard]] std::optional<size_t> parameter_index(const ir::Function& function,
                                                    std::string_view name);

// The argument `call` passes to parameter `index` of `callee` (positional, past the receiver, or
// by keyword), or nullptr; `unknown` is set when a `*args` or `**kwargs` may pass it.
[[nodiscard]] const ir::Expr* argument_for(const ir::Function& callee, const ir::Expr& call,
                                           size_t index, bool& unknown);

}  // namespace sealint::semantic
