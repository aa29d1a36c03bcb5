#include "rules/SL003/parameters.h"

namespace sealint::rules::sl003 {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::FoldedInt;

std::optional<FoldedInt> mul(std::optional<FoldedInt> a, std::optional<FoldedInt> b) {
  if (!a || !b) return std::nullopt;
  return ir::fold_binary("*", *a, *b);
}
std::optional<FoldedInt> add(std::optional<FoldedInt> a, std::optional<FoldedInt> b) {
  if (!a || !b) return std::nullopt;
  return ir::fold_binary("+", *a, *b);
}
constexpr FoldedInt num(int64_t value) {
  return {value, false};
}

// Reads a layer's arguments: sizes fold through literals and module constants, flags are
// `True`/`False` literals. Every accessor is nullopt when the value is not known.
class LayerArgs {
 public:
  LayerArgs(const BoundArgs& args, const ir::NameLookup& lookup, ir::Language language)
      : args_(args), lookup_(lookup), language_(language) {}

  // A size: a non-negative integer (PyTorch rejects negative sizes).
  std::optional<FoldedInt> size(std::string_view name, std::optional<int64_t> fallback) const {
    const Expr* value = args_.get(name);
    if (value == nullptr) {
      if (!fallback) return std::nullopt;
      return num(*fallback);
    }
    const std::optional<FoldedInt> folded = ir::fold_int(*value, lookup_, language_);
    if (!folded || (!folded->huge && folded->value < 0)) return std::nullopt;
    return folded;
  }

  std::optional<bool> flag(std::string_view name, bool fallback) const {
    const Expr* value = args_.get(name);
    if (value == nullptr) return fallback;
    if (value->kind == ExprKind::Const && value->const_kind == ir::ConstKind::Bool)
      return value->text == "True";
    return std::nullopt;
  }

  // The product of a kernel size: `3` for `dims` dimensions, or a tuple of `dims` ints.
  std::optional<FoldedInt> kernel_volume(int dims) const {
    const Expr* value = args_.get("kernel_size");
    if (value == nullptr) return std::nullopt;
    if (value->kind == ExprKind::Collection &&
        (value->collection_kind == ir::CollectionKind::Tuple ||
         value->collection_kind == ir::CollectionKind::List)) {
      if (value->items.size() != static_cast<size_t>(dims)) return std::nullopt;
      std::optional<FoldedInt> volume = num(1);
      for (const Expr* item : value->items) {
        std::optional<FoldedInt> side = ir::fold_int(*item, lookup_, language_);
        if (!side || (!side->huge && side->value < 0)) return std::nullopt;
        volume = mul(volume, side);
      }
      return volume;
    }
    const std::optional<FoldedInt> side = size("kernel_size", std::nullopt);
    std::optional<FoldedInt> volume = num(1);
    for (int i = 0; i < dims; ++i) volume = mul(volume, side);
    return volume;
  }

 private:
  const BoundArgs& args_;
  const ir::NameLookup& lookup_;
  ir::Language language_;
};

std::optional<FoldedInt> count_layer(const LayerSpec& spec, const LayerArgs& args) {
  switch (spec.kind) {
    case LayerKind::Linear: {
      const auto in = args.size("in_features", std::nullopt);
      const auto out = args.size("out_features", std::nullopt);
      const auto bias = args.flag("bias", true);
      if (!bias) return std::nullopt;
      return add(mul(in, out), *bias ? out : num(0));
    }
    case LayerKind::Bilinear: {
      const auto in1 = args.size("in1_features", std::nullopt);
      const auto in2 = args.size("in2_features", std::nullopt);
      const auto out = args.size("out_features", std::nullopt);
      const auto bias = args.flag("bias", true);
      if (!bias) return std::nullopt;
      return add(mul(mul(out, in1), in2), *bias ? out : num(0));
    }
    case LayerKind::Embedding:
      return mul(args.size("num_embeddings", std::nullopt),
                 args.size("embedding_dim", std::nullopt));
    case LayerKind::Conv: {
      const auto in = args.size("in_channels", std::nullopt);
      const auto out = args.size("out_channels", std::nullopt);
      const auto groups = args.size("groups", 1);
      const auto bias = args.flag("bias", true);
      if (!in || !out || !groups || !bias || groups->huge || groups->value == 0)
        return std::nullopt;
      // PyTorch raises unless both channel counts divide by groups.
      if ((!in->huge && in->value % groups->value != 0) ||
          (!out->huge && out->value % groups->value != 0))
        return std::nullopt;
      const FoldedInt in_per_group = in->huge ? *in : num(in->value / groups->value);
      const auto weight = mul(mul(in_per_group, *out), args.kernel_volume(spec.dims));
      return add(weight, *bias ? *out : num(0));
    }
    case LayerKind::Cell: {
      const auto gate_rows = mul(num(spec.gates), args.size("hidden_size", std::nullopt));
      const auto bias = args.flag("bias", true);
      if (!bias) return std::nullopt;
      // weight_ih, weight_hh, then bias_ih and bias_hh
      const auto weights = mul(gate_rows, add(args.size("input_size", std::nullopt),
                                              args.size("hidden_size", std::nullopt)));
      return add(weights, *bias ? mul(num(2), gate_rows) : num(0));
    }
    case LayerKind::Recurrent: {
      const auto input = args.size("input_size", std::nullopt);
      const auto hidden = args.size("hidden_size", std::nullopt);
      const auto layers = args.size("num_layers", 1);
      const auto bias = args.flag("bias", true);
      const auto bidirectional = args.flag("bidirectional", false);
      const auto proj = spec.name == "LSTM" ? args.size("proj_size", 0) : num(0);
      if (!input || !hidden || !layers || !bias || !bidirectional || !proj) return std::nullopt;
      // PyTorch raises for no layers and for a projection not smaller than the hidden size.
      if (!layers->huge && layers->value < 1) return std::nullopt;
      if (proj->huge || (!hidden->huge && proj->value >= hidden->value && proj->value != 0))
        return std::nullopt;
      const FoldedInt directions = num(*bidirectional ? 2 : 1);
      // What each layer's hidden state is: the projection when there is one.
      const auto state = proj->value > 0 ? std::optional(*proj) : hidden;
      const auto gate_rows = mul(num(spec.gates), hidden);
      auto per_direction = [&](std::optional<FoldedInt> layer_input) {
        std::optional<FoldedInt> total = mul(gate_rows, add(layer_input, state));  // w_ih, w_hh
        if (*bias) total = add(total, mul(num(2), gate_rows));                     // b_ih, b_hh
        if (proj->value > 0) total = add(total, mul(*proj, hidden));               // w_hr
        return total;
      };
      const auto first = mul(directions, per_direction(input));
      const auto rest = mul(directions, per_direction(mul(state, directions)));
      return add(first, mul(ir::fold_binary("-", *layers, num(1)), rest));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<FoldedInt> count_parameters(const LayerSpec& spec, const BoundArgs& args,
                                          const ir::NameLookup& lookup, ir::Language language) {
  return count_layer(spec, LayerArgs(args, lookup, language));
}

}  // namespace sealint::rules::sl003
