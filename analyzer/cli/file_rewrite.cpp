#include "analyzer/cli/file_rewrite.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "analyzer/core/bounded_read.h"
#include "analyzer/core/descriptor.h"

namespace sealint::cli {

namespace {

namespace fs = std::filesystem;

Error cannot_write(const std::string& path, int error) {
  return make_error(fmt::format("cannot write '{}': {}", path, std::strerror(error)));
}

// The extended attributes of `path` set on `fd` (ACLs live in system.posix_acl_access); false
// when one cannot be read or set, as security.* and trusted.* ones are for a non-root process.
bool copy_attributes(const std::string& path, int fd) {
  const ssize_t size = ::listxattr(path.c_str(), nullptr, 0);
  if (size < 0) return errno == ENOTSUP;  // a file system without them: nothing to keep
  if (size == 0) return true;
  std::vector<char> names(static_cast<size_t>(size));
  const ssize_t listed = ::listxattr(path.c_str(), names.data(), names.size());
  if (listed < 0) return false;
  for (size_t at = 0; at < static_cast<size_t>(listed); at += std::strlen(&names[at]) + 1) {
    const char* name = &names[at];
    const ssize_t value_size = ::getxattr(path.c_str(), name, nullptr, 0);
    if (value_size < 0) return false;
    std::vector<char> value(static_cast<size_t>(value_size));
    if (::getxattr(path.c_str(), name, value.data(), value.size()) != value_size) return false;
    if (::fsetxattr(fd, name, value.data(), value.size(), 0) != 0) return false;
  }
  return true;
}

// `bytes` written at `offset`; false with errno set on an error or a short write.
bool write_at(int fd, std::string_view bytes, size_t offset) {
  return ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) >= 0 && write_all(fd, bytes);
}

// In place: the inode, its links, owner and attributes stay. A write that fails part-way (a full
// disk, a quota) must not leave a file that is neither the old text nor the new one, so the room
// is made first: what the new text has past the old end is written and synced before any old byte
// changes, and cut off again when that fails. The old bytes, read first, go back if overwriting
// them fails all the same (an I/O error, a quota that shows only at fsync).
Result<bool> rewrite_in_place(const std::string& path, const std::string& bytes) {
  Descriptor fd(::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) return cannot_write(path, errno);
  auto old = read_descriptor_bounded(fd.get(), path, std::numeric_limits<size_t>::max());
  if (!old) return make_error(fmt::format("{}; not fixed", old.error()));
  const std::string_view text(bytes);
  if (text.size() > old->size() &&
      (!write_at(fd.get(), text.substr(old->size()), old->size()) || ::fsync(fd.get()) != 0)) {
    const int error = errno;
    if (::ftruncate(fd.get(), static_cast<off_t>(old->size())) == 0 && ::fsync(fd.get()) == 0)
      return make_error(
          fmt::format("cannot write '{}': {}; the file is unchanged", path, std::strerror(error)));
    return cannot_write(path, error);
  }
  if (write_at(fd.get(), text.substr(0, std::min(text.size(), old->size())), 0) &&
      ::ftruncate(fd.get(), static_cast<off_t>(text.size())) == 0 && ::fsync(fd.get()) == 0 &&
      fd.close())
    return true;
  const int error = errno;
  if (fd.valid() && write_at(fd.get(), *old, 0) &&
      ::ftruncate(fd.get(), static_cast<off_t>(old->size())) == 0 && ::fsync(fd.get()) == 0)
    return make_error(
        fmt::format("cannot write '{}': {}; its old content is back", path, std::strerror(error)));
  return make_error(
      fmt::format("cannot write '{}': {}, nor put its old content back: the file may be cut", path,
                  std::strerror(error)));
}

// Beside the file, then renamed over it; nullopt when the new file could not carry the original's
// owner or attributes (the caller rewrites in place instead).
std::optional<Result<bool>> replace(const std::string& path, const struct stat& original,
                                    const std::string& bytes) {
  std::string temp = path + ".sealint-XXXXXX";
  Descriptor fd(::mkstemp(temp.data()));
  if (fd.get() < 0)
    return make_error(fmt::format("cannot write beside '{}': {}", path, std::strerror(errno)));
  const auto discard = [&temp] { ::unlink(temp.c_str()); };
  const bool keeps_owner = (original.st_uid == ::geteuid() && original.st_gid == ::getegid()) ||
                           ::fchown(fd.get(), original.st_uid, original.st_gid) == 0;
  if (!keeps_owner || !copy_attributes(path, fd.get())) {
    discard();
    return std::nullopt;
  }
  if (!write_all(fd.get(), bytes) || ::fchmod(fd.get(), original.st_mode & 07777) != 0 ||
      ::fsync(fd.get()) != 0 || !fd.close() || ::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    discard();
    return cannot_write(path, error);
  }
  // The rename itself is durable once the folder is synced.
  const std::string folder = fs::path(path).parent_path().string();
  const Descriptor dir(::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY));
  if (dir.get() >= 0) (void)::fsync(dir.get());
  return true;
}

}  // namespace

Result<bool> rewrite_file(const std::string& given, const std::string& bytes) {
  std::error_code error;
  const std::string path =
      fs::is_symlink(given, error) ? fs::canonical(given, error).string() : given;
  if (error || path.empty())
    return make_error(fmt::format("cannot follow the link '{}': {}", given,
                                  error ? error.message() : "no target"));
  struct stat original {};
  if (::stat(path.c_str(), &original) != 0) return cannot_write(path, errno);
  if ((original.st_mode & 0222) == 0)
    return make_error(fmt::format("'{}' is read-only; not fixed", path));
  if (::access(path.c_str(), W_OK) != 0) return cannot_write(path, errno);
  if (original.st_nlink > 1) return rewrite_in_place(path, bytes);
  if (auto replaced = replace(path, original, bytes)) return std::move(*replaced);
  return rewrite_in_place(path, bytes);
}

}  // namespace sealint::cli
