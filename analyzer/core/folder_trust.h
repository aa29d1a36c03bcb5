#pragma once
// Which folders a walk up the tree may read from (docs/configuration.md, "Whose files are
// read"). Finding the configuration or the project root walks up from a file to `/`, and every
// folder on the way could hold a pyproject.toml: a folder another user owns, or one every user
// may write in (`/tmp`, sticky bit or not), holds files its owner, or anyone, put there. git
// refuses a repository another user owns for the same reason (`safe.directory`). A walk stops
// below such a folder: it reads nothing in it and nothing above it.
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sealint {

struct FolderOwner {
  uid_t uid = 0;
  mode_t mode = 0;
};

// Who owns a folder and its mode; nullopt when it is missing or cannot be searched.
using OwnerLookup = std::function<std::optional<FolderOwner>(const std::filesystem::path&)>;

// The lookup every real walk uses: stat(2).
[[nodiscard]] std::optional<FolderOwner> stat_owner(const std::filesystem::path& folder);

class FolderTrust {
 public:
  // The running user (effective uid), stat(2), and the folders $SEALINT_TRUSTED_FOLDERS lists
  // (absolute paths, `:` between them): what every real walk uses. A listed folder, and every
  // folder below it, is read whoever owns it, as git's `safe.directory` allows a repository: a
  // CI container that runs as root over a checkout another uid owns needs it.
  FolderTrust();
  // For tests: another user, folder owners from `lookup`, and the folders `trusted` lists.
  FolderTrust(uid_t user, OwnerLookup lookup, std::vector<std::filesystem::path> trusted = {})
      : user_(user), lookup_(std::move(lookup)), trusted_(std::move(trusted)) {}

  // Why a walk must stop at `folder`, as a clause ("'/tmp' may be written by every user"), or
  // nullopt when files in it may be read: it belongs to this user or to root (who can change
  // anything anyway) and only its owner and group may write in it.
  [[nodiscard]] std::optional<std::string> distrust(const std::filesystem::path& folder) const;

 private:
  uid_t user_;
  OwnerLookup lookup_;
  std::vector<std::filesystem::path> trusted_;
};

}  // namespace sealint
