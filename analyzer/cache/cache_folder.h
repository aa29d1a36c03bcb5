#pragma once
// The folder sealint keeps its caches in (`.sealint_cache/` at the project root, or --cache-dir):
// made when missing and tagged as a cache (CACHEDIR.TAG, and a .gitignore of `*` so that git
// never offers it), recognised before anything in it is trusted or removed, and opened so that no
// link planted in it is ever followed to write elsewhere (docs/cache.md).
#include <filesystem>
#include <string_view>

#include "analyzer/core/descriptor.h"
#include "analyzer/core/result.h"

namespace sealint::cache {

inline constexpr std::string_view kDefaultFolderName = ".sealint_cache";
// The Cache Directory Tagging Specification's signature (https://bford.info/cachedir/), then a
// line that says the folder is sealint's: `sealint clean` removes only a folder that has both.
inline constexpr std::string_view kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by sealint.\n"
    "# For information about cache directory tags, see: https://bford.info/cachedir/\n";
inline constexpr std::string_view kGitignore = "# Automatically created by sealint.\n*\n";

class CacheFolder {
 public:
  // Opens `path`, making it (and, when `follow_links`, its parents) when missing. A folder made
  // here, an empty one, or one holding only what sealint keeps (pch/, results/) is tagged; a
  // folder with other content and no tag of sealint's is refused: `--cache-dir .` must not put a
  // .gitignore of `*` in a project. Without `follow_links` (the default `.sealint_cache`, which
  // a repository could ship as a link) `path` itself must not be a link. A folder that exists but
  // cannot be written opens read-only (writable() false).
  [[nodiscard]] static Result<CacheFolder> open(const std::filesystem::path& path,
                                                bool follow_links);

  [[nodiscard]] int fd() const { return fd_.get(); }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] bool writable() const { return writable_; }

  // A subfolder (made when missing and writable), never through a link.
  [[nodiscard]] Result<Descriptor> subfolder(std::string_view name) const;

 private:
  CacheFolder(Descriptor fd, std::filesystem::path path)
      : fd_(std::move(fd)), path_(std::move(path)) {}

  Descriptor fd_;
  std::filesystem::path path_;
  bool writable_ = true;
};

// Writes `bytes` to `name` in the folder `dir` through a temporary file beside it and a rename,
// so that a reader sees the old file or the new one, never part of one; a link at `name` is
// replaced, never followed. `mode` as open(2) takes it (the umask applies). An error is the
// system's reason (strerror).
[[nodiscard]] Result<bool> write_atomically(int dir, std::string_view name, std::string_view bytes,
                                            unsigned mode = 0644);

// Does `path` hold sealint's CACHEDIR.TAG (and is `path` a folder, not a link to one)?
[[nodiscard]] bool is_cache_folder(const std::filesystem::path& path);

// `sealint clean`: removes the cache folder at `path` with everything in it. False when there is
// none; an error, and nothing removed, when `path` is a link or not recognisably sealint's.
[[nodiscard]] Result<bool> remove_cache_folder(const std::filesystem::path& path);

}  // namespace sealint::cache
