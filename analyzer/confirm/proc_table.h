#pragma once
// The live processes as /proc lists them: what ending a run's escaped descendants and bounding
// its memory (`--max-memory`) both read.
#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace sealint::confirm {

struct ProcessEntry {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t group = 0;
  uint64_t resident_pages = 0;
};

// Every process whose /proc/<pid>/stat could be read; empty when /proc cannot be listed.
[[nodiscard]] std::vector<ProcessEntry> live_processes();

}  // namespace sealint::confirm
