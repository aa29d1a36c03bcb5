#pragma once
// Clang's resource directory (its builtin headers: stddef.h, stdarg.h, the intrinsics), which
// `-resource-dir=` hands to every parse.
#include <string>

namespace sealint::cpp {

// `<prefix>/share/sealint/clang` beside the binary when it holds the builtin headers (the wheel
// installs them there), else the Clang installation sealint was built against.
[[nodiscard]] const std::string& clang_resource_dir();

}  // namespace sealint::cpp
