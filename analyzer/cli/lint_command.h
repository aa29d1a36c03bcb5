#pragma once
// `sealint [paths]`: lints files and folders, applies or shows fixes, and prints the findings in
// the chosen format. Exit status: 0 nothing found (or --exit-zero), 1 findings, 2 usage or input
// errors.
#include <string>
#include <vector>

#include "rules/registry.h"

namespace sealint::cli {

struct LintOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string color = "auto";
  unsigned jobs = 0;
  std::vector<std::string> exclude;
  std::string stdin_filename;
  std::string output_path;
  bool parse_only = false;
  bool no_project = false;
  bool show_suppressed = false;
  bool fix = false;
  bool unsafe_fixes = false;
  bool diff = false;
  bool show_fixes = false;
  std::string config_path;
  std::vector<std::string> config_settings;  // --config 'KEY = VALUE', over every configuration
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  bool force_exclude = false;
  bool exit_zero = false;
  bool statistics = false;
  bool analyse_tests = false;  // test code gets every rule's findings (config: analyse-tests)
  bool no_respect_gitignore = false;
  std::string compile_commands_dir;
  std::string torch_headers = "model";
  std::string cache_dir;
  bool no_cache = false;
};

[[nodiscard]] int run_lint(const LintOptions& options, const rules::RuleRegistry& registry);

}  // namespace sealint::cli
