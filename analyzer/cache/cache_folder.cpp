#include "analyzer/cache/cache_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <system_error>
#include <thread>

#include <fmt/format.h>

namespace sealint::cache {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTagName = "CACHEDIR.TAG";
constexpr std::string_view kGitignoreName = ".gitignore";
// The first line of any tag, then what says the tag is sealint's.
constexpr std::string_view kTagSignature = "Signature: 8a477f597d28d172789f06886806bc55";
constexpr std::string_view kTagOwner = "created by sealint";

Error system_error(std::string_view what, const fs::path& path, int error) {
  return make_error(fmt::format("cannot {} '{}': {}", what, path.string(), std::strerror(error)));
}

// The folder `dir` holds sealint's tag (a regular file, not a link).
bool tagged(int dir) {
  const Descriptor tag(
      ::openat(dir, kTagName.data(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat info {};
  if (!tag.valid() || ::fstat(tag.get(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  std::array<char, 512> buffer{};
  const ssize_t n = ::read(tag.get(), buffer.data(), buffer.size());
  if (n <= 0) return false;
  const std::string_view text(buffer.data(), static_cast<size_t>(n));
  return text.starts_with(kTagSignature) && text.find(kTagOwner) != std::string_view::npos;
}

// The folder holds nothing, or only what sealint itself keeps in a cache folder (a PCH cache
// made before the result cache existed has pch/ alone; another run may be writing the tag).
bool empty_or_ours(int dir) {
  DIR* stream = ::fdopendir(::dup(dir));
  if (stream == nullptr) return false;
  bool ours = true;
  while (const dirent* entry = ::readdir(stream)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == ".." || name == "pch" || name == "results" ||
        name.starts_with(".tmp-")) {
      continue;
    }
    ours = false;
    break;
  }
  ::closedir(stream);
  return ours;
}

bool exists_at(int dir, std::string_view name) {
  struct stat info {};
  return ::fstatat(dir, std::string(name).c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0;
}

// Unpredictable where the kernel gives randomness at once, else unique enough: the name is
// created with O_EXCL, and a taken one is tried again with another.
std::string random_suffix() {
  uint64_t value = 0;
  if (::getrandom(&value, sizeof value, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof value)) {
    value = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
            std::hash<std::thread::id>{}(std::this_thread::get_id());
  }
  return fmt::format("{:016x}", value);
}

}  // namespace

Result<bool> write_atomically(int dir, std::string_view name, std::string_view bytes,
                              unsigned mode) {
  constexpr int kAttempts = 16;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const std::string temporary = fmt::format(".tmp-{}-{}", ::getpid(), random_suffix());
    Descriptor fd(::openat(dir, temporary.c_str(),
                           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!fd.valid() && errno == EEXIST) continue;
    if (!fd.valid()) return make_error(std::strerror(errno));
    // The umask decides who may read it; nobody but its owner may write it (a reader trusts no
    // file that another user could have written).
    struct stat info {};
    const bool written = ::fstat(fd.get(), &info) == 0 &&
                         ::fchmod(fd.get(), info.st_mode & 0755U) == 0 &&
                         write_all(fd.get(), bytes);
    if (!written || !fd.close() ||
        ::renameat(dir, temporary.c_str(), dir, std::string(name).c_str()) != 0) {
      const int error = errno;
      ::unlinkat(dir, temporary.c_str(), 0);
      return make_error(std::strerror(error));
    }
    return true;
  }
  return make_error("no free temporary name");
}

Result<CacheFolder> CacheFolder::open(const fs::path& path, bool follow_links) {
  const int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow_links ? 0 : O_NOFOLLOW);
  Descriptor fd(::open(path.c_str(), flags));
  if (!fd.valid() && errno == ENOENT) {
    if (follow_links && path.has_parent_path()) {
      std::error_code ignored;  // mkdir below says what went wrong
      fs::create_directories(path.parent_path(), ignored);
    }
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
      return system_error("make", path, errno);
    fd = Descriptor(::open(path.c_str(), flags));
  }
  if (!fd.valid() && (errno == ELOOP || errno == ENOTDIR)) {
    struct stat info {};
    const bool link = ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
    return make_error(
        fmt::format("'{}' is {}, not a folder", path.string(), link ? "a link" : "a file"));
  }
  if (!fd.valid()) return system_error("open", path, errno);
  CacheFolder folder(std::move(fd), path);
  folder.writable_ = ::faccessat(folder.fd(), ".", W_OK, AT_EACCESS) == 0;
  if (!tagged(folder.fd())) {
    if (empty_or_ours(folder.fd())) {
      if (folder.writable_ && !write_atomically(folder.fd(), kTagName, kCacheDirTag))
        folder.writable_ = false;
    } else if (!tagged(folder.fd())) {  // another run may have tagged it since the first look
      return make_error(fmt::format(
          "'{}' is not a sealint cache folder (it holds other files and no CACHEDIR.TAG of "
          "sealint's)",
          path.string()));
    }
  }
  if (folder.writable_ && !exists_at(folder.fd(), kGitignoreName) &&
      !write_atomically(folder.fd(), kGitignoreName, kGitignore)) {
    folder.writable_ = false;
  }
  return folder;
}

Result<Descriptor> CacheFolder::subfolder(std::string_view name) const {
  const std::string sub(name);
  if (writable_ && ::mkdirat(fd(), sub.c_str(), 0755) != 0 && errno != EEXIST)
    return system_error("make", path_ / sub, errno);
  Descriptor dir(::openat(fd(), sub.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.valid()) return system_error("open", path_ / sub, errno);
  return dir;
}

bool is_cache_folder(const fs::path& path) {
  const Descriptor dir(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  return dir.valid() && tagged(dir.get());
}

Result<bool> remove_cache_folder(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return false;
    return system_error("read", path, errno);
  }
  if (S_ISLNK(info.st_mode))
    return make_error(
        fmt::format("'{}' is a link, not a cache folder; not removed", path.string()));
  if (!is_cache_folder(path)) {
    return make_error(fmt::format(
        "'{}' is not a sealint cache folder (no CACHEDIR.TAG of sealint's); not removed",
        path.string()));
  }
  std::error_code error;
  fs::remove_all(path, error);  // removes links inside, never what they point at
  if (error) return system_error("remove", path, error.value());
  return true;
}

}  // namespace sealint::cache
