#pragma once
// The project root a run's result cache belongs to (docs/cache.md, "Where"), as ruff finds the
// folder for `.ruff_cache`.
#include <filesystem>

#include "analyzer/core/folder_trust.h"

namespace sealint {

// The nearest folder up from `here` holding a .sealint.toml, pyproject.toml, setup.py, setup.cfg
// or .git, else `here` itself. The walk stops below a folder `trust` distrusts: a `.git` in
// `/tmp` must not put every project under it in one cache folder that others can reach.
[[nodiscard]] std::filesystem::path project_root_from(const std::filesystem::path& here,
                                                      const FolderTrust& trust);

}  // namespace sealint
