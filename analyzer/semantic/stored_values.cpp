#include "analyzer/semantic/stored_values.h"

#include <algorithm>
#include <vector>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"

namespace sealint::semantic {

std::set<std::string, std::less<>> names_feeding_stores(const ir::FileAnalysis& analysis,
                                                        const ir::Stmt& loop) {
  std::set<std::string, std::less<>> feeding;
  auto add_reads = [&](const ir::Expr* value) {
    bool grew = false;
    ir::for_each_read_with_history(value, [&](std::string_view key, const ir::Expr&) {
      grew = feeding.emplace(ir::place_root(key)).second || grew;
      return false;
    });
    return grew;
  };
  ir::for_each_nested(loop.body, [&](const ir::Stmt& stmt) {
    if ((stmt.kind == ir::StmtKind::Assign || stmt.kind == ir::StmtKind::AnnAssign) &&
        stmt.value != nullptr && ir::holds_graph(analysis.fact(*stmt.value))) {
      for (const ir::Expr* target : stmt.targets) {
        if (target->kind == ir::ExprKind::Attr || target->kind == ir::ExprKind::Subscript)
          add_reads(stmt.value);
      }
    }
    ir::for_each_expr(stmt, [&](const ir::Expr& e) {
      if (e.kind != ir::ExprKind::Call || e.callee()->kind != ir::ExprKind::Attr ||
          knowledge::container_store(e.callee()->text) == nullptr) {
        return;
      }
      for (size_t i = 0; i < e.arg_count(); ++i) {
        if (ir::holds_graph(analysis.fact(*e.arg(i)))) add_reads(e.arg(i));
      }
    });
  });
  // Back through the assignments, to a fixed point (each round adds a name or ends).
  for (bool grew = !feeding.empty(); grew;) {
    grew = false;
    ir::for_each_nested(loop.body, [&](const ir::Stmt& stmt) {
      if (stmt.kind != ir::StmtKind::Assign && stmt.kind != ir::StmtKind::AnnAssign) return;
      std::vector<std::string_view> bound;
      for (const ir::Expr* target : stmt.targets) {
        ir::for_each_subexpr(*target, [&](const ir::Expr& sub) {
          if (sub.kind == ir::ExprKind::Name) bound.push_back(sub.text);
        });
      }
      const bool feeds = std::any_of(bound.begin(), bound.end(),
                                     [&](std::string_view name) { return feeding.contains(name); });
      if (!feeds) return;
      for (std::string_view name : bound) grew = feeding.emplace(name).second || grew;
      grew = add_reads(stmt.value) || grew;
    });
  }
  return feeding;
}

}  // namespace sealint::semantic
