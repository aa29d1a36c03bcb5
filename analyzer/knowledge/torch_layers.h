#pragma once
// The torch.nn layers whose parameter count follows from their constructor's sizes (linear,
// bilinear, embedding, convolution, recurrent layers and cells), their constructors' signatures,
// the element size of each floating-point dtype, and the methods that return the module they are
// called on. SL003 estimates a layer's memory from them.
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace sealint::knowledge {

enum class LayerKind { Linear, Bilinear, Embedding, Conv, Recurrent, Cell };

struct LayerSpec {
  std::string_view name;  // after `torch.nn.`
  LayerKind kind;
  int dims;                                  // convolutions: 1, 2 or 3
  int gates;                                 // recurrent layers and cells: LSTM 4, GRU 3, RNN 1
  std::span<const std::string_view> params;  // the constructor's parameters, in order
  size_t positional = params.size();         // how many of them a call may pass by position
};

// The layer a qualified name stands for (`torch.nn.Linear`), or nullptr.
[[nodiscard]] const LayerSpec* find_layer(std::string_view qualified);

// Bytes per element of a floating-point torch dtype (`torch.float16`, LibTorch's
// `torch::kHalf`); nullopt for others (a module's parameters must be floating point to train).
[[nodiscard]] std::optional<int> dtype_bytes(std::string_view qualified);

// Methods that return the module itself (`half`, `to`, `cuda`, `requires_grad_`), so a chain of
// them still holds the layer.
[[nodiscard]] bool is_chained_module_method(std::string_view method);

// Every layer of the table (for tests).
[[nodiscard]] std::span<const LayerSpec> all_layers();

}  // namespace sealint::knowledge
