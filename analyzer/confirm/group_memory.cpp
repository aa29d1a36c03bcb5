#include "analyzer/confirm/group_memory.h"

#include <unistd.h>

#include "analyzer/confirm/proc_table.h"

namespace sealint::confirm {

uint64_t group_resident_bytes(pid_t group) {
  const long page = ::sysconf(_SC_PAGESIZE);
  if (page <= 0) return 0;
  uint64_t total = 0;
  for (const ProcessEntry& process : live_processes())
    if (process.group == group) total += process.resident_pages * static_cast<uint64_t>(page);
  return total;
}

uint64_t default_memory_bound() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
}

}  // namespace sealint::confirm
