#include "rules/support/growth.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "analyzer/core/display_path.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/model_runs.h"

namespace sealint::rules {

std::vector<std::string_view> reset_methods_for(const ir::FileAnalysis& analysis,
                                                const ir::Fact& receiver, std::string_view attr) {
  std::vector<std::string_view> names;
  if (receiver.foreign != nullptr) {
    for (const auto& [name, method] : receiver.foreign->methods) {
      const auto& resets = method.summary.resets;
      if (name != "__init__" && std::find(resets.begin(), resets.end(), attr) != resets.end())
        names.push_back(name);
    }
    return names;
  }
  if (receiver.instance_of == nullptr) return names;
  for (const ir::Function* method : receiver.instance_of->methods) {
    if (method->name == "__init__") continue;
    const auto& resets = analysis.summary(*method).resets;
    if (std::find(resets.begin(), resets.end(), attr) != resets.end())
      names.push_back(method->name);
  }
  return names;
}

std::string defined_elsewhere(const SourceFile& file, const ir::Fact& receiver) {
  if (receiver.foreign == nullptr) return {};
  return fmt::format(" (in {})", path_beside(file.path(), receiver.foreign->file));
}

bool arguments_without_graph(const ir::FileAnalysis& analysis, const ir::Expr& call,
                             const ir::Callee& method, uint32_t params) {
  // `*args` or `**kwargs` may fill any parameter: unknown.
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (call.arg(i)->kind == ir::ExprKind::Starred) return false;
  }
  for (const ir::Keyword& keyword : call.keywords) {
    if (keyword.name.empty()) return false;
  }
  if (method.local != nullptr && (analysis.summary(*method.local).trains ||
                                  semantic::runs_model_anywhere(analysis, *method.local)))
    return false;
  bool bound = false;
  bool graph_free = true;
  ir::for_each_argument_in(call, method, 1, params & ~1U, [&](const ir::Expr& arg) {
    bound = true;
    graph_free = analysis.fact(arg).grad == ir::Grad::No;
    return !graph_free;
  });
  return bound && graph_free;
}

}  // namespace sealint::rules
