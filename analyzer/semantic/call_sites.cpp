#include "analyzer/semantic/call_sites.h"

#include <algorithm>

#include "analyzer/ir/walk.h"
#include "analyzer/semantic/iteration.h"

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

namespace {

// The innermost loop of `function` around `call`, or nullptr.
const ir::Stmt* loop_around(const ir::Function& function, const ir::Expr& call) {
  const ir::Stmt* innermost = nullptr;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind == ir::StmtKind::Loop && stmt.range.begin <= call.range.begin &&
        call.range.end <= stmt.range.end &&
        (innermost == nullptr || stmt.range.begin >= innermost->range.begin))
      innermost = &stmt;
  });
  return innermost;
}

std::optional<LoopCall> search_loop_call(const ir::Module& module, CallSites& calls,
                                         const ir::Function& function, int depth,
                                         std::vector<const ir::Function*>& seen) {
  if (depth <= 0 || std::find(seen.begin(), seen.end(), &function) != seen.end())
    return std::nullopt;
  seen.push_back(&function);
  for (const CallSite& site : calls.of(function)) {
    const ir::Stmt* loop = loop_around(*site.caller, *site.call);
    if (loop != nullptr && !iterates_fixed_handful(module, *site.caller, *loop))
      return LoopCall{site.caller, site.call, loop};
  }
  for (const CallSite& site : calls.of(function)) {
    if (site.caller == &function) continue;
    if (auto found = search_loop_call(module, calls, *site.caller, depth - 1, seen)) return found;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LoopCall> called_from_loop(const ir::Module& module, CallSites& calls,
                                         const ir::Function& function, int depth) {
  std::vector<const ir::Function*> seen;
  return search_loop_call(module, calls, function, depth, seen);
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
