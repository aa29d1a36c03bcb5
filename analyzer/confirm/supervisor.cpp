#include "analyzer/confirm/supervisor.h"

#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "analyzer/confirm/proc_table.h"

extern char** environ;

namespace sealint::confirm {

namespace {

// The folders sealint makes for a run (analyzer/cli/probe_run.cpp): nothing else is removed.
constexpr std::string_view kTempPrefix = "sealint-confirm-";

// How long the probe has to write its result after TERM before the group is killed: less than
// sealint's own 5 s, so that the supervisor, not sealint's KILL, ends what is left.
constexpr auto kGrace = std::chrono::seconds(4);

void kill_rest_of_group() {
  const pid_t self = ::getpid();
  const pid_t group = ::getpgrp();
  for (const ProcessEntry& process : live_processes())
    if (process.group == group && process.pid != self) ::kill(process.pid, SIGKILL);
}

// Ends every other process of our group (TERM first, so that the probe writes what it measured,
// then KILL), then whatever the run detached, which has come to us as the subreaper.
void end_run(pid_t child, int& status, bool& reaped) {
  ::kill(-::getpgrp(), SIGTERM);  // ours is blocked
  const auto deadline = std::chrono::steady_clock::now() + kGrace;
  while (!reaped && std::chrono::steady_clock::now() < deadline) {
    reaped = ::waitpid(child, &status, WNOHANG) == child;
    const timespec pause{0, 20'000'000};
    ::nanosleep(&pause, nullptr);
  }
  kill_rest_of_group();
  if (!reaped) reaped = ::waitpid(child, &status, 0) == child;
  end_escaped_descendants();
}

// Exits as the child did: with its code, or by the signal that ended it.
int mirror(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    ::signal(signal, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signal);
    ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
    ::kill(::getpid(), signal);
    return 128 + signal;  // a signal whose default is to ignore it
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int supervise(int argc, char** argv) {
  if (argc < 6 || std::string_view(argv[4]) != "--") {
    std::fputs("sealint: --sealint-supervise PARENT_PID TEMP_DIR -- COMMAND...\n", stderr);
    return 2;
  }
  const long parent = std::strtol(argv[2], nullptr, 10);
  const std::filesystem::path temp(argv[3]);
  // Signals that end the run are taken with sigtimedwait: sealint's TERM (a timeout, the memory
  // bound, Ctrl-C) and the parent-death signal alike.
  sigset_t ending;
  sigemptyset(&ending);
  sigaddset(&ending, SIGTERM);
  sigaddset(&ending, SIGINT);
  sigaddset(&ending, SIGHUP);
  ::sigprocmask(SIG_BLOCK, &ending, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  // sealint may have died before the parent-death signal was set.
  if (::getppid() != parent) return 1;
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t defaults = ending;
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, argv[5], nullptr, &attributes, argv + 5, environ);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    std::fprintf(stderr, "sealint: cannot run '%s': %s\n", argv[5], std::strerror(spawned));
    return 127;
  }
  int status = 0;
  bool reaped = false;
  const timespec tick{0, 50'000'000};
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      reaped = true;
      break;
    }
    if (done < 0 && errno != EINTR) return 1;
    if (sigtimedwait(&ending, nullptr, &tick) > 0) {
      end_run(child, status, reaped);
      // sealint is gone: nobody else removes the run's folder.
      if (::getppid() != parent && temp.filename().string().starts_with(kTempPrefix)) {
        std::error_code error;
        std::filesystem::remove_all(temp, error);
      }
      break;
    }
  }
  // What the probe left in the group (DataLoader workers), and what it detached.
  kill_rest_of_group();
  end_escaped_descendants();
  return reaped ? mirror(status) : 1;
}

}  // namespace sealint::confirm
