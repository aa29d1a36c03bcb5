#pragma once
// sealint's model of the LibTorch API (analyzer/cpp/torch_model/), embedded at build time and
// served to Clang from memory in place of the real torch/ATen headers.
#include <string_view>
#include <utility>
#include <vector>

namespace sealint::cpp {

// (path below the include root, content) of every file of the model.
[[nodiscard]] const std::vector<std::pair<std::string_view, std::string_view>>& torch_model_files();

}  // namespace sealint::cpp
