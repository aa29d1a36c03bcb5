#pragma once
// compile_commands.json, read as sealint reads any file a repository gives it: through its own
// bounded reader, a regular file only, and parsed without LLVM's response-file expansion (which
// reads every `@file` argument whole: `@/dev/zero` exhausts memory, `@fifo` blocks for ever).
#include <optional>
#include <string>

#include "analyzer/core/result.h"
#include "analyzer/cpp/database_flags.h"

namespace sealint::cpp {

// The database is at most this large (a large project's is a few dozen MiB).
inline constexpr size_t kMaxDatabaseBytes = size_t{256} << 20;

// The flags of the entry for `file` (an absolute path) in `dir`/compile_commands.json, through
// the allowlist of database_flags.h; nullopt when the database has no entry for it; an error that
// names the database when it cannot be read or is not a JSON compilation database.
[[nodiscard]] Result<std::optional<DatabaseFlags>> database_flags_for(const std::string& dir,
                                                                      const std::string& file);

}  // namespace sealint::cpp
