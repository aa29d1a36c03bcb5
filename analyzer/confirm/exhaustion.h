#pragma once
// When a confirmed growth would run the device out of memory: from the loop's memory growth per
// iteration and the memory there is (the GPU's, from the probe, or `--device-memory`), the
// iteration at which the run would exhaust it (docs/confirm.md, "When it runs out").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sealint::confirm {

struct MemoryLimit {
  double bytes = 0;
  bool from_option = false;  // --device-memory, which applies to any memory series
};

// `--device-memory` when given, else the GPU's total memory the probe read (CUDA series only).
[[nodiscard]] std::optional<MemoryLimit> memory_limit(const nlohmann::json& result,
                                                      std::optional<uint64_t> device_memory);

// The iteration at which `last` (the memory after `iterations` iterations), growing by
// `per_iteration`, reaches `limit`; `iterations` itself when it already has.
[[nodiscard]] uint64_t exhaustion_iteration(double last, double per_iteration, double limit,
                                            uint32_t iterations);

// How long one pass of the loop is, when the probe could read it: `iterations` per pass, over
// `over` (a place's name, "`train_loader`"; empty for `range(n)`); `epoch` when a pass is one
// over a DataLoader.
struct PassLength {
  uint64_t iterations = 0;
  std::string over;
  bool epoch = false;
  bool repeats = true;  // false: the loop runs one pass and the script goes on without it
};

// "; at this rate the GPU's 79.1 GiB runs out near iteration 32,456", then, with `pass`, which
// pass that is ("in epoch 18 (1,875 batches each) if nothing frees it between epochs", "within
// the first pass over `loader` (1,875 iterations)"); `step` names what is counted ("iteration"
// for a loop, "call" for a function a framework calls per batch).
[[nodiscard]] std::string exhaustion_sentence(const MemoryLimit& limit, uint64_t iteration,
                                              uint32_t iterations,
                                              std::string_view step = "iteration",
                                              const std::optional<PassLength>& pass = std::nullopt);

// Past this many more steps a projection says nothing about a real run (4 B per iteration
// "runs out near iteration 4,294,906,491"): the growth is named, the projection left out.
inline constexpr uint64_t kProjectionHorizon = 10'000'000;

// The projection a confirmed growth gets: the iteration it runs out at, when within reach, and
// the sentence. `local_of`: the function whose local holds the growth (freed when it returns),
// empty when the holder outlives the loop's function (an attribute of `self`, a global).
struct Projection {
  std::optional<uint64_t> runs_out_at;
  std::string sentence;
};
[[nodiscard]] Projection project(const MemoryLimit& limit, double last, double per_iteration,
                                 uint32_t iterations, std::string_view step,
                                 const std::optional<PassLength>& pass, std::string_view local_of);

}  // namespace sealint::confirm
