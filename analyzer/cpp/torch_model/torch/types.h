// sealint's model of LibTorch 1.13: <torch/types.h> forwards to the single model header.
#pragma once
// Treated as a system header, like the real ones under /usr/include: no warnings
// from inside the model, and SourceManager::isInSystemHeader() agrees in both modes.
#pragma GCC system_header
#include <torch/torch.h>
