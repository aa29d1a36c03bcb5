#include "analyzer/cpp/project_headers.h"

#include <algorithm>
#include <optional>

#include "analyzer/core/file_walker.h"

namespace sealint::cpp {

namespace fs = std::filesystem;

namespace {

// How many leading components two absolute paths share: the nearer header wins.
size_t shared_components(const fs::path& a, const fs::path& b) {
  size_t n = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end() && *i == *j; ++i, ++j) ++n;
  return n;
}

// Does `header` end with the components of `name` (`cpprl/storage.h`)? Then the folder above
// them is the include folder.
std::optional<fs::path> include_folder(const fs::path& header, const fs::path& name) {
  std::vector<fs::path> parts(name.begin(), name.end());
  fs::path folder = header;
  for (auto part = parts.rbegin(); part != parts.rend(); ++part) {
    if (folder.filename() != *part) return std::nullopt;
    folder = folder.parent_path();
  }
  return folder;
}

}  // namespace

std::optional<fs::path> project_root(const fs::path& file) {
  std::error_code error;
  for (fs::path folder = file.parent_path(); !folder.empty(); folder = folder.parent_path()) {
    if (fs::exists(folder / ".git", error)) return folder;
    if (folder == folder.root_path()) break;
  }
  // No repository: the working directory, when the file is below it and it is not the root of
  // the file system (walking all of it is never a guess worth its cost).
  const fs::path cwd = fs::current_path(error);
  if (error || cwd == cwd.root_path()) return std::nullopt;
  const fs::path relative = file.lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return cwd;
}

std::shared_ptr<const ProjectHeaders::Index> ProjectHeaders::index_of(const fs::path& root) const {
  // Under the lock: two workers that miss the same project list it once.
  const std::lock_guard lock(mutex_);
  if (auto it = indexes_.find(root); it != indexes_.end()) return it->second;
  WalkOptions options;
  options.extensions = {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl"};
  const WalkResult walked = walk_paths({root.string()}, options);
  auto index = std::make_shared<Index>();
  for (const std::string& header : walked.files) {
    if (index->size() == kMaxProjectHeaders) break;
    const fs::path path = fs::absolute(header).lexically_normal();
    index->emplace(path.filename().string(), path);
  }
  return indexes_.emplace(root, std::move(index)).first->second;
}

std::vector<std::string> ProjectHeaders::folders_for(const fs::path& file,
                                                     const std::vector<std::string>& names) const {
  std::vector<std::string> out;
  const std::optional<fs::path> root = project_root(file);
  if (!root) return out;
  const std::shared_ptr<const Index> index = index_of(*root);
  for (const std::string& written : names) {
    const fs::path name = fs::path(written).lexically_normal();
    if (name.is_absolute() || name.empty() || *name.begin() == "..") continue;
    std::optional<fs::path> best;
    size_t best_shared = 0;
    const auto [first, last] = index->equal_range(name.filename().string());
    for (auto it = first; it != last; ++it) {
      std::optional<fs::path> folder = include_folder(it->second, name);
      if (!folder) continue;
      const size_t shared = shared_components(*folder, file);
      if (!best || shared > best_shared) {
        best = std::move(folder);
        best_shared = shared;
      }
    }
    if (best && std::find(out.begin(), out.end(), best->string()) == out.end())
      out.push_back(best->string());
  }
  return out;
}

}  // namespace sealint::cpp
