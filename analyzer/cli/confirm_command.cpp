#include "analyzer/cli/confirm_command.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzer/cli/cli_support.h"
#include "analyzer/cli/configurations.h"
#include "analyzer/cli/probe_location.h"
#include "analyzer/confirm/plan.h"
#include "analyzer/confirm/process.h"
#include "analyzer/confirm/progress.h"
#include "analyzer/confirm/verdict.h"
#include "analyzer/cpp/frontend.h"
#include "analyzer/driver/driver.h"
#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/sparkline.h"
#include "analyzer/output/text_output.h"

namespace sealint::cli {

namespace {

// The probe's own exit statuses (probe/sealint_probe/__main__.py).
constexpr int kProbeBadPlan = 2;
constexpr int kProbeNoTorch = 3;

// A private folder for the plan, the result and the script's output, removed on every return.
class TempDir {
 public:
  TempDir() {
    std::error_code error;
    std::string pattern =
        (std::filesystem::temp_directory_path(error) / "sealint-confirm-XXXXXX").string();
    if (error) pattern = "/tmp/sealint-confirm-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code error;
    if (!path_.empty()) std::filesystem::remove_all(path_, error);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

int fail(const std::string& message) {
  std::cerr << "sealint: error: " << message << '\n';
  return kExitError;
}

std::string absolute(const std::string& path) {
  std::error_code error;
  const auto p = std::filesystem::absolute(path, error);
  return error ? path : p.lexically_normal().string();
}

Result<nlohmann::json> read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    return make_error(fmt::format("'{}' is not valid JSON: {}", path, error.what()));
  }
}

// The script's findings, with the configuration in force for it; exit status on failure.
struct Analysis {
  std::vector<Diagnostic> findings;  // not suppressed, sorted
  std::vector<WatchedLoop> watched;  // training loops no finding is in
  std::vector<InputError> errors;
};
Result<Analysis> analyse(const ConfirmOptions& options, const rules::RuleRegistry& registry) {
  auto grammar = python::PythonGrammar::load();
  if (!grammar) return make_error(grammar.error());
  Configurations configurations(
      registry, {options.config_path, options.select, options.extend_select, options.ignore});
  std::vector<FileInput> inputs{{options.script, std::nullopt}};
  if (auto assigned = configurations.assign(inputs.front()); !assigned)
    return make_error(assigned.error());
  const Driver driver(registry, *grammar);
  DriverOptions driver_options;
  driver_options.watch_loops = true;
  RunResult run = driver.run(inputs, driver_options);
  Analysis analysis;
  for (Diagnostic& d : run.diagnostics)
    if (!d.suppressed) analysis.findings.push_back(std::move(d));
  analysis.errors = std::move(run.errors);
  analysis.watched = std::move(run.watched);
  return analysis;
}

// Runs the probe on the plan; the result's JSON, or an error that says what went wrong.
struct ProbeRun {
  nlohmann::json result;
  confirm::RunEnd end;
  std::string log_tail;  // the script's last output lines when it did not end well
  int interrupted = 0;   // the signal (Ctrl-C's SIGINT) that ended the run early, kept measured
};

// Why the run ended, for the signal that interrupted it.
std::string interrupted_summary(int signal) {
  if (signal == SIGINT) return "interrupted by Ctrl-C";
  return fmt::format("interrupted by signal {}", signal);
}
Result<ProbeRun> run_probe(const ConfirmOptions& options, const std::string& plan_path,
                           const std::string& temp) {
  const std::optional<std::string> probe_dir = find_probe_dir();
  if (!probe_dir) return make_error("the probe (share/sealint/probe/sealint_probe) is missing");
  confirm::ChildCommand command;
  const std::string result_path = temp + "/result.json";
  command.argv = {options.python, "-m", "sealint_probe", "--plan", plan_path, "--out", result_path};
  // A live line on a terminal only: a pipe, a file or CI gets the findings and nothing else.
  std::optional<confirm::ProgressLine> progress;
  if (::isatty(STDERR_FILENO) == 1) {
    const std::string progress_path = temp + "/progress.json";
    command.argv.insert(command.argv.end(), {"--progress", progress_path});
    progress.emplace(progress_path, options.script, stderr);
    command.on_wait = [&progress] { progress->update(); };
  }
  command.argv.insert(command.argv.end(), {"--", absolute(options.script)});
  command.argv.insert(command.argv.end(), options.script_args.begin(), options.script_args.end());
  const char* python_path = std::getenv("PYTHONPATH");
  command.extra_env.push_back(fmt::format("PYTHONPATH={}{}", *probe_dir,
                                          python_path != nullptr && *python_path != '\0'
                                              ? fmt::format(":{}", python_path)
                                              : std::string()));
  command.log_path = temp + "/output.log";
  command.timeout_seconds = options.timeout_seconds;
  auto exit = confirm::run_child(command);
  if (progress) progress->erase();
  if (!exit) {
    return make_error(fmt::format("{} (pick the interpreter with --python PATH)", exit.error()));
  }
  const std::string tail = confirm::tail_of_file(command.log_path, 20);
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
  auto result = read_json(result_path);
  if (!result) return make_error(result.error());
  auto end = confirm::check_result(*result, exit->timed_out, options.timeout_seconds);
  if (!end) return make_error(end.error());
  if (exit->interrupted != 0) {
    // The probe took sealint's SIGTERM for a timeout; it was the user.
    end->summary = interrupted_summary(exit->interrupted);
    end->timed_out = false;
    end->stopped = false;
  }
  const bool show_tail = exit->timed_out || confirm::ended_badly(*result);
  return ProbeRun{std::move(*result), *end, show_tail ? tail : std::string(), exit->interrupted};
}

std::string verdict_summary(const std::vector<Diagnostic>& findings) {
  constexpr std::array kOrder{Verdict::Confirmed, Verdict::NotConfirmed, Verdict::TooFewIterations,
                              Verdict::NotReached, Verdict::NotMeasured};
  std::array<size_t, kOrder.size()> counts{};
  for (const Diagnostic& d : findings)
    if (d.confirmation) ++counts[static_cast<size_t>(d.confirmation->verdict)];
  std::vector<std::string> parts;
  for (Verdict v : kOrder) {
    if (counts[static_cast<size_t>(v)] != 0)
      parts.push_back(fmt::format("{} {}", counts[static_cast<size_t>(v)], verdict_name(v)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The loops measured without a finding, after the findings: `path:line: loop: verdict: ...`.
void write_watched(std::ostream& out, const std::vector<WatchedLoop>& watched,
                   const std::vector<Confirmation>& verdicts) {
  for (size_t i = 0; i < watched.size(); ++i) {
    const Confirmation& c = verdicts[i];
    const std::string trend = output::sparkline(c.trend);
    out << fmt::format("{}:{}: training loop without a finding: {}{}{}\n", watched[i].path,
                       watched[i].probe.loop_line, output::confirmation_line(c),
                       c.verdict == Verdict::Confirmed ? " (a leak no rule reported)" : "",
                       trend.empty() ? "" : "  " + trend);
  }
}

int write_findings(const ConfirmOptions& options, const rules::RuleRegistry& registry,
                   const std::vector<Diagnostic>& findings, const std::vector<WatchedLoop>& watched,
                   const std::vector<Confirmation>& watched_verdicts, const ProbeRun& run) {
  std::ofstream file_out;
  if (!options.output_path.empty()) {
    file_out.open(options.output_path, std::ios::binary | std::ios::trunc);
    if (!file_out) {
      return fail(fmt::format("cannot write '{}': {}", options.output_path, std::strerror(errno)));
    }
  }
  std::ostream& out = options.output_path.empty() ? std::cout : file_out;
  const std::map<std::string, std::string> no_stdin;
  LineCache cache(no_stdin);
  const output::LineLookup lines = [&](std::string_view path, uint32_t line) {
    return cache.line(path, line);
  };
  if (options.format == "json") {
    output::write_json(out, findings);
  } else if (options.format == "sarif") {
    std::error_code error;
    output::write_sarif(out, findings, sarif_rules(registry), lines,
                        {std::string(kVersion), std::filesystem::current_path(error).string(), {}});
  } else if (options.format == "github") {
    output::write_github(out, findings);
  } else {
    const bool color = options.output_path.empty() && use_color(options.color);
    output::write_text(out, findings, lines, {color});
    write_watched(out, watched, watched_verdicts);
    const nlohmann::json seconds = run.result.value("seconds", nlohmann::json());
    const std::string ran = fmt::format(
        "{}{}", run.end.summary,
        seconds.is_number() ? fmt::format(", {:.1f} s", seconds.get<double>()) : std::string());
    if (findings.empty()) {
      out << fmt::format("No findings in {}; {} loop{} measured ({}).\n", options.script,
                         watched.size(), watched.size() == 1 ? "" : "s", ran);
    } else {
      out << fmt::format("Found {} finding{} in {}: {} ({}).\n", findings.size(),
                         findings.size() == 1 ? "" : "s", findings.front().path,
                         verdict_summary(findings), ran);
    }
  }
  out.flush();
  if (!out)
    return fail(fmt::format("cannot write '{}'",
                            options.output_path.empty() ? "stdout" : options.output_path));
  return findings.empty() ? kExitClean : kExitFindings;
}

}  // namespace

int run_confirm(const ConfirmOptions& options, const rules::RuleRegistry& registry) {
  std::error_code error;
  if (!std::filesystem::exists(options.script, error))
    return fail(fmt::format("'{}': no such file", options.script));
  if (std::filesystem::is_directory(options.script, error))
    return fail(fmt::format("'{}' is a folder: confirm mode runs one script", options.script));
  if (cpp::is_cpp_source(options.script)) {
    return fail(fmt::format("'{}' is C++: confirm mode runs Python scripts", options.script));
  }
  auto analysis = analyse(options, registry);
  if (!analysis) return fail(analysis.error());
  output::write_input_errors(std::cerr, analysis->errors, {false});
  const bool input_errors = std::any_of(analysis->errors.begin(), analysis->errors.end(),
                                        [](const InputError& e) { return !e.warning; });
  if (input_errors) return kExitError;
  std::vector<Diagnostic>& findings = analysis->findings;
  const std::vector<WatchedLoop>& watched = analysis->watched;
  if (findings.empty() && watched.empty() && options.format == "text" && !options.plan_only) {
    std::cout << fmt::format("No findings in {}: nothing to confirm.\n", options.script);
    return kExitClean;
  }
  // JSON and SARIF carry findings only: with none, there is nothing to run.
  if (findings.empty() && options.format != "text" && !options.plan_only)
    return write_findings(options, registry, findings, {}, {}, ProbeRun{});
  confirm::PlanOptions plan_options{absolute(options.script), options.steps, std::nullopt};
  if (!options.snapshot_path.empty()) plan_options.snapshot = absolute(options.snapshot_path);
  const nlohmann::json plan = confirm::make_plan(findings, watched, plan_options);
  if (options.plan_only) {
    if (options.output_path.empty()) {
      std::cout << plan.dump(2) << '\n';
      return kExitClean;
    }
    std::ofstream out(options.output_path, std::ios::binary | std::ios::trunc);
    out << plan.dump(2) << '\n';
    return out ? kExitClean
               : fail(fmt::format("cannot write '{}': {}", options.output_path,
                                  std::strerror(errno)));
  }
  ProbeRun run;
  if (!options.result_path.empty()) {
    auto result = read_json(options.result_path);
    if (!result) return fail(result.error());
    auto end = confirm::check_result(*result, false, options.timeout_seconds);
    if (!end) return fail(end.error());
    run = {std::move(*result), *end, {}};
  } else {
    const TempDir temp;
    if (temp.path().empty())
      return fail(fmt::format("cannot create a temporary folder: {}", std::strerror(errno)));
    const std::string plan_path = temp.path() + "/plan.json";
    std::ofstream(plan_path, std::ios::binary) << plan.dump(2) << '\n';
    auto probed = run_probe(options, plan_path, temp.path());
    if (!probed) return fail(probed.error());
    run = std::move(*probed);
  }
  // How the run ended goes to stderr, so that a JSON or SARIF stdout stays clean.
  if (!run.log_tail.empty()) {
    std::cerr << fmt::format("sealint: note: {}; the script's output ends with:\n{}\n",
                             run.end.summary, run.log_tail);
  }
  for (const auto& problem : run.result.value("errors", nlohmann::json::array())) {
    if (problem.is_string())
      std::cerr << "sealint: warning: probe: " << problem.get<std::string>() << '\n';
  }
  const std::optional<uint64_t> device_memory =
      options.device_memory != 0 ? std::optional<uint64_t>(options.device_memory) : std::nullopt;
  confirm::judge(findings, run.result, run.end, device_memory);
  std::vector<WatchedLoop> shown;
  std::vector<Confirmation> watched_verdicts;
  for (size_t i = 0; i < watched.size(); ++i) {
    const size_t id = findings.size() + i;
    if (confirm::encloses_measured_loop(run.result, id)) continue;
    shown.push_back(watched[i]);
    watched_verdicts.push_back(
        confirm::judge_watched(watched[i], id, run.result, run.end, device_memory));
  }
  const int status = write_findings(options, registry, findings, shown, watched_verdicts, run);
  if (status == kExitError) return status;
  if (run.interrupted != 0) return 128 + run.interrupted;  // what a shell reports for Ctrl-C
  // Verdicts of "not reached" everywhere are no evidence of anything: not a success.
  if (confirm::measured_nothing(run.result))
    return fail(
        fmt::format("nothing was measured: no loop finished an iteration ({})", run.end.summary));
  return status;
}

}  // namespace sealint::cli
