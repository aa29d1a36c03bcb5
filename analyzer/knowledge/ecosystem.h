#pragma once
// Which deep-learning framework a file's imports put it in. A file need not import torch to be
// torch code: a Lightning module may import only `pytorch_lightning`, a trainer module only its
// project's model. A file that imports another framework (MXNet's gluon, Paddle, JAX) and calls
// `loss.backward()` is that framework's code, whose graphs sealint's rules do not describe.
#include <string_view>

namespace sealint::knowledge {

enum class ImportFramework {
  None,   // says nothing: the standard library, numpy, the project's own modules
  Torch,  // torch, or a library built on it (Lightning, torchvision, timm, transformers ...)
  Other,  // another deep-learning framework (TensorFlow, Keras, MXNet, JAX, Paddle ...)
};

// What importing `dotted` (`pytorch_lightning.callbacks`, `mxnet.gluon.nn`) says, from its
// top-level package.
[[nodiscard]] ImportFramework import_framework(std::string_view dotted);

}  // namespace sealint::knowledge
