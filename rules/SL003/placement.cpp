#include "rules/SL003/placement.h"

#include <algorithm>
#include <string>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::rules::sl003 {

using ir::Expr;
using ir::ExprKind;
using ir::FoldedInt;
using ir::Stmt;
using ir::StmtKind;
using knowledge::LayerSpec;

bool mentions_meta(const ir::Module& module, const Expr* value) {
  if (value != nullptr && value->kind == ExprKind::Call && value->arg_count() > 0 &&
      ir::qualified_name(module, value->callee()) == "torch.device")
    value = value->arg(0);
  return value != nullptr && value->kind == ExprKind::Const &&
         value->const_kind == ir::ConstKind::Str &&
         value->text.find("meta") != std::string_view::npos;
}

namespace {

// An argument of `.to(...)`: a dtype, a device, or something that may be either.
void classify_to_argument(const ir::Module& module, const Expr* value, Conversion& out) {
  if (value == nullptr) return;
  if (mentions_meta(module, value)) {
    out.meta = true;
    return;
  }
  const std::string qualified = ir::qualified_name(module, value);
  if (qualified.empty()) return;  // a string or a call: a device
  if (const std::optional<int> bytes = knowledge::dtype_bytes(qualified)) {
    out.bytes = bytes;
  } else if (qualified.find("dtype") != std::string::npos || qualified.starts_with("torch.")) {
    out.unknown_dtype = true;  // `.to(dtype)`, `.to(self.dtype)`, `.to(torch.int8)`
  }
}

}  // namespace

Conversion apply_chain(const ir::Module& module, const std::vector<const Expr*>& calls) {
  Conversion out;
  // `calls` runs from the outermost method to the innermost; apply them innermost first.
  for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
    const Expr& call = **it;
    const std::string_view method = call.callee()->text;
    if (method == "half" || method == "bfloat16") {
      out.bytes = 2;
    } else if (method == "float") {
      out.bytes = 4;
    } else if (method == "double") {
      out.bytes = 8;
    } else if (method == "to") {
      for (size_t i = 0; i < call.arg_count(); ++i) classify_to_argument(module, call.arg(i), out);
      classify_to_argument(module, call.keyword("dtype"), out);
      classify_to_argument(module, call.keyword("device"), out);
    } else if (method == "requires_grad_") {
      const Expr* flag = call.arg_count() > 0 ? call.arg(0) : call.keyword("requires_grad");
      if (flag != nullptr && !(flag->kind == ExprKind::Const && flag->text == "True"))
        out.frozen = true;
    }
  }
  return out;
}

namespace {

// A `with` under which a layer keeps no memory of its own: `torch.device("meta")`, accelerate's
// `init_empty_weights()`, DeepSpeed's `zero.Init()` (ZeRO-3 partitions parameters as they are
// built); or one that expects the block to fail (`pytest.raises`, `self.assertRaises`).
bool shields_layers(const ir::Module& module, const Stmt& guard) {
  for (const Expr* item : guard.items) {
    if (item->kind != ExprKind::Call) continue;
    if (mentions_meta(module, item)) return true;
    const std::string qualified = ir::qualified_name(module, item->callee());
    const std::string_view last = knowledge::last_component(qualified);
    if (last == "init_empty_weights" || qualified.ends_with("zero.Init")) return true;
    if (last == "raises" || last.starts_with("assertRaises")) return true;
    if (last == "init_on_device" && item->arg_count() > 0 && mentions_meta(module, item->arg(0)))
      return true;
  }
  return false;
}

// LibTorch's `register_module("fc", torch::nn::Linear(...))` returns the module it is given.
const Expr* registered_module(const Expr* e) {
  if (e == nullptr || e->kind != ExprKind::Call || e->arg_count() != 2) return e;
  const Expr* callee = e->callee();
  if ((callee->kind == ExprKind::Attr || callee->kind == ExprKind::Name) &&
      callee->text == "register_module")
    return e->arg(1);
  return e;
}

void visit_expr(const ir::Module& module, const Expr& e, size_t scope, bool elsewhere, Walk& walk) {
  if (e.kind != ExprKind::Call) return;
  const std::string qualified = ir::qualified_name(module, e.callee());
  if (const LayerSpec* spec = knowledge::find_layer(qualified)) {
    walk.layers.push_back({&e, spec, scope, elsewhere, e.range});
    return;
  }
  if (qualified == "torch.set_default_dtype" || qualified == "torch.set_default_tensor_type") {
    walk.default_dtype_changed = true;
  } else if (qualified == "torch.set_default_device" && e.arg_count() > 0 &&
             mentions_meta(module, e.arg(0))) {
    walk.default_device_meta = true;
  }
  // `<call>.half().cuda()`: remember the chain on the innermost call, longest chain wins.
  std::vector<const Expr*> chain;
  const Expr* at = &e;
  while (at->kind == ExprKind::Call && at->callee()->kind == ExprKind::Attr &&
         knowledge::is_chained_module_method(at->callee()->text)) {
    chain.push_back(at);
    at = at->callee()->base();
  }
  if (module.language() == ir::Language::Cpp) at = registered_module(at);
  if (chain.empty() || at->kind != ExprKind::Call) return;
  std::vector<const Expr*>& known = walk.chains[at];
  if (chain.size() > known.size()) known = std::move(chain);
}

// C++: where a statement puts a layer it builds (`auto fc = torch::nn::Linear(...)`,
// `fc = register_module("fc", ...)`), so that a later `fc->to(torch::kHalf);` (LibTorch's `to`
// returns nothing, so it is a statement of its own) converts that layer.
struct Placed {
  const Expr* call = nullptr;
  const std::vector<Stmt*>* block = nullptr;
};

void track_cpp_layer(const Stmt& stmt, const std::vector<Stmt*>* block, size_t first_new,
                     Walk& walk, std::unordered_map<std::string, Placed>& places) {
  if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value != nullptr) {
    std::string key = ir::place_key(stmt.targets[0]);
    if (!key.empty()) places.erase(key);  // rebound: a later `->to()` is not the old layer's
    const Expr* value = registered_module(stmt.value);
    for (size_t i = first_new; i < walk.layers.size(); ++i) {
      LayerCall& layer = walk.layers[i];
      if (layer.call != value) continue;
      // `torch::nn::Linear fc(4096, 4096)`, a member's `torch::nn::Linear fc{4096, 4096};`: the
      // call is `fc(4096, 4096)` or `{4096, 4096}`; quote the declaration.
      if (layer.call == stmt.value && stmt.declaration == ir::Declaration::Direct)
        layer.quote = stmt.range;
      if (!key.empty()) places[key] = {layer.call, block};
    }
    return;
  }
  // `fc->to(torch::kHalf);` right in the block that built `fc` (not under a condition).
  if (stmt.kind != StmtKind::ExprStmt || stmt.value == nullptr ||
      stmt.value->kind != ExprKind::Call || stmt.value->callee()->kind != ExprKind::Attr ||
      stmt.value->callee()->text != "to")
    return;
  const auto placed = places.find(ir::place_key(stmt.value->callee()->base()));
  if (placed == places.end() || placed->second.block != block) return;
  // Statements run in order: a later conversion applies after the earlier ones.
  std::vector<const Expr*>& chain = walk.chains[placed->second.call];
  chain.insert(chain.begin(), stmt.value);
}

