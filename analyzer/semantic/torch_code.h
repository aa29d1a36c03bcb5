#pragma once
// Whether a file is torch code, the code sealint's autograd rules describe. Importing torch
// says so, and so does importing a library built on it (Lightning, timm, transformers). A file
// that imports neither can still plainly train a torch model it is handed: a trainer module that
// imports only the project's model, a helper that takes `model` and `optimizer` as parameters.
// It calls two of `loss.backward()`, `optimizer.zero_grad()` and `optimizer.step()`. That is
// torch's vocabulary unless the file imports another framework with its own autograd (MXNet's
// gluon, Paddle, JAX), whose graphs the rules do not describe.
#include "analyzer/ir/ir.h"

namespace sealint::ir {

[[nodiscard]] bool is_torch_code(const Module& module);

}  // namespace sealint::ir
