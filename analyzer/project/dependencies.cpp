#include "analyzer/project/dependencies.h"

#include "analyzer/core/bounded_read.h"
#include "analyzer/core/fixes.h"

namespace sealint::project {

namespace fs = std::filesystem;

fs::path normal_absolute(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) absolute = path;
  return absolute.lexically_normal();
}

Result<std::string> read_indexed(const fs::path& file) {
  return read_file_bounded(file.string(), file.string(), kMaxIndexedBytes);
}

IndexedDigest indexed_digest(const fs::path& file) {
  auto bytes = read_indexed(file);
  if (!bytes) return std::nullopt;
  return content_digest(*bytes);
}

void ProjectDependencies::merge(const ProjectDependencies& other) {
  lookups.insert(other.lookups.begin(), other.lookups.end());
  files.insert(other.files.begin(), other.files.end());
}

void DependencyCheck::known(const fs::path& file, IndexedDigest digest) const {
  const std::lock_guard lock(mutex_);
  digests_.emplace(file.string(), digest);
}

IndexedDigest DependencyCheck::digest_of(const std::string& file) const {
  {
    const std::lock_guard lock(mutex_);
    if (auto it = digests_.find(file); it != digests_.end()) return it->second;
  }
  // Read outside the lock: two workers may read one file at once, and find the same digest.
  const IndexedDigest digest = indexed_digest(file);
  const std::lock_guard lock(mutex_);
  return digests_.emplace(file, digest).first->second;
}

std::pair<std::string, std::string> DependencyCheck::lookup(const ImportLookup& recorded) const {
  const fs::path importer(recorded.importer);
  const std::string folder = importer.parent_path().string();
  std::pair<std::string, std::string> key{folder, recorded.dotted};
  std::vector<fs::path> roots;
  {
    const std::lock_guard lock(mutex_);
    if (auto it = lookups_.find(key); it != lookups_.end()) return it->second;
    if (auto it = roots_.find(folder); it != roots_.end()) roots = it->second;
  }
  if (roots.empty()) {
    roots = import_roots(importer);
    const std::lock_guard lock(mutex_);
    roots_.emplace(folder, roots);
  }
  std::pair<std::string, std::string> found;
  if (auto location = locate_module(importer, roots, recorded.dotted))
    found = {location->file.string(), location->member};
  const std::lock_guard lock(mutex_);
  return lookups_.emplace(std::move(key), std::move(found)).first->second;
}

bool DependencyCheck::holds(const ProjectDependencies& dependencies) const {
  for (const ImportLookup& recorded : dependencies.lookups) {
    const auto [file, member] = lookup(recorded);
    if (file != recorded.file || member != recorded.member) return false;
  }
  for (const auto& [file, digest] : dependencies.files) {
    if (digest_of(file) != digest) return false;
  }
  return true;
}

}  // namespace sealint::project
