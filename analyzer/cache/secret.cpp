#include "analyzer/cache/secret.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "analyzer/core/descriptor.h"

namespace sealint::cache {

namespace fs = std::filesystem;

namespace {

Error failure(std::string_view what, const fs::path& path, int error) {
  return make_error(
      fmt::format("cannot {} the cache key '{}': {}", what, path.string(), std::strerror(error)));
}

// The secret in the open file `fd`, when only this user can have written or read it.
Result<Secret> read_secret(int fd, const fs::path& path) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return failure("read", path, errno);
  if (!S_ISREG(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 077) != 0 ||
      info.st_size != static_cast<off_t>(sizeof(Secret))) {
    return make_error(fmt::format(
        "the cache key '{}' is not a {}-byte file that only its owner, this user, may read",
        path.string(), sizeof(Secret)));
  }
  Secret secret{};
  size_t done = 0;
  while (done < secret.size()) {
    const ssize_t n = ::read(fd, secret.data() + done, secret.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failure("read", path, n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  return secret;
}

Result<Secret> random_secret(const fs::path& path) {
  Secret secret{};
  size_t done = 0;
  while (done < secret.size()) {
    const ssize_t n = ::getrandom(secret.data() + done, secret.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failure("make", path, errno);
    done += static_cast<size_t>(n);
  }
  return secret;
}

// Writes `secret` under a temporary name and links it in without replacing a file another run
// made first: then that one is read instead.
Result<Secret> make_secret(int dir, const fs::path& path) {
  auto secret = random_secret(path);
  if (!secret) return secret;
  const std::string temporary = fmt::format(".tmp-{}-{}", kSecretFileName, ::getpid());
  ::unlinkat(dir, temporary.c_str(), 0);  // left by a killed run of this process id
  Descriptor fd(
      ::openat(dir, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd.valid()) return failure("make", path, errno);
  const std::string_view bytes(reinterpret_cast<const char*>(secret->data()), secret->size());
  if (!write_all(fd.get(), bytes) || !fd.close()) {
    const int error = errno;
    ::unlinkat(dir, temporary.c_str(), 0);
    return failure("write", path, error);
  }
  const int linked = ::renameat2(dir, temporary.c_str(), dir, std::string(kSecretFileName).c_str(),
                                 RENAME_NOREPLACE);
  const int error = errno;
  ::unlinkat(dir, temporary.c_str(), 0);
  if (linked == 0) return secret;
  if (error != EEXIST) return failure("write", path, error);
  const Descriptor theirs(::openat(dir, std::string(kSecretFileName).c_str(),
                                   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!theirs.valid()) return failure("read", path, errno);
  return read_secret(theirs.get(), path);
}

}  // namespace

Result<Secret> user_secret(const fs::path& folder) {
  const fs::path path = folder / kSecretFileName;
  std::error_code ignored;  // opening the folder below says what went wrong
  if (folder.has_parent_path()) fs::create_directories(folder.parent_path(), ignored);
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) return failure("make", path, errno);
  const Descriptor dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return failure("open", path, errno);
  // Who may write the folder may put a key of their own in it.
  struct stat info {};
  if (::fstat(dir.get(), &info) != 0) return failure("open", path, errno);
  if (info.st_uid != ::geteuid() || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return make_error(fmt::format(
        "the cache key's folder '{}' is not this user's alone (owner uid {}, mode {:o})",
        folder.string(), info.st_uid, info.st_mode & 07777));
  }
  const Descriptor fd(::openat(dir.get(), std::string(kSecretFileName).c_str(),
                               O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.valid()) return read_secret(fd.get(), path);
  if (errno != ENOENT) return failure("read", path, errno);
  return make_secret(dir.get(), path);
}

}  // namespace sealint::cache
