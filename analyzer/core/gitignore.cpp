#include "analyzer/core/gitignore.h"

#include <fstream>
#include <iterator>

#include "analyzer/core/glob.h"

namespace sealint {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxGitignoreBytes = 1 << 20;

std::string_view trim_right(std::string_view line) {
  // Trailing spaces are ignored unless escaped; a `\r` from a CRLF file too.
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ') &&
         !(line.size() >= 2 && line.back() == ' ' && line[line.size() - 2] == '\\')) {
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

GitignoreFile::GitignoreFile(fs::path folder, std::string_view text) : folder_(std::move(folder)) {
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    std::string_view line = trim_right(
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    start = end == std::string_view::npos ? text.size() + 1 : end + 1;
    if (line.empty() || line.front() == '#') continue;
    Pattern pattern;
    if (line.front() == '!') {
      pattern.negated = true;
      line.remove_prefix(1);
    } else if (line.starts_with("\\!") || line.starts_with("\\#")) {
      line.remove_prefix(1);
    }
    if (line.ends_with('/')) {
      pattern.folders_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    pattern.anchored = line.find('/') != std::string_view::npos;
    if (line.front() == '/') line.remove_prefix(1);
    pattern.glob = std::string(line);
    patterns_.push_back(std::move(pattern));
  }
}

std::shared_ptr<const GitignoreFile> GitignoreFile::read(const fs::path& folder) {
  const fs::path file = folder / ".gitignore";
  std::error_code error;
  if (!fs::is_regular_file(file, error) || fs::file_size(file, error) > kMaxGitignoreBytes ||
      error) {
    return nullptr;
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return std::make_shared<const GitignoreFile>(folder, text);
}

int GitignoreFile::verdict(const fs::path& path, bool is_folder) const {
  const std::string relative = path.lexically_relative(folder_).generic_string();
  if (relative.empty() || relative.starts_with("..")) return 0;
  const std::string name = path.filename().string();
  int verdict = 0;
  for (const Pattern& pattern : patterns_) {
    if (pattern.folders_only && !is_folder) continue;
    const bool matches =
        pattern.anchored ? glob_match(pattern.glob, relative) : glob_match(pattern.glob, name);
    if (matches) verdict = pattern.negated ? -1 : 1;
  }
  return verdict;
}

std::vector<std::shared_ptr<const GitignoreFile>> gitignores_above(const fs::path& root) {
  std::error_code error;
  fs::path folder = fs::absolute(root, error).lexically_normal();
  if (!folder.has_filename()) folder = folder.parent_path();  // "dir/" -> "dir"
  std::vector<fs::path> chain;
  bool in_work_tree = false;
  // Bounded by the path's depth: each step removes one component.
  for (fs::path at = folder;; at = at.parent_path()) {
    chain.push_back(at);
    if (fs::exists(at / ".git", error)) {
      in_work_tree = true;
      break;
    }
    if (at == at.parent_path()) break;
  }
  std::vector<std::shared_ptr<const GitignoreFile>> files;
  if (!in_work_tree) return files;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (auto file = GitignoreFile::read(*it)) files.push_back(std::move(file));
  }
  return files;
}

bool is_git_ignored(const std::vector<std::shared_ptr<const GitignoreFile>>& files,
                    const fs::path& path, bool is_folder) {
  int verdict = 0;
  for (const auto& file : files) {
    if (const int v = file->verdict(path, is_folder); v != 0) verdict = v;
  }
  return verdict > 0;
}

}  // namespace sealint
