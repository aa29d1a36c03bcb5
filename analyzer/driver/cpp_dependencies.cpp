#include "analyzer/driver/cpp_dependencies.h"

#include <fmt/format.h>

#include "analyzer/core/fixes.h"

namespace sealint {

std::optional<project::ProjectDependencies> cpp_dependencies(
    const cpp::CppInputs& inputs, const project::DependencyCheck& check) {
  project::ProjectDependencies out;
  for (const std::string& file : inputs.files) {
    const project::IndexedDigest digest = check.digest_of(file);
    if (!digest) return std::nullopt;
    out.files.emplace(file, digest);
  }
  // A header that appears where one was missing makes the digest of its path exist: a miss. One
  // that exists already was made since the parse: that result is stale at once.
  for (const std::string& candidate : inputs.absent) {
    if (check.digest_of(candidate)) return std::nullopt;
    out.files.emplace(candidate, std::nullopt);
  }
  return out;
}

uint64_t cpp_settings_key(const cpp::CppOptions& options) {
  return content_digest(fmt::format(
      "c++\n{}\n{}\n{}", options.headers == cpp::TorchHeaders::Model ? "model" : "system",
      options.compile_commands_dir, cpp::clang_version()));
}

}  // namespace sealint
