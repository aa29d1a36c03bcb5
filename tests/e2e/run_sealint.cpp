#include "tests/e2e/run_sealint.h"

#include <fcntl.h>
#include <grp.h>  // setgroups
#include <poll.h>
#include <signal.h>
#include <stdlib.h>  // mkdtemp
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace sealint::e2e {

namespace fs = std::filesystem;

namespace {

// Owns one file descriptor; closes it once.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = other.fd_;
      other.fd_ = -1;
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] bool open() const { return fd_ >= 0; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read;
  Fd write;
};

// O_CLOEXEC so no pipe end leaks into a child; dup2 onto 0/1/2 clears the flag on the copy.
bool make_pipe(Pipe& pipe) {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) return false;
  pipe.read = Fd(fds[0]);
  pipe.write = Fd(fds[1]);
  return true;
}

// Child side of fork(): only async-signal-safe calls until execve.
[[noreturn]] void exec_child(const Pipe& in, const Pipe& out, const Pipe& err, const char* cwd,
                             const char* binary, char* const* argv, char* const* envp,
                             bool as_nobody) {
  if (::dup2(in.read.get(), STDIN_FILENO) < 0 || ::dup2(out.write.get(), STDOUT_FILENO) < 0 ||
      ::dup2(err.write.get(), STDERR_FILENO) < 0) {
    ::_exit(127);
  }
  // The parent ignores SIGPIPE; an ignored signal stays ignored across execve, so restore it.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &default_action, nullptr);
  constexpr uid_t kNobody = 65534;
  if (as_nobody && ::geteuid() == 0 &&
      (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)) {
    ::_exit(127);
  }
  if (::chdir(cwd) != 0) {
    constexpr std::string_view kMessage = "run_sealint: chdir failed\n";
    [[maybe_unused]] auto ignored = ::write(STDERR_FILENO, kMessage.data(), kMessage.size());
    ::_exit(127);
  }
  ::execve(binary, argv, envp);
  constexpr std::string_view kMessage = "run_sealint: execve failed\n";
  [[maybe_unused]] auto ignored = ::write(STDERR_FILENO, kMessage.data(), kMessage.size());
  ::_exit(127);
}

// argv/envp as execve wants them: pointers into strings that outlive the call.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Appends what is readable on `fd` to `sink`; false at end of file or on a read error.
bool drain(int fd, std::string& sink) {
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      sink.append(buffer.data(), static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;  // 0: end of file; < 0: error, treated as closed
  }
}

// glibc 2.36's <sys/pidfd.h> declares pidfd_open without extern "C", so C++ cannot link it.
int open_pidfd(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0U));
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

fs::path source_dir() {
  return SEALINT_SOURCE_DIR;
}

fs::path test_cache_dir() {
  return SEALINT_TEST_CACHE_DIR;
}

RunOutput run_sealint(const std::vector<std::string>& args, const fs::path& cwd,
                      std::string_view stdin_bytes, bool as_nobody,
                      const std::vector<std::string>& extra_env) {
  RunOutput result;
  // A child that exits without reading all of stdin must not kill the test with SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);

  std::vector<std::string> argv_strings = {SEALINT_BINARY};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = {std::string(kChildPath), std::string(kChildTerm)};
  env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<char*> envp = c_strings(env_strings);
  const std::string cwd_string = cwd.string();

  Pipe in;
  Pipe out;
  Pipe err;
  if (!make_pipe(in) || !make_pipe(out) || !make_pipe(err)) {
    result.spawn_error = std::string("pipe2: ") + std::strerror(errno);
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.spawn_error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    exec_child(in, out, err, cwd_string.c_str(), argv_strings[0].c_str(), argv.data(), envp.data(),
               as_nobody);
  }
  in.read.reset();
  out.write.reset();
  err.write.reset();
  Fd child(open_pidfd(pid));
  if (!child.open()) {
    result.spawn_error = std::string("pidfd_open: ") + std::strerror(errno);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return result;
  }
  set_nonblocking(in.write.get());
  set_nonblocking(out.read.get());
  set_nonblocking(err.read.get());
  if (stdin_bytes.empty()) in.write.reset();

  size_t written = 0;
  bool child_exited = false;
  const auto deadline = std::chrono::steady_clock::now() + kRunTimeout;
  while (out.read.open() || err.read.open() || !child_exited) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    // A closed descriptor (-1) is ignored by poll.
    std::array<pollfd, 4> fds = {{{in.write.get(), POLLOUT, 0},
                                  {out.read.get(), POLLIN, 0},
                                  {err.read.get(), POLLIN, 0},
                                  {child_exited ? -1 : child.get(), POLLIN, 0}}};
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      result.spawn_error = std::string("poll: ") + std::strerror(errno);
      ::kill(pid, SIGKILL);
      break;
    }
    if (fds[0].revents != 0) {
      const ssize_t n = ::write(in.write.get(), stdin_bytes.data() + written,
                                std::min<size_t>(stdin_bytes.size() - written, 65536));
      if (n > 0) written += static_cast<size_t>(n);
      // Done, or the child closed its stdin (EPIPE): either way, no more to send.
      if (written == stdin_bytes.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        in.write.reset();
      }
    }
    if (fds[1].revents != 0 && !drain(out.read.get(), result.out)) out.read.reset();
    if (fds[2].revents != 0 && !drain(err.read.get(), result.err)) err.read.reset();
    if (fds[3].revents != 0) child_exited = true;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "sealint-e2e-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  }
  path_ = fs::canonical(pattern);
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

fs::path TempDir::write(const fs::path& relative, std::string_view bytes) const {
  const fs::path target = path_ / relative;
  fs::create_directories(target.parent_path());
  std::ofstream file(target, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) throw std::runtime_error("cannot write " + target.string());
  return target;
}

std::string describe(const RunOutput& run) {
  std::ostringstream text;
  if (!run.spawn_error.empty()) text << "could not run sealint: " << run.spawn_error << '\n';
  if (run.timed_out) text << "killed after " << kRunTimeout.count() << " s\n";
  if (run.exited) {
    text << "exit code " << run.exit_code << '\n';
  } else {
    text << "killed by signal " << run.signal << " (" << ::strsignal(run.signal) << ")\n";
  }
  constexpr size_t kShown = 4000;
  auto shown = [&](const std::string& s) {
    return s.size() <= kShown
               ? s
               : s.substr(0, kShown) + "\n[... " + std::to_string(s.size()) + " bytes in all]";
  };
  text << "--- stdout ---\n" << shown(run.out) << "--- stderr ---\n" << shown(run.err);
  return text.str();
}

size_t count_lines(std::string_view text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace sealint::e2e
