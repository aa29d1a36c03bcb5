#pragma once
// Resolves each input file's configuration (nearest file up the tree, or --config), applies the
// command line's --select/--ignore on top, and builds one rule registry per distinct set of rule
// options. Owns everything the FileInputs point at.
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/config.h"
#include "analyzer/core/result.h"
#include "analyzer/driver/driver.h"
#include "rules/registry.h"

namespace sealint::config {

struct ConfigOverrides {
  std::string config_path;                 // --config: one file for every input
  std::vector<std::string> select;         // --select replaces the files' select
  std::vector<std::string> extend_select;  // --extend-select adds to their extend-select
  std::vector<std::string> ignore;         // --ignore adds to their ignore
  bool analyse_tests = false;              // --analyse-tests: sets every file's analyse-tests
  // --config 'KEY = VALUE': settings over every file's configuration, in the order given.
  std::vector<std::string> settings = {};
};

class Configurations {
 public:
  Configurations(const rules::RuleRegistry& defaults, ConfigOverrides overrides);

  // Points `input` at its configuration and registry. An error (a broken configuration file, an
  // unknown rule on the command line) ends the run with exit status 2.
  [[nodiscard]] Result<bool> assign(FileInput& input);
  // The configuration in force for `path`, for `sealint config`.
  [[nodiscard]] Result<const Config*> effective(const std::string& path);
  // The configuration files the walks up the tree did not read (ConfigFinder::passed_over).
  [[nodiscard]] const std::vector<std::string>& passed_over() const {
    return finder_.passed_over();
  }

 private:
  [[nodiscard]] Result<const Config*> with_overrides(const Config* found);

  const rules::RuleRegistry& defaults_;
  ConfigOverrides overrides_;
  ConfigFinder finder_;
  std::optional<Config> explicit_;  // loaded from --config
  bool explicit_loaded_ = false;
  std::map<const Config*, const Config*> effective_;  // found -> with the command line applied
  std::deque<Config> storage_;
  std::map<const Config*, rules::RuleRegistry> registries_;
};

}  // namespace sealint::config
