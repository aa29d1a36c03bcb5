#include "analyzer/confirm/exhaustion.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

using nlohmann::json;

std::optional<MemoryLimit> memory_limit(const json& result, std::optional<uint64_t> device_memory) {
  if (device_memory && *device_memory > 0)
    return MemoryLimit{static_cast<double>(*device_memory), true};
  const json& total = field(field(result, "device_memory"), "total");
  if (!total.is_number() || total.get<double>() <= 0) return std::nullopt;
  return MemoryLimit{total.get<double>(), false};
}

uint64_t exhaustion_iteration(double last, double per_iteration, double limit,
                              uint32_t iterations) {
  if (last >= limit || per_iteration <= 0) return iterations;
  const double more = std::ceil((limit - last) / per_iteration);
  constexpr auto kMax = static_cast<double>(std::numeric_limits<uint64_t>::max() / 2);
  return iterations + static_cast<uint64_t>(std::min(more, kMax));
}

namespace {

// ", in epoch 18 (1,875 batches each) if nothing frees it between epochs"
std::string pass_clause(const PassLength& pass, uint64_t iteration) {
  const std::string length = grouped(pass.iterations);
  if (iteration <= pass.iterations) {
    if (pass.epoch) return fmt::format(", within the first epoch ({} batches)", length);
    if (pass.over.empty()) return fmt::format(", before the loop's {} iterations end", length);
    return fmt::format(", within the first pass over {} ({} iterations)", pass.over, length);
  }
  // Whether the growth survives from one pass to the next (a sum kept in `self`) or starts over
  // (a local bound again each epoch) the run does not show: the clause says what it assumes.
  const uint64_t number = (iteration + pass.iterations - 1) / pass.iterations;
  if (pass.epoch) {
    return fmt::format(", in epoch {} ({} batches each) if nothing frees it between epochs",
                       grouped(number), length);
  }
  const std::string where =
      pass.over.empty() ? std::string("of the loop") : fmt::format("over {}", pass.over);
  return fmt::format(", in pass {} {} ({} iterations each) if nothing frees it between passes",
                     grouped(number), where, length);
}

}  // namespace

std::string exhaustion_sentence(const MemoryLimit& limit, uint64_t iteration, uint32_t iterations,
                                std::string_view step, const std::optional<PassLength>& pass) {
  const std::string memory = limit.from_option
                                 ? fmt::format("the {} of --device-memory", bytes_text(limit.bytes))
                                 : fmt::format("the GPU's {}", bytes_text(limit.bytes));
  if (iteration <= iterations) return fmt::format("; {} is already used up", memory);
  if (pass && pass->iterations != 0 && !pass->repeats && iteration > pass->iterations) {
    // A loop at the script's top level runs once: the run ends before the memory does.
    return fmt::format(
        "; at this rate {} would run out near {} {}, but the loop ends after its "
        "{} iterations",
        memory, step, grouped(iteration), grouped(pass->iterations));
  }
  return fmt::format("; at this rate {} runs out near {} {}{}", memory, step, grouped(iteration),
                     pass && pass->iterations != 0 ? pass_clause(*pass, iteration) : "");
}

}  // namespace sealint::confirm
