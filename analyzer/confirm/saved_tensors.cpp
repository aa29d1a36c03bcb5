#include "analyzer/confirm/saved_tensors.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "analyzer/confirm/json_field.h"
#include "analyzer/confirm/units.h"

namespace sealint::confirm {

namespace {

using nlohmann::json;

// The values of an array after its first (the entry sample, before any step ran): numbers and
// booleans as numbers, nulls left out.
std::vector<double> after_entry(const json& values) {
  std::vector<double> out;
  if (!values.is_array()) return out;
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].is_number()) out.push_back(values[i].get<double>());
    if (values[i].is_boolean()) out.push_back(values[i].get<bool>() ? 1.0 : 0.0);
  }
  return out;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

std::optional<double> saved_bytes_per_step(const json* loop) {
  if (loop == nullptr) return std::nullopt;
  const std::vector<double> saved =
      after_entry(field(field(*loop, "series"), "saved_tensor_bytes"));
  if (saved.empty()) return std::nullopt;
  return median(saved);
}

std::optional<Confirmation> judge_grad_mode(const json& found, const json* loop,
                                            uint32_t iterations, std::string_view one,
                                            std::string_view many) {
  const std::vector<double> grad = after_entry(field(found, "grad_enabled"));
  if (grad.empty()) return std::nullopt;
  Confirmation c;
  c.iterations = iterations;
  c.subject = "the line";
  c.metric = "grad_enabled";
  const auto on = static_cast<size_t>(std::count(grad.begin(), grad.end(), 1.0));
  const size_t ran = grad.size();
  const std::string_view steps = ran == 1 ? one : many;
  if (ran < 2) {
    c.verdict = Verdict::TooFewIterations;
    c.detail =
        fmt::format("the line ran in only {} {}, too few to judge (raise --steps)", ran, steps);
    return c;
  }
  // Most of the steps, as the graph verdict reads "every iteration": a first step under another
  // mode (a warm-up) does not decide.
  if (on * 5 < ran * 4) {
    c.verdict = Verdict::NotConfirmed;
    c.detail =
        fmt::format("autograd was off when this line ran, on {} of {} {}", ran - on, ran, steps);
    return c;
  }
  const std::optional<double> saved = saved_bytes_per_step(loop);
  c.saved_bytes_per_iteration = saved;
  if (!saved) {
    c.verdict = Verdict::NotMeasured;
    c.detail = fmt::format(
        "autograd was on when this line ran ({} of {} {}), but the tensors saved for backward "
        "could not be counted",
        on, ran, steps);
    return c;
  }
  if (*saved <= 0) {
    c.verdict = Verdict::NotConfirmed;
    c.detail = fmt::format(
        "autograd was on when this line ran ({} of {} {}), but no {} saved a tensor for backward",
        on, ran, steps, one);
    return c;
  }
  c.verdict = Verdict::Confirmed;
  c.bytes_per_iteration = *saved;
  c.detail = fmt::format(
      "autograd was on when this line ran ({} of {} {}), and each {} saved {} of activations "
      "for a backward (median)",
      on, ran, steps, one, bytes_text(*saved));
  return c;
}

}  // namespace sealint::confirm
