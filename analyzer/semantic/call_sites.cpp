#include "analyzer/semantic/call_sites.h"

#include "analyzer/ir/walk.h"

namespace sealint::semantic {

const std::vector<CallSite>& CallSites::of(const ir::Function& callee) {
  if (!indexed_) {
    indexed_ = true;
    for (const ir::Function& caller : module_.functions()) {
      ir::for_each_nested(caller.body, [&](const ir::Stmt& stmt) {
        ir::for_each_expr(stmt, [&](const ir::Expr& call) {
          if (call.kind != ir::ExprKind::Call) return;
          if (const ir::Function* target = analysis_.resolve_callee(caller, call))
            calls_[target].push_back({&caller, &call});
        });
      });
    }
  }
  static const std::vector<CallSite> kNone;
  auto it = calls_.find(&callee);
  return it == calls_.end() ? kNone : it->second;
}

std::string_view receiver_name(const ir::Function& function) {
  if (function.parent_class == nullptr || function.params.empty()) return {};
  return function.params[0].name;
}

std::optional<size_t> parameter_index(const ir::Function& function, std::string_view name) {
  for (size_t i = 0; i < function.params.size(); ++i) {
    if (function.params[i].name == name) return i;
  }
  return std::nullopt;
}

const ir::Expr* argument_for(const ir::Function& callee, const ir::Expr& call, size_t index,
                             bool& unknown) {
  unknown = false;
  const size_t first = receiver_name(callee).empty() ? 0 : 1;
  if (index < first) return nullptr;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (call.arg(i)->kind == ir::ExprKind::Starred) {
      unknown = true;
      return nullptr;
    }
    if (i == index - first) return call.arg(i);
  }
  for (const ir::Keyword& keyword : call.keywords) {
    if (keyword.name == callee.params[index].name) return keyword.value;
    if (keyword.name.empty()) unknown = true;
  }
  return nullptr;
}

}  // namespace sealint::semantic
