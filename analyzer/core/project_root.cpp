#include "analyzer/core/project_root.h"

#include <array>
#include <string_view>
#include <system_error>

namespace sealint {

namespace fs = std::filesystem;

fs::path project_root_from(const fs::path& here, const FolderTrust& trust) {
  std::error_code error;
  static constexpr std::array<std::string_view, 5> kMarkers = {".sealint.toml", "pyproject.toml",
                                                               "setup.py", "setup.cfg", ".git"};
  for (fs::path up = here; !up.empty(); up = up.parent_path()) {
    if (trust.distrust(up)) break;
    for (std::string_view marker : kMarkers) {
      if (fs::exists(up / marker, error)) return up;
    }
    if (!up.has_relative_path()) break;
  }
  return here;
}

}  // namespace sealint
