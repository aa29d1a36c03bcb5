#pragma once
// A project's own headers, found without a compilation database (issue 38): when a file includes
// `"transforms.hpp"` or `<cpprl/storage.h>` and no include folder holds it, the folder that does
// is guessed from where the project's headers are, as clangd guesses flags for a file that has
// no compile command. The project is the nearest folder up from the file with a `.git`, else the
// working directory when the file is below it; its headers are listed once per run and shared by
// the workers (every member is thread-safe).
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sealint::cpp {

// A project past this many headers is not listed further: a vendored tree, not its own code.
inline constexpr size_t kMaxProjectHeaders = 100'000;

class ProjectHeaders {
 public:
  // The folders that, as `-I` folders, make each of `names` (as written in an `#include`) found
  // for the file at `file` (absolute): for each name, the project's header whose path ends with
  // it, the one nearest the file when several do. In the order of `names`, each once; a name no
  // header of the project matches adds nothing.
  [[nodiscard]] std::vector<std::string> folders_for(const std::filesystem::path& file,
                                                     const std::vector<std::string>& names) const;

 private:
  using Index = std::multimap<std::string, std::filesystem::path>;  // file name -> header
  [[nodiscard]] std::shared_ptr<const Index> index_of(const std::filesystem::path& root) const;

  mutable std::mutex mutex_;
  mutable std::map<std::filesystem::path, std::shared_ptr<const Index>> indexes_;  // by root
};

// The project a file belongs to, for the guess: nullopt when there is none to walk.
[[nodiscard]] std::optional<std::filesystem::path> project_root(const std::filesystem::path& file);

}  // namespace sealint::cpp
