#pragma once
// Which build of sealint is running, so that a rebuilt binary of the same version (a rule fixed
// on a branch, a knowledge table grown) never reuses the results of the one before.
#include <string>

namespace sealint::cache {

// The running executable's GNU build id (hex): the linker's hash of the whole linked binary, in
// which every rule, table and analysis is compiled (g++ and clang on Debian emit it by default).
// Read from the program headers already mapped in memory: no file is read. Without one (a linker
// told --build-id=none), the executable's size, modification time and inode, which change with
// every relink; "unknown" when even that cannot be read (then nothing is cached).
[[nodiscard]] std::string build_identity();

}  // namespace sealint::cache
