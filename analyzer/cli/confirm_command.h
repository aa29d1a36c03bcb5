#pragma once
// `sealint confirm train.py [options] -- [script args]`: analyses the script, runs it under the
// probe for a bounded number of iterations, and prints each finding with its verdict
// (docs/confirm.md). Exit status: 0 no findings, 1 findings, 2 errors (the interpreter cannot
// import torch, the probe could not run, bad input).
#include <cstdint>
#include <string>
#include <vector>

#include "rules/registry.h"

namespace sealint::cli {

struct ConfirmOptions {
  std::string script;
  std::vector<std::string> script_args;
  unsigned steps = 20;
  std::string python = "python3";
  int timeout_seconds = 300;
  std::string format = "text";
  std::string color = "auto";
  std::string output_path;
  std::string snapshot_path;
  uint64_t device_memory = 0;  // bytes a confirmed growth is projected against; 0: the GPU's
  uint64_t max_memory = 0;     // the run's resident memory bound; 0: half the machine's memory
  std::string result_path;     // read this result instead of running the script
  std::string report_path;     // also write the HTML report (charts of each series) here
  bool plan_only = false;      // write the plan and stop
  bool verify_fix = false;     // run again with the fixes applied to a copy, before and after
  std::string config_path;
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
};

[[nodiscard]] int run_confirm(const ConfirmOptions& options, const rules::RuleRegistry& registry);

}  // namespace sealint::cli
