#pragma once
// torch.nn and torch.optim classes, as far as constructing one allocates device memory: which
// torch.nn classes hold no parameters, which only hold modules built elsewhere, and which
// optimizers keep per-parameter state. Python and LibTorch (`torch::nn::Linear` lowers to
// `torch.nn.Linear`) share the table.
#include <string_view>

#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

// The torch.nn class a qualified name stands for (`torch.nn.Linear`,
// `torch.nn.modules.linear.Linear` -> "Linear"), or empty: a function (`torch.nn.functional.*`),
// a helper namespace (`torch.nn.utils.rnn.PackedSequence`), or LibTorch's options object
// (`torch::nn::LinearOptions`).
[[nodiscard]] std::string_view torch_nn_class(std::string_view qualified);

// Instances hold no parameters and no buffers (activations, dropout, pooling, padding, reshapes,
// losses): constructing one allocates nothing on the device.
[[nodiscard]] bool is_parameter_free_nn_class(std::string_view name);

// Holds or wraps modules built elsewhere (`Sequential`, `ModuleList`, `DataParallel`,
// `Parameter`): allocates only through what it is given.
[[nodiscard]] bool is_nn_container_class(std::string_view name);

// The torch.optim class a qualified name stands for when it is an optimizer (`torch.optim.Adam`
// -> "Adam"), or empty: schedulers, LibTorch's options and state objects, the `Optimizer` base.
[[nodiscard]] std::string_view torch_optimizer_class(std::string_view qualified);

// Methods that a training framework runs once per step on a module: building a submodule there
// is building it on every step.
inline constexpr auto kPerStepModuleMethods =
    sorted_names("forward", "predict_step", "test_step", "training_step", "validation_step");

// Methods of a module that run its forward pass, with the caller's grad mode: `model(x)` calls
// `forward`, and a model's `inference()` is its forward for deployment (RIFE's
// `model.inference(I0, I1)`). Not `generate` (Hugging Face's runs under no_grad), nor `predict`
// (Keras's and scikit-learn's share the name).
inline constexpr auto kForwardMethods = sorted_names("__call__", "forward", "inference");

// nn.Module's own methods that return no tensor computed from their arguments (registration,
// state, hooks): called with a tensor that carries a graph, they hand back none.
inline constexpr auto kModuleMethodsWithoutGraph = sorted_names(
    "add_module", "apply", "get_buffer", "get_parameter", "get_submodule", "load_state_dict",
    "register_backward_hook", "register_buffer", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook", "register_module",
    "register_parameter", "requires_grad_", "set_extra_state", "state_dict", "zero_grad");

// `module.method(...)` runs a module's forward pass: a forward method, or a part the module holds,
// called with arguments (`model.encoder(x)`, `asr.speecht5.encoder(input_values=...)`; naming's
// `is_submodule_name`).
[[nodiscard]] bool runs_module_forward(std::string_view method, bool has_arguments);

}  // namespace sealint::knowledge
