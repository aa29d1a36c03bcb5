#pragma once
// Runs the probe as a child process: an argv array (never a shell), its own process group (so a
// timeout kills DataLoader workers too), stdin from /dev/null, output to a log file. sealint is
// the subreaper of what the run starts: a process the script put in a session of its own is
// ended and reaped with the run, never left behind.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analyzer/core/result.h"

namespace sealint::confirm {

struct ChildCommand {
  std::vector<std::string> argv;       // argv[0] is looked up on PATH when it has no '/'
  std::vector<std::string> extra_env;  // "NAME=value", added to (or replacing) ours
  std::string log_path;                // receives the child's stdout and stderr
  int timeout_seconds = 300;
  // The most resident memory the child's process group may hold; past it the group is ended as
  // on a timeout (TERM, so the probe writes what it measured, then KILL). 0: no bound.
  uint64_t max_memory_bytes = 0;
  // sealint's own executable, to run the command under its native supervisor
  // (confirm/supervisor.h), which ends the run and removes `folder` when sealint dies; empty: the
  // command is our child directly.
  std::string supervisor;
  std::string folder;
  // Called while waiting, every few tens of milliseconds (a live progress line).
  std::function<void()> on_wait;
};

struct ChildExit {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  int interrupted = 0;       // the signal (SIGINT, SIGTERM, SIGHUP) that stopped us waiting
  bool output_cut = false;   // the log passed kMaxLogBytes and its earlier part was dropped
  uint64_t over_memory = 0;  // the group's resident bytes when they passed the bound; else 0
};

// A script's output is kept for its last lines only: past this size the log is emptied and goes
// on from there, so that a script printing in a loop cannot fill the disk (597 MiB in 10 s).
inline constexpr off_t kMaxLogBytes = off_t{64} << 20;

// Fails when the child could not be started (no such interpreter, not executable).
[[nodiscard]] Result<ChildExit> run_child(const ChildCommand& command);

// The last `max_lines` lines of a file, for showing what a failed script printed.
[[nodiscard]] std::string tail_of_file(const std::string& path, size_t max_lines);

}  // namespace sealint::confirm
