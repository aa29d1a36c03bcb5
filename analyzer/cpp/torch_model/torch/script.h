// sealint's model of LibTorch 1.13: <torch/script.h> (TorchScript inference API).
// Adds what torch/torch.h does not declare: torch::jit::load and
// torch::autograd::InferenceMode (torch/csrc/autograd/InferenceMode.h).
#pragma once
// A system header, like the real ATen/c10 headers under /usr/include: no warnings
// from inside the model (the README at the model root covers the real torch/ dir).
#pragma GCC system_header

#include <torch/torch.h>

namespace torch {
namespace autograd {
using InferenceMode = c10::InferenceMode;
} // namespace autograd

namespace jit {
// torch/csrc/jit/serialization/import.h
Module load(std::istream& in, c10::optional<c10::Device> device = c10::nullopt);
Module load(const std::string& filename,
            c10::optional<c10::Device> device = c10::nullopt);
} // namespace jit
} // namespace torch
