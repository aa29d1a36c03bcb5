#pragma once
// The result cache (docs/cache.md): each Python file's findings and input errors, kept in the
// cache folder's results/ as one entry per file, used again while the file's bytes, its
// configuration, the build of sealint and what its analysis took from the project are the same.
//
// Shared by the workers of one run (every member is thread-safe). Nothing here ever makes a run
// fail: an entry that cannot be read is a miss, one that cannot be written is skipped, and the
// first write that fails is kept for one warning.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "analyzer/cache/cache_folder.h"
#include "analyzer/cache/entry.h"
#include "analyzer/cache/secret.h"
#include "analyzer/core/config.h"
#include "analyzer/core/descriptor.h"
#include "analyzer/core/result.h"
#include "analyzer/project/dependencies.h"

namespace sealint::cache {

// The bound on the disk results/ takes (allocated blocks, not lengths): past it, the entries used
// least recently go until it is three quarters full. An entry is a few hundred bytes (a file with
// findings a few KiB) in one 4 KiB block on most file systems: room for about 16,000 files.
inline constexpr uint64_t kDefaultMaxBytes = 64ULL * 1024 * 1024;
// An entry larger than this is not read (a planted file); none that an analysis writes comes near.
inline constexpr uint64_t kMaxEntryBytes = 16ULL * 1024 * 1024;

// The configuration as one number: every setting that changes a file's result (the TOML `sealint
// config` prints, which is all of them, and the folder its globs are relative to). 0 for none.
[[nodiscard]] uint64_t config_fingerprint(const Config* config);

class ResultCache {
 public:
  struct Options {
    bool follow_links = true;  // false for the default `.sealint_cache` (cache_folder.h)
    uint64_t max_bytes = kDefaultMaxBytes;
  };

  // Opens (or makes) the folder. An error says why there is no cache at all; a folder that
  // cannot be written opens for reading, with warning() set. Entries are sealed and checked with
  // `secret` (secret.h); without one nothing is read or written, and warning() says why.
  [[nodiscard]] static Result<std::unique_ptr<ResultCache>> open(
      const std::filesystem::path& folder, Identity identity, const Result<Secret>& secret,
      const Options& options);

  // config_fingerprint(), found once per configuration of the run.
  [[nodiscard]] uint64_t config_key(const Config* config) const;
  // The stored outcome of the file `key` names, when the entry is this build's, for this key,
  // and its project dependencies still hold.
  [[nodiscard]] std::optional<FileOutcome> lookup(const EntryKey& key) const;
  // Stores a file's outcome (atomically: a concurrent run or reader sees a whole entry or none).
  void store(const EntryKey& key, const FileOutcome& outcome) const;
  // The dependency check lookups share: a run tells it the digests of the files it read.
  [[nodiscard]] const project::DependencyCheck& dependencies() const { return dependencies_; }
  // After the run: when anything was stored, the least recently used entries past the bound go,
  // with temporary files a killed run left. Returns how many entries were removed.
  size_t evict() const;
  // The one warning a run prints, if any: why results could not be written.
  [[nodiscard]] std::optional<std::string> warning() const;
  [[nodiscard]] const std::filesystem::path& folder() const { return folder_.path(); }
  // Entries used (hits) and written this run, for tests and --statistics.
  [[nodiscard]] size_t hits() const { return hits_; }
  [[nodiscard]] size_t stores() const { return stores_; }

 private:
  ResultCache(CacheFolder folder, Descriptor results, Identity identity,
              std::optional<Secret> secret, const Options& options)
      : folder_(std::move(folder)),
        results_(std::move(results)),
        identity_(std::move(identity)),
        secret_(secret),
        options_(options),
        writable_(folder_.writable() && secret_.has_value()) {}
  void failed(std::string message) const;

  CacheFolder folder_;
  Descriptor results_;  // results/, opened without following a link
  Identity identity_;
  std::optional<Secret> secret_;  // none: no entry is read or written
  Options options_;
  project::DependencyCheck dependencies_;
  mutable std::atomic<bool> writable_;
  mutable std::atomic<size_t> hits_{0};
  mutable std::atomic<size_t> stores_{0};
  mutable std::mutex mutex_;  // guards warning_ and configs_
  mutable std::optional<std::string> warning_;
  mutable std::map<const Config*, uint64_t> configs_;
};

}  // namespace sealint::cache
