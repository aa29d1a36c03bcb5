#include "analyzer/confirm/progress.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sealint::confirm {

using nlohmann::json;

std::string progress_line(const json& progress, std::string_view script, double seconds) {
  const json loops = progress.is_object() ? progress.value("loops", json()) : json();
  const json steps = progress.is_object() ? progress.value("steps", json()) : json();
  if (!loops.is_array() || !steps.is_number_integer())
    return fmt::format("running {}: starting ({:.1f} s)", script, seconds);
  std::vector<std::string> parts;
  for (const json& loop : loops) {
    if (!loop.is_object() || !loop.value("line", json()).is_number_integer() ||
        !loop.value("iterations", json()).is_number_integer())
      continue;
    // Iterations past --steps are not sampled: the line shows what counts.
    const long long iterations =
        std::min(loop["iterations"].get<long long>(), steps.get<long long>());
    // A function whose calls are counted is named by them: "training_step() 3/20".
    const json function = loop.value("function", json());
    const std::string region = function.is_string()
                                   ? fmt::format("{}()", function.get<std::string>())
                                   : fmt::format("line {}", loop["line"].get<long long>());
    parts.push_back(fmt::format("{} {}/{}", region, iterations, steps.get<long long>()));
  }
  return fmt::format("running {}: {} ({:.1f} s)", script,
                     parts.empty() ? std::string("no loop reached yet")
                                   : fmt::format("{}", fmt::join(parts, ", ")),
                     seconds);
}

ProgressLine::ProgressLine(std::string path, std::string script, std::FILE* terminal,
                           std::chrono::milliseconds interval)
    : path_(std::move(path)),
      script_(std::move(script)),
      terminal_(terminal),
      interval_(interval),
      started_(std::chrono::steady_clock::now()) {}

void ProgressLine::update() {
  const auto now = std::chrono::steady_clock::now();
  if (last_ != std::chrono::steady_clock::time_point{} && now - last_ < interval_) return;
  last_ = now;
  std::ifstream in(path_, std::ios::binary);
  // No file yet (the interpreter is importing torch), or none that parses: "starting".
  const json progress = in ? json::parse(in, nullptr, false) : json();
  const double seconds = std::chrono::duration<double>(now - started_).count();
  const std::string line = progress_line(progress, script_, seconds);
  // \r and erase-to-end-of-line: one line, redrawn in place; the clock ticks between the
  // probe's writes, so a long iteration still shows the run is alive.
  std::fprintf(terminal_, "\r\033[K%s", line.c_str());
  std::fflush(terminal_);
  shown_ = true;
}

void ProgressLine::erase() {
  if (!shown_) return;
  std::fprintf(terminal_, "\r\033[K");
  std::fflush(terminal_);
  shown_ = false;
}

}  // namespace sealint::confirm
