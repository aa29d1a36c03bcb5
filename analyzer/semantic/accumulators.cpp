#include "analyzer/semantic/accumulators.h"

#include <string>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

bool is_empty_display(const Expr* value) {
  return value != nullptr &&
         ((value->kind == ExprKind::Collection && value->items.empty() &&
           value->collection_kind != ir::CollectionKind::Generator) ||
          (value->kind == ExprKind::Call && value->callee()->kind == ExprKind::Name &&
           (value->callee()->text == "list" || value->callee()->text == "dict") &&
           value->arg_count() == 0));
}

// Does `stmt` empty `key` (`key = []`, `key.clear()`, `del key[:]`)?
bool empties(const Stmt& stmt, const std::string& key) {
  if (stmt.kind == StmtKind::Assign && is_empty_display(stmt.value)) {
    for (const Expr* target : stmt.targets) {
      if (ir::place_key(target) == key) return true;
    }
  }
  if (stmt.kind == StmtKind::ExprStmt && stmt.value != nullptr &&
      stmt.value->kind == ExprKind::Call && stmt.value->callee()->kind == ExprKind::Attr &&
      stmt.value->callee()->text == "clear" && ir::place_key(stmt.value->callee()->base()) == key)
    return true;
  return false;
}

// Does `stmt` read `key` whole: hand it to a call (`torch.cat(key)`, `np.mean(key)`), or iterate
// it (`for x in key`)?
bool reads_whole(const Stmt& stmt, const std::string& key) {
  if (stmt.kind == StmtKind::Loop && stmt.loop_kind == ir::LoopKind::For && stmt.value != nullptr &&
      ir::place_key(stmt.value) == key)
    return true;
  bool reads = false;
  ir::for_each_expr(stmt, [&](const Expr& e) {
    if (reads || e.kind != ExprKind::Call) return;
    for (size_t i = 0; i < e.arg_count(); ++i) reads = reads || ir::place_key(e.arg(i)) == key;
  });
  return reads;
}

// Does `method` read `key` whole and empty it afterwards?
bool drains(const ir::Function& method, const std::string& key) {
  uint32_t read_at = 0;
  bool read = false;
  bool drained = false;
  ir::for_each_nested(method.body, [&](const Stmt& stmt) {
    if (drained) return;
    if (!read && reads_whole(stmt, key)) {
      read = true;
      read_at = stmt.range.begin;
    } else if (read && stmt.range.begin > read_at && empties(stmt, key)) {
      drained = true;
    }
  });
  return drained;
}

}  // namespace

const ir::Function* drained_by(const ir::FileAnalysis& analysis, const ir::Function& adder,
                               std::string_view key) {
  if (adder.parent_class == nullptr || adder.name == "__init__") return nullptr;
  const std::string place(key);
  const std::string prefix = std::string(ir::kReceiver) + ".";
  if (!place.starts_with(prefix) || place.find_first_of(".[", prefix.size()) != std::string::npos)
    return nullptr;
  // Emptied by the adder itself: at most one call's worth.
  bool resets_itself = false;
  ir::for_each_nested(
      adder.body, [&](const Stmt& stmt) { resets_itself = resets_itself || empties(stmt, place); });
  if (resets_itself) return nullptr;
  for (const ir::ClassDef* owner : same_file_chain(analysis, *adder.parent_class)) {
    for (const ir::Function* method : owner->methods) {
      if (method != &adder && method->name != "__init__" && drains(*method, place)) return method;
    }
  }
  return nullptr;
}

}  // namespace sealint::semantic
