#include "analyzer/ir/binding_index.h"

#include <algorithm>

#include "analyzer/ir/bindings.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"

namespace sealint::ir {

BindingIndex::BindingIndex(const Function& function) : function_(function) {
  std::vector<std::string> keys;
  walk_statements(function, false, [&](const Stmt& stmt, const StmtContext& where) {
    const size_t position = positions_.size();
    positions_.emplace(&stmt, position);
    // As escape.cpp's names_bound_in: a `global` binds its names, any other statement its keys.
    keys.clear();
    if (stmt.kind == StmtKind::Global) {
      for (const Expr* target : stmt.targets) {
        if (target->kind == ExprKind::Name) keys.emplace_back(target->text);
      }
    } else {
      bound_keys(stmt, keys);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (std::string& key : keys)
      binders_[std::move(key)].push_back({&stmt, position, where.loops});
  });
}

bool BindingIndex::defined_outside(const Stmt& loop, std::string_view key) const {
  const std::string_view root = place_root(key);
  if (root == kReceiver || function_.has_param(root)) return true;
  const auto found = binders_.find(std::string(root));
  // Not bound in this function: a module-level name (or an attribute of one), which outlives it.
  if (found == binders_.end()) return true;
  return std::any_of(found->second.begin(), found->second.end(), [&](const Binder& binder) {
    return binder.stmt->kind == StmtKind::Global ||
           (binder.stmt != &loop &&
            std::find(binder.loops.begin(), binder.loops.end(), &loop) == binder.loops.end());
  });
}

const Stmt* BindingIndex::binding_before(const Stmt& before, std::string_view key) const {
  const auto found = binders_.find(std::string(place_root(key)));
  if (found == binders_.end()) return nullptr;
  const std::vector<Binder>& binders = found->second;
  const auto at = positions_.find(&before);
  // A statement not in the function: the walk never passes it, and every binding counts.
  if (at == positions_.end()) return binders.back().stmt;
  const auto after = std::partition_point(binders.begin(), binders.end(),
                                          [&](const Binder& b) { return b.position < at->second; });
  return after == binders.begin() ? nullptr : std::prev(after)->stmt;
}

}  // namespace sealint::ir
