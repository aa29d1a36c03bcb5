#include "analyzer/cli/probe_run.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "analyzer/cli/probe_location.h"
#include "analyzer/confirm/group_memory.h"
#include "analyzer/confirm/process.h"
#include "analyzer/confirm/progress.h"
#include "analyzer/confirm/units.h"

namespace sealint::cli {

namespace {

// The probe's own exit statuses (probe/sealint_probe/__main__.py).
constexpr int kProbeBadPlan = 2;
constexpr int kProbeNoTorch = 3;
// How long after our timeout the probe ends the run itself, when we have not.
constexpr int kWatchdogGraceSeconds = 60;

}  // namespace

TempDir::TempDir() {
  std::error_code error;
  std::string pattern =
      (std::filesystem::temp_directory_path(error) / "sealint-confirm-XXXXXX").string();
  if (error) pattern = "/tmp/sealint-confirm-XXXXXX";
  if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code error;
  if (!path_.empty()) std::filesystem::remove_all(path_, error);
}

namespace {

// Why the run ended, for the signal that interrupted it.
std::string interrupted_summary(int signal) {
  if (signal == SIGINT) return "interrupted by Ctrl-C";
  return fmt::format("interrupted by signal {}", signal);
}

}  // namespace

// `python -m sealint_probe` would put the working directory first on sys.path before the probe's
// own imports: an `argparse.py` or `types.py` there would run inside it. With `-c` that entry is
// '', removed before anything is imported; the probe's folder comes from PYTHONPATH. Under
// PYTHONSAFEPATH=1 (or -P) Python adds no '' at all: removing the first entry regardless took the
// probe's folder away (issue 41), so only '' entries go.
constexpr std::string_view kProbeBootstrap =
    "import sys; sys.path[:] = [p for p in sys.path if p != '']; import runpy; "
    "runpy.run_module('sealint_probe', run_name='__main__', alter_sys=True)";

Result<ProbeRun> run_probe(const ConfirmOptions& options, const ProbeTarget& target) {
  const std::string& temp = target.folder;
  const std::optional<std::string> probe_dir = find_probe_dir();
  if (!probe_dir) return make_error("the probe (share/sealint/probe/sealint_probe) is missing");
  confirm::ChildCommand command;
  const std::string result_path = temp + "/result.json";
  command.argv = {options.python, "-c",       std::string(kProbeBootstrap), "--plan", target.plan,
                  "--out",        result_path};
  // A live line on a terminal only: a pipe, a file or CI gets the findings and nothing else.
  std::optional<confirm::ProgressLine> progress;
  if (::isatty(STDERR_FILENO) == 1) {
    const std::string progress_path = temp + "/progress.json";
    command.argv.insert(command.argv.end(), {"--progress", progress_path});
    progress.emplace(progress_path, options.script, stderr);
    command.on_wait = [&progress] { progress->update(); };
  }
  command.argv.insert(command.argv.end(), {"--", target.script});
  command.argv.insert(command.argv.end(), options.script_args.begin(), options.script_args.end());
  std::string python_path = *probe_dir;
  if (!target.import_folder.empty()) python_path += ":" + target.import_folder;
  if (const char* ours = std::getenv("PYTHONPATH"); ours != nullptr && *ours != '\0')
    python_path += fmt::format(":{}", ours);
  command.extra_env.push_back("PYTHONPATH=" + python_path);
  // What the probe's watchdog (probe/sealint_probe/watchdog.py) needs to end the run and remove
  // the folder if sealint is killed or stuck: a minute past our own timeout.
  const auto deadline = std::chrono::system_clock::now() +
                        std::chrono::seconds(options.timeout_seconds + kWatchdogGraceSeconds);
  command.extra_env.push_back(fmt::format("SEALINT_PARENT_PID={}", ::getpid()));
  command.extra_env.push_back(fmt::format(
      "SEALINT_DEADLINE={}",
      std::chrono::duration_cast<std::chrono::seconds>(deadline.time_since_epoch()).count()));
  command.extra_env.push_back("SEALINT_TEMP_DIR=" + temp);
  command.log_path = temp + "/output.log";
  command.timeout_seconds = options.timeout_seconds;
  // Our own executable supervises the run, so that nothing outlives a killed sealint.
  std::error_code no_self;
  command.supervisor = std::filesystem::read_symlink("/proc/self/exe", no_self).string();
  command.folder = temp;
  command.max_memory_bytes =
      options.max_memory != 0 ? options.max_memory : confirm::default_memory_bound();
  auto exit = confirm::run_child(command);
  if (progress) progress->erase();
  if (!exit) {
    return make_error(fmt::format("{} (pick the interpreter with --python PATH)", exit.error()));
  }
  std::string tail = confirm::tail_of_file(command.log_path, 20);
  if (exit->output_cut)
    tail = fmt::format("(the script wrote more than {} MiB; only its last output was kept)\n{}",
                       confirm::kMaxLogBytes >> 20, tail);
  if (exit->exit_code == kProbeNoTorch) {
    return make_error(
        fmt::format("{}\n(pick an interpreter that has torch with --python PATH)",
                    tail.empty() ? fmt::format("'{}' cannot import torch", options.python) : tail));
  }
  if (tail.find("No module named sealint_probe") != std::string::npos)
    return make_error(
        fmt::format("'{}' cannot import the probe from '{}'", options.python, *probe_dir));
  std::error_code error;
  const bool written = std::filesystem::exists(result_path, error);
  if (exit->interrupted != 0 && !written)
    return make_error(
        "interrupted before the probe wrote a result; the script's processes were "
        "ended");
  // Ended by --max-memory: what it held, against the bound.
  const std::string over_memory =
      exit->over_memory == 0
          ? std::string()
          : fmt::format("the run was stopped when its processes held {} (--max-memory {})",
                        confirm::bytes_text(static_cast<double>(exit->over_memory)),
                        confirm::bytes_text(static_cast<double>(command.max_memory_bytes)));
  if (!written && !over_memory.empty())
    return make_error(fmt::format("{}, before the probe wrote a result", over_memory));
  if (!written) {
    std::string why =
        exit->timed_out ? fmt::format(
                              "the run timed out after {} s before the probe wrote a "
                              "result",
                              options.timeout_seconds)
        : exit->signal != 0
            ? fmt::format("the probe was killed by signal {}", exit->signal)
            : fmt::format("the probe exited with status {} without a result", exit->exit_code);
    if (exit->exit_code == kProbeBadPlan) why = "the probe refused the plan";
    return make_error(tail.empty() ? why : fmt::format("{}; its output ends with:\n{}", why, tail));
  }
  auto result = read_json_file(result_path);
  if (!result) return make_error(result.error());
  auto end = confirm::check_result(*result, exit->timed_out, options.timeout_seconds);
  if (!end) return make_error(end.error());
  if (!over_memory.empty()) {
    // The probe took sealint's SIGTERM for a timeout; it was the memory bound.
    end->summary = over_memory;
    end->timed_out = false;
    end->stopped = false;
  }
  if (exit->interrupted != 0) {
    // The probe took sealint's SIGTERM for a timeout; it was the user.
    end->summary = interrupted_summary(exit->interrupted);
    end->timed_out = false;
    end->stopped = false;
  }
  const bool show_tail = exit->timed_out || confirm::ended_badly(*result);
  return ProbeRun{std::move(*result), *end, show_tail ? tail : std::string(), exit->interrupted};
}

std::string absolute_path(const std::string& path) {
  std::error_code error;
  const auto p = std::filesystem::absolute(path, error);
  return error ? path : p.lexically_normal().string();
}

Result<nlohmann::json> read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    return make_error(fmt::format("'{}' is not valid JSON: {}", path, error.what()));
  }
}

}  // namespace sealint::cli
