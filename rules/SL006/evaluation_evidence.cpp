#include "rules/SL006/evaluation_evidence.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "analyzer/knowledge/torch_api.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules::sl006 {

namespace {

// The file's name without its folder: `test.py` for `tools/test.py`.
std::string_view file_name(const ir::Module& module) {
  std::string_view name = module.file().path();
  if (const size_t slash = name.find_last_of("/\\"); slash != std::string_view::npos)
    name.remove_prefix(slash + 1);
  return name;
}

// What a rollout generated may feed its caller's backward: it takes the log-probability of a
// sampled action (`dist.log_prob(action)`, kept for a policy gradient), keeps something on
// `self` (`self.log_probs.append(...)`), or returns a value with a graph.
bool may_keep_graph_for_caller(const ir::FileAnalysis& analysis, const ir::Function& function) {
  if (ir::holds_graph(analysis.summary(function).returns)) return true;
  auto on_receiver = [](const ir::Expr* e) {
    return e != nullptr && e->kind == ir::ExprKind::Attr && e->base() != nullptr &&
           e->base()->kind == ir::ExprKind::Name && e->base()->text == ir::kReceiver;
  };
  bool may = false;
  ir::for_each_nested(function.body, [&](const ir::Stmt& stmt) {
    if (may) return;
    if (stmt.kind == ir::StmtKind::AugAssign && !stmt.targets.empty() &&
        on_receiver(stmt.targets[0])) {
      may = true;
      return;
    }
    ir::for_each_evaluated_expr(stmt, [&](const ir::Expr& e) {
      if (may || e.kind != ir::ExprKind::Call || e.callee()->kind != ir::ExprKind::Attr) return;
      may = on_receiver(e.callee()->base()) || e.callee()->text == knowledge::kDistributionLogProb;
    });
  });
  return may;
}

}  // namespace

bool is_evaluation_script(const ir::Module& module, const ir::Function& function) {
  const bool top_level = function.parent_class == nullptr && (function.parent_function == nullptr ||
                                                              function.parent_function->is_module);
  const bool script = function.is_module || (function.name == "main" && top_level);
  const std::string_view name = file_name(module);
  return script && knowledge::is_evaluation_name(name.substr(0, name.rfind('.')));
}

std::string_view script_purpose(const ir::Module& module) {
  const std::string_view name = file_name(module);
  return knowledge::is_generation_name(name.substr(0, name.rfind('.'))) ? "generation"
                                                                        : "evaluation";
}

bool is_evaluation_function(const ir::Module& module, const ir::FileAnalysis& analysis,
                            const ir::Function& function) {
  const ir::ClassDef* cls = function.parent_class;
  if (cls != nullptr && semantic::is_model_class(analysis, *cls)) return false;
  if (!function.is_module && knowledge::is_evaluation_name(function.name)) {
    // A rollout named for generation (`generate_episode(policy, env)`) that returns or keeps on
    // `self` what it generated with its graph (log-probabilities) feeds its caller's backward.
    if (knowledge::is_generation_only_name(function.name) &&
        may_keep_graph_for_caller(analysis, function))
      return false;
    return true;
  }
  if (is_evaluation_script(module, function)) return true;
  return cls != nullptr && knowledge::is_evaluation_class_name(cls->name);
}

std::string shown_name(const ir::Module& module, const ir::Function& function) {
  if (function.is_module) return fmt::format("`{}`", file_name(module));
  if (knowledge::is_evaluation_name(function.name) || function.parent_class == nullptr)
    return fmt::format("`{}()`", function.name);
  return fmt::format("`{}.{}()`", function.parent_class->name, function.name);
}

}  // namespace sealint::rules::sl006
