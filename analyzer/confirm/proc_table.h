#pragma once
// The live processes as /proc lists them: what ending a run's escaped descendants and bounding
// its memory (`--max-memory`) both read; and the ending of those descendants.
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

// A process the script started in a session of its own (`Popen(..., start_new_session=True)`,
// a daemon) escapes the kill of the probe's group. The subreaper of everything a run starts
// (sealint, or its supervisor) is given such a process once its parent is gone: this ends and reaps
// every child of ours, a few rounds, since killing one can orphan its own children to us.
void end_escaped_descendants();

}  // namespace sealint::confirm
