#pragma once
// Which deep-learning framework a function's code calls, from the qualified names it reads
// through the file's imports. A file may hold both (yolov5's TensorFlow export next to its torch
// model): a method that calls only `tf.` and `keras.` runs Keras layers, not torch modules, and
// torch's autograd rules do not apply to it.
#include "analyzer/ir/ir.h"

namespace sealint::semantic {

struct FrameworksUsed {
  bool torch = false;
  bool tensorflow = false;  // `tensorflow.*` or `keras.*`
};

[[nodiscard]] FrameworksUsed frameworks_used(const ir::Module& module,
                                             const ir::Function& function);

}  // namespace sealint::semantic
