#pragma once
// Where a file builds its layers, and what happens to each right after: a method chained on it
// (`.half()`, `.to("meta")`), a guard it is built under (`with torch.device("meta")`), a default
// dtype or device the file sets, and which names shadow module constants there.
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/ir.h"
#include "analyzer/knowledge/torch_layers.h"

namespace sealint::rules::sl003 {

// What a method chained on the construction does: `nn.Linear(...).half()`.
struct Conversion {
  std::optional<int> bytes;  // a new dtype's element size
  bool unknown_dtype = false;
  bool meta = false;    // moved to the meta device: nothing allocated
  bool frozen = false;  // `.requires_grad_(False)`: no grads, no optimizer state
};

struct LayerCall {
  const ir::Expr* call = nullptr;
  const knowledge::LayerSpec* spec = nullptr;
  size_t scope = 0;        // index into Walk::scopes
  bool elsewhere = false;  // under a guard that keeps it from holding memory (shields_layers)
  ir::SourceRange quote;   // what the message quotes: the call, or a C++ declaration
};

// Everything the rule needs from one pass over the file.
struct Walk {
  std::vector<LayerCall> layers;
  std::vector<std::unordered_set<std::string_view>> scopes;  // names that shadow module constants
  std::vector<const ir::Function*> functions;  // each scope's function; nullptr: a class body
  std::unordered_map<const ir::Expr*, std::vector<const ir::Expr*>>
      chains;  // layer call -> methods on it
  bool default_dtype_changed = false;
  bool default_device_meta = false;
};

// `"meta"` or `torch.device("meta")`.
[[nodiscard]] bool mentions_meta(const ir::Module& module, const ir::Expr* value);

// What the methods chained on a construction do, `calls` running from the outermost method in.
[[nodiscard]] Conversion apply_chain(const ir::Module& module,
                                     const std::vector<const ir::Expr*>& calls);

// One pass over the file: every layer construction and its context.
[[nodiscard]] Walk walk_module(const ir::Module& module);

// C++: the local declarations of each scope that builds a layer (a function's; not a class
// body's, nor the top level's, whose constants are the module's); null entries elsewhere.
[[nodiscard]] std::vector<std::unique_ptr<const ir::LocalConstants>> cpp_locals(
    const ir::Module& module, const Walk& walk, const ir::ModuleConstants& constants);

}  // namespace sealint::rules::sl003
