#pragma once
// How every output and message names a file: relative to the working directory when it lies
// below it, as given otherwise, always with forward slashes.
#include <string>
#include <string_view>

namespace sealint {

[[nodiscard]] std::string display_path(const std::string& path);

// How a message about `file` names another file of its project (`other`, absolute): relative
// to `file`'s folder (`misc.py`, `../utils/meters.py`), as given when that fails.
[[nodiscard]] std::string path_beside(std::string_view file, const std::string& other);

}  // namespace sealint
