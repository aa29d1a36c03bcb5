#include "rules/SL006/evaluation_evidence.h"

#include <string_view>

#include <fmt/format.h>

#include "analyzer/knowledge/naming.h"
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
  if (!function.is_module && knowledge::is_evaluation_name(function.name)) return true;
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
