#pragma once
// The flags of a compile_commands.json entry that sealint passes to Clang. The database comes
// with the repository being linted, which sealint does not control: a driver flag can make
// Clang run a program (`--offload-arch=native` runs a GPU-detection tool found through `-B`),
// write files (`-H -Xclang -header-include-file`, `-MF`, `-fmodules-cache-path`) or abort
// (a malformed `-fsanitize-ignorelist`). Only flags that change how the code parses, and only
// read the folders they name, are kept: include paths, macros, the language standard, a few
// language switches.
#include <string>
#include <vector>

namespace sealint::cpp {

struct DatabaseFlags {
  std::vector<std::string> kept;
  std::vector<std::string> dropped;  // for a note: what of the entry sealint did not use
};

// `command_line` is the entry's whole command ([0] the compiler); `file` the source it compiles
// (dropped wherever it appears); `directory` the entry's folder: relative include paths resolve
// against it, as the compiler would, not against sealint's working directory.
[[nodiscard]] DatabaseFlags parse_flags_of_entry(const std::vector<std::string>& command_line,
                                                 const std::string& file,
                                                 const std::string& directory);

}  // namespace sealint::cpp
