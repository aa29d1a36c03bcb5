#include "analyzer/confirm/proc_table.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace sealint::confirm {

std::vector<ProcessEntry> live_processes() {
  std::vector<ProcessEntry> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid pgrp ... rss (the 24th field): comm may hold spaces and parentheses,
    // so the fields are read after the last ')'; fields 6 to 23 are skipped as words.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long parent = 0;
    long group = 0;
    long resident = 0;
    const int read =
        std::sscanf(line.c_str() + close + 1,
                    " %c %ld %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                    "%*s %*s %*s %*s %ld",
                    &state, &parent, &group, &resident);
    if (read < 3) continue;
    found.push_back({static_cast<pid_t>(std::stol(name)), static_cast<pid_t>(parent),
                     static_cast<pid_t>(group),
                     read == 4 && resident > 0 ? static_cast<uint64_t>(resident) : 0});
  }
  return found;
}

}  // namespace sealint::confirm
