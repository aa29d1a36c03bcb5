#pragma once
// How PyTorch sizes a layer: a call's arguments bound to the constructor's signature (Python's
// binding, or LibTorch's options setters), and the parameter count they give.
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/ir.h"
#include "analyzer/knowledge/torch_layers.h"

namespace sealint::rules::sl003 {

using knowledge::LayerKind;
using knowledge::LayerSpec;

// The arguments of a call bound to a signature's parameter names, as Python binds them.
class BoundArgs {
 public:
  // nullopt when the call cannot be bound statically: `*args`, `**kwargs`, an unknown keyword,
  // too many positional arguments, a parameter given twice (PyTorch raises on the last three).
  static std::optional<BoundArgs> bind(const ir::Expr& call, const LayerSpec& spec) {
    const std::span<const std::string_view> params = spec.params;
    BoundArgs out;
    if (call.arg_count() > spec.positional) return std::nullopt;
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (call.arg(i)->kind == ir::ExprKind::Starred) return std::nullopt;
      out.args_.emplace_back(params[i], call.arg(i));
    }
    for (const ir::Keyword& keyword : call.keywords) {
      if (keyword.name.empty()) return std::nullopt;
      bool known = false;
      for (std::string_view param : params) known = known || param == keyword.name;
      if (!known || out.get(keyword.name) != nullptr) return std::nullopt;
      out.args_.emplace_back(keyword.name, keyword.value);
    }
    return out;
  }

  // LibTorch: `torch::nn::Linear(in, out)` takes the sizes a PyTorch call takes first, and
  // `torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false))` the same with the rest
  // set by name, each setter named for the PyTorch parameter (lowered as the options call's
  // keywords). nullopt for an options object from a variable, or a setting this rule does not
  // know.
  static std::optional<BoundArgs> bind_cpp(const ir::Expr& call, const LayerSpec& spec) {
    const std::span<const std::string_view> params = spec.params;
    BoundArgs out;
    const ir::Expr* options = call.arg_count() == 1 ? call.arg(0) : nullptr;
    const bool has_options = options != nullptr && options->kind == ir::ExprKind::Call &&
                             ir::dotted_name(options->callee()).ends_with("Options");
    const ir::Expr& positional = has_options ? *options : call;
    if (positional.arg_count() > cpp_positional(spec)) return std::nullopt;
    for (size_t i = 0; i < positional.arg_count(); ++i)
      out.args_.emplace_back(params[i], positional.arg(i));
    for (const ir::Keyword& keyword : positional.keywords) {
      if (std::find(params.begin(), params.end(), keyword.name) == params.end())
        return std::nullopt;
      std::erase_if(out.args_, [&](const auto& arg) { return arg.first == keyword.name; });
      out.args_.emplace_back(keyword.name, keyword.value);
    }
    return out;
  }

  const ir::Expr* get(std::string_view name) const {
    for (const auto& [param, value] : args_) {
      if (param == name) return value;
    }
    return nullptr;
  }

 private:
  // The sizes LibTorch's module and options constructors take by position: `Linear(in, out)`,
  // `Bilinear(in1, in2, out)`, `Conv2d(in, out, kernel)`, `LSTM(input, hidden)`.
  static size_t cpp_positional(const LayerSpec& spec) {
    return spec.kind == LayerKind::Bilinear || spec.kind == LayerKind::Conv ? 3 : 2;
  }

  std::vector<std::pair<std::string_view, const ir::Expr*>> args_;
};

// Parameters as PyTorch allocates them, with sizes folded through `lookup`; nullopt when a size
// is unknown or PyTorch would raise.
[[nodiscard]] std::optional<ir::FoldedInt> count_parameters(const LayerSpec& spec,
                                                            const BoundArgs& args,
                                                            const ir::NameLookup& lookup,
                                                            ir::Language language);

}  // namespace sealint::rules::sl003
