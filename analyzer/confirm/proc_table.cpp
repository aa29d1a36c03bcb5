#include "analyzer/confirm/proc_table.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

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

namespace {

// Our children, read from /proc: the processes whose parent we are.
std::vector<pid_t> children_of_ours() {
  std::vector<pid_t> found;
  const pid_t self = ::getpid();
  for (const ProcessEntry& process : live_processes())
    if (process.parent == self) found.push_back(process.pid);
  return found;
}

}  // namespace

void end_escaped_descendants() {
  int quiet_rounds = 0;
  for (int round = 0; round < 100 && quiet_rounds < 2; ++round) {
    const std::vector<pid_t> children = children_of_ours();
    quiet_rounds = children.empty() ? quiet_rounds + 1 : 0;
    for (const pid_t pid : children) ::kill(pid, SIGKILL);
    for (const pid_t pid : children) {
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace sealint::confirm
