// sealint's model of LibTorch 1.13: <torch/types.h> forwards to the single model header.
#pragma once
#include <torch/torch.h>