// Every layer construction of one scope (a function's body or a class body), in source order.
class ScopeWalk {
 public:
  ScopeWalk(const ir::Module& module, size_t scope, Walk& walk)
      : module_(module), scope_(scope), walk_(walk) {}

  void visit(const Stmt& stmt, const ir::StmtContext& where) {
    // Under a `with` that shields layers (a meta device, a failing block), nothing is allocated.
    const bool elsewhere =
        std::any_of(where.guards.begin(), where.guards.end(),
                    [&](const Stmt* guard) { return shields_layers(module_, *guard); });
    const size_t first_new = walk_.layers.size();
    ir::for_each_expr(stmt,
                      [&](const Expr& e) { visit_expr(module_, e, scope_, elsewhere, walk_); });
    if (module_.language() == ir::Language::Cpp)
      track_cpp_layer(stmt, where.block, first_new, walk_, places_);
  }

 private:
  const ir::Module& module_;
  size_t scope_;
  Walk& walk_;
  std::unordered_map<std::string, Placed> places_;
};

// Names bound by the enclosing functions (not the module: its names are the constants).
void add_enclosing(const ir::Function* function, std::unordered_set<std::string_view>& names) {
  for (; function != nullptr && !function->is_module; function = function->parent_function)
    names.merge(ir::locally_bound_names(*function));
}

}  // namespace

Walk walk_module(const ir::Module& module) {
  Walk walk;
  for (const ir::Function& function : module.functions()) {
    std::unordered_set<std::string_view> shadowed;
    add_enclosing(&function, shadowed);
    walk.scopes.push_back(std::move(shadowed));
    walk.functions.push_back(&function);
    ScopeWalk scope(module, walk.scopes.size() - 1, walk);
    ir::walk_statements(function, false, [&](const Stmt& stmt, const ir::StmtContext& where) {
      scope.visit(stmt, where);
    });
  }
  for (const ir::ClassDef& cls : module.classes()) {
    std::unordered_set<std::string_view> shadowed = ir::locally_bound_names(cls);
    add_enclosing(cls.parent_function, shadowed);
    walk.scopes.push_back(std::move(shadowed));
    walk.functions.push_back(nullptr);
    ScopeWalk scope(module, walk.scopes.size() - 1, walk);
    ir::walk_block(cls.body, [&](const Stmt& stmt, const ir::StmtContext& where) {
      scope.visit(stmt, where);
    });
  }
  return walk;
}

std::vector<std::unique_ptr<const ir::LocalConstants>> cpp_locals(
    const ir::Module& module, const Walk& walk, const ir::ModuleConstants& constants) {
  std::vector<std::unique_ptr<const ir::LocalConstants>> locals(walk.scopes.size());
  if (module.language() != ir::Language::Cpp) return locals;
  const ir::NameLookup module_constant = [&](const Expr& name) -> std::optional<FoldedInt> {
    const ir::ModuleConstant* constant = constants.find(name.text);
    return constant ? std::optional(constant->value) : std::nullopt;
  };
  for (const LayerCall& layer : walk.layers) {
    const ir::Function* function = walk.functions[layer.scope];
    if (locals[layer.scope] || function == nullptr || function->is_module) continue;
    locals[layer.scope] = std::make_unique<ir::LocalConstants>(module, *function, module_constant);
  }
  return locals;
}

}  // namespace sealint::rules::sl003
