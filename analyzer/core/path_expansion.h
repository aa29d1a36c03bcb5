#pragma once
// A path as a shell would read it before using it: `~` and `~/...` name the user's home, and
// `$NAME` or `${NAME}` the value of an environment variable. ruff expands its `extend` setting
// and `--config` path so (docs/configuration.md, "Extending a base configuration").
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/core/result.h"

namespace sealint {

// The value of an environment variable, or nullopt when it is not set.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;

// The process's environment (getenv); `HOME` falls back to the password database's home.
[[nodiscard]] EnvironmentLookup process_environment();

// `text` with `~` and variables expanded. An error names a variable that is not set (a path with
// a piece silently missing would name another file) or a `${` without its `}`. `~user` is not
// expanded (ruff does not either).
[[nodiscard]] Result<std::string> expand_path(std::string_view text,
                                              const EnvironmentLookup& environment);

}  // namespace sealint
