#include "analyzer/semantic/definitions.h"

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;
using Index = std::unordered_map<std::string, std::vector<Definition>>;

// Binds `target` to `value`: a tuple target pairs its places with a tuple display's items, and
// otherwise binds each place to an element of the value.
void add_definition(Index& out, const Expr* target, const Stmt& stmt, const Expr* value,
                    bool element) {
  if (target == nullptr) return;
  if (target->kind == ExprKind::Collection) {
    const bool paired = value != nullptr && value->kind == ExprKind::Collection &&
                        value->items.size() == target->items.size();
    for (size_t i = 0; i < target->items.size(); ++i)
      add_definition(out, target->items[i], stmt, paired ? value->items[i] : value,
                     !paired || element);
    return;
  }
  if (target->kind == ExprKind::Starred) {
    add_definition(out, target->base(), stmt, value, true);
    return;
  }
  const std::string key = ir::place_key(target);
  if (key.empty() || key.find('[') != std::string::npos) return;
  out[key].push_back({stmt.range.begin, &stmt, value, element});
}

void index_function(const ir::Function& function, Index& out) {
  ir::for_each_nested(function.body, [&](const Stmt& stmt) {
    switch (stmt.kind) {
      case StmtKind::Assign:
      case StmtKind::AnnAssign:
        if (stmt.value == nullptr) break;
        for (const Expr* target : stmt.targets)
          add_definition(out, target, stmt, stmt.value, false);
        break;
      case StmtKind::Loop:
      case StmtKind::Del:
        for (const Expr* target : stmt.targets) add_definition(out, target, stmt, nullptr, false);
        break;
      case StmtKind::Guard:
        // `with a as x, b as y`: each target is bound to its own item.
        for (size_t i = 0; i < stmt.targets.size(); ++i) {
          const Expr* item = stmt.items.size() == stmt.targets.size() ? stmt.items[i]
                             : stmt.items.size() == 1                 ? stmt.items[0]
                                                                      : nullptr;
          add_definition(out, stmt.targets[i], stmt, item, false);
        }
        break;
      case StmtKind::AugAssign:
      case StmtKind::ExprStmt:
      case StmtKind::Return:
      case StmtKind::If:
      case StmtKind::Try:
      case StmtKind::FunctionDef:
      case StmtKind::ClassDef:
      case StmtKind::Import:
      case StmtKind::Global:
      case StmtKind::Raise:
      case StmtKind::Other:
        break;
    }
  });
}

}  // namespace

const Index& Definitions::index(const ir::Function& function) {
  auto [it, inserted] = functions_.try_emplace(&function);
  if (inserted) index_function(function, it->second);
  return it->second;
}

const std::vector<Definition>& Definitions::of(const ir::Function& function,
                                               const std::string& key) {
  static const std::vector<Definition> kNone;
  const Index& definitions = index(function);
  auto it = definitions.find(key);
  return it == definitions.end() ? kNone : it->second;
}

const Definition* Definitions::before(const ir::Function& function, const std::string& key,
                                      uint32_t pos) {
  const Definition* found = nullptr;
  for (const Definition& definition : of(function, key)) {
    if (definition.pos < pos) found = &definition;
  }
  return found;
}

}  // namespace sealint::semantic
