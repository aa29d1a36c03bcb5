#include "analyzer/cli/probe_location.h"

#include <filesystem>

namespace sealint::cli {

namespace {

bool holds_probe(const std::filesystem::path& dir) {
  std::error_code error;
  return std::filesystem::is_regular_file(dir / "sealint_probe" / "__main__.py", error);
}

}  // namespace

std::optional<std::string> find_probe_dir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed =
        self.parent_path().parent_path() / "share/sealint/probe";
    if (holds_probe(installed)) return installed.string();
  }
  // A build tree: the probe is used from the sources, so an edit needs no install.
  const std::filesystem::path source = std::filesystem::path(SEALINT_SOURCE_DIR) / "probe";
  if (holds_probe(source)) return source.string();
  return std::nullopt;
}

}  // namespace sealint::cli
