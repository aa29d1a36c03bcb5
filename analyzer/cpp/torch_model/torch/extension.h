// sealint's model of LibTorch 1.13: <torch/extension.h> (pybind11 parts not modelled).
#pragma once
#include <torch/torch.h>
