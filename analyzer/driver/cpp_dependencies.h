#pragma once
// What a C++ file's cached result depends on besides its own bytes (docs/cache.md): the digest of
// every file its parse read and the absence of every header it could not find, in the shape the
// result cache replays for Python's project dependencies.
#include <optional>

#include "analyzer/cpp/frontend.h"
#include "analyzer/project/dependencies.h"

namespace sealint {

// The dependencies of a parse that read `inputs`; nullopt when one of its files cannot be keyed
// (unreadable now, or past the digest's size bound): such a result is not cached.
[[nodiscard]] std::optional<project::ProjectDependencies> cpp_dependencies(
    const cpp::CppInputs& inputs, const project::DependencyCheck& check);

// The C++ frontend's settings that change a result (header mode, compile_commands.json folder,
// the Clang library's version), as one number for the entry's key.
[[nodiscard]] uint64_t cpp_settings_key(const cpp::CppOptions& options);

}  // namespace sealint
