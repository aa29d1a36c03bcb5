#include "analyzer/semantic/accumulators.h"

#include <string>
#include <unordered_map>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;
using FileAnalysisDrains = ir::FileAnalysis::DrainedAttributes;

// `self.x` (the IR names every receiver kReceiver) as the attribute name `x`; empty for anything
// else (`self.x.y`, `self.x[k]`, a local).
std::string receiver_attribute(const Expr* place) {
  if (place == nullptr) return {};
  const std::string key = ir::place_key(place);
  const std::string prefix = std::string(ir::kReceiver) + ".";
  if (!key.starts_with(prefix) || key.find_first_of(".[", prefix.size()) != std::string::npos)
    return {};
  return key.substr(prefix.size());
}

bool is_empty_display(const Expr* value) {
  return value != nullptr &&
         ((value->kind == ExprKind::Collection && value->items.empty() &&
           value->collection_kind != ir::CollectionKind::Generator) ||
          (value->kind == ExprKind::Call && value->callee()->kind == ExprKind::Name &&
           (value->callee()->text == "list" || value->callee()->text == "dict") &&
           value->arg_count() == 0));
}

// The attributes `stmt` empties (`self.x = []`, `self.x.clear()`).
template <typename Visit>
void emptied(const Stmt& stmt, const Visit& visit) {
  if (stmt.kind == StmtKind::Assign && is_empty_display(stmt.value)) {
    for (const Expr* target : stmt.targets) {
      if (std::string attr = receiver_attribute(target); !attr.empty()) visit(attr);
    }
  }
  if (stmt.kind == StmtKind::ExprStmt && stmt.value != nullptr &&
      stmt.value->kind == ExprKind::Call && stmt.value->callee()->kind == ExprKind::Attr &&
      stmt.value->callee()->text == "clear") {
    if (std::string attr = receiver_attribute(stmt.value->callee()->base()); !attr.empty())
      visit(attr);
  }
}

// The attributes `stmt` reads whole: handed to a call (`torch.cat(self.x)`, `np.mean(self.x)`),
// or iterated (`for v in self.x`).
template <typename Visit>
void read_whole(const Stmt& stmt, const Visit& visit) {
  if (stmt.kind == StmtKind::Loop && stmt.loop_kind == ir::LoopKind::For) {
    if (std::string attr = receiver_attribute(stmt.value); !attr.empty()) visit(attr);
  }
  ir::for_each_expr(stmt, [&](const Expr& e) {
    if (e.kind != ExprKind::Call) return;
    for (size_t i = 0; i < e.arg_count(); ++i) {
      if (std::string attr = receiver_attribute(e.arg(i)); !attr.empty()) visit(attr);
    }
  });
}

// Every attribute some method of the chain (not a constructor) reads whole and empties after.
FileAnalysisDrains drains_of_chain(const ir::FileAnalysis& analysis, const ir::ClassDef& cls) {
  FileAnalysisDrains drains;
  for (const ir::ClassDef* owner : same_file_chain(analysis, cls)) {
    for (const ir::Function* method : owner->methods) {
      if (method->name == "__init__") continue;
      std::unordered_map<std::string, uint32_t> read_at;
      ir::for_each_nested(method->body, [&](const Stmt& stmt) {
        emptied(stmt, [&](const std::string& attr) {
          auto it = read_at.find(attr);
          if (it != read_at.end() && stmt.range.begin > it->second) drains.emplace(attr, method);
        });
        read_whole(stmt, [&](const std::string& attr) { read_at.emplace(attr, stmt.range.begin); });
      });
    }
  }
  return drains;
}

}  // namespace

const ir::Function* drained_by(const ir::FileAnalysis& analysis, const ir::Function& adder,
                               std::string_view key) {
  if (adder.parent_class == nullptr || adder.name == "__init__") return nullptr;
  const std::string prefix = std::string(ir::kReceiver) + ".";
  if (!key.starts_with(prefix) || key.find_first_of(".[", prefix.size()) != std::string::npos)
    return nullptr;
  const std::string attr(key.substr(prefix.size()));
  const FileAnalysisDrains& drains = analysis.drained_attributes(
      *adder.parent_class, [&] { return drains_of_chain(analysis, *adder.parent_class); });
  const auto it = drains.find(attr);
  if (it == drains.end() || it->second == &adder) return nullptr;
  // Emptied by the adder itself: at most one call's worth.
  bool resets_itself = false;
  ir::for_each_nested(adder.body, [&](const Stmt& stmt) {
    emptied(stmt, [&](const std::string& emptied_attr) {
      resets_itself = resets_itself || emptied_attr == attr;
    });
  });
  return resets_itself ? nullptr : it->second;
}

}  // namespace sealint::semantic
