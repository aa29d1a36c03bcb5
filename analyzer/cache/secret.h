#pragma once
// The user's own secret that seals result cache entries (hmac.h): 32 random bytes in a file only
// the user may read, outside every project (docs/cache.md, "Safety"). An entry a repository
// ships, or another user wrote, was sealed with another secret or none: it is never used.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "analyzer/core/result.h"

namespace sealint::cache {

using Secret = std::array<uint8_t, 32>;

inline constexpr std::string_view kSecretFileName = "cache-key";

// The secret in `folder`/cache-key, made (from the kernel's randomness, mode 0600, in a folder
// made 0700) when there is none. An error says why there is no secret: the folder or the file
// belongs to another user, others may write the folder or read the file, or the file is not 32
// bytes. Two runs that make it at once agree on one: the file is never replaced.
[[nodiscard]] Result<Secret> user_secret(const std::filesystem::path& folder);

}  // namespace sealint::cache
