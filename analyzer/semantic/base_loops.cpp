#include "analyzer/semantic/base_loops.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "analyzer/core/display_path.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/class_bases.h"
#include "analyzer/semantic/iteration.h"

namespace sealint::semantic {

namespace {

// Each `self.NAME(...)` call `function` makes inside one of its loops with autograd on, where
// the innermost loop is not a written-out handful.
void for_each_self_call_in_loops(const ir::FileAnalysis& analysis, const ir::Function& function,
                                 const std::function<void(const ir::Expr&)>& visit) {
  if (function.parent_class == nullptr) return;
  const ir::Module& module = analysis.module();
  ir::walk_statements(function, analysis.runs_without_grad(function),
                      [&](const ir::Stmt& stmt, const ir::StmtContext& where) {
                        if (where.no_grad || where.loops.empty()) return;
                        if (iterates_fixed_handful(module, function, *where.loops.back())) return;
                        ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& call) {
                          if (call.kind != ir::ExprKind::Call) return;
                          const ir::Expr* callee = call.callee();
                          if (callee->kind == ir::ExprKind::Attr &&
                              callee->base()->kind == ir::ExprKind::Name &&
                              callee->base()->text == ir::kReceiver)
                            visit(call);
                        });
                      });
}

}  // namespace

std::vector<std::string> self_calls_in_loops(const ir::FileAnalysis& analysis,
                                             const ir::Function& function) {
  std::vector<std::string> names;
  for_each_self_call_in_loops(
      analysis, function, [&](const ir::Expr& call) { names.emplace_back(call.callee()->text); });
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

namespace {

// The first call of `self.name(...)` in one of `caller`'s loops, or nullptr.
const ir::Expr* call_in_loop(const ir::FileAnalysis& analysis, const ir::Function& caller,
                             std::string_view name) {
  if (analysis.runs_without_grad(caller)) return nullptr;
  const ir::Expr* found = nullptr;
  for_each_self_call_in_loops(analysis, caller, [&](const ir::Expr& call) {
    if (found == nullptr && call.callee()->text == name) found = &call;
  });
  return found;
}

}  // namespace

std::optional<LoopCaller> base_loop_caller(const ir::FileAnalysis& analysis,
                                           const ir::Function& method) {
  const ir::ClassDef* cls = method.parent_class;
  if (cls == nullptr || method.params.empty() || analysis.runs_without_grad(method))
    return std::nullopt;
  const std::vector<const ir::ClassDef*> chain = same_file_chain(analysis, *cls);
  // The bases of this file: a loop in the method's own class is seen at its call already.
  for (size_t i = 1; i < chain.size(); ++i) {
    for (const ir::Function* caller : chain[i]->methods) {
      if (caller->name == method.name) continue;
      if (const ir::Expr* call = call_in_loop(analysis, *caller, method.name))
        return LoopCaller{fmt::format("{}.{}", chain[i]->name, caller->name), "", call};
    }
  }
  // The bases other files of the project define, from the last class of the chain up.
  const ir::ProjectScope* project = analysis.project();
  if (project == nullptr) return std::nullopt;
  for (const ir::Expr* base : chain.back()->bases) {
    const ir::ForeignClass* imported = analysis.imported_class(base);
    if (imported == nullptr) continue;
    const ir::ForeignMethod found = project->loop_caller(*imported, method.name);
    if (found && found.function->name != method.name)
      return LoopCaller{fmt::format("{}.{}", found.cls->name, found.function->name),
                        path_beside(analysis.module().file().path(), found.cls->file), nullptr};
  }
  return std::nullopt;
}

}  // namespace sealint::semantic
