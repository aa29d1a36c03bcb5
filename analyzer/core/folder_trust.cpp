#include "analyzer/core/folder_trust.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace sealint {

std::optional<FolderOwner> stat_owner(const std::filesystem::path& folder) {
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) return std::nullopt;
  return FolderOwner{info.st_uid, info.st_mode};
}

namespace {

// The absolute paths of a `:`-separated list; a relative one could name any folder.
std::vector<std::filesystem::path> listed_folders(const char* list) {
  std::vector<std::filesystem::path> folders;
  std::string_view rest = list == nullptr ? "" : list;
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::filesystem::path folder(rest.substr(0, colon));
    if (folder.is_absolute()) folders.push_back(folder.lexically_normal());
    rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
  }
  return folders;
}

bool within(const std::filesystem::path& folder, const std::filesystem::path& base) {
  const std::filesystem::path relative = folder.lexically_normal().lexically_relative(base);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

FolderTrust::FolderTrust()
    : user_(::geteuid()),
      lookup_(stat_owner),
      trusted_(listed_folders(std::getenv("SEALINT_TRUSTED_FOLDERS"))) {}

std::optional<std::string> FolderTrust::distrust(const std::filesystem::path& folder) const {
  for (const std::filesystem::path& base : trusted_)
    if (within(folder, base)) return std::nullopt;
  const std::optional<FolderOwner> owner = lookup_(folder);
  // A folder that is missing or cannot be searched holds nothing a walk could read.
  if (!owner) return std::nullopt;
  if (owner->uid != user_ && owner->uid != 0)
    return fmt::format("'{}' belongs to another user (uid {})", folder.string(), owner->uid);
  // The sticky bit (`/tmp`) only keeps others from removing each other's files; anyone may still
  // add a pyproject.toml there.
  if ((owner->mode & S_IWOTH) != 0)
    return fmt::format("'{}' may be written by every user", folder.string());
  return std::nullopt;
}

}  // namespace sealint
