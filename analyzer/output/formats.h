#pragma once
// The output formats `--format` takes, one row each: its name, its line in --help, and the
// writers that print a lint run and, where the format offers it, a confirm run. `sealint`,
// `sealint confirm` and their option checks all read this table: adding a format is one row and
// its writer.
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/output/reports.h"

namespace sealint::output {

struct Format {
  std::string_view name;
  std::string_view description;  // a few words for --help
  void (*write_lint)(std::ostream& out, const LintReport& report);
  void (*write_confirm)(std::ostream& out, const ConfirmReport& report);  // null: lint only
  // Confirm mode: the format shows the training loops measured without a finding, so a script
  // without findings is still run for them; the others carry findings only.
  bool shows_watched_loops;
};

enum class FormatUser { Lint, Confirm };

[[nodiscard]] std::span<const Format> formats();

// The row `user` may use named `name`; null when there is none.
[[nodiscard]] const Format* find_format(std::string_view name, FormatUser user);

// What `--format` accepts from `user`, in table order.
[[nodiscard]] std::vector<std::string> format_names(FormatUser user);

// `--format`'s help: "Output format: text (compiler-style text), json (...), ...".
[[nodiscard]] std::string format_help(FormatUser user);

}  // namespace sealint::output
