#pragma once
// What the client may set for the server, in `initializationOptions` and in
// `workspace/didChangeConfiguration` (as `{"sealint": {...}}` or the object itself): the command
// line's overrides, in the camelCase an editor's settings use.
//
//   configuration    a pyproject.toml or .sealint.toml for every file (`--config`)
//   select, extendSelect, ignore   rule ids or names (`--select`, `--extend-select`, `--ignore`)
//   unsafeFixes      "fix all" applies the unsafe fixes too (`--unsafe-fixes`); quick fixes
//                    always offer them, marked as such, one at a time
//   compileCommands  a build folder holding compile_commands.json, or that file (`-p`); default:
//                    the nearest up the tree from the file, in a folder or its `build/`
//   torchHeaders     "model" (default) or "system" (`--torch-headers`)
//   cacheDir         where precompiled LibTorch headers are kept with "system" (`--cache-dir`)
#include <string>
#include <vector>

#include "analyzer/config/configurations.h"
#include "analyzer/server/json_rpc.h"

namespace sealint::server {

struct ServerSettings {
  config::ConfigOverrides overrides;
  bool unsafe_fixes = false;
  std::string compile_commands;
  bool system_headers = false;
  std::string cache_dir;
  // The client's workspace folders (from `initialize`, not a setting): the search for a
  // compile_commands.json stops at the one holding the file, never above it.
  std::vector<std::string> workspace_roots;
};

// `base` with what `json` sets; `warnings` gets a sentence for each value of the wrong type (the
// rest still applies: one typo does not reset the others).
[[nodiscard]] ServerSettings read_settings(const Json& json, ServerSettings base,
                                           std::vector<std::string>& warnings);

}  // namespace sealint::server
