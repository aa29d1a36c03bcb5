#pragma once
// .gitignore files, as git reads them, for the folder walk: a project's virtual environments,
// generated code and data folders are usually listed there. Only inside a git work tree (a
// folder with `.git` at or above the walked root), as git itself and ruff do.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace sealint {

// The patterns of one .gitignore file, for paths below its folder.
class GitignoreFile {
 public:
  // Reads `folder`/.gitignore: nullptr when there is none, it is not a regular file, or it is
  // larger than a .gitignore has any reason to be (1 MiB: never an unbounded read).
  [[nodiscard]] static std::shared_ptr<const GitignoreFile> read(
      const std::filesystem::path& folder);
  // Parses the text of a .gitignore in `folder` (for tests and read()).
  GitignoreFile(std::filesystem::path folder, std::string_view text);

  // The verdict of this file's last matching pattern for `path` (absolute and normal, below its
  // folder): 1 ignored, -1 re-included by a `!` pattern, 0 no pattern matches.
  [[nodiscard]] int verdict(const std::filesystem::path& path, bool is_folder) const;

 private:
  struct Pattern {
    std::string glob;
    bool negated = false;
    bool folders_only = false;  // written with a trailing `/`
    bool anchored = false;      // has a `/` before its end: matched against the whole path
  };
  std::filesystem::path folder_;
  std::vector<Pattern> patterns_;
};

// The .gitignore files in force for a walk from `root`: those of the folders from the work
// tree's top down to `root`; empty outside a git work tree.
[[nodiscard]] std::vector<std::shared_ptr<const GitignoreFile>> gitignores_above(
    const std::filesystem::path& root);

// Is `path` ignored by `files` (outermost first)? The last file with a matching pattern decides.
[[nodiscard]] bool is_git_ignored(const std::vector<std::shared_ptr<const GitignoreFile>>& files,
                                  const std::filesystem::path& path, bool is_folder);

}  // namespace sealint
