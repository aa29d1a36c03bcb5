#include "rules/SL006/mode_switches.h"

#include <algorithm>
#include <string_view>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules::sl006 {

namespace {

// `switched` is `model` or a model that holds it.
bool covers(const std::string& switched, const std::string& model) {
  return !switched.empty() &&
         (switched == model || (model.starts_with(switched) && model[switched.size()] == '.'));
}

}  // namespace

std::vector<ModeSwitch> mode_switches(const ir::Function& function) {
  std::vector<ModeSwitch> out;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (stmt.kind != ir::StmtKind::ExprStmt || stmt.value == nullptr ||
        stmt.value->kind != ir::ExprKind::Call)
      return;
    const ir::Expr* callee = stmt.value->callee();
    if (callee->kind != ir::ExprKind::Attr || stmt.value->arg_count() != 0) return;
    if (callee->text == "eval" || callee->text == "train")
      out.push_back({&stmt, ir::place_key(callee->base()), callee->text == "eval"});
  });
  return out;
}

std::string switched_name(const ir::Stmt& mode_switch) {
  return ir::place_key(mode_switch.value->callee()->base());
}

const ir::Stmt* eval_in_force(const std::vector<ModeSwitch>& switches, const std::string& model,
                              uint32_t at) {
  const ir::Stmt* last = nullptr;
  bool eval = false;
  for (const ModeSwitch& s : switches) {
    if (!covers(s.model, model) || s.stmt->range.begin >= at) continue;
    last = s.stmt;
    eval = s.eval;
  }
  return eval ? last : nullptr;
}

const ir::Stmt* eval_of_wrapped_model(const std::vector<ModeSwitch>& switches,
                                      const ir::Function& function, const std::string& model,
                                      uint32_t at) {
  // The names handed to the calls that bind `model` (and, a few wrappers deep, to the calls that
  // bind those): `FSDP(wrapper)` after `wrapper = Distill(student=net)` reaches `net`.
  constexpr int kWrappersDeep = 3;
  // `both[0]` runs what `both` was built from.
  std::vector<std::string> sources{model};
  if (const std::string root(ir::place_root(model)); !root.empty() && root != model)
    sources.push_back(root);
  for (int depth = 0; depth < kWrappersDeep; ++depth) {
    const size_t known = sources.size();
    ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
      if (stmt.kind != ir::StmtKind::Assign || stmt.value == nullptr ||
          stmt.value->kind != ir::ExprKind::Call || stmt.targets.size() != 1 ||
          stmt.value->range.begin >= at ||
          std::find(sources.begin(), sources.end(), ir::place_key(stmt.targets[0])) ==
              sources.end())
        return;
      auto add = [&](const ir::Expr* arg) {
        if (arg == nullptr) return;
        // `nn.ModuleList([first, second])`: the members of a written-out list.
        const std::vector<const ir::Expr*> parts =
            arg->kind == ir::ExprKind::Collection
                ? std::vector<const ir::Expr*>(arg->items.begin(), arg->items.end())
                : std::vector<const ir::Expr*>{arg};
        for (const ir::Expr* part : parts) {
          const std::string key = ir::place_key(part);
          if (!key.empty() && std::find(sources.begin(), sources.end(), key) == sources.end())
            sources.push_back(key);
        }
      };
      for (size_t i = 0; i < stmt.value->arg_count(); ++i) add(stmt.value->arg(i));
      for (const ir::Keyword& keyword : stmt.value->keywords) add(keyword.value);
    });
    if (sources.size() == known) break;
  }
  for (size_t i = 1; i < sources.size(); ++i) {
    if (const ir::Stmt* eval = eval_in_force(switches, sources[i], at)) return eval;
  }
  return nullptr;
}

const ir::Stmt* eval_held_by_class(const ir::FileAnalysis& analysis, const ir::Function& function,
                                   const std::string& model) {
  const ir::ClassDef* cls = function.parent_class;
  if (cls == nullptr || !model.starts_with("self.") || semantic::is_model_class(analysis, *cls))
    return nullptr;
  // What runs when the object is built: `__init__` and the methods it calls on `self`
  // (`self._load_model(weight)` ending in `self._model.eval()`).
  std::vector<std::string_view> built_by = {"__init__"};
  for (const ir::Function* method : cls->methods) {
    if (method->name != "__init__") continue;
    ir::for_each_nested(method->body, [&](const ir::Stmt& stmt) {
      ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& call) {
        if (call.kind == ir::ExprKind::Call && call.callee()->kind == ir::ExprKind::Attr &&
            ir::place_key(call.callee()->base()) == ir::kReceiver)
          built_by.push_back(call.callee()->text);
      });
    });
  }
  const ir::Stmt* held = nullptr;
  for (const ir::Function* method : cls->methods) {
    const bool builds = std::find(built_by.begin(), built_by.end(), method->name) != built_by.end();
    for (const ModeSwitch& s : mode_switches(*method)) {
      if (!covers(s.model, model)) continue;
      if (!s.eval) return nullptr;  // trained somewhere in the class
      if (builds) held = s.stmt;
    }
  }
  return held;
}

}  // namespace sealint::rules::sl006
