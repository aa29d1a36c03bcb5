#include "rules/support/growth.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"

namespace sealint::rules {

const ir::Stmt* growing_loop(const ir::FileAnalysis& analysis, const ir::Function& function,
                             const std::vector<const ir::Stmt*>& loops, std::string_view key,
                             const std::vector<std::string_view>& reset_methods) {
  // A graph that a backward consumes later is the point of the sum (a loss over time steps).
  if (analysis.consumed_by_backward(function, key)) return nullptr;
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    const ir::Stmt& loop = **it;
    // Reset inside this loop: the place holds at most one iteration's worth.
    if (ir::resets_in(loop.body, key, reset_methods)) return nullptr;
    if (analysis.is_iteration_loop(loop) && ir::defined_outside(function, loop, key)) return &loop;
  }
  return nullptr;
}

namespace {

// `self.total = 0` or `self.register_buffer("total", ...)` for the place `self.total`.
bool creates_attribute(const ir::Stmt& stmt, std::string_view key) {
  if (stmt.kind == ir::StmtKind::Assign) {
    return std::any_of(stmt.targets.begin(), stmt.targets.end(),
                       [&](const ir::Expr* target) { return ir::place_key(target) == key; });
  }
  const ir::Expr* call = stmt.value;
  if (stmt.kind != ir::StmtKind::ExprStmt || call == nullptr || call->kind != ir::ExprKind::Call ||
      call->callee()->kind != ir::ExprKind::Attr || call->callee()->text != "register_buffer" ||
      call->arg(0) == nullptr || call->arg(0)->kind != ir::ExprKind::Const) {
    return false;
  }
  const std::string_view literal = call->arg(0)->text;  // with its quotes
  return literal.size() > 2 && key.size() > ir::kReceiver.size() + 1 &&
         literal.substr(1, literal.size() - 2) == key.substr(ir::kReceiver.size() + 1);
}

}  // namespace

std::optional<semantic::RepeatedCall> growing_across_calls(const ir::FileAnalysis& analysis,
                                                           const ir::Function& function,
                                                           std::string_view key) {
  if (!key.starts_with(ir::kReceiver) || key.size() <= ir::kReceiver.size() ||
      key[ir::kReceiver.size()] != '.') {
    return std::nullopt;
  }
  const std::optional<semantic::RepeatedCall> call =
      semantic::repeated_by_framework(analysis, function);
  if (!call || !call->autograd_on) return std::nullopt;
  if (analysis.consumed_by_backward(function, key)) return std::nullopt;
  if (ir::resets_in(function.body, key)) return std::nullopt;
  return call;
}

std::vector<Related> hook_evidence(const ir::Function& function, const semantic::RepeatedCall& call,
                                   std::string_view key) {
  std::vector<Related> related;
  if (function.parent_class != nullptr) {
    for (const ir::Function* method : function.parent_class->methods) {
      if (method->name != "__init__") continue;
      ir::for_each_nested(method->body, [&](const ir::Stmt& stmt) {
        if (!related.empty()) return;
        if (creates_attribute(stmt, key))
          related.push_back({stmt.range, fmt::format("`{}` is created here", key)});
      });
    }
  }
  related.push_back(
      {function.name_range,
       call.forward ? fmt::format("the model calls `{}()` on every step", function.name)
                    : fmt::format("{} calls `{}()` once per batch", call.caller(), function.name)});
  return related;
}

std::vector<Related> growth_evidence(const ir::Function& function, const ir::Stmt& loop,
                                     std::string_view key) {
  std::vector<Related> related;
  const std::string_view root = ir::place_root(key);
  if (const ir::Stmt* binding = ir::binding_before(function, loop, key)) {
    related.push_back({binding->range, fmt::format("`{}` is created here, before the loop", root)});
  } else {
    for (const ir::Param& param : function.params) {
      if (param.name == root && root != "self") {
        related.push_back(
            {param.range, fmt::format("`{}` comes from the caller and outlives the loop", root)});
      }
    }
  }
  related.push_back({ir::loop_header(loop), "the loop that repeats it"});
  return related;
}

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
  std::error_code error;
  const std::filesystem::path here =
      std::filesystem::absolute(file.path(), error).lexically_normal().parent_path();
  std::filesystem::path shown = std::filesystem::path(receiver.foreign->file);
  if (!error) {
    if (std::filesystem::path relative = shown.lexically_relative(here); !relative.empty())
      shown = relative;
  }
  return fmt::format(" (in {})", shown.generic_string());
}

}  // namespace sealint::rules
