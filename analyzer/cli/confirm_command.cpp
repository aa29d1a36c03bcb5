#include "analyzer/cli/confirm_command.h"

#include <unistd.h>

#include <algorithm>
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
#include "analyzer/cli/probe_run.h"
#include "analyzer/cli/verify_fix.h"
#include "analyzer/config/configurations.h"
#include "analyzer/confirm/plan.h"
#include "analyzer/confirm/verdict.h"
#include "analyzer/core/bounded_read.h"
#include "analyzer/core/utf8.h"
#include "analyzer/cpp/frontend.h"
#include "analyzer/driver/driver.h"
#include "analyzer/notebook/notebook.h"
#include "analyzer/output/formats.h"
#include "analyzer/output/text_output.h"
#include "analyzer/report/html_report.h"

namespace sealint::cli {

namespace {

int fail(const std::string& message) {
  std::cerr << "sealint: error: " << message << '\n';
  return kExitError;
}

// The regions a script's run passes through are often in the modules it imports (a Trainer class
// in trainer.py): their findings and training loops are confirmed too, through the imports of
// those modules, up to this many levels and files.
constexpr int kImportLevels = 3;
constexpr size_t kMaxImportedFiles = 64;

// The script's findings, then those of the project files it imports, each with the configuration
// in force for it; exit status on failure.
struct Analysis {
  std::vector<Diagnostic> findings;  // not suppressed; sorted within each file's group
  std::vector<WatchedLoop> watched;  // training loops no finding is in
  std::vector<InputError> errors;
};
Result<Analysis> analyse(const ConfirmOptions& options, const rules::RuleRegistry& registry) {
  // The probe runs a script with runpy; a notebook's cells need a kernel.
  if (notebook::is_notebook_path(options.script)) {
    return make_error(fmt::format(
        "'{}': confirm mode runs scripts, not notebooks; export it first with `jupyter nbconvert "
        "--to script {}`",
        options.script, options.script));
  }
  auto grammar = python::PythonGrammar::load();
  if (!grammar) return make_error(grammar.error());
  config::Configurations configurations(registry, {options.config_path, options.select,
                                                   options.extend_select, options.ignore, false});
  std::vector<FileInput> inputs{{options.script, std::nullopt}};
  if (auto assigned = configurations.assign(inputs.front()); !assigned)
    return make_error(assigned.error());
  const Driver driver(registry, *grammar);
  DriverOptions driver_options;
  driver_options.watch_loops = true;
  driver_options.list_imports = true;
  Analysis analysis;
  std::vector<std::filesystem::path> seen{absolute_path(options.script)};
  for (int level = 0; !inputs.empty(); ++level) {
    RunResult run = driver.run(inputs, driver_options);
    for (Diagnostic& d : run.diagnostics)
      if (!d.suppressed) analysis.findings.push_back(std::move(d));
    // An imported module that cannot be read stops nothing here: the run shows what it does.
    for (InputError& e : run.errors) {
      e.warning = e.warning || level > 0;
      analysis.errors.push_back(std::move(e));
    }
    std::move(run.watched.begin(), run.watched.end(), std::back_inserter(analysis.watched));
    inputs.clear();
    if (level == kImportLevels) break;
    for (const std::filesystem::path& file : run.imported) {
      if (seen.size() > kMaxImportedFiles ||
          std::find(seen.begin(), seen.end(), file) != seen.end())
        continue;
      seen.push_back(file);
      // The plan is JSON, which holds UTF-8 paths only.
      if (utf8::first_invalid(file.string())) {
        analysis.errors.push_back({file.string(), std::nullopt,
                                   "confirm mode leaves out this imported module: its path is "
                                   "not UTF-8",
                                   true});
        continue;
      }
      FileInput input{file.string(), std::nullopt};
      // A module whose configuration file is broken is left out (the script's own is checked),
      // and so is one the configuration excludes, as lint mode's walk leaves it out.
      if (auto assigned = configurations.assign(input);
          assigned && (input.config == nullptr || !input.config->excludes(file)))
        inputs.push_back(input);
    }
  }
  return analysis;
}

// "train.py", or "train.py and 2 modules it imports" when findings come from imported ones too.
std::string where_found(const ConfirmOptions& options, const std::vector<Diagnostic>& findings) {
  const std::string script = absolute_path(options.script);
  std::vector<std::string_view> modules;
  std::string shown_script;
  for (const Diagnostic& d : findings) {
    if (absolute_path(d.path) == script) {
      shown_script = d.path;
    } else if (std::find(modules.begin(), modules.end(), d.path) == modules.end()) {
      modules.push_back(d.path);
    }
  }
  if (modules.empty()) return shown_script.empty() ? options.script : shown_script;
  const std::string count =
      fmt::format("{} module{}", modules.size(), modules.size() == 1 ? "" : "s");
  if (!shown_script.empty()) return fmt::format("{} and {} it imports", shown_script, count);
  if (modules.size() == 1)
    return fmt::format("{}, which {} imports", modules.front(), options.script);
  return fmt::format("{} {} imports", count, options.script);
}

// How long the script ran, when the probe's result says (a run that was skipped has no result).
std::optional<double> run_seconds(const ProbeRun& run) {
  if (!run.result.is_object()) return std::nullopt;
  const nlohmann::json seconds = run.result.value("seconds", nlohmann::json());
  return seconds.is_number() ? std::optional(seconds.get<double>()) : std::nullopt;
}

int write_findings(const ConfirmOptions& options, const output::Format& format,
                   const rules::RuleRegistry& registry, const std::vector<Diagnostic>& findings,
                   const output::WatchedVerdicts& watched, const ProbeRun& run) {
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
  const output::LineLookup lines = [&](std::string_view path, const Position& at) {
    return cache.line(path, at);
  };
  const std::vector<output::SarifRule> rules = sarif_rules(registry);
  std::error_code no_cwd;
  format.write_confirm(out, {.findings = findings,
                             .watched = watched,
                             .rules = rules,
                             .lines = lines,
                             .tool_version = std::string(kVersion),
                             .source_root = std::filesystem::current_path(no_cwd).string(),
                             .color = options.output_path.empty() && use_color(options.color),
                             .script = options.script,
                             .found_in = where_found(options, findings),
                             .run_summary = run.end.summary,
                             .seconds = run_seconds(run)});
  out.flush();
  if (!out)
    return fail(fmt::format("cannot write '{}'",
                            options.output_path.empty() ? "stdout" : options.output_path));
  return findings.empty() ? kExitClean : kExitFindings;
}

// The most of a source file the report reads to show a finding's lines (a script far larger is
// shown without them).
constexpr size_t kMaxReportSource = 64 * 1024 * 1024;

// The HTML report (--report): the verdicts as the outputs print them, with the result's series.
int write_report(const ConfirmOptions& options, const rules::RuleRegistry& registry,
                 const std::vector<Diagnostic>& findings, const output::WatchedVerdicts& watched,
                 const std::vector<size_t>& watched_ids, const ProbeRun& run) {
  const std::map<std::string, std::string> no_stdin;
  LineCache cache(no_stdin);
  const output::LineLookup lines = [&](std::string_view path, const Position& at) {
    return cache.line(path, at);
  };
  const std::vector<output::SarifRule> rules = sarif_rules(registry);
  const output::ConfirmReport confirm_report{.findings = findings,
                                             .watched = watched,
                                             .rules = rules,
                                             .lines = lines,
                                             .tool_version = std::string(kVersion),
                                             .source_root = {},
                                             .color = false,
                                             .script = options.script,
                                             .found_in = where_found(options, findings),
                                             .run_summary = run.end.summary,
                                             .seconds = run_seconds(run)};
  // A snapshot copied here from the run's machine (--snapshot with --result), else the path the
  // probe wrote it to.
  std::string snapshot = options.snapshot_path.empty() ? "" : absolute_path(options.snapshot_path);
  const nlohmann::json& written =
      run.result.is_object() ? run.result.value("snapshot", nlohmann::json()) : nlohmann::json();
  if (snapshot.empty() && written.is_object() && written.value("written", false) &&
      written.value("path", nlohmann::json()).is_string())
    snapshot = written["path"].get<std::string>();
  const report::HtmlReport page{confirm_report, run.result, watched_ids,
                                [](std::string_view path) -> std::optional<std::string> {
                                  auto text = read_regular_file_bounded(
                                      std::string(path), std::string(path), kMaxReportSource);
                                  if (!text) return std::nullopt;
                                  std::string code = std::move(*text);
                                  if (code.starts_with("\xEF\xBB\xBF"))
                                    code.erase(0, 3);  // offsets are after the BOM
                                  return code;
                                },
                                snapshot};
  std::ofstream out(options.report_path, std::ios::binary | std::ios::trunc);
  if (!out)
    return fail(fmt::format("cannot write '{}': {}", options.report_path, std::strerror(errno)));
  report::write_html_report(out, page);
  out.flush();
  if (!out) return fail(fmt::format("cannot write '{}'", options.report_path));
  return kExitClean;
}

}  // namespace

int run_confirm(const ConfirmOptions& options, const rules::RuleRegistry& registry) {
  const output::Format* format = output::find_format(options.format, output::FormatUser::Confirm);
  if (format == nullptr)
    return fail(fmt::format("confirm mode has no output format '{}'", options.format));
  std::error_code error;
  if (!std::filesystem::exists(options.script, error))
    return fail(fmt::format("'{}': no such file", options.script));
  if (std::filesystem::is_directory(options.script, error))
    return fail(fmt::format("'{}' is a folder: confirm mode runs one script", options.script));
  if (cpp::is_cpp_source(options.script)) {
    return fail(fmt::format("'{}' is C++: confirm mode runs Python scripts", options.script));
  }
  // `-o train.py` would replace the script with its findings (lint refuses the same), and
  // `-o` or `--report` naming the result or snapshot read would replace what is being read.
  for (const auto& [option, written] :
       {std::pair{"-o", &options.output_path}, std::pair{"--report", &options.report_path}}) {
    for (const std::string* read :
         {&options.script, &options.result_path, &options.snapshot_path}) {
      if (!written->empty() && !read->empty() &&
          std::filesystem::equivalent(*written, *read, error))
        return fail(
            fmt::format("{} '{}' names '{}', which confirm reads", option, *written, *read));
    }
  }
  if (!options.report_path.empty() && !options.output_path.empty() &&
      std::filesystem::equivalent(options.report_path, options.output_path, error))
    return fail(fmt::format("--report and -o both name '{}'", options.output_path));
  auto analysis = analyse(options, registry);
  if (!analysis) return fail(analysis.error());
  output::write_input_errors(std::cerr, analysis->errors, {false});
  const bool input_errors = std::any_of(analysis->errors.begin(), analysis->errors.end(),
                                        [](const InputError& e) { return !e.warning; });
  if (input_errors) return kExitError;
  std::vector<Diagnostic>& findings = analysis->findings;
  const std::vector<WatchedLoop>& watched = analysis->watched;
  if (findings.empty() && watched.empty() && format->shows_watched_loops && !options.plan_only) {
    std::cout << fmt::format("No findings in {}: nothing to confirm.\n", options.script);
    // The page asked for says the same, rather than being missing.
    if (!options.report_path.empty() &&
        write_report(options, registry, findings, {}, {}, ProbeRun{}) == kExitError)
      return kExitError;
    return kExitClean;
  }
  // The other formats carry findings only: with none, there is nothing to run, unless the report
  // asked for shows the loops measured without a finding.
  if (findings.empty() && !format->shows_watched_loops && !options.plan_only &&
      options.report_path.empty())
    return write_findings(options, *format, registry, findings, {}, ProbeRun{});
  // The plan reaches the probe as JSON, which holds UTF-8 only: a file name that is not cannot
  // be matched against the frames Python runs.
  if (utf8::first_invalid(options.script))
    return fail("confirm mode needs a script whose path is UTF-8; rename it");
  confirm::PlanOptions plan_options{absolute_path(options.script), options.steps, std::nullopt};
  if (!options.snapshot_path.empty()) plan_options.snapshot = absolute_path(options.snapshot_path);
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
    auto result = read_json_file(options.result_path);
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
    auto probed = run_probe(options, {absolute_path(options.script), plan_path, temp.path(), {}});
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
  if (options.verify_fix && run.interrupted == 0) {
    auto verified = verify_fixes(options, findings);
    if (!verified) return fail(verified.error());
    if (*verified == 0) std::cerr << "sealint: note: --verify-fix: no finding here has a fix\n";
  }
  output::WatchedVerdicts shown;
  std::vector<size_t> shown_ids;  // the plan id of each shown loop, for the report
  for (size_t i = 0; i < watched.size(); ++i) {
    const size_t id = findings.size() + i;
    if (confirm::encloses_measured_loop(run.result, id)) continue;
    shown_ids.push_back(id);
    shown.loops.push_back(watched[i]);
    shown.verdicts.push_back(
        confirm::judge_watched(watched[i], id, run.result, run.end, device_memory));
    // The measured steps it calls (a flagged or watched `forward()`): its growth is theirs.
    std::vector<std::string> called;
    for (const size_t entry : confirm::entries_called_inside(run.result, id)) {
      if (entry < findings.size()) {
        called.push_back(fmt::format("the code of the finding at {}:{}", findings[entry].path,
                                     findings[entry].span.begin.line));
      } else if (entry - findings.size() < watched.size()) {
        const WatchedLoop& step = watched[entry - findings.size()];
        called.push_back(
            fmt::format("`{}()` at {}:{}", step.probe.function, step.path, step.probe.loop_line));
      }
    }
    shown.runs_flagged.push_back(fmt::format("{}", fmt::join(called, ", ")));
  }
  const int status = write_findings(options, *format, registry, findings, shown, run);
  if (status == kExitError) return status;
  if (!options.report_path.empty() &&
      write_report(options, registry, findings, shown, shown_ids, run) == kExitError)
    return kExitError;
  if (run.interrupted != 0) return 128 + run.interrupted;  // what a shell reports for Ctrl-C
  // Verdicts of "not reached" everywhere are no evidence of anything: not a success.
  if (confirm::measured_nothing(run.result))
    return fail(
        fmt::format("nothing was measured: no loop finished an iteration ({})", run.end.summary));
  return status;
}

}  // namespace sealint::cli
