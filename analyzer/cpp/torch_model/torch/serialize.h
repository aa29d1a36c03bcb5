// sealint's model of LibTorch 1.13: <torch/serialize.h> forwards to the single model header.
#pragma once
// A system header, like the real ATen/c10 headers under /usr/include: no warnings
// from inside the model (the README at the model root covers the real torch/ dir).
#pragma GCC system_header
#include <torch/torch.h>
