// sealint's model of LibTorch 1.13: <torch/all.h> forwards to the single model header.
#pragma once
#include <torch/torch.h>
