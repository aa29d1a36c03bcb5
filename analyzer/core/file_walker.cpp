#include "analyzer/core/file_walker.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analyzer/core/display_path.h"
#include "analyzer/core/gitignore.h"
#include "analyzer/core/glob.h"

namespace sealint {

namespace fs = std::filesystem;

// Folders of tools, environments and build outputs, never a project's own code: ruff's default
// exclusions, and sealint's own cache. A file named on the command line is analysed wherever it
// is.
bool is_skipped_folder(std::string_view name) {
  static constexpr std::array<std::string_view, 25> kSkipped = {
      ".bzr",           ".direnv",     ".eggs",
      ".git",           ".hg",         ".ipynb_checkpoints",
      ".mypy_cache",    ".nox",        ".pytest_cache",
      ".pytype",        ".ruff_cache", ".svn",
      ".tox",           ".venv",       "__pycache__",
      "__pypackages__", "_build",      "buck-out",
      "build",          "dist",        "node_modules",
      "site-packages",  "venv",        ".pants.d",
      ".sealint_cache"};
  return std::find(kSkipped.begin(), kSkipped.end(), name) != kSkipped.end();
}

namespace {

// `relative` is the path below the walked folder, so `tests/*` means the same whether the user
// walks `.`, `proj` or `/abs/proj`.
bool is_excluded(const std::string& relative, const WalkOptions& options) {
  return std::any_of(options.exclude.begin(), options.exclude.end(),
                     [&](const std::string& glob) { return path_matches_glob(glob, relative); });
}

bool has_extension(const fs::path& path, const WalkOptions& options) {
  const std::string ext = path.extension().string();
  return std::find(options.extensions.begin(), options.extensions.end(), ext) !=
         options.extensions.end();
}

// "Permission denied" as our messages write it: lowercase first (STYLE.md §5).
std::string describe(const std::error_code& error) {
  std::string text = error.message();
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z')
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

// Whether `link`'s target, all links resolved, lies inside `canonical_root`.
bool leads_inside(const fs::path& link, fs::path canonical_root) {
  std::error_code error;
  const fs::path target = fs::canonical(link, error);
  if (error) return false;
  if (!canonical_root.has_filename()) canonical_root = canonical_root.parent_path();  // "a/b/"
  const auto [root_end, target_at] =
      std::mismatch(canonical_root.begin(), canonical_root.end(), target.begin(), target.end());
  return root_end == canonical_root.end();
}

// A folder still to read: its path as the user would write it, and its path below the root.
struct PendingFolder {
  fs::path path;
  std::string relative;  // "" for the root; components joined by `/`
  fs::path absolute;     // normal, for .gitignore patterns
  std::vector<std::shared_ptr<const GitignoreFile>> gitignores;  // in force here, outermost first
};

// Walks one folder with an explicit stack (no recursion on user-controlled depth) and without
// following symlinked folders (no cycles). Excludes match the path below `root`; printed paths
// keep the root as the user wrote it.
void walk_folder(const std::string& root, const WalkOptions& options, WalkResult& result) {
  size_t found = 0;
  const size_t errors_before = result.errors.size();
  std::error_code canonical_error;
  const fs::path canonical_root = fs::weakly_canonical(root, canonical_error);
  std::vector<PendingFolder> stack;
  {
    std::error_code error;
    PendingFolder top{
        fs::path(root), std::string(), fs::absolute(root, error).lexically_normal(), {}};
    if (!top.absolute.has_filename()) top.absolute = top.absolute.parent_path();
    if (options.respect_gitignore) top.gitignores = gitignores_above(top.absolute);
    stack.push_back(std::move(top));
  }
  while (!stack.empty()) {
    const PendingFolder pending = std::move(stack.back());
    stack.pop_back();
    const fs::path& folder = pending.path;
    std::error_code error;
    fs::directory_iterator it(folder, error);
    if (error) {
      result.errors.push_back(
          {folder.string(), std::nullopt,
           fmt::format("cannot read folder '{}': {}", folder.string(), describe(error))});
      continue;
    }
    for (; it != fs::directory_iterator(); it.increment(error)) {
      const fs::path& entry = it->path();
      const std::string name = entry.filename().string();
      std::string relative = pending.relative.empty() ? name : pending.relative + '/' + name;
      const std::string shown = entry.lexically_normal().string();
      std::error_code status_error;
      const auto link_status = it->symlink_status(status_error);
      // Past PATH_MAX the system answers nothing about an entry (ENAMETOOLONG): say so rather
      // than take it for a file of another kind.
      if (status_error) {
        result.errors.push_back(
            {display_path(shown), std::nullopt,
             fmt::format("cannot read '{}': {}", display_path(shown), describe(status_error))});
        continue;
      }
      const fs::path absolute = pending.absolute / name;
      if (fs::is_directory(link_status)) {
        if (!is_skipped_folder(name) && !is_excluded(relative, options) &&
            !is_git_ignored(pending.gitignores, absolute, true)) {
          PendingFolder child{entry, std::move(relative), absolute, pending.gitignores};
          if (options.respect_gitignore) {
            if (auto file = GitignoreFile::read(absolute)) child.gitignores.push_back(file);
          }
          stack.push_back(std::move(child));
        }
        continue;
      }
      if (!has_extension(entry, options) || is_excluded(relative, options) ||
          is_git_ignored(pending.gitignores, absolute, false)) {
        continue;
      }
      // A link to nothing is dangling; one into a folder this user cannot enter says so.
      const auto status = fs::status(entry, status_error);
      if (fs::is_symlink(link_status) && status.type() == fs::file_type::not_found) {
        result.errors.push_back(
            {shown, std::nullopt,
             fmt::format("cannot read '{}': dangling symbolic link", display_path(shown))});
        continue;
      }
      if (status_error) {
        result.errors.push_back(
            {display_path(shown), std::nullopt,
             fmt::format("cannot read '{}': {}", display_path(shown), describe(status_error))});
        continue;
      }
      // FIFOs, sockets and devices can block or never end: a walk reads regular files only.
      if (!fs::is_regular_file(status)) {
        result.errors.push_back(
            {display_path(shown), std::nullopt,
             fmt::format("skipped '{}': not a regular file", display_path(shown)), true});
        continue;
      }
      // A link that leads out of the walked folder would bring in a file the project does not
      // hold (its text quoted in a syntax error, in a CI log): named by itself it is analysed.
      if (fs::is_symlink(link_status) && !leads_inside(entry, canonical_root)) {
        result.errors.push_back(
            {display_path(shown), std::nullopt,
             fmt::format("skipped '{}': a symbolic link to a file outside '{}' (name that file "
                         "to analyse it)",
                         display_path(shown), display_path(root)),
             true});
        continue;
      }
      result.files.push_back(shown);
      ++found;
    }
    if (error) {
      result.errors.push_back(
          {folder.string(), std::nullopt,
           fmt::format("cannot read folder '{}': {}", folder.string(), describe(error))});
    }
  }
  // Where the walk already said why it could not read something, that is the message. A folder
  // with nothing to analyse is a warning, not a failure (ruff exits 0 and warns the same way):
  // a pre-commit run or a CI job over a folder with no training code yet has nothing wrong.
  if (found == 0 && result.errors.size() == errors_before) {
    result.errors.push_back(
        {root, std::nullopt,
         fmt::format("no Python or C++ files found under '{}'", display_path(root)), true});
  }
}

}  // namespace

WalkResult walk_paths(const std::vector<std::string>& paths, const WalkOptions& options) {
  WalkResult result;
  for (const std::string& path : paths) {
    std::error_code error;
    const auto link_status = fs::symlink_status(path, error);
    if (error || !fs::exists(link_status)) {
      result.errors.push_back(
          {path, std::nullopt,
           fmt::format("cannot read '{}': no such file or folder", display_path(path))});
      continue;
    }
    const auto status = fs::status(path, error);
    if (fs::is_symlink(link_status) && (error || !fs::exists(status))) {
      result.errors.push_back(
          {path, std::nullopt,
           fmt::format("cannot read '{}': dangling symbolic link", display_path(path))});
      continue;
    }
    if (fs::is_directory(status)) {
      walk_folder(path, options, result);
    } else {
      // A file named on the command line is analysed whatever its extension: the user asked.
      result.files.push_back(fs::path(path).lexically_normal().string());
    }
  }
  // One file named two ways (`train.py`, `/abs/train.py`, a symlink) is analysed once.
  std::sort(result.files.begin(), result.files.end());
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (std::string& file : result.files) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(file, error);
    if (seen.insert(error ? file : canonical.string()).second) unique.push_back(std::move(file));
  }
  result.files = std::move(unique);
  return result;
}

}  // namespace sealint
