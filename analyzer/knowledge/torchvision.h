#pragma once
// What of `torchvision.models` builds a model: `resnet18(...)`, `detection.fasterrcnn_*`,
// `ResNet(...)`. Not the weight enums and their helpers, the feature-extraction helpers, private
// modules, or detection's `ImageList` (a batch of images and their sizes). Grad-flow and SL007
// both ask, so the answer lives here.
#include <string_view>

namespace sealint::knowledge {

// `qualified` is a callee's name through the file's imports (`torchvision.models.resnet18`).
[[nodiscard]] bool is_torchvision_model(std::string_view qualified);

}  // namespace sealint::knowledge
