#include "analyzer/cli/cache_location.h"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <iostream>
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
  if (!config_path.empty()) {
    const fs::path config = fs::absolute(config_path, error).lexically_normal();
    return config.parent_path();
  }
  return project_root_from(fs::current_path(error), FolderTrust());
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

fs::path user_cache_folder() {
  if (std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.starts_with('/'))
    return fs::path(xdg) / "sealint";
  std::string home = variable("HOME");
  // A cleared environment (a CI step, `env -i`) still has a user with a home.
  if (home.empty()) {
    std::array<char, 4096> buffer{};
    struct passwd entry {};
    struct passwd* found = nullptr;
    if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) == 0 &&
        found != nullptr && found->pw_dir != nullptr)
      home = found->pw_dir;
  }
  if (!home.starts_with('/')) return {};
  return fs::path(home) / ".cache" / "sealint";
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
