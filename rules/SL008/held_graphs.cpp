#include "rules/SL008/held_graphs.h"

#include <algorithm>
#include <vector>

#include "analyzer/ir/facts.h"
#include "analyzer/ir/walk.h"

namespace sealint::rules::sl008 {

namespace {

// The name an assignment binds, when it binds a plain name.
std::string_view assigned_name(const ir::Stmt& stmt) {
  if (stmt.kind != ir::StmtKind::Assign || stmt.targets.size() != 1) return {};
  const ir::Expr* target = stmt.targets.front();
  return target->kind == ir::ExprKind::Name ? target->text : std::string_view();
}

}  // namespace

const ir::Stmt* graph_kept_past_try(const ir::FileAnalysis& analysis, const ir::Stmt& try_stmt) {
  std::vector<std::string_view> declared;
  std::vector<const ir::Stmt*> assigned;
  ir::for_each_nested(try_stmt.body, [&](const ir::Stmt& stmt) {
    const std::string_view name = assigned_name(stmt);
    if (name.empty()) return;
    if (stmt.declaration != ir::Declaration::None) {
      declared.push_back(name);
    } else if (stmt.value != nullptr && ir::holds_graph(analysis.fact(*stmt.value))) {
      assigned.push_back(&stmt);
    }
  });
  for (const ir::Stmt* stmt : assigned) {
    // A name the try block declares dies with it, before the handler runs.
    if (std::find(declared.begin(), declared.end(), assigned_name(*stmt)) == declared.end())
      return stmt;
  }
  return nullptr;
}

bool rebound_before(const ir::Handler& handler, std::string_view name, uint32_t offset) {
  bool rebound = false;
  ir::for_each_nested(handler.body, [&](const ir::Stmt& stmt) {
    if (stmt.range.begin < offset && assigned_name(stmt) == name) rebound = true;
  });
  return rebound;
}

}  // namespace sealint::rules::sl008
