// Flags an nn.Linear/Embedding/convolution/recurrent layer whose constant sizes need more memory
// for weights, grads and Adam state than a budget. docs: docs/rules/SL003.md
#include "rules/SL003_oversized_layer.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "analyzer/ir/constant_folding.h"
#include "analyzer/ir/escape.h"
#include "analyzer/ir/walk.h"
#include "analyzer/knowledge/naming.h"
#include "rules/support/quote.h"

namespace sealint::rules {

namespace {

constexpr RuleInfo kInfo = {
    .id = "SL003",
    .name = "oversized-layer",
    .severity = Severity::Warning,
    .python = true,
    .cpp = true,
    .summary =
        "Flags a layer whose constant sizes need more memory for its weights, gradients "
        "and Adam state than a budget.",
    .fix = FixAvailability::None,
    .fix_safety = FixSafety::Safe,
    .framework = Framework::PyTorch,
    .precision = Precision::Medium,  // no finding on bench/corpus yet
    .brief =
        "a layer whose constant sizes need more than a budget for weights, grads and Adam state",
    // A test that builds a layer too large to allocate fails or takes the machine down too.
    .reports_in_tests = true,
};

using ir::Expr;
using ir::ExprKind;
using ir::FoldedInt;
using ir::Stmt;
using ir::StmtKind;

// ---- the layers and how PyTorch sizes them -------------------------------------------------

enum class LayerKind { Linear, Bilinear, Embedding, Conv, Recurrent, Cell };

struct LayerSpec {
  std::string_view name;  // after `torch.nn.`
  LayerKind kind;
  int dims;                                  // convolutions: 1, 2 or 3
  int gates;                                 // recurrent layers and cells: LSTM 4, GRU 3, RNN 1
  std::span<const std::string_view> params;  // the constructor's parameters, in order
  size_t positional = params.size();         // how many of them a call may pass by position
};

// The constructors' signatures (torch 2.x), so positional arguments bind as in PyTorch. Where
// torch 1.x had another order, only the parameters both agree on may be passed by position.
constexpr std::array<std::string_view, 5> kLinear = {"in_features", "out_features", "bias",
                                                     "device", "dtype"};
constexpr std::array<std::string_view, 6> kBilinear = {
    "in1_features", "in2_features", "out_features", "bias", "device", "dtype"};
// `_freeze` is new in torch 2.0: positional arguments stop at `_weight`.
constexpr std::array<std::string_view, 11> kEmbedding = {
    "num_embeddings", "embedding_dim", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq",
    "sparse",         "_weight",       "_freeze",     "device",   "dtype"};
constexpr std::array<std::string_view, 12> kEmbeddingBag = {
    "num_embeddings",      "embedding_dim", "max_norm", "norm_type",
    "scale_grad_by_freq",  "mode",          "sparse",   "_weight",
    "include_last_offset", "padding_idx",   "device",   "dtype"};
constexpr std::array<std::string_view, 11> kConv = {
    "in_channels", "out_channels", "kernel_size",  "stride", "padding", "dilation",
    "groups",      "bias",         "padding_mode", "device", "dtype"};
constexpr std::array<std::string_view, 12> kConvTranspose = {
    "in_channels", "out_channels", "kernel_size", "stride",       "padding", "output_padding",
    "groups",      "bias",         "dilation",    "padding_mode", "device",  "dtype"};
// nn.RNN takes `nonlinearity` fourth since torch 2.1, `bias` before: past the third, positional
// arguments are read only by keyword.
constexpr std::array<std::string_view, 10> kRnn = {
    "input_size",  "hidden_size", "num_layers",    "nonlinearity", "bias",
    "batch_first", "dropout",     "bidirectional", "device",       "dtype"};
constexpr std::array<std::string_view, 10> kLstm = {
    "input_size", "hidden_size",   "num_layers", "bias",   "batch_first",
    "dropout",    "bidirectional", "proj_size",  "device", "dtype"};
constexpr std::array<std::string_view, 6> kRnnCell = {"input_size",   "hidden_size", "bias",
                                                      "nonlinearity", "device",      "dtype"};
constexpr std::array<std::string_view, 5> kCell = {"input_size", "hidden_size", "bias", "device",
                                                   "dtype"};
constexpr std::array<std::string_view, 9> kGru = {"input_size",    "hidden_size", "num_layers",
                                                  "bias",          "batch_first", "dropout",
                                                  "bidirectional", "device",      "dtype"};

constexpr std::array<LayerSpec, 16> kLayers = {{
    {"Linear", LayerKind::Linear, 0, 0, kLinear},
    {"Bilinear", LayerKind::Bilinear, 0, 0, kBilinear},
    {"Embedding", LayerKind::Embedding, 0, 0, kEmbedding, 8},
    {"EmbeddingBag", LayerKind::Embedding, 0, 0, kEmbeddingBag},
    {"Conv1d", LayerKind::Conv, 1, 0, kConv},
    {"Conv2d", LayerKind::Conv, 2, 0, kConv},
    {"Conv3d", LayerKind::Conv, 3, 0, kConv},
    {"ConvTranspose1d", LayerKind::Conv, 1, 0, kConvTranspose},
    {"ConvTranspose2d", LayerKind::Conv, 2, 0, kConvTranspose},
    {"ConvTranspose3d", LayerKind::Conv, 3, 0, kConvTranspose},
    {"RNN", LayerKind::Recurrent, 0, 1, kRnn, 3},
    {"LSTM", LayerKind::Recurrent, 0, 4, kLstm},
    {"GRU", LayerKind::Recurrent, 0, 3, kGru},
    {"RNNCell", LayerKind::Cell, 0, 1, kRnnCell},
    {"LSTMCell", LayerKind::Cell, 0, 4, kCell},
    {"GRUCell", LayerKind::Cell, 0, 3, kCell},
}};

const LayerSpec* find_layer(std::string_view qualified) {
  constexpr std::string_view kPrefix = "torch.nn.";
  if (!qualified.starts_with(kPrefix)) return nullptr;
  qualified.remove_prefix(kPrefix.size());
  const auto* spec = std::find_if(kLayers.begin(), kLayers.end(),
                                  [&](const LayerSpec& s) { return s.name == qualified; });
  return spec == kLayers.end() ? nullptr : spec;
}

// Bytes per element of a floating-point torch dtype; nullopt for others (a module's parameters
// must be floating point to train).
std::optional<int> dtype_bytes(std::string_view qualified) {
  static constexpr std::array<std::pair<std::string_view, int>, 32> kDtypes = {{
      {"torch.float16", 2},
      {"torch.half", 2},
      {"torch.bfloat16", 2},
      {"torch.float32", 4},
      {"torch.float", 4},
      {"torch.float64", 8},
      {"torch.double", 8},
      {"torch.complex32", 4},
      {"torch.chalf", 4},
      {"torch.complex64", 8},
      {"torch.cfloat", 8},
      {"torch.complex128", 16},
      {"torch.cdouble", 16},
      {"torch.float8_e4m3fn", 1},
      {"torch.float8_e5m2", 1},
      // LibTorch spells them `torch::kHalf`, `torch::kFloat16`, `torch::ScalarType::Half`.
      {"torch.kHalf", 2},
      {"torch.kFloat16", 2},
      {"torch.kF16", 2},
      {"torch.kBFloat16", 2},
      {"torch.kFloat", 4},
      {"torch.kFloat32", 4},
      {"torch.kF32", 4},
      {"torch.kDouble", 8},
      {"torch.kFloat64", 8},
      {"torch.kF64", 8},
      {"torch.kComplexHalf", 4},
      {"torch.kComplexFloat", 8},
      {"torch.kComplexDouble", 16},
      {"torch.ScalarType.Half", 2},
      {"torch.ScalarType.BFloat16", 2},
      {"torch.ScalarType.Float", 4},
      {"torch.ScalarType.Double", 8},
  }};
  for (const auto& [name, bytes] : kDtypes) {
    if (name == qualified) return bytes;
  }
  return std::nullopt;
}

// The arguments of a call bound to a signature's parameter names, as Python binds them.
class BoundArgs {
 public:
  // nullopt when the call cannot be bound statically: `*args`, `**kwargs`, an unknown keyword,
  // too many positional arguments, a parameter given twice (PyTorch raises on the last three).
  static std::optional<BoundArgs> bind(const Expr& call, const LayerSpec& spec) {
    const std::span<const std::string_view> params = spec.params;
    BoundArgs out;
    if (call.arg_count() > spec.positional) return std::nullopt;
    for (size_t i = 0; i < call.arg_count(); ++i) {
      if (call.arg(i)->kind == ExprKind::Starred) return std::nullopt;
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
  // set by name, each setter named for the PyTorch parameter. nullopt for an options object
  // from a variable, or a setter this rule does not know.
  static std::optional<BoundArgs> bind_cpp(const Expr& call, const LayerSpec& spec) {
    const std::span<const std::string_view> params = spec.params;
    BoundArgs out;
    const Expr* options = call.arg_count() == 1 ? call.arg(0) : nullptr;
    std::vector<std::pair<std::string_view, const Expr*>> setters;  // outermost first
    while (options != nullptr && options->kind == ExprKind::Call &&
           options->callee()->kind == ExprKind::Attr && options->arg_count() == 1) {
      setters.emplace_back(options->callee()->text, options->arg(0));
      options = options->callee()->base();
    }
    const bool has_options = options != nullptr && options->kind == ExprKind::Call &&
                             ir::dotted_name(options->callee()).ends_with("Options");
    if (!has_options && !setters.empty()) return std::nullopt;  // `torch::nn::Linear(make())`
    const Expr& positional = has_options ? *options : call;
    if (positional.arg_count() > cpp_positional(spec)) return std::nullopt;
    for (size_t i = 0; i < positional.arg_count(); ++i)
      out.args_.emplace_back(params[i], positional.arg(i));
    // Setters run innermost first; a later one overrides an earlier one.
    for (auto it = setters.rbegin(); it != setters.rend(); ++it) {
      const auto& [name, value] = *it;
      if (std::find(params.begin(), params.end(), name) == params.end()) return std::nullopt;
      std::erase_if(out.args_, [&](const auto& arg) { return arg.first == name; });
      out.args_.emplace_back(name, value);
    }
    return out;
  }

  const Expr* get(std::string_view name) const {
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

  std::vector<std::pair<std::string_view, const Expr*>> args_;
};

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

// Parameters as PyTorch allocates them; nullopt when a size is unknown or PyTorch would raise.
std::optional<FoldedInt> count_parameters(const LayerSpec& spec, const LayerArgs& args) {
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

// ---- where layers are built, and what happens to them right after --------------------------

// What a method chained on the construction does: `nn.Linear(...).half()`.
struct Conversion {
  std::optional<int> bytes;  // a new dtype's element size
  bool unknown_dtype = false;
  bool meta = false;    // moved to the meta device: nothing allocated
  bool frozen = false;  // `.requires_grad_(False)`: no grads, no optimizer state
};

// `"meta"` or `torch.device("meta")`.
bool mentions_meta(const ir::Module& module, const Expr* value) {
  if (value != nullptr && value->kind == ExprKind::Call && value->arg_count() > 0 &&
      ir::qualified_name(module, value->callee()) == "torch.device")
    value = value->arg(0);
  return value != nullptr && value->kind == ExprKind::Const &&
         value->const_kind == ir::ConstKind::Str &&
         value->text.find("meta") != std::string_view::npos;
}

// An argument of `.to(...)`: a dtype, a device, or something that may be either.
void classify_to_argument(const ir::Module& module, const Expr* value, Conversion& out) {
  if (value == nullptr) return;
  if (mentions_meta(module, value)) {
    out.meta = true;
    return;
  }
  const std::string qualified = ir::qualified_name(module, value);
  if (qualified.empty()) return;  // a string or a call: a device
  if (const std::optional<int> bytes = dtype_bytes(qualified)) {
    out.bytes = bytes;
  } else if (qualified.find("dtype") != std::string::npos || qualified.starts_with("torch.")) {
    out.unknown_dtype = true;  // `.to(dtype)`, `.to(self.dtype)`, `.to(torch.int8)`
  }
}

// Methods that return the module itself, so a chain of them still holds the layer.
bool is_chained_module_method(std::string_view method) {
  static constexpr std::array<std::string_view, 10> kMethods = {
      "half", "bfloat16", "float", "double", "to",
      "cuda", "cpu",      "train", "eval",   "requires_grad_"};
  for (std::string_view m : kMethods) {
    if (m == method) return true;
  }
  return false;
}

Conversion apply_chain(const ir::Module& module, const std::vector<const Expr*>& calls) {
  Conversion out;
  // `calls` runs from the outermost method to the innermost; apply them innermost first.
  for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
    const Expr& call = **it;
    const std::string_view method = call.callee()->text;
    if (method == "half" || method == "bfloat16") {
      out.bytes = 2;
    } else if (method == "float") {
      out.bytes = 4;
    } else if (method == "double") {
      out.bytes = 8;
    } else if (method == "to") {
      for (size_t i = 0; i < call.arg_count(); ++i) classify_to_argument(module, call.arg(i), out);
      classify_to_argument(module, call.keyword("dtype"), out);
      classify_to_argument(module, call.keyword("device"), out);
    } else if (method == "requires_grad_") {
      const Expr* flag = call.arg_count() > 0 ? call.arg(0) : call.keyword("requires_grad");
      if (flag != nullptr && !(flag->kind == ExprKind::Const && flag->text == "True"))
        out.frozen = true;
    }
  }
  return out;
}

// A `with` under which a layer keeps no memory of its own: `torch.device("meta")`, accelerate's
// `init_empty_weights()`, DeepSpeed's `zero.Init()` (ZeRO-3 partitions parameters as they are
// built); or one that expects the block to fail (`pytest.raises`, `self.assertRaises`).
bool shields_layers(const ir::Module& module, const Stmt& guard) {
  for (const Expr* item : guard.items) {
    if (item->kind != ExprKind::Call) continue;
    if (mentions_meta(module, item)) return true;
    const std::string qualified = ir::qualified_name(module, item->callee());
    const std::string_view last = knowledge::last_component(qualified);
    if (last == "init_empty_weights" || qualified.ends_with("zero.Init")) return true;
    if (last == "raises" || last.starts_with("assertRaises")) return true;
    if (last == "init_on_device" && item->arg_count() > 0 && mentions_meta(module, item->arg(0)))
      return true;
  }
  return false;
}

struct LayerCall {
  const Expr* call = nullptr;
  const LayerSpec* spec = nullptr;
  size_t scope = 0;        // index into Walk::scopes
  bool elsewhere = false;  // under a guard that keeps it from holding memory (shields_layers)
  ir::SourceRange quote;   // what the message quotes: the call, or a C++ declaration
};

// Everything the rule needs from one pass over the file.
struct Walk {
  std::vector<LayerCall> layers;
  std::vector<std::unordered_set<std::string_view>> scopes;  // names that shadow module constants
  std::vector<const ir::Function*> functions;  // each scope's function; nullptr: a class body
  std::unordered_map<const Expr*, std::vector<const Expr*>> chains;  // layer call -> methods on it
  bool default_dtype_changed = false;
  bool default_device_meta = false;
};

// LibTorch's `register_module("fc", torch::nn::Linear(...))` returns the module it is given.
const Expr* registered_module(const Expr* e) {
  if (e == nullptr || e->kind != ExprKind::Call || e->arg_count() != 2) return e;
  const Expr* callee = e->callee();
  if ((callee->kind == ExprKind::Attr || callee->kind == ExprKind::Name) &&
      callee->text == "register_module")
    return e->arg(1);
  return e;
}

void visit_expr(const ir::Module& module, const Expr& e, size_t scope, bool elsewhere, Walk& walk) {
  if (e.kind != ExprKind::Call) return;
  const std::string qualified = ir::qualified_name(module, e.callee());
  if (const LayerSpec* spec = find_layer(qualified)) {
    walk.layers.push_back({&e, spec, scope, elsewhere, e.range});
    return;
  }
  if (qualified == "torch.set_default_dtype" || qualified == "torch.set_default_tensor_type") {
    walk.default_dtype_changed = true;
  } else if (qualified == "torch.set_default_device" && e.arg_count() > 0 &&
             mentions_meta(module, e.arg(0))) {
    walk.default_device_meta = true;
  }
  // `<call>.half().cuda()`: remember the chain on the innermost call, longest chain wins.
  std::vector<const Expr*> chain;
  const Expr* at = &e;
  while (at->kind == ExprKind::Call && at->callee()->kind == ExprKind::Attr &&
         is_chained_module_method(at->callee()->text)) {
    chain.push_back(at);
    at = at->callee()->base();
  }
  if (module.language() == ir::Language::Cpp) at = registered_module(at);
  if (chain.empty() || at->kind != ExprKind::Call) return;
  std::vector<const Expr*>& known = walk.chains[at];
  if (chain.size() > known.size()) known = std::move(chain);
}

// C++: where a statement puts a layer it builds (`auto fc = torch::nn::Linear(...)`,
// `fc = register_module("fc", ...)`), so that a later `fc->to(torch::kHalf);` (LibTorch's `to`
// returns nothing, so it is a statement of its own) converts that layer.
struct Placed {
  const Expr* call = nullptr;
  const std::vector<Stmt*>* block = nullptr;
};

// `T name(args)` or `T name{args}`: the construction is the declared name's own initializer,
// no `=` between them.
bool declares_in_place(const ir::Module& module, const Stmt& stmt) {
  const Expr& target = *stmt.targets[0];
  const uint32_t begin = target.range.begin;
  const uint32_t end = stmt.value->range.begin;
  if (stmt.range.begin >= begin || end < begin || end > stmt.range.end) return false;
  return module.file().code().substr(begin, end - begin).find('=') == std::string_view::npos;
}

void track_cpp_layer(const ir::Module& module, const Stmt& stmt, const std::vector<Stmt*>* block,
                     size_t first_new, Walk& walk,
                     std::unordered_map<std::string, Placed>& places) {
  if (stmt.kind == StmtKind::Assign && stmt.targets.size() == 1 && stmt.value != nullptr) {
    std::string key = ir::place_key(stmt.targets[0]);
    if (!key.empty()) places.erase(key);  // rebound: a later `->to()` is not the old layer's
    const Expr* value = registered_module(stmt.value);
    for (size_t i = first_new; i < walk.layers.size(); ++i) {
      LayerCall& layer = walk.layers[i];
      if (layer.call != value) continue;
      // `torch::nn::Linear fc(4096, 4096)`, a member's `torch::nn::Linear fc{4096, 4096};`: the
      // call is `fc(4096, 4096)` or `{4096, 4096}`; quote the declaration.
      if (layer.call == stmt.value && declares_in_place(module, stmt)) layer.quote = stmt.range;
      if (!key.empty()) places[key] = {layer.call, block};
    }
    return;
  }
  // `fc->to(torch::kHalf);` right in the block that built `fc` (not under a condition).
  if (stmt.kind != StmtKind::ExprStmt || stmt.value == nullptr ||
      stmt.value->kind != ExprKind::Call || stmt.value->callee()->kind != ExprKind::Attr ||
      stmt.value->callee()->text != "to")
    return;
  const auto placed = places.find(ir::place_key(stmt.value->callee()->base()));
  if (placed == places.end() || placed->second.block != block) return;
  // Statements run in order: a later conversion applies after the earlier ones.
  std::vector<const Expr*>& chain = walk.chains[placed->second.call];
  chain.insert(chain.begin(), stmt.value);
}

void walk_body(const ir::Module& module, const std::vector<Stmt*>& body, size_t scope, Walk& walk) {
  struct Item {
    const Stmt* stmt;
    const std::vector<Stmt*>* block;
    bool elsewhere;
  };
  std::vector<Item> stack;
  auto push = [&](const std::vector<Stmt*>& stmts, bool elsewhere) {
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it)
      stack.push_back({*it, &stmts, elsewhere});
  };
  const bool cpp = module.language() == ir::Language::Cpp;
  std::unordered_map<std::string, Placed> places;
  push(body, false);
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const Stmt& stmt = *item.stmt;
    const size_t first_new = walk.layers.size();
    ir::for_each_expr(stmt,
                      [&](const Expr& e) { visit_expr(module, e, scope, item.elsewhere, walk); });
    if (cpp) track_cpp_layer(module, stmt, item.block, first_new, walk, places);
    switch (stmt.kind) {
      case StmtKind::Guard:
        push(stmt.body, item.elsewhere || shields_layers(module, stmt));
        break;
      case StmtKind::Loop:
      case StmtKind::If:
      case StmtKind::Other:
        push(stmt.body, item.elsewhere);
        push(stmt.orelse, item.elsewhere);
        break;
      case StmtKind::Try:
        push(stmt.body, item.elsewhere);
        for (const ir::Handler& handler : stmt.handlers) push(handler.body, item.elsewhere);
        push(stmt.orelse, item.elsewhere);
        push(stmt.finalbody, item.elsewhere);
        break;
      case StmtKind::Assign:
      case StmtKind::AugAssign:
      case StmtKind::AnnAssign:
      case StmtKind::ExprStmt:
      case StmtKind::Del:
      case StmtKind::Return:
      case StmtKind::FunctionDef:  // walked as its own Function
      case StmtKind::ClassDef:     // walked as its own class body
      case StmtKind::Import:
      case StmtKind::Global:
      case StmtKind::Raise:
        break;
    }
  }
}

// Names bound by the enclosing functions (not the module: its names are the constants).
void add_enclosing(const ir::Function* function, std::unordered_set<std::string_view>& names) {
  for (; function != nullptr && !function->is_module; function = function->parent_function)
    names.merge(ir::locally_bound_names(*function));
}

Walk walk_module(const ir::Module& module) {
  Walk walk;
  for (const ir::Function& function : module.functions()) {
    std::unordered_set<std::string_view> shadowed;
    add_enclosing(&function, shadowed);
    walk.scopes.push_back(std::move(shadowed));
    walk.functions.push_back(&function);
    walk_body(module, function.body, walk.scopes.size() - 1, walk);
  }
  for (const ir::ClassDef& cls : module.classes()) {
    std::unordered_set<std::string_view> shadowed = ir::locally_bound_names(cls);
    add_enclosing(cls.parent_function, shadowed);
    walk.scopes.push_back(std::move(shadowed));
    walk.functions.push_back(nullptr);
    walk_body(module, cls.body, walk.scopes.size() - 1, walk);
  }
  return walk;
}

// C++: the local declarations of each scope that builds a layer (a function's; not a class
// body's, nor the top level's, whose constants are the module's).
std::vector<std::unique_ptr<const ir::LocalConstants>> cpp_locals(
    const ir::Module& module, const Walk& walk, const ir::ModuleConstants& constants) {
  std::vector<std::unique_ptr<const ir::LocalConstants>> locals(walk.scopes.size());
  if (module.language() != ir::Language::Cpp) return locals;
  const ir::NameLookup module_constant = [&](const Expr& name) -> std::optional<FoldedInt> {
    const ir::ModuleConstant* constant = constants.find(name.text);
    return constant ? std::optional(constant->value) : std::nullopt;
  };
  for (const LayerCall& layer : walk.layers) {
    const ir::Function* function = walk.functions[layer.scope];
    if (locals[layer.scope] || function == nullptr || function->is_module) continue;
    locals[layer.scope] = std::make_unique<ir::LocalConstants>(module, *function, module_constant);
  }
  return locals;
}

// ---- the diagnostic ------------------------------------------------------------------------

// `4295032832` -> "4,295,032,832".
std::string grouped(int64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string quote_layer(const ir::Module& module, const LayerCall& layer) {
  constexpr size_t kMaxLayerQuote = 60;
  const QuotedExpr whole = quote_range(module, layer.quote, kMaxLayerQuote);
  if (whole.complete) return whole.text;
  if (module.language() == ir::Language::Cpp) {
    // The IR's callee spans the whole construction: `torch::nn::Linear fc(...)`.
    std::string head = quote_cpp_construction(module, layer.quote, kMaxLayerQuote);
    if (!head.empty()) return head;
  }
  return fmt::format("{}(...)", quote_range(module, layer.call->callee()->range).text);
}

std::string format_gib(double gib) {
  return std::floor(gib) == gib ? fmt::format("{:.1f}", gib) : fmt::format("{}", gib);
}

constexpr long double kGiB = 1024.0L * 1024.0L * 1024.0L;
constexpr int kCopies = 4;  // weights, grads, Adam's exp_avg and exp_avg_sq

std::optional<std::string> check_budget(std::string_view value) {
  auto parsed = OversizedLayerOptions::parse({{"budget-gib", std::string(value)}});
  if (parsed) return std::nullopt;
  return parsed.error();
}

constexpr std::array<RuleOption, 1> kOptions = {{{"budget-gib", "2.0", check_budget}}};

class OversizedLayer final : public Rule {
 public:
  explicit OversizedLayer(const OversizedLayerOptions& options)
      : budget_gib_(options.budget_gib),
        budget_bytes_(static_cast<long double>(options.budget_gib) * kGiB) {
    assert(std::isfinite(options.budget_gib) && options.budget_gib > 0 &&
           "OversizedLayerOptions::parse accepts positive budgets only");
  }

  const RuleInfo& info() const override { return kInfo; }

  std::span<const RuleOption> options() const override { return kOptions; }

  std::unique_ptr<const Rule> with_options(const OptionTable& table) const override {
    auto options = OversizedLayerOptions::parse(table);
    assert(options && "the registry checks each option against kOptions first");
    return std::make_unique<OversizedLayer>(*options);
  }

  void check(const ir::Module& module, const RuleContext& context,
             DiagnosticSink& sink) const override {
    // A file that does not import torch builds no torch layers.
    if (!context.analysis.has_torch()) return;
    const Walk walk = walk_module(module);
    // No layer construction in the file: nothing to estimate.
    if (walk.layers.empty()) return;
    // `torch.set_default_device("meta")`: layers get no memory.
    if (walk.default_device_meta) return;
    const ir::ModuleConstants constants(module);
    const auto locals = cpp_locals(module, walk, constants);
    for (const LayerCall& layer : walk.layers)
      check_layer(module, walk, constants, locals[layer.scope].get(), layer, sink);
  }

 private:
  // `locals`: the C++ declarations of the layer's function, or nullptr (Python, a class body).
  void check_layer(const ir::Module& module, const Walk& walk, const ir::ModuleConstants& constants,
                   const ir::LocalConstants* locals, const LayerCall& layer,
                   DiagnosticSink& sink) const {
    // Built on the meta device, partitioned as it is built, or expected to fail: no memory of
    // its own here.
    if (layer.elsewhere) return;
    const bool cpp = module.language() == ir::Language::Cpp;
    const std::optional<BoundArgs> bound = cpp ? BoundArgs::bind_cpp(*layer.call, *layer.spec)
                                               : BoundArgs::bind(*layer.call, *layer.spec);
    // `*args`, `**kwargs` or a call PyTorch rejects: the sizes are not known.
    if (!bound) return;
    if (mentions_meta(module, bound->get("device"))) return;  // nothing allocated
    // Embedding options that change what is kept: frozen weights have no grads or Adam state,
    // sparse gradients are not a dense copy.
    for (std::string_view flag : {"sparse", "_freeze"}) {
      if (bound->get(flag) != nullptr &&
          (bound->get(flag)->kind != ExprKind::Const || bound->get(flag)->text != "False"))
        return;
    }
    int bytes = 4;
    if (const Expr* dtype = bound->get("dtype")) {
      const std::optional<int> known = dtype_bytes(ir::qualified_name(module, dtype));
      // A dtype from a variable, or not floating point: the size per element is not known.
      if (!known) return;
      bytes = *known;
    } else if (walk.default_dtype_changed) {
      return;  // the file changes the default dtype: float32 is not known to hold
    }
    if (const auto chain = walk.chains.find(layer.call); chain != walk.chains.end()) {
      const Conversion conversion = apply_chain(module, chain->second);
      // Moved to the meta device, frozen, or cast to a dtype we cannot read.
      if (conversion.meta || conversion.frozen || conversion.unknown_dtype) return;
      if (conversion.bytes) bytes = *conversion.bytes;
    }

    std::vector<const ir::ModuleConstant*> used;
    const ir::NameLookup lookup = [&](const Expr& name) -> std::optional<FoldedInt> {
      if (locals != nullptr) {
        // C++: the declaration in scope there (`constexpr int64_t kHidden = 1 << 15;`, a
        // parameter, a variable), else the namespace-scope constant.
        if (const auto* local = locals->visible(name.text, name.range.begin)) {
          if (!local->constant) return std::nullopt;
          if (std::find(used.begin(), used.end(), &*local->constant) == used.end())
            used.push_back(&*local->constant);
          return local->constant->value;
        }
      } else if (walk.scopes[layer.scope].contains(name.text)) {
        // A name the function (or one around it) binds is not the module constant.
        return std::nullopt;
      }
      const ir::ModuleConstant* constant = constants.find(name.text);
      if (constant == nullptr) return std::nullopt;
      if (std::find(used.begin(), used.end(), constant) == used.end()) used.push_back(constant);
      return constant->value;
    };
    const std::optional<FoldedInt> params =
        count_parameters(*layer.spec, LayerArgs(*bound, lookup, module.language()));
    // A size that is a parameter, an attribute, a config value: not known here.
    if (!params) return;
    const long double needed =
        params->huge ? static_cast<long double>(FoldedInt::kMaxExact) * bytes * kCopies
                     : static_cast<long double>(params->value) * bytes * kCopies;
    // Fits the budget: an ordinary layer.
    if (needed <= budget_bytes_) return;
    report(module, layer, *params, bytes, needed, used, sink);
  }

  void report(const ir::Module& module, const LayerCall& layer, FoldedInt params, int bytes,
              long double needed, const std::vector<const ir::ModuleConstant*>& used,
              DiagnosticSink& sink) const {
    const double gib = static_cast<double>(needed / kGiB);
    const std::string call = quote_layer(module, layer);
    std::string message =
        fmt::format("`{}` needs {} {:.1f} GiB for weights, grads and Adam state (budget {} GiB)",
                    call, params.huge ? "more than" : "about", gib, format_gib(budget_gib_));
    std::string help = fmt::format(
        "shrink or factorize the layer, or {}; the estimate is {} parameters x {} bytes x {} "
        "copies (weights, grads, Adam's two moments)",
        module.language() == ir::Language::Cpp ? "split it across devices"
                                               : "shard it across devices (FSDP, ZeRO-3)",
        params.huge ? "over " + grouped(FoldedInt::kMaxExact) : grouped(params.value), bytes,
        kCopies);
    std::vector<const ir::ModuleConstant*> sorted = used;
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
      return a->target->range.begin < b->target->range.begin;
    });
    std::vector<Related> related;
    for (const ir::ModuleConstant* constant : sorted) {
      related.push_back({constant->target->range,
                         constant->value.huge
                             ? fmt::format("`{}` is defined here", constant->target->text)
                             : fmt::format("`{}` is defined here as {}", constant->target->text,
                                           constant->value.value)});
    }
    sink.report(kInfo, layer.quote, std::move(message), std::move(help), std::move(related));
  }

  const double budget_gib_;
  const long double budget_bytes_;
};

}  // namespace

Result<OversizedLayerOptions> OversizedLayerOptions::parse(
    const std::map<std::string, std::string, std::less<>>& table) {
  OversizedLayerOptions options;
  for (const auto& [name, value] : table) {
    if (name != "budget-gib") return make_error(fmt::format("unknown option '{}' for SL003", name));
    double budget = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), budget);
    if (error != std::errc() || end != value.data() + value.size() || !std::isfinite(budget) ||
        budget <= 0) {
      return make_error(
          fmt::format("SL003 option 'budget-gib' must be a positive number, not '{}'", value));
    }
    options.budget_gib = budget;
  }
  return options;
}

std::unique_ptr<const Rule> make_sl003_oversized_layer() {
  return make_sl003_oversized_layer(OversizedLayerOptions{});
}

std::unique_ptr<const Rule> make_sl003_oversized_layer(const OversizedLayerOptions& options) {
  return std::make_unique<OversizedLayer>(options);
}

std::unique_ptr<const Rule> make_sl003_oversized_layer(double budget_gib) {
  return make_sl003_oversized_layer(OversizedLayerOptions{budget_gib});
}

}  // namespace sealint::rules
