#pragma once
// What one file's analysis took from its project (SEMANTIC.md "Project scope"), so that a cached
// result of it is used again only while that still holds: each import lookup the project index
// made for it (which file a dotted name led to, or that none did) and the content of each file
// whose summaries it read. The index's answers are a function of those two alone, so replaying
// the lookups against the filesystem and comparing the digests says whether the analysis would
// see the same project today.
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/core/result.h"
#include "analyzer/project/module_locator.h"

namespace sealint::project {

// An imported file past this size is not summarised: a generated table, not a training helper.
inline constexpr size_t kMaxIndexedBytes = 4U * 1024U * 1024U;

// The index's name for a file: absolute (against the working directory) and normal.
[[nodiscard]] std::filesystem::path normal_absolute(const std::filesystem::path& path);

// A project file's bytes as the index reads them (within kMaxIndexedBytes).
[[nodiscard]] Result<std::string> read_indexed(const std::filesystem::path& file);

// What the index saw of a file: the digest of its bytes (core/fixes.h content_digest); nullopt
// when it could not be read within the bound (the file then has no summaries).
using IndexedDigest = std::optional<uint64_t>;
[[nodiscard]] IndexedDigest indexed_digest(const std::filesystem::path& file);

// One import lookup: where `dotted` led from `importer` (absolute and normal; only its folder
// matters). `file` is empty when no project file defines the name.
struct ImportLookup {
  std::string importer;
  std::string dotted;
  std::string file;
  std::string member;
  auto operator<=>(const ImportLookup&) const = default;
};

struct ProjectDependencies {
  std::set<ImportLookup> lookups;
  std::map<std::string, IndexedDigest> files;  // absolute path -> what the summaries came from
  void merge(const ProjectDependencies& other);
  [[nodiscard]] bool empty() const { return lookups.empty() && files.empty(); }
  bool operator==(const ProjectDependencies&) const = default;
};

// Replays dependencies against the files as they are now. Shared by the workers of one run:
// each folder's import roots, each lookup and each file's digest are found once per run.
class DependencyCheck {
 public:
  [[nodiscard]] bool holds(const ProjectDependencies& dependencies) const;
  // A file the run has read anyway (an input): its digest need not be read again.
  void known(const std::filesystem::path& file, IndexedDigest digest) const;
  // The digest of `file` (absolute and normal) as the run first read it: a header many C++ files
  // include is read once.
  [[nodiscard]] IndexedDigest digest_of(const std::string& file) const;

 private:
  [[nodiscard]] std::pair<std::string, std::string> lookup(const ImportLookup& recorded) const;

  mutable std::mutex mutex_;
  mutable std::map<std::string, IndexedDigest> digests_;
  mutable std::map<std::string, std::vector<std::filesystem::path>> roots_;  // by folder
  // (folder, dotted) -> (file, member)
  mutable std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>>
      lookups_;
};

}  // namespace sealint::project
