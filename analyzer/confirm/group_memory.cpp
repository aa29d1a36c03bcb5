#include "analyzer/confirm/group_memory.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace sealint::confirm {

uint64_t group_resident_bytes(pid_t group) {
  const long page = ::sysconf(_SC_PAGESIZE);
  uint64_t total = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid pgrp ... rss (the 24th field): comm may hold spaces and parentheses,
    // so the fields are read after the last ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long parent = 0;
    long process_group = 0;
    long resident_pages = 0;
    // Fields 6 to 23 (session ... vsize) are skipped as words.
    const int read =
        std::sscanf(line.c_str() + close + 1,
                    " %c %ld %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                    "%*s %*s %*s %*s %ld",
                    &state, &parent, &process_group, &resident_pages);
    if (read == 4 && process_group == group && resident_pages > 0 && page > 0)
      total += static_cast<uint64_t>(resident_pages) * static_cast<uint64_t>(page);
  }
  return total;
}

uint64_t default_memory_bound() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2;
}

}  // namespace sealint::confirm
