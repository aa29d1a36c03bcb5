#pragma once
// How every output and message names a file: relative to the working directory when it lies
// below it, as given otherwise, always with forward slashes.
#include <string>

namespace sealint {

[[nodiscard]] std::string display_path(const std::string& path);

}  // namespace sealint
