#pragma once
// Where sealint keeps what it can rebuild (docs/cache.md): the result cache in `.sealint_cache/`
// at the project root, or the folder --cache-dir or $SEALINT_CACHE_DIR names (which then also
// holds the precompiled LibTorch headers); and `sealint clean`, which removes it.
#include <filesystem>
#include <string>

#include "analyzer/core/project_root.h"

namespace sealint::cli {

struct CacheLocation {
  std::filesystem::path folder;
  // Named by --cache-dir or $SEALINT_CACHE_DIR: the user's own choice, links in it followed.
  bool chosen = false;
};

// The project root for the working directory: the folder of `config_path` (--config) when
// given, else core's project_root_from() the working directory.
[[nodiscard]] std::filesystem::path project_root(const std::string& config_path);

// --cache-dir, else $SEALINT_CACHE_DIR, else `.sealint_cache` in project_root().
[[nodiscard]] CacheLocation result_cache_location(const std::string& cache_dir_option,
                                                  const std::string& config_path);

// Where the precompiled LibTorch headers go (--torch-headers=system): --cache-dir/pch, else
// $SEALINT_CACHE_DIR/pch, else the XDG base directory ($XDG_CACHE_HOME, or ~/.cache) +
// /sealint/pch; empty when none of them is set.
[[nodiscard]] std::string pch_cache_dir(const std::string& cache_dir_option);

// The user's own folder for sealint ($XDG_CACHE_HOME/sealint, else ~/.cache/sealint with HOME
// or the user's home in the password database): where the key that seals the result cache's
// entries is kept (cache/secret.h), outside every project. Empty when the user has no home.
[[nodiscard]] std::filesystem::path user_cache_folder();

// `sealint clean [--cache-dir DIR]`: removes the result cache folder that a run from here would
// use. Exit status 0 (removed, or none there) or 2 (not sealint's, or cannot be removed).
[[nodiscard]] int run_clean(const std::string& cache_dir_option, const std::string& config_path);

}  // namespace sealint::cli
