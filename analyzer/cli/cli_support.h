#pragma once
// What the `sealint` and `sealint confirm` commands share: exit statuses, the version, colour
// choice, the SARIF rule table, the source lines the text output quotes, and `-p`'s folder.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/result.h"
#include "analyzer/core/source_file.h"
#include "analyzer/notebook/notebook.h"
#include "analyzer/output/sarif_output.h"
#include "rules/registry.h"

namespace sealint::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitError = 2;
// From CMake's project() version, which the Debian package carries too.
inline constexpr std::string_view kVersion = SEALINT_VERSION;

// --color=auto: a terminal, NO_COLOR unset or empty, TERM not "dumb".
[[nodiscard]] bool use_color(const std::string& mode);

[[nodiscard]] std::vector<output::SarifRule> sarif_rules(const rules::RuleRegistry& registry);

// The folder of the compile_commands.json that `-p` names: a build folder holding one, or the
// file itself, as clang-tidy accepts. A path that is neither is an error that names it.
[[nodiscard]] Result<std::string> compile_commands_folder(const std::string& given);

// Source lines for the text output's snippets, read once per file; a notebook's from its cells,
// as written (a `%time` line shows as `%time`).
class LineCache {
 public:
  explicit LineCache(const std::map<std::string, std::string>& stdin_content)
      : stdin_(stdin_content) {}
  std::string line(std::string_view path, const Position& at);

 private:
  std::string bytes(const std::string& path) const;

  const std::map<std::string, std::string>& stdin_;
  std::map<std::string, std::optional<SourceFile>> files_;
  std::map<std::string, std::optional<notebook::Notebook>> notebooks_;
};

}  // namespace sealint::cli
