#pragma once
// Configuration: `[tool.sealint]` in pyproject.toml, or a .sealint.toml, the nearest one up the
// tree from each file (or --config). A bad file is an error naming the file, line and key.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/folder_trust.h"
#include "analyzer/core/result.h"

namespace sealint {

struct PerFileIgnore {
  std::string glob;                // relative to `root`
  std::vector<std::string> rules;  // empty: every rule
  // Empty: the config's folder; else the folder of the base configuration (`extend`) that
  // wrote it, as ruff resolves a base's paths against the base's own folder.
  std::filesystem::path root = {};
};

// An `exclude` glob of a base configuration (`extend`), relative to that file's folder.
struct BaseGlob {
  std::string glob;
  std::filesystem::path root;
};

using RuleOptionTable = std::map<std::string, std::string, std::less<>>;  // option -> value text

struct Config {
  std::string path;                        // the file it came from; empty for the defaults
  std::filesystem::path root;              // its folder: globs are relative to it
  std::vector<std::string> select;         // empty: every rule that is on by default
  std::vector<std::string> extend_select;  // added to select's rules (an off rule, turned on)
  std::vector<std::string> ignore;
  Severity min_severity = Severity::Note;  // `severity`: the lowest severity reported
  std::vector<std::string> exclude;
  std::vector<BaseGlob> base_exclude;  // what the files `extend` names excluded
  std::vector<std::string> extends;    // the files `extend` named, nearest first
  // `exclude` applies to files named on the command line too (pre-commit names every file it
  // runs on), as ruff's force-exclude does.
  bool force_exclude = false;
  // Folders are walked without what the work tree's .gitignore files list (`respect-gitignore`,
  // as ruff's; `--no-respect-gitignore` turns it off too).
  bool respect_gitignore = true;
  std::vector<PerFileIgnore> per_file_ignores;
  // Test code (semantic/test_code.h) gets the findings of every rule (`analyse-tests`,
  // `--analyse-tests`); by default only rules that report in tests do, and the rest are counted.
  bool analyse_tests = false;
  std::map<std::string, RuleOptionTable, std::less<>>
      rule_options;  // "SL003" -> {"budget-gib": "1.5"}
  // Where each option was written ("SL003.budget-gib" -> its line), for error messages.
  std::map<std::string, uint32_t, std::less<>> rule_option_lines;

  // Is the rule reported for `file` (a path as the walker or user gave it)? `on_by_default`:
  // the rule's RuleInfo says it runs when `select` is empty.
  [[nodiscard]] bool enabled(std::string_view rule_id, bool on_by_default,
                             const std::filesystem::path& file) const;
  // Is `file` excluded by `exclude` (matched below the config's folder)?
  [[nodiscard]] bool excludes(const std::filesystem::path& file) const;
  // The configuration as TOML, as `sealint config` prints it.
  [[nodiscard]] std::string to_toml() const;
};

// The ids of the rules a selector names ("grad-accumulation" -> {"SL001"}, "SL00" -> SL001 to
// SL009, "ALL" -> every rule); empty when it names none, which is an error. select,
// extend-select, ignore, per-file-ignores and rules.* store ids, so that a rule named by its name
// is never silently matched against nothing.
using RuleIdCheck = std::function<std::vector<std::string>(std::string_view)>;

// Reads a pyproject.toml ([tool.sealint]) or a .sealint.toml (top level). nullopt: a
// pyproject.toml without a [tool.sealint] table. `extend = "PATH"` makes the file PATH names
// (`~` and variables expanded, relative to this file's folder) the base that this file's keys are
// set over, as ruff's `extend` does; a chain that comes back to a file is an error.
[[nodiscard]] Result<std::optional<Config>> load_config(const std::filesystem::path& file,
                                                        const RuleIdCheck& is_rule);

// Reads `[tool.sealint]`-level TOML held in memory (`name` names it in errors): fixtures'
// `# config:` headers.
[[nodiscard]] Result<Config> parse_config_text(std::string_view toml,
                                               const std::filesystem::path& name,
                                               const RuleIdCheck& is_rule);

// Sets the keys of `[tool.sealint]`-level TOML held in memory on `config`, over what it holds:
// `--config 'select = ["SL001"]'`, as ruff's `--config KEY=VALUE` overrides a file's setting.
// `name` names the text in errors.
[[nodiscard]] Result<bool> apply_config_text(Config& config, std::string_view toml,
                                             std::string_view name, const RuleIdCheck& is_rule);

// The nearest configuration up the tree from `start` (a file or folder), with a cache per folder.
// The walk stops below a folder `trust` distrusts (another user's, or writable by every user):
// nothing in it or above it is read.
class ConfigFinder {
 public:
  explicit ConfigFinder(RuleIdCheck is_rule, FolderTrust trust = {})
      : is_rule_(std::move(is_rule)), trust_(std::move(trust)) {}
  // The defaults when no file is found; an error when the nearest one is broken.
  [[nodiscard]] Result<const Config*> find(const std::filesystem::path& start);
  // One sentence for each configuration file a walk stopped before reading, in the order met
  // ("'/tmp/pyproject.toml' is not read: '/tmp' may be written by every user").
  [[nodiscard]] const std::vector<std::string>& passed_over() const { return passed_over_; }

 private:
  RuleIdCheck is_rule_;
  FolderTrust trust_;
  Config defaults_;
  std::map<std::filesystem::path, std::optional<Config>> by_folder_;  // nullopt: none here
  std::map<std::filesystem::path, std::string> errors_;
  std::set<std::filesystem::path> stops_;  // distrusted folders the walk has met
  std::vector<std::string> passed_over_;
};

}  // namespace sealint
