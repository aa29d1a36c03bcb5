#pragma once
// Turns the paths a user gives into the files to analyse: folders are walked for `*.py`, C++
// sources and Jupyter notebooks (`*.ipynb`), skipping tool folders and `exclude` globs; every path
// that yields nothing is reported.
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint {

struct WalkOptions {
  std::vector<std::string> exclude;  // globs, see glob.h
  std::vector<std::string> extensions = {".py", ".pyi", ".ipynb", ".cpp", ".cc", ".cxx", ".cu"};
  // Skip what the work tree's .gitignore files list (gitignore.h), as ruff does by default.
  bool respect_gitignore = true;
};

struct WalkResult {
  std::vector<std::string> files;  // sorted, unique, as the user would write them
  std::vector<InputError> errors;
};

[[nodiscard]] WalkResult walk_paths(const std::vector<std::string>& paths,
                                    const WalkOptions& options);

// Folders never walked into: version control, virtual environments, caches.
[[nodiscard]] bool is_skipped_folder(std::string_view name);

}  // namespace sealint
