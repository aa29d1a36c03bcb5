#pragma once
// Runs the probe on a plan as a child process (analyzer/confirm/process.h) and reads its result:
// the piece `sealint confirm` and `--verify-fix` share. Errors say what went wrong in words
// (no torch, no probe, a refused plan, no result), with the script's output tail.
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/cli/confirm_command.h"
#include "analyzer/confirm/run_end.h"
#include "analyzer/core/result.h"

namespace sealint::cli {

// A private folder for the plan, the result and the script's output, removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }  // empty when mkdtemp failed

 private:
  std::string path_;
};

struct ProbeTarget {
  std::string script;         // absolute path of the script to run
  std::string plan;           // the plan file
  std::string folder;         // where the result and the script's output go
  std::string import_folder;  // also on PYTHONPATH (a copy's original folder), or empty
};

struct ProbeRun {
  nlohmann::json result;
  confirm::RunEnd end;
  std::string log_tail;  // the script's last output lines when it did not end well
  int interrupted = 0;   // the signal (Ctrl-C's SIGINT) that ended the run early, kept measured
};

// Runs `options.python -m sealint_probe` on the target with `options.script_args`.
[[nodiscard]] Result<ProbeRun> run_probe(const ConfirmOptions& options, const ProbeTarget& target);

[[nodiscard]] std::string absolute_path(const std::string& path);
[[nodiscard]] Result<nlohmann::json> read_json_file(const std::string& path);

}  // namespace sealint::cli
