#pragma once
// The on-disk cache of precompiled LibTorch headers for --torch-headers=system: which file holds
// the PCH for a set of flags, and making that file so that parallel workers and processes never
// read half of one. Knows files, keys and locks; Clang itself is driven by clang_parse.cpp.
#include <sys/types.h>

#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analyzer/core/result.h"

namespace sealint::cpp {

// The header that is precompiled: what a LibTorch file includes first. Clang is given it from
// memory at this path when the PCH is made and when it is used, so that its check of the PCH's
// input files sees the same (virtual) file every time.
inline constexpr std::string_view kPreludePath = "/sealint-pch/torch_prelude.h";
inline constexpr std::string_view kPreludeCode = "#include <torch/torch.h>\n";

// "1.13.0" from the text of torch/version.h; nullopt when its three version macros are missing.
[[nodiscard]] std::optional<std::string> parse_torch_version(std::string_view version_h);

// The version of the LibTorch that the include paths of `args` lead to (the first of them, in
// Clang's search order, that holds torch/version.h); nullopt when none does.
[[nodiscard]] std::optional<std::string> find_torch_version(std::span<const std::string> args);

// Where the PCH of the prelude parsed with `args` lives in `dir`: one file per LibTorch version,
// Clang version and argument list (the language standard, defines and include paths change what
// the headers mean, so a different list is a different PCH).
[[nodiscard]] std::filesystem::path pch_file(const std::filesystem::path& dir,
                                             std::string_view torch_version,
                                             std::string_view clang_version,
                                             std::span<const std::string> args);

// Which file is at a path: a rename over it gives another identity, so a worker can tell the PCH
// Clang refused from one another worker has made since.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  timespec modified{};
  bool operator==(const FileIdentity& other) const;
};

struct PchFile {
  std::filesystem::path path;
  FileIdentity identity;
};

// Writes a PCH to the given path; returns why it could not, or nullopt.
using PchWriter = std::function<std::optional<std::string>(const std::string& path)>;

// The PCH at `pch`, made with `write` when it is missing or is the file Clang `refused`. Under an
// exclusive lock on `<pch>.lock`, one worker or process has `write` make it in a private temporary
// folder beside it, then renames it over `pch`; the others wait, then use its file. The cache
// folder may be shared or planted: a PCH is used only when this user owns it, nobody else may
// write it, and its bytes still have the digest recorded in `<pch>.digest` when it was made (a
// damaged PCH crashes Clang), which is read once per identity: `verified` is one already checked.
// Fails (with the reason) when the folder cannot be written or `write` fails.
[[nodiscard]] Result<PchFile> ensure_pch(const std::filesystem::path& pch,
                                         const std::optional<FileIdentity>& refused,
                                         const PchWriter& write,
                                         const std::optional<FileIdentity>& verified = {});

}  // namespace sealint::cpp
