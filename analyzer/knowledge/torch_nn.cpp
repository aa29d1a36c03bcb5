#include "analyzer/knowledge/torch_nn.h"

#include <array>
#include <cctype>

#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

// Activations, dropout, pooling, padding, shape and resampling, distances, parameter-free
// normalisations, quantization's functional observers, and LibTorch's
// `torch::nn::Functional(torch::relu)` (a function as a module).
constexpr auto kParameterFree = sorted_names(
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AlphaDropout", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "CELU", "ChannelShuffle", "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
    "ConstantPad2d", "ConstantPad3d", "CosineSimilarity", "CrossMapLRN2d", "Dropout", "Dropout1d",
    "Dropout2d", "Dropout3d", "ELU", "FXFloatFunctional", "FeatureAlphaDropout", "Flatten",
    "FloatFunctional", "Fold", "FractionalMaxPool2d", "FractionalMaxPool3d", "Functional", "GELU",
    "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "Identity", "LPPool1d", "LPPool2d",
    "LPPool3d", "LeakyReLU", "LocalResponseNorm", "LogSigmoid", "LogSoftmax", "MaxPool1d",
    "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Mish",
    "PairwiseDistance", "PixelShuffle", "PixelUnshuffle", "QFunctional", "RReLU", "ReLU", "ReLU6",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "SELU", "SiLU", "Sigmoid", "Softmax", "Softmax2d", "Softmin", "Softplus",
    "Softshrink", "Softsign", "Tanh", "Tanhshrink", "Threshold", "Unflatten", "Unfold", "Upsample",
    "UpsamplingBilinear2d", "UpsamplingNearest2d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d");

// Containers and wrappers, and LibTorch's type-erased holders of a module built elsewhere
// (`AnyModule`, `ModuleHolder`).
constexpr auto kContainers = sorted_names(
    "AnyModule", "Buffer", "Container", "DataParallel", "DistributedDataParallel", "Module",
    "ModuleDict", "ModuleHolder", "ModuleList", "NamedAnyModule", "Parameter", "ParameterDict",
    "ParameterList", "Sequential", "UninitializedBuffer", "UninitializedParameter");

// torch.nn submodules whose capitalized names are not modules.
constexpr std::array<std::string_view, 9> kNonModuleNamespaces = {
    "torch.nn.attention.",  "torch.nn.common_types.", "torch.nn.detail.",
    "torch.nn.functional.", "torch.nn.grad.",         "torch.nn.init.",
    "torch.nn.parallel.",   "torch.nn.parameter.",    "torch.nn.utils."};

bool is_class_name(std::string_view name) {
  // `Linear`, `LSTM`, `SGD`; not `linear` or `resnet18`.
  return !name.empty() && std::isupper(static_cast<unsigned char>(name[0])) != 0;
}

}  // namespace

std::string_view torch_nn_class(std::string_view qualified) {
  if (!qualified.starts_with("torch.nn.")) return {};
  for (std::string_view ns : kNonModuleNamespaces) {
    if (qualified.starts_with(ns)) return {};
  }
  const std::string_view last = last_component(qualified);
  // LibTorch: `torch::nn::LinearOptions(4, 2)` is an options object, not a module.
  if (last.ends_with("Options")) return {};
  return is_class_name(last) ? last : std::string_view{};
}

bool runs_module_forward(std::string_view method, bool has_arguments) {
  return kForwardMethods.contains(method) || (has_arguments && is_submodule_name(method));
}

bool is_parameter_free_nn_class(std::string_view name) {
  if (kParameterFree.contains(name)) return true;
  // Loss objects hold no parameters (AdaptiveLogSoftmaxWithLoss holds a classifier).
  return name.ends_with("Loss") && name != "AdaptiveLogSoftmaxWithLoss";
}

bool is_nn_container_class(std::string_view name) {
  return kContainers.contains(name);
}

std::string_view torch_optimizer_class(std::string_view qualified) {
  constexpr std::string_view kOptim = "torch.optim.";
  if (!qualified.starts_with(kOptim)) return {};
  const std::string_view last = qualified.substr(kOptim.size());
  if (last.find('.') != std::string_view::npos || !is_class_name(last) || last == "Optimizer")
    return {};
  for (std::string_view suffix : {"Options", "ParamState", "ParamGroup", "LR", "Scheduler"}) {
    if (last.ends_with(suffix)) return {};
  }
  return last;
}

}  // namespace sealint::knowledge
