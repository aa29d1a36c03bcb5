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
#include <thread>
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

std::optional<FileIdentity> identity_of(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return FileIdentity{info.st_dev, info.st_ino, info.st_size, info.st_mtim};
}

// An exclusive flock(2) on a file beside the PCH, held while one worker or process makes it: the
// kernel drops it when the holder dies, so a crashed build never blocks the next run.
class FileLock {
 public:
  static Result<FileLock> acquire(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return make_error(
          fmt::format("cannot write in '{}': {}", path.parent_path().string(), errno_text(errno)));
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
                           const PchWriter& write) {
  auto usable = [&]() -> std::optional<PchFile> {
    auto identity = identity_of(pch);
    if (!identity || identity == refused) return std::nullopt;
    return PchFile{pch, *identity};
  };
  if (auto found = usable()) return *found;
  std::error_code error;
  fs::create_directories(pch.parent_path(), error);
  if (error)
    return make_error(fmt::format("cannot create '{}': {}", pch.parent_path().string(),
                                  errno_text(error.value())));
  auto lock = FileLock::acquire(fs::path(pch) += ".lock");
  if (!lock) return make_error(lock.error());
  // Another worker may have made it while this one waited for the lock.
  if (auto found = usable()) return *found;
  const std::string temp = fmt::format("{}.{}-{}.tmp", pch.string(), ::getpid(),
                                       std::hash<std::thread::id>{}(std::this_thread::get_id()));
  if (auto failed = write(temp)) {
    fs::remove(temp, error);
    return make_error(*failed);
  }
  fs::rename(temp, pch, error);
  if (error) {
    const std::string reason = errno_text(error.value());
    fs::remove(temp, error);
    return make_error(fmt::format("cannot write '{}': {}", pch.string(), reason));
  }
  auto made = identity_of(pch);
  if (!made) return make_error(fmt::format("'{}' vanished once written", pch.string()));
  return PchFile{pch, *made};
}

}  // namespace sealint::cpp
