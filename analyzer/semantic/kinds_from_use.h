#pragma once
// Kinds from what a function does with a name (GENERALIZE.md, "kinds from use"): only a module
// answers `net.eval()`, `net.train(flag)` or `net.parameters()`; a value that is both zeroed and
// stepped (`opt.zero_grad()`, `opt.step()`) is an optimizer. Flow-insensitive over the whole
// body, so that a call before the evidence (`out = net(x)` above `net.eval()` in a loop) sees it.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/facts.h"
#include "analyzer/ir/ir.h"

namespace sealint::ir {

// `draw(it)`: the call hands out the next item of an iterator as `next()` does (a function of
// the file that returns one: FileAnalysis::draws_next_item).
using DrawsItem = std::function<bool(const Expr& call)>;

// The places of a function that a backward consumes, each list sorted; and which calls draw the
// items of what it iterates.
struct BackwardEvidence {
  std::vector<std::string> losses;   // handed to a backward without a gradient: 0-d losses
  std::vector<std::string> graphs;   // handed to a backward, or computed from those by arithmetic
  std::vector<std::string> sources;  // those, and every place they were computed from
  // What the function returns that a caller hands to a backward (FileAnalysis::returned_use): a
  // loss made here, as if the function ran the backward itself.
  std::vector<const Expr*> returned;
  // What it returns that a caller hands to a loss function as the prediction: a graph made here.
  std::vector<const Expr*> predicted;
  DrawsItem draws;
};

// The kind `function`'s uses give each of its parameters (Unknown where they say nothing), in
// one walk of its body. With what a backward of the function consumes, a callable whose call
// makes a loss is a loss function (`loss = f(out, y)`), and one whose call feeds a consumed
// graph is a module (`out = g(x)`, `f(g(x), y)`): evidence from effects.
[[nodiscard]] std::vector<ValueKind> param_kinds_from_use(const Function& function,
                                                          const BackwardEvidence& backward = {});

// The same for any names the function binds or reads (`names`, in that order): a local the
// function builds from a class of another file (`net = networks.Net()`) and puts in eval mode
// is a module when it is handed to a helper.
[[nodiscard]] std::vector<ValueKind> name_kinds_from_use(const Function& function,
                                                         const std::vector<std::string_view>& names,
                                                         const BackwardEvidence& backward = {});

}  // namespace sealint::ir
