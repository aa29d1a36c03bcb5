#include "analyzer/cpp/resource_dir.h"

#include <filesystem>

namespace sealint::cpp {

namespace {

std::string find_resource_dir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path beside =
        self.parent_path().parent_path() / "share" / "sealint" / "clang";
    if (std::filesystem::is_regular_file(beside / "include" / "stddef.h", error))
      return beside.string();
  }
  return SEALINT_CLANG_RESOURCE_DIR;
}

}  // namespace

const std::string& clang_resource_dir() {
  // Computed once and never changed: the binary does not move while it runs.
  static const std::string dir = find_resource_dir();
  return dir;
}

}  // namespace sealint::cpp
