#include "analyzer/cli/cache_location.h"

#include <array>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "analyzer/cache/cache_folder.h"
#include "analyzer/cli/cli_support.h"

namespace sealint::cli {

namespace fs = std::filesystem;

namespace {

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

fs::path project_root(const std::string& config_path) {
  std::error_code error;
  const fs::path here = fs::current_path(error);
  if (!config_path.empty()) {
    const fs::path config = fs::absolute(config_path, error).lexically_normal();
    return config.parent_path();
  }
  static constexpr std::array<std::string_view, 5> kMarkers = {".sealint.toml", "pyproject.toml",
                                                               "setup.py", "setup.cfg", ".git"};
  for (fs::path up = here; !up.empty(); up = up.parent_path()) {
    for (std::string_view marker : kMarkers) {
      if (fs::exists(up / marker, error)) return up;
    }
    if (!up.has_relative_path()) break;
  }
  return here;
}

CacheLocation result_cache_location(const std::string& cache_dir_option,
                                    const std::string& config_path) {
  if (!cache_dir_option.empty()) return {cache_dir_option, true};
  if (std::string dir = variable("SEALINT_CACHE_DIR"); !dir.empty()) return {dir, true};
  return {project_root(config_path) / cache::kDefaultFolderName, false};
}

std::string pch_cache_dir(const std::string& cache_dir_option) {
  if (!cache_dir_option.empty()) return cache_dir_option + "/pch";
  if (std::string dir = variable("SEALINT_CACHE_DIR"); !dir.empty()) return dir + "/pch";
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  if (std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.starts_with('/'))
    return xdg + "/sealint/pch";
  if (std::string home = variable("HOME"); !home.empty()) return home + "/.cache/sealint/pch";
  return "";
}

int run_clean(const std::string& cache_dir_option, const std::string& config_path) {
  const CacheLocation location = result_cache_location(cache_dir_option, config_path);
  auto removed = cache::remove_cache_folder(location.folder);
  if (!removed) {
    std::cerr << "sealint: error: " << removed.error() << '\n';
    return kExitError;
  }
  std::cout << fmt::format("{} '{}'\n", *removed ? "removed" : "no cache at",
                           location.folder.string());
  return kExitClean;
}

}  // namespace sealint::cli
