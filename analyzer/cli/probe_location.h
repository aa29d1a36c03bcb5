#pragma once
// Finds the folder that holds the `sealint_probe` package: installed beside sealint
// (<prefix>/share/sealint/probe), else the source tree this binary was built from.
#include <optional>
#include <string>

namespace sealint::cli {

[[nodiscard]] std::optional<std::string> find_probe_dir();

}  // namespace sealint::cli
