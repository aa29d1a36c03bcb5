#include "analyzer/semantic/constructions.h"

#include <algorithm>
#include <string>

#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/torch_nn.h"
#include "analyzer/knowledge/torchvision.h"

namespace sealint::semantic {

namespace {

using ir::Expr;
using ir::ExprKind;

bool is_literal(const Expr* expr, std::string_view text) {
  return expr != nullptr && expr->kind == ExprKind::Const && expr->text == text;
}

// `0`, `0.0` (C++ spells it `0.0E+0` in the IR).
bool is_zero_literal(const Expr* expr) {
  if (expr == nullptr || expr->kind != ExprKind::Const ||
      (expr->const_kind != ir::ConstKind::Int && expr->const_kind != ir::ConstKind::Float))
    return false;
  std::string_view digits = expr->text;
  if (expr->const_kind == ir::ConstKind::Float)
    digits = digits.substr(0, digits.find_first_of("eE"));
  return digits.find_first_of("123456789abcdefABCDEF") == std::string_view::npos;
}

// What a torch.nn class, constructed with these arguments (none known: `call` null), allocates.
enum class NnKind { None, Parameters, Container };

NnKind classify_nn_class(ir::Language language, std::string_view name, const Expr* call) {
  const auto option = [&](std::string_view keyword, size_t position) {
    return constructor_argument(language, *call, keyword, position);
  };
  if (knowledge::is_nn_container_class(name)) return NnKind::Container;
  if (knowledge::is_parameter_free_nn_class(name)) return NnKind::None;
  if (call == nullptr) return NnKind::Parameters;
  // Normalisations without affine parameters (InstanceNorm's default, `elementwise_affine=False`).
  if (name.find("InstanceNorm") != std::string_view::npos) {
    const bool affine = is_literal(option("affine", 3), "True");
    const bool stats = is_literal(option("track_running_stats", 4), "True");
    return affine || stats ? NnKind::Parameters : NnKind::None;
  }
  if (name == "LayerNorm" || name == "RMSNorm") {
    return is_literal(option("elementwise_affine", 2), "False") ? NnKind::None : NnKind::Parameters;
  }
  if (name == "GroupNorm") {
    return is_literal(option("affine", 3), "False") ? NnKind::None : NnKind::Parameters;
  }
  if (name.find("BatchNorm") != std::string_view::npos) {
    const bool no_affine = is_literal(option("affine", 3), "False");
    const bool no_stats = is_literal(option("track_running_stats", 4), "False");
    return no_affine && no_stats ? NnKind::None : NnKind::Parameters;
  }
  return NnKind::Parameters;
}

// `torch.optim.Adam(...)`: an optimizer that keeps per-parameter state; plain SGD (no momentum)
// keeps none.
bool is_stateful_optimizer(ir::Language language, std::string_view q, const Expr& call) {
  const std::string_view optimizer = knowledge::torch_optimizer_class(q);
  if (optimizer.empty()) return false;
  if (optimizer == "SGD") {
    const Expr* momentum = constructor_argument(language, call, "momentum", 2);
    return momentum != nullptr && !is_zero_literal(momentum);
  }
  return true;
}

}  // namespace

const Expr* constructor_argument(ir::Language language, const Expr& call, std::string_view keyword,
                                 size_t position) {
  if (language == ir::Language::Cpp) {
    // An options object's settings are its keywords (`SGDOptions(0.1).momentum(0.9)`).
    for (size_t i = 0; i < call.arg_count(); ++i) {
      const Expr* options = call.arg(i);
      if (options->kind != ExprKind::Call) continue;
      if (const Expr* value = options->keyword(keyword)) return value;
    }
    return nullptr;
  }
  if (const Expr* value = call.keyword(keyword)) return value;
  return call.arg(position);
}

Built Constructions::built_by(const Expr& call) {
  const Expr* callee = call.callee();
  if (callee->kind == ExprKind::Name) {
    if (const ir::ClassDef* cls = analysis_.class_named(callee->text)) {
      // LibTorch's `TORCH_MODULE(Net)`: `Net` holds a `NetImpl`, whose parameters it builds.
      if (module_.language() == ir::Language::Cpp) {
        if (const ir::ClassDef* impl = analysis_.class_named(std::string(callee->text) + "Impl"))
          cls = impl;
      }
      return analysis_.is_module_class(cls) && has_parameters(cls) ? Built::Module : Built::Nothing;
    }
  }
  // A module class another file of the project defines (`Head(dim)` from models/head.py).
  if (const ir::ForeignClass* imported = analysis_.imported_class(callee)) {
    const ir::ProjectScope& project = *analysis_.project();
    return project.is_module(*imported) && project.holds_parameters(*imported) ? Built::Module
                                                                               : Built::Nothing;
  }
  const std::string q = ir::qualified_name(module_, callee);
  if (q.empty()) return Built::Nothing;
  const std::string_view nn_class = knowledge::torch_nn_class(q);
  if (!nn_class.empty()) {
    switch (classify_nn_class(module_.language(), nn_class, &call)) {
      case NnKind::None:
        return Built::Nothing;
      case NnKind::Parameters:
        return Built::Module;
      case NnKind::Container:
        return nn_class == "Parameter" ? Built::Parameter : Built::Container;
    }
  }
  if (knowledge::is_torchvision_model(q)) return Built::Module;
  if (is_stateful_optimizer(module_.language(), q, call)) return Built::Optimizer;
  return Built::Nothing;
}

std::vector<Construction> Constructions::in_statement(const ir::Stmt& stmt) {
  std::vector<Construction> all;
  ir::for_each_expr(stmt, [&](const Expr& expr) {
    if (expr.kind != ExprKind::Call) return;
    const Built built = built_by(expr);
    if (built != Built::Nothing) all.push_back({&expr, built});
  });
  std::sort(all.begin(), all.end(), [](const Construction& a, const Construction& b) {
    return a.call->range.begin != b.call->range.begin ? a.call->range.begin < b.call->range.begin
                                                      : a.call->range.end > b.call->range.end;
  });
  auto inside = [](const Construction& inner, const Construction& outer) {
    return inner.call != outer.call && outer.call->range.begin <= inner.call->range.begin &&
           inner.call->range.end <= outer.call->range.end;
  };
  std::vector<Construction> out;
  for (const Construction& c : all) {
    if (c.built == Built::Container) {
      // A container counts when it holds a construction that allocates.
      const bool holds = std::any_of(all.begin(), all.end(), [&](const Construction& other) {
        return other.built != Built::Container && inside(other, c);
      });
      if (!holds) continue;
    }
    const bool nested = std::any_of(out.begin(), out.end(),
                                    [&](const Construction& kept) { return inside(c, kept); });
    if (!nested) out.push_back(c);
  }
  return out;
}

bool Constructions::has_parameters(const ir::ClassDef* cls) {
  if (auto it = classes_.find(cls); it != classes_.end()) return it->second;
  classes_[cls] = false;  // a cycle through this class adds no evidence
  bool found = false;
  for (const Expr* base : cls->bases) {
    if (base->kind == ExprKind::Name) {
      if (const ir::ClassDef* local = analysis_.class_named(base->text)) {
        found = found || (local != cls && has_parameters(local));
        continue;
      }
    }
    const std::string q = ir::qualified_name(module_, base);
    const std::string_view nn_class = knowledge::torch_nn_class(q);
    if (!nn_class.empty() &&
        classify_nn_class(module_.language(), nn_class, nullptr) == NnKind::Parameters)
      found = true;
    if (knowledge::is_torchvision_model(q)) found = true;
  }
  for (const ir::Function* method : cls->methods) {
    if (found) break;
    ir::for_each_nested(method->body, [&](const ir::Stmt& stmt) {
      ir::for_each_expr(stmt, [&](const Expr& call) {
        if (found || call.kind != ExprKind::Call) return;
        const Expr* callee = call.callee();
        if (callee->kind == ExprKind::Attr && callee->text == "register_parameter") found = true;
        const std::string q = ir::qualified_name(module_, callee);
        if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") found = true;
        if (!found && built_by(call) == Built::Module) found = true;
      });
    });
  }
  classes_[cls] = found;
  return found;
}

}  // namespace sealint::semantic
