#include "analyzer/knowledge/torch_layers.h"

#include <algorithm>
#include <array>
#include <utility>

namespace sealint::knowledge {

namespace {

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

}  // namespace

const LayerSpec* find_layer(std::string_view qualified) {
  constexpr std::string_view kPrefix = "torch.nn.";
  if (!qualified.starts_with(kPrefix)) return nullptr;
  qualified.remove_prefix(kPrefix.size());
  const auto* spec = std::find_if(kLayers.begin(), kLayers.end(),
                                  [&](const LayerSpec& s) { return s.name == qualified; });
  return spec == kLayers.end() ? nullptr : spec;
}

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

bool is_chained_module_method(std::string_view method) {
  static constexpr std::array<std::string_view, 10> kMethods = {
      "half", "bfloat16", "float", "double", "to",
      "cuda", "cpu",      "train", "eval",   "requires_grad_"};
  for (std::string_view m : kMethods) {
    if (m == method) return true;
  }
  return false;
}

std::span<const LayerSpec> all_layers() {
  return kLayers;
}

}  // namespace sealint::knowledge
