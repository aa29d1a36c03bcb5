#include "analyzer/core/display_path.h"

#include <filesystem>
#include <system_error>

namespace sealint {

std::string display_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path p(path);
  if (p.is_relative()) return p.lexically_normal().generic_string();
  const fs::path relative = p.lexically_relative(fs::current_path(error));
  if (error || relative.empty() || *relative.begin() == "..") return p.generic_string();
  return relative.generic_string();
}

std::string path_beside(std::string_view file, const std::string& other) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path here = fs::absolute(fs::path(file), error).lexically_normal().parent_path();
  fs::path shown(other);
  if (!error) {
    if (fs::path relative = shown.lexically_relative(here); !relative.empty()) shown = relative;
  }
  return shown.generic_string();
}

}  // namespace sealint
