#include "analyzer/confirm/cuda_line.h"

#include <string>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/result_access.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

using nlohmann::json;

std::optional<CudaBlocks> cuda_line(const json& found) {
  const json blocks = found.value("cuda_blocks", json());
  if (!blocks.is_object()) return std::nullopt;
  const json line = blocks.value("line", json());
  if (!line.is_object()) return std::nullopt;
  const std::optional<size_t> count = index_of(line.value("count", json()));
  const std::optional<size_t> bytes = index_of(line.value("bytes", json()));
  if (!count || *count == 0 || !bytes) return std::nullopt;
  CudaBlocks out{*count, *bytes, text_field(blocks, "when") == "end", std::nullopt};
  // The count halfway there: the growth per iteration of what this line keeps on the GPU.
  const json earlier = blocks.value("earlier", json());
  const std::optional<size_t> at = index_of(blocks.value("iteration", json()));
  if (earlier.is_object() && at) {
    const std::optional<size_t> earlier_at = index_of(earlier.value("iteration", json()));
    const json earlier_line = earlier.value("line", json());
    const std::optional<size_t> earlier_bytes =
        earlier_line.is_object() ? index_of(earlier_line.value("bytes", json())) : std::nullopt;
    if (earlier_at && earlier_bytes && *at > *earlier_at && *bytes > *earlier_bytes) {
      out.bytes_per_iteration =
          static_cast<double>(*bytes - *earlier_bytes) / static_cast<double>(*at - *earlier_at);
    }
  }
  return out;
}

void add_cuda_line(Confirmation& c, const json& found, std::string_view step) {
  c.cuda_line = cuda_line(found);
  if (!c.cuda_line) return;
  c.detail += fmt::format(
      "; on the GPU, {} allocated at this line {} live ({}{}){}",
      counted(static_cast<double>(c.cuda_line->count), "block"),
      c.cuda_line->count == 1 ? "is" : "are", bytes_text(static_cast<double>(c.cuda_line->bytes)),
      c.cuda_line->bytes_per_iteration
          ? fmt::format(", +{} per {}", bytes_text(*c.cuda_line->bytes_per_iteration), step)
          : std::string(),
      c.cuda_line->at_end ? " at the end of the run" : "");
}

}  // namespace sealint::confirm
