#pragma once
// The files one parse read, for the result cache (docs/cache.md): every file Clang entered (the
// headers of the main file, at any depth) and every input of a precompiled header it loaded, as
// a compiler cache's manifest lists them. A C++ result is used again only while each still has
// the bytes it had, so that a header edit re-analyses exactly the files that include it.
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}  // namespace clang

namespace sealint::cpp {

// `path` absolute, with its links resolved (`..` after a link is not lexical): the one name the
// cache keys a file by. nullopt when the file system cannot say.
[[nodiscard]] std::optional<std::string> real_path(const std::string& path);

// The real files `compiler` has read so far, with real_path() names, each once, sorted. Paths in
// `served` (the analysed file and the headers sealint serves from memory: they are the key's
// own digest or part of sealint's build) are left out.
[[nodiscard]] std::vector<std::string> files_read(clang::CompilerInstance& compiler,
                                                  const std::vector<std::string>& served);

}  // namespace sealint::cpp
