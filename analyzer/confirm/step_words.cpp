#include "analyzer/confirm/step_words.h"

#include <fmt/format.h>

namespace sealint::confirm {

StepWords step_words(const ProbeHint& probe) {
  if (probe.region == ProbeRegion::Calls) return {"call", "calls"};
  return {};
}

std::string too_few_detail(uint32_t iterations, const StepWords& steps) {
  return fmt::format("only {} {} ran, too few to see a trend (raise --steps{})", iterations,
                     steps.of(iterations),
                     steps.one == "call" ? ", or run the script longer" : ", or the loop's length");
}

}  // namespace sealint::confirm
