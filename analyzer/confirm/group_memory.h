#pragma once
// How much memory a run holds: the resident bytes of every process in its process group (the
// probe, the script, its DataLoader workers), read from /proc, for `--max-memory`.
#include <sys/types.h>

#include <cstdint>

namespace sealint::confirm {

// The sum of the resident set sizes of the live processes whose process group is `group`; 0
// when none is found (or /proc cannot be read).
[[nodiscard]] uint64_t group_resident_bytes(pid_t group);

// Half the machine's physical memory: `--max-memory`'s default, which leaves the rest to the
// system and to other users' processes.
[[nodiscard]] uint64_t default_memory_bound();

}  // namespace sealint::confirm
