#include "analyzer/confirm/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <pthread.h>

#include <fmt/format.h>

#include "analyzer/confirm/group_memory.h"
#include "analyzer/confirm/printable.h"
#include "analyzer/confirm/proc_table.h"
#include "analyzer/confirm/supervisor.h"

extern char** environ;

namespace sealint::confirm {

namespace {

// Our environment with `extra` set on top.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& x : extra)
      replaced |= x.compare(0, name.size() + 1, std::string(name) + "=") == 0;
    if (!replaced) out.emplace_back(entry);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Ends the whole group: TERM first, so that the probe can write what it measured, then KILL.
void end_group(pid_t group, pid_t child, int& status) {
  ::kill(-group, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(child, &status, WNOHANG) == child) {
      ::kill(-group, SIGKILL);  // workers that outlived it
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-group, SIGKILL);
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

// Why `program` cannot be run (looked up on PATH when it has no '/'), as posix_spawnp would say
// it; empty when it can. The supervisor runs it, so its failure is found here first.
std::string why_not_runnable(const std::string& program) {
  if (program.find('/') != std::string::npos)
    return ::access(program.c_str(), X_OK) == 0 ? std::string() : std::strerror(errno);
  const char* path = std::getenv("PATH");
  std::string_view folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const size_t colon = folders.find(':');
    const std::string folder(folders.substr(0, colon));
    const std::string candidate = (folder.empty() ? std::string(".") : folder) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return {};
    if (colon == std::string_view::npos) break;
    folders.remove_prefix(colon + 1);
  }
  return std::strerror(ENOENT);
}

}  // namespace

Result<ChildExit> run_child(const ChildCommand& command) {
  if (command.argv.empty()) return make_error("no command to run");
  // Orphans of the run come to us rather than to init, so that none outlives it
  // (end_escaped_descendants). Confirm mode runs nothing else as our child.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  std::vector<std::string> argv_strings = command.argv;
  if (!command.supervisor.empty()) {
    if (const std::string why = why_not_runnable(command.argv.front()); !why.empty()) {
      return make_error(fmt::format("cannot run '{}': {}", command.argv.front(), why));
    }
    argv_strings = {command.supervisor, std::string(kSuperviseFlag), std::to_string(::getpid()),
                    command.folder, "--"};
    argv_strings.insert(argv_strings.end(), command.argv.begin(), command.argv.end());
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // O_APPEND: once the log is emptied (kMaxLogBytes), the child's next write goes to its start.
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, command.log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_setpgroup(&attributes, 0);
  // The child starts with default signal handling, whatever ours is.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> env_strings = child_environment(command.extra_env);
  std::vector<char*> argv = pointers(argv_strings);
  std::vector<char*> env = pointers(env_strings);
  pid_t child = 0;
  const int spawned =
      argv_strings.front().find('/') == std::string::npos
          ? posix_spawnp(&child, argv[0], &actions, &attributes, argv.data(), env.data())
          : posix_spawn(&child, argv[0], &actions, &attributes, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    return make_error(
        fmt::format("cannot run '{}': {}", command.argv.front(), std::strerror(spawned)));
  }
  ChildExit exit;
  int status = 0;
  // Ctrl-C reaches our process group, not the child's: wait for it here (blocked, then taken
  // with sigtimedwait) and end the child's group with it, instead of leaving it running.
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  sigaddset(&interrupts, SIGHUP);
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &interrupts, &previous);
  const timespec tick{0, 20'000'000};
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(command.timeout_seconds);
  // The group's memory is read from /proc a few times a second, not at every tick.
  constexpr auto kMemoryCheckEvery = std::chrono::milliseconds(200);
  auto next_memory_check = std::chrono::steady_clock::now();
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      ::kill(-child, SIGKILL);  // DataLoader workers or anything else it left behind
      break;
    }
    if (done < 0 && errno != EINTR) {
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      return make_error("lost track of the probe process");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      exit.timed_out = true;
      end_group(child, child, status);
      break;
    }
    if (command.max_memory_bytes != 0 && std::chrono::steady_clock::now() >= next_memory_check) {
      next_memory_check = std::chrono::steady_clock::now() + kMemoryCheckEvery;
      if (const uint64_t held = group_resident_bytes(child); held > command.max_memory_bytes) {
        exit.over_memory = held;
        end_group(child, child, status);
        break;
      }
    }
    if (command.on_wait) command.on_wait();
    struct stat log {};
    if (::stat(command.log_path.c_str(), &log) == 0 && log.st_size > kMaxLogBytes &&
        ::truncate(command.log_path.c_str(), 0) == 0)
      exit.output_cut = true;
    if (const int signal = sigtimedwait(&interrupts, nullptr, &tick); signal > 0) {
      exit.interrupted = signal;
      end_group(child, child, status);
      break;
    }
  }
  end_escaped_descendants();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  return exit;
}

std::string tail_of_file(const std::string& path, size_t max_lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  // Only the end is read: a script may print gigabytes.
  constexpr std::streamoff kWindow = 64 * 1024;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(size > kWindow ? size - kWindow : 0);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t begin = text.size();
  for (size_t lines = 0; begin > 0; --begin) {
    if (text[begin - 1] == '\n' && ++lines == max_lines) break;
  }
  return printable(std::string_view(text).substr(begin));
}

}  // namespace sealint::confirm
