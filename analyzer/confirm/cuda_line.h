#pragma once
// On CUDA, the blocks allocated at a finding's line and still live when the probe counted them
// (docs/confirm.md, `cuda_blocks`): what the flagged line itself keeps on the GPU.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

// The blocks at the line of the result entry `found`; none when the line holds no block.
[[nodiscard]] std::optional<CudaBlocks> cuda_line(const nlohmann::json& found);

// Sets `c.cuda_line` and says it in the detail ("on the GPU, 20 blocks allocated at this line
// are live (80.0 KiB, +4.0 KiB per iteration)"); `step` names what is counted.
void add_cuda_line(Confirmation& c, const nlohmann::json& found, std::string_view step);

}  // namespace sealint::confirm
