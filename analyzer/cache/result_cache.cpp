#include "analyzer/cache/result_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "analyzer/core/fixes.h"

namespace sealint::cache {

namespace {

constexpr std::string_view kResultsFolder = "results";
// A hit on an entry older than this refreshes its time, so that eviction goes by last use
// (a file that never changes is hit every run and must not be the first to go).
constexpr time_t kTouchAfterSeconds = 60 * 60;
// A temporary file this old was left by a killed run, not one still writing it.
constexpr time_t kStaleTemporarySeconds = 60 * 60;

// The bytes of an entry this user owns and nobody else may write, or nullopt.
std::optional<std::string> read_entry(int fd, struct stat& info) {
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != ::geteuid() ||
      (info.st_mode & (S_IWGRP | S_IWOTH)) != 0 ||
      static_cast<uint64_t>(info.st_size) > kMaxEntryBytes) {
    return std::nullopt;
  }
  std::string bytes(static_cast<size_t>(info.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // shorter than it was a moment ago: being replaced
    done += static_cast<size_t>(n);
  }
  return bytes;
}

// Every edit lies in the file as it is: a fix is never applied past its end.
bool edits_fit(const FileOutcome& outcome, uint64_t size) {
  return std::all_of(
      outcome.diagnostics.begin(), outcome.diagnostics.end(), [&](const Diagnostic& d) {
        return !d.fix || std::all_of(d.fix->edits.begin(), d.fix->edits.end(),
                                     [&](const Edit& e) { return e.range.end <= size; });
      });
}

}  // namespace

uint64_t config_fingerprint(const Config* config) {
  if (config == nullptr) return 0;
  const uint64_t toml = content_digest(config->to_toml());
  return content_digest(config->root.string(), content_digest("\n", toml));
}

Result<std::unique_ptr<ResultCache>> ResultCache::open(const std::filesystem::path& folder,
                                                       Identity identity,
                                                       const Result<Secret>& secret,
                                                       const Options& options) {
  if (identity.build == "unknown") return make_error("cannot tell which build of sealint this is");
  auto opened = CacheFolder::open(folder, options.follow_links);
  if (!opened) return make_error(opened.error());
  auto results = opened->subfolder(kResultsFolder);
  if (!results) return make_error(results.error());
  std::optional<Secret> sealing;
  if (secret) sealing = *secret;
  std::unique_ptr<ResultCache> cache(new ResultCache(std::move(*opened), std::move(*results),
                                                     std::move(identity), sealing, options));
  // The folder's reason first: a user who cannot write there has nothing to fix in the key.
  if (!cache->folder_.writable())
    cache->failed(fmt::format("cannot write in '{}'", folder.string()));
  if (!secret) cache->failed(secret.error());
  return cache;
}

uint64_t ResultCache::config_key(const Config* config) const {
  const std::lock_guard lock(mutex_);
  auto it = configs_.find(config);
  if (it == configs_.end()) it = configs_.emplace(config, config_fingerprint(config)).first;
  return it->second;
}

std::optional<FileOutcome> ResultCache::lookup(const EntryKey& key) const {
  if (!secret_) return std::nullopt;
  const std::string name = entry_name(key);
  const Descriptor fd(
      ::openat(results_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  struct stat info {};
  std::optional<std::string> bytes = read_entry(fd.get(), info);
  if (!bytes) return std::nullopt;
  std::optional<Entry> entry = decode_entry(*bytes, *secret_);
  if (!entry || entry->identity != identity_ || entry->key != key ||
      !edits_fit(entry->outcome, key.size) || !dependencies_.holds(entry->outcome.dependencies)) {
    return std::nullopt;
  }
  if (writable_ && std::time(nullptr) - info.st_mtim.tv_sec > kTouchAfterSeconds)
    ::futimens(fd.get(), nullptr);
  ++hits_;
  return std::move(entry->outcome);
}

void ResultCache::store(const EntryKey& key, const FileOutcome& outcome) const {
  if (!writable_ || !secret_) return;
  const std::string bytes = encode_entry({identity_, key, outcome}, *secret_);
  if (auto written = write_atomically(results_.get(), entry_name(key), bytes); !written) {
    writable_ = false;  // one failure says enough: the rest would fail alike
    failed(fmt::format("cannot write in '{}': {}", (folder_.path() / kResultsFolder).string(),
                       written.error()));
    return;
  }
  ++stores_;
}

void ResultCache::failed(std::string message) const {
  const std::lock_guard lock(mutex_);
  if (!warning_) warning_ = std::move(message);
}

std::optional<std::string> ResultCache::warning() const {
  const std::lock_guard lock(mutex_);
  return warning_;
}

size_t ResultCache::evict() const {
  if (stores_ == 0 || !writable_) return 0;
  DIR* stream = ::fdopendir(::dup(results_.get()));
  if (stream == nullptr) return 0;
  ::rewinddir(stream);
  struct Found {
    timespec used;
    uint64_t size;
    std::string name;
  };
  std::vector<Found> entries;
  uint64_t total = 0;
  const time_t now = std::time(nullptr);
  size_t removed = 0;
  while (const dirent* item = ::readdir(stream)) {
    const std::string_view name = item->d_name;
    if (name == "." || name == "..") continue;
    struct stat info {};
    if (::fstatat(results_.get(), item->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (name.starts_with(".tmp-")) {
      if (now - info.st_mtim.tv_sec > kStaleTemporarySeconds &&
          ::unlinkat(results_.get(), item->d_name, 0) == 0) {
        ++removed;
      }
      continue;
    }
    // What the entry takes on disk, not its length: a 700-byte entry fills a 4 KiB block, and
    // the bound is on the disk a cache uses (issue 41).
    const uint64_t size =
        std::max(static_cast<uint64_t>(info.st_size), static_cast<uint64_t>(info.st_blocks) * 512);
    total += size;
    entries.push_back({info.st_mtim, size, std::string(name)});
  }
  ::closedir(stream);
  if (total <= options_.max_bytes) return removed;
  std::sort(entries.begin(), entries.end(), [](const Found& a, const Found& b) {
    return std::tie(a.used.tv_sec, a.used.tv_nsec, a.name) <
           std::tie(b.used.tv_sec, b.used.tv_nsec, b.name);
  });
  const uint64_t target = options_.max_bytes / 4 * 3;
  for (const Found& entry : entries) {
    if (total <= target) break;
    // Another run may have removed it first: either way it is gone.
    ::unlinkat(results_.get(), entry.name.c_str(), 0);
    total -= entry.size;
    ++removed;
  }
  return removed;
}

}  // namespace sealint::cache
