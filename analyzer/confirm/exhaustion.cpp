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

Projection project(const MemoryLimit& limit, double last, double per_iteration, uint32_t iterations,
                   std::string_view step, const std::optional<PassLength>& pass,
                   std::string_view local_of) {
  const uint64_t iteration = exhaustion_iteration(last, per_iteration, limit.bytes, iterations);
  const std::string memory = limit.from_option
                                 ? fmt::format("the {} of --device-memory", bytes_text(limit.bytes))
                                 : fmt::format("the GPU's {}", bytes_text(limit.bytes));
  const bool in_first_pass = pass && pass->iterations != 0 && iteration <= pass->iterations;
  if (!local_of.empty() && pass && pass->iterations != 0 && !in_first_pass) {
    // Freed when the function returns: the growth is a peak per pass, not a sum over passes.
    const double peak = per_iteration * static_cast<double>(pass->iterations);
    return {
        std::nullopt,
        fmt::format("; a local of {}(), freed when it returns: a peak of {} per pass of {} {}s, "
                    "within {}",
                    local_of, bytes_text(peak), grouped(pass->iterations), step, memory)};
  }
  if (iteration > iterations && iteration - iterations > kProjectionHorizon) {
    return {
        std::nullopt,
        fmt::format("; it does not threaten the device: +{} per {}, {} would last past {} "
                    "more {}s",
                    bytes_text(per_iteration), step, memory, grouped(kProjectionHorizon), step)};
  }
  std::string sentence = exhaustion_sentence(limit, iteration, iterations, step, pass);
  if (!local_of.empty() && !in_first_pass && iteration > iterations) {
    sentence += fmt::format(" if one pass runs that long (a local of {}(), freed when it returns)",
                            local_of);
  }
  return {iteration, sentence};
}

}  // namespace sealint::confirm
