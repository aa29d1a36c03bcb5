#include "analyzer/cpp/pch_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "analyzer/core/fixes.h"

namespace sealint::cpp {

namespace fs = std::filesystem;

namespace {

// The folders `args` search for <...> includes, in Clang's order (-I, then -isystem, then
// -idirafter, each in command-line order), then the ones Clang's driver takes from the
// environment (they change what the headers are as much as -I does).
std::vector<std::string> include_dirs(std::span<const std::string> args) {
  std::vector<std::string> dirs;
  for (std::string_view flag : {"-I", "-isystem", "-idirafter"}) {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i] == flag && i + 1 < args.size()) {
        dirs.push_back(args[++i]);
      } else if (args[i].size() > flag.size() && args[i].starts_with(flag)) {
        dirs.push_back(args[i].substr(flag.size()));
      }
    }
  }
  for (const char* variable : {"CPATH", "CPLUS_INCLUDE_PATH"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr) continue;
    std::istringstream in(value);
    for (std::string dir; std::getline(in, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  return dirs;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// strerror's text for an errno value (a std::error_code's too).
std::string errno_text(int error) {
  std::string text = std::strerror(error);
  // strerror says "Permission denied"; our messages start lowercase (STYLE.md §5).
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

// The file at `path` when this user may trust it: a regular file, not a link, owned by this user
// and writable by nobody else. Another user's file in a shared cache folder could hold anything.
std::optional<FileIdentity> trusted_identity(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  if (info.st_uid != ::geteuid() || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) return std::nullopt;
  return FileIdentity{info.st_dev, info.st_ino, info.st_size, info.st_mtim};
}

fs::path digest_path(const fs::path& pch) {
  return fs::path(pch) += ".digest";
}

// The FNV-1a digest of a file's bytes, read in pieces (a PCH is about 120 MB).
std::optional<uint64_t> file_digest(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  uint64_t digest = kEmptyDigest;
  std::vector<char> buffer(size_t{1} << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    digest = content_digest({buffer.data(), static_cast<size_t>(in.gcount())}, digest);
  }
  if (in.bad()) return std::nullopt;
  return digest;
}

// Whether the PCH's bytes still have the digest recorded when it was made.
bool matches_recorded_digest(const fs::path& pch) {
  if (!trusted_identity(digest_path(pch))) return false;
  const auto digest = file_digest(pch);
  return digest && read_text(digest_path(pch)) == fmt::format("{:016x}\n", *digest);
}

// A folder only this user can enter, beside the PCH, for Clang's output: a temporary name in a
// shared folder could be a link planted to make Clang overwrite another file.
class PrivateFolder {
 public:
  explicit PrivateFolder(const fs::path& beside) {
    std::string templ = beside.string() + ".XXXXXX";
    if (::mkdtemp(templ.data()) != nullptr) path_ = templ;
  }
  PrivateFolder(const PrivateFolder&) = delete;
  PrivateFolder& operator=(const PrivateFolder&) = delete;
  ~PrivateFolder() {
    std::error_code error;
    if (!path_.empty()) fs::remove_all(path_, error);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// An exclusive flock(2) on the folder that holds the PCH, held while one worker or process makes
// one: the kernel drops it when the holder dies, so a crashed build never blocks the next run, and
// no lock file is left beside the PCH. (Two different PCHs of one folder are made one after the
// other: there are two at most, the model's and the installed headers'.)
class FileLock {
 public:
  static Result<FileLock> acquire(const fs::path& folder) {
    // Opening creates nothing, so a folder reached through a link (a cache on another disk) is
    // locked as any other.
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      return make_error(
          fmt::format("cannot write in '{}': {}", folder.string(), errno_text(errno)));
    int locked = 0;
    do {
      locked = ::flock(fd, LOCK_EX);
    } while (locked != 0 && errno == EINTR);
    // A file system without flock: go on unlocked; the rename still keeps readers safe, only two
    // workers may then both make the PCH.
    return FileLock(fd);
  }
  FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
  }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace

bool FileIdentity::operator==(const FileIdentity& other) const {
  return device == other.device && inode == other.inode && size == other.size &&
         modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
}

std::optional<std::string> parse_torch_version(std::string_view version_h) {
  const std::string text(version_h);
  std::vector<std::string> parts;
  for (std::string_view name : {"MAJOR", "MINOR", "PATCH"}) {
    const std::regex define(fmt::format(R"(#\s*define\s+TORCH_VERSION_{}\s+(\d+))", name));
    std::smatch match;
    if (!std::regex_search(text, match, define)) return std::nullopt;
    parts.push_back(match[1].str());
  }
  return fmt::format("{}.{}.{}", parts[0], parts[1], parts[2]);
}

std::optional<std::string> find_torch_version(std::span<const std::string> args) {
  for (const std::string& dir : include_dirs(args)) {
    const fs::path header = fs::path(dir) / "torch" / "version.h";
    std::error_code error;
    if (!fs::is_regular_file(header, error)) continue;
    return parse_torch_version(read_text(header));
  }
  return std::nullopt;
}

fs::path pch_file(const fs::path& dir, std::string_view torch_version,
                  std::string_view clang_version, std::span<const std::string> args) {
  std::string key;
  for (const std::string& arg : args) (key += arg) += '\0';
  bool relative = false;
  for (const std::string& searched : include_dirs(args)) {
    (key += searched) += '\0';  // CPATH and CPLUS_INCLUDE_PATH are not in `args`
    relative = relative || fs::path(searched).is_relative();
  }
  // A relative -I names another folder from another working directory.
  if (relative) {
    std::error_code error;
    key += fs::current_path(error).string();
  }
  return dir / fmt::format("torch-{}-clang-{}-{:016x}.pch", torch_version, clang_version,
                           content_digest(key));
}

Result<PchFile> ensure_pch(const fs::path& pch, const std::optional<FileIdentity>& refused,
                           const PchWriter& write, const std::optional<FileIdentity>& verified) {
  auto usable = [&]() -> std::optional<PchFile> {
    auto identity = trusted_identity(pch);
    if (!identity || identity == refused) return std::nullopt;
    if (identity != verified && !matches_recorded_digest(pch)) return std::nullopt;
    return PchFile{pch, *identity};
  };
  if (auto found = usable()) return *found;
  std::error_code error;
  fs::create_directories(pch.parent_path(), error);
  if (error)
    return make_error(fmt::format("cannot create '{}': {}", pch.parent_path().string(),
                                  errno_text(error.value())));
  auto lock = FileLock::acquire(pch.parent_path());
  if (!lock) return make_error(lock.error());
  // Another worker may have made it while this one waited for the lock.
  if (auto found = usable()) return *found;
  const PrivateFolder temp(pch);
  if (temp.path().empty())
    return make_error(
        fmt::format("cannot write in '{}': {}", pch.parent_path().string(), errno_text(errno)));
  const fs::path made = temp.path() / "torch.pch";
  if (auto failed = write(made.string())) return make_error(*failed);
  const auto digest = file_digest(made);
  const fs::path recorded = temp.path() / "digest";
  std::ofstream(recorded, std::ios::binary) << fmt::format("{:016x}\n", digest.value_or(0));
  // The digest first: a reader between the two renames sees a mismatch and waits for the lock.
  fs::rename(recorded, digest_path(pch), error);
  if (!error) fs::rename(made, pch, error);
  if (error || !digest)
    return make_error(fmt::format("cannot write '{}': {}", pch.string(),
                                  error ? errno_text(error.value()) : "cannot read it back"));
  auto identity = trusted_identity(pch);
  if (!identity) return make_error(fmt::format("'{}' vanished once written", pch.string()));
  return PchFile{pch, *identity};
}

}  // namespace sealint::cpp
