#pragma once
// One file's cached result and the bytes it is stored as: the one place where a Diagnostic, an
// InputError and a file's project dependencies become bytes and back (docs/cache.md).
//
// An entry file is `kEntryMagic`, the HMAC-SHA-256 of the rest keyed with the user's secret
// (secret.h), then the entry as CBOR. Decoding never trusts the bytes: a truncated, damaged,
// foreign or hostile entry, or one sealed with another secret (a `.sealint_cache` a repository
// ships), decodes to nullopt, never to a crash or a value outside what an analysis could make.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/cache/secret.h"
#include "analyzer/core/diagnostic.h"
#include "analyzer/project/dependencies.h"

namespace sealint::cache {

// The first bytes of every entry; the last one is the format's version.
inline constexpr std::string_view kEntryMagic{"SLCACHE\x03", 8};

// Which sealint made an entry: its version and its build (build_identity.h). An entry of another
// build is a miss: the rules may have changed with no change of version.
struct Identity {
  std::string version;
  std::string build;
  bool operator==(const Identity&) const = default;
};

// What a file's result depends on besides its project (ProjectDependencies).
struct EntryKey {
  std::string path;      // as the user named it (per-file-ignores match it)
  std::string shown;     // as every output names it (display_path: depends on the working dir)
  std::string absolute;  // absolute and normal: the project index's name for it
  uint64_t digest = 0;   // of its bytes (core/fixes.h content_digest)
  uint64_t size = 0;     // of its bytes
  uint64_t config = 0;   // config_fingerprint() of its configuration (for C++, with the frontend's)
  bool project_scope = true;
  bool operator==(const EntryKey&) const = default;
};

// What the analysis of a file gave, as the driver hands it to the outputs.
struct FileOutcome {
  std::vector<Diagnostic> diagnostics;
  std::vector<InputError> errors;
  project::ProjectDependencies dependencies;
  std::vector<LeftOutTest> left_out_tests;
  bool operator==(const FileOutcome&) const = default;
};

struct Entry {
  Identity identity;
  EntryKey key;
  FileOutcome outcome;
  bool operator==(const Entry&) const = default;
};

// The entry's file name in the cache folder: one per file and the name outputs give it.
[[nodiscard]] std::string entry_name(const EntryKey& key);

[[nodiscard]] std::string encode_entry(const Entry& entry, const Secret& secret);
// nullopt for anything encode_entry did not write with this `secret`. Byte ranges are checked
// against `key.size` (the file as read now) only by the caller, who knows it.
[[nodiscard]] std::optional<Entry> decode_entry(std::string_view bytes, const Secret& secret);

}  // namespace sealint::cache
