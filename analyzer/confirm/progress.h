#pragma once
// The live line `sealint confirm` shows on a terminal while the script runs, from the progress
// file the probe rewrites (`--progress`): elapsed time and each measured loop's iterations.
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sealint::confirm {

// "running train.py: line 10 12/20, line 38 0/20 (3.2 s)"; "starting" while `progress` is not a
// progress document yet. `script` is the path as the user gave it, `seconds` since the start.
[[nodiscard]] std::string progress_line(const nlohmann::json& progress, std::string_view script,
                                        double seconds);

// Reads the probe's progress file at most every `interval` and redraws one line on a terminal
// stream; erase() clears it before the findings are printed.
class ProgressLine {
 public:
  ProgressLine(std::string path, std::string script, std::FILE* terminal,
               std::chrono::milliseconds interval = std::chrono::milliseconds(250));
  void update();
  void erase();

 private:
  std::string path_;
  std::string script_;
  std::FILE* terminal_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_{};
  bool shown_ = false;
};

}  // namespace sealint::confirm
