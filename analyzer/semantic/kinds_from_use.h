#pragma once
// Kinds from what a function does with a name (GENERALIZE.md, "kinds from use"): only a module
// answers `net.eval()`, `net.train(flag)` or `net.parameters()`; a value that is both zeroed and
// stepped (`opt.zero_grad()`, `opt.step()`) is an optimizer. Flow-insensitive over the whole
// body, so that a call before the evidence (`out = net(x)` above `net.eval()` in a loop) sees it.
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/facts.h"
#include "analyzer/ir/ir.h"

namespace sealint::ir {

// The places of a function that a backward consumes, each list sorted.
struct BackwardEvidence {
  std::vector<std::string> losses;   // handed to a backward without a gradient: 0-d losses
  std::vector<std::string> graphs;   // handed to a backward, or computed from those by arithmetic
  std::vector<std::string> sources;  // those, and every place they were computed from
  // What the function returns that a caller hands to a backward (FileAnalysis::returned_use): a
  // loss made here, as if the function ran the backward itself.
  std::vector<const Expr*> returned;
  // What it returns that a caller hands to a loss function as the prediction: a graph made here.
  std::vector<const Expr*> predicted;
};

// The kind `function`'s uses give each of its parameters (Unknown where they say nothing), in
// one walk of its body. With what a backward of the function consumes, a callable whose call
// makes a loss is a loss function (`loss = f(out, y)`), and one whose call feeds a consumed
// graph is a module (`out = g(x)`, `f(g(x), y)`): evidence from effects.
[[nodiscard]] std::vector<ValueKind> param_kinds_from_use(const Function& function,
                                                          const BackwardEvidence& backward = {});

}  // namespace sealint::ir
