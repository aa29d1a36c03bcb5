#include "analyzer/semantic/model_steps.h"

#include <algorithm>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/containers.h"
#include "analyzer/semantic/hooks.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::semantic {

namespace {

// `self.x` and deeper: what outlives the call. A local is gone when the call returns.
bool on_self(const std::string& key) {
  return key.starts_with("self.");
}

std::vector<std::string> kept_on_self(const ir::Function& function) {
  std::vector<std::string> keys;
  auto add = [&](std::string key) {
    key = key.substr(0, key.find('['));  // a subscripted place is measured as its container
    if (on_self(key) && std::find(keys.begin(), keys.end(), key) == keys.end())
      keys.push_back(std::move(key));
  };
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind == ir::StmtKind::AugAssign && !stmt.targets.empty())
      add(ir::place_key(stmt.targets.front()));
    if (stmt.kind == ir::StmtKind::Assign && stmt.targets.size() == 1 && stmt.value != nullptr) {
      const std::string key = ir::place_key(stmt.targets.front());
      bool reads = false;
      ir::for_each_subexpr(*stmt.value,
                           [&](const ir::Expr& e) { reads = reads || ir::place_key(&e) == key; });
      if (reads) add(key);
    }
    ir::for_each_expr(stmt, [&](const ir::Expr& e) {
      if (e.kind == ir::ExprKind::Call && e.callee()->kind == ir::ExprKind::Attr &&
          knowledge::container_store(e.callee()->text) != nullptr)
        add(ir::place_key(e.callee()->base()));
    });
  });
  return keys;
}

}  // namespace

std::vector<ModelStep> model_steps(const ir::Module& module, const ir::FileAnalysis& analysis) {
  ModelRuns runs(analysis);
  std::vector<ModelStep> out;
  for (const ir::Function& function : module.functions()) {
    if (!repeated_by_framework(analysis, function)) continue;
    bool runs_model = false;
    for (const ir::Expr* call : ir::calls_in(function.body)) {
      runs_model = runs_model || is_model_call(analysis, *call) ||
                   runs.helper_called(function, *call).function != nullptr;
    }
    if (runs_model) out.push_back({&function, kept_on_self(function)});
  }
  return out;
}

}  // namespace sealint::semantic
