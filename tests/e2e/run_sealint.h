// Runs the built `sealint` as a child process for the end-to-end tests: no shell, a cleared
// environment, a fresh temp dir as its working directory, stdin fed, stdout/stderr/exit captured.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace sealint::e2e {

// The child's environment: nothing of the test's own, so no NO_COLOR, LANG or SEALINT_* leaks in.
inline constexpr std::string_view kChildPath = "PATH=/usr/bin:/bin";
inline constexpr std::string_view kChildTerm = "TERM=dumb";

// How long a run may take before it is killed and the test fails: a hang guard, not a timing
// assert (speed is measured in bench/).
// 180 s: a cold `--torch-headers=system` run builds the LibTorch PCH (13 s alone), and under
// `ctest -j2` beside other Clang parses it has been measured near 60 s.
inline constexpr std::chrono::seconds kRunTimeout{180};

struct RunOutput {
  bool exited = false;      // WIFEXITED: the process ended through exit(), not a signal
  int exit_code = -1;       // WEXITSTATUS when `exited`
  int signal = 0;           // WTERMSIG when killed by a signal (a crash, or our timeout kill)
  bool timed_out = false;   // ran past kRunTimeout and was killed
  std::string out;          // stdout, byte for byte
  std::string err;          // stderr, byte for byte
  std::string spawn_error;  // non-empty when the child could not be started at all
};

// Where the build put things, compiled into one translation unit (run_sealint.cpp) only: an
// absolute path in a compile definition is part of each file's compiler-cache key, so a clone in
// another folder would compile every file that had one afresh.
// The repository's root.
[[nodiscard]] std::filesystem::path source_dir();
// A --cache-dir whose pch/ the fixture runner shares, for the tests that need the real LibTorch
// headers but do not test the cache (else each parse takes about 10 s).
[[nodiscard]] std::filesystem::path test_cache_dir();

// Runs the built `sealint` with `args` in `cwd`, writing `stdin_bytes` to its stdin then closing
// it. With `as_nobody` and a root parent, the child drops to uid/gid 65534 before exec, so that
// file permissions apply to it (root reads a file of mode 000). `extra_env` ("NAME=value") is added
// to the cleared environment.
[[nodiscard]] RunOutput run_sealint(const std::vector<std::string>& args,
                                    const std::filesystem::path& cwd,
                                    std::string_view stdin_bytes = {}, bool as_nobody = false,
                                    const std::vector<std::string>& extra_env = {});

// A fresh folder from mkdtemp (canonical path, so it matches the child's getcwd), removed with
// everything in it when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // Writes `bytes` to `relative` (parent folders created), returns its absolute path.
  std::filesystem::path write(const std::filesystem::path& relative, std::string_view bytes) const;

 private:
  std::filesystem::path path_;
};

// A readable description of a run for failure messages: exit status, stdout, stderr.
[[nodiscard]] std::string describe(const RunOutput& run);

// Counts the lines of `text` ('\n'-terminated, plus a final unterminated one).
[[nodiscard]] size_t count_lines(std::string_view text);

[[nodiscard]] std::string read_file(const std::filesystem::path& path);

}  // namespace sealint::e2e
