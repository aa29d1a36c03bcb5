// sealint's command line: `sealint [paths]`, `sealint confirm train.py`, `sealint rules`,
// `sealint explain SL001`.
// Exit status: 0 nothing found, 1 findings, 2 usage or input errors.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "analyzer/cli/cli_support.h"
#include "analyzer/cli/configurations.h"
#include "analyzer/cli/confirm_command.h"
#include "analyzer/cli/fixing.h"
#include "analyzer/core/bounded_read.h"
#include "analyzer/core/display_path.h"
#include "analyzer/core/file_walker.h"
#include "analyzer/core/glob.h"
#include "analyzer/core/rule_metadata.h"
#include "analyzer/core/source_file.h"
#include "analyzer/driver/driver.h"
#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/text_output.h"
#include "rules/registry.h"
#include "rules/rule_docs.h"

namespace {

using sealint::cli::kExitClean;
using sealint::cli::kExitError;
using sealint::cli::kExitFindings;
using sealint::cli::kVersion;
using sealint::cli::LineCache;
using sealint::cli::sarif_rules;
using sealint::cli::use_color;

struct Options {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string color = "auto";
  unsigned jobs = 0;
  std::vector<std::string> exclude;
  std::string stdin_filename;
  std::string output_path;
  bool parse_only = false;
  bool no_project = false;
  bool show_suppressed = false;
  bool fix = false;
  bool unsafe_fixes = false;
  bool diff = false;
  std::string explain_id;
  std::string config_path;
  std::string config_for = ".";
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  bool force_exclude = false;
  bool exit_zero = false;
  bool statistics = false;
  bool no_respect_gitignore = false;
  std::string compile_commands_dir;
  std::string torch_headers = "model";
  std::string cache_dir;
};

// Where sealint keeps what it can rebuild (precompiled LibTorch headers): --cache-dir, else
// $SEALINT_CACHE_DIR, else the XDG base directory ($XDG_CACHE_HOME, or ~/.cache) + /sealint;
// empty when none of them is set.
std::string cache_dir(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value == nullptr ? "" : value);
  };
  if (std::string dir = variable("SEALINT_CACHE_DIR"); !dir.empty()) return dir;
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  if (std::string xdg = variable("XDG_CACHE_HOME"); !xdg.empty() && xdg.starts_with('/'))
    return xdg + "/sealint";
  if (std::string home = variable("HOME"); !home.empty()) return home + "/.cache/sealint";
  return "";
}

std::string_view severity_word(sealint::Severity severity) {
  return sealint::severity_name(severity);
}

int list_rules(const sealint::rules::RuleRegistry& registry, bool markdown) {
  if (markdown) {
    // The README's rules table, generated so the two never disagree.
    std::cout << sealint::readme_table_header();
    for (const auto& rule : registry.rules()) std::cout << sealint::readme_table_row(rule->info());
    return kExitClean;
  }
  size_t width = 0;
  for (const auto& rule : registry.rules()) width = std::max(width, rule->info().name.size());
  for (const auto& rule : registry.rules()) {
    const sealint::RuleInfo& info = rule->info();
    std::cout << fmt::format("{}  {:<{}}  {:<7}  {:<11}  {}{}\n", info.id, info.name, width,
                             severity_word(info.severity), sealint::languages_text(info),
                             info.summary,
                             info.on_by_default ? "" : " (off by default: --extend-select)");
  }
  return kExitClean;
}

int print_config(const Options& options, const sealint::rules::RuleRegistry& registry) {
  // The configuration "for" a path that is not there would describe nothing: a typo.
  std::error_code missing;
  if (!options.config_for.empty() && !std::filesystem::exists(options.config_for, missing)) {
    std::cerr << fmt::format("sealint: error: cannot read '{}': no such file or folder\n",
                             options.config_for);
    return kExitError;
  }
  sealint::cli::Configurations configurations(
      registry, {options.config_path, options.select, options.extend_select, options.ignore});
  auto config = configurations.effective(options.config_for);
  if (!config) {
    std::cerr << "sealint: error: " << config.error() << '\n';
    return kExitError;
  }
  // A configuration a run would refuse is refused here too.
  if (auto checked = sealint::rules::RuleRegistry::with_options(**config); !checked) {
    std::cerr << "sealint: error: " << checked.error() << '\n';
    return kExitError;
  }
  std::cout << (*config)->to_toml();
  return kExitClean;
}

int explain(const sealint::rules::RuleRegistry& registry, const std::string& id) {
  const sealint::rules::Rule* rule = registry.find(id);
  if (rule == nullptr) {
    std::cerr << fmt::format("sealint: error: unknown rule '{}' (see `sealint rules`)\n", id);
    return kExitError;
  }
  std::cout << sealint::rules::rule_doc(rule->info().id);
  return kExitClean;
}

int lint(const Options& options, const sealint::rules::RuleRegistry& registry) {
  auto grammar = sealint::python::PythonGrammar::load();
  if (!grammar) {
    std::cerr << "sealint: error: " << grammar.error() << '\n';
    return kExitError;
  }
  // No path: the working directory, as ruff does.
  std::vector<std::string> paths = options.paths;
  if (paths.empty()) paths.emplace_back(".");
  if (options.fix && std::find(paths.begin(), paths.end(), "-") != paths.end()) {
    std::cerr << "sealint: error: --fix cannot write stdin back; use --diff to see the fixes\n";
    return kExitError;
  }
  std::vector<std::string> named;
  std::vector<sealint::FileInput> inputs;
  std::map<std::string, std::string> stdin_content;
  for (const std::string& path : paths) {
    if (path != "-") {
      named.push_back(path);
      continue;
    }
    const std::string name = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
    auto bytes = sealint::read_descriptor_bounded(STDIN_FILENO, name, sealint::kMaxFileBytes);
    if (!bytes) {
      std::cerr << "sealint: error: " << bytes.error() << '\n';
      return kExitError;
    }
    stdin_content[sealint::display_path(name)] = *bytes;
    inputs.push_back({name, std::move(*bytes)});
  }
  sealint::WalkOptions walk;
  walk.exclude = options.exclude;
  walk.respect_gitignore = !options.no_respect_gitignore;
  sealint::WalkResult walked = sealint::walk_paths(named, walk);
  for (std::string& file : walked.files) inputs.push_back({std::move(file), std::nullopt});
  // `-o train.py` would overwrite the file being analysed with its own findings.
  if (!options.output_path.empty()) {
    for (const sealint::FileInput& input : inputs) {
      std::error_code same_error;
      if (!input.content &&
          std::filesystem::equivalent(options.output_path, input.path, same_error)) {
        std::cerr << fmt::format("sealint: error: -o '{}' names a file being analysed\n",
                                 options.output_path);
        return kExitError;
      }
    }
  }

  // Each file's configuration; a broken one stops the run (exit 2) naming file, line and key.
  sealint::cli::Configurations configurations(
      registry, {options.config_path, options.select, options.extend_select, options.ignore});
  for (sealint::FileInput& input : inputs) {
    if (auto assigned = configurations.assign(input); !assigned) {
      std::cerr << "sealint: error: " << assigned.error() << '\n';
      return kExitError;
    }
  }
  // `exclude` from a configuration applies to files found by walking, not to files named, unless
  // `force-exclude` (pre-commit names every file; stdin is named by --stdin-filename).
  std::erase_if(inputs, [&](const sealint::FileInput& input) {
    const bool force = options.force_exclude || input.config->force_exclude;
    if (force) {
      const std::string shown = sealint::display_path(input.path);
      const bool by_option = std::any_of(
          options.exclude.begin(), options.exclude.end(),
          [&](const std::string& glob) { return sealint::path_matches_glob(glob, shown); });
      return by_option || input.config->excludes(input.path);
    }
    // `./legacy/old.py` named on the command line is the walker's `legacy/old.py`.
    const bool named_here = std::any_of(named.begin(), named.end(), [&](const std::string& n) {
      return std::filesystem::path(n).lexically_normal() ==
             std::filesystem::path(input.path).lexically_normal();
    });
    return !input.content && !named_here && input.config->excludes(input.path);
  });

  const sealint::Driver driver(registry, *grammar);
  sealint::DriverOptions driver_options;
  driver_options.jobs = options.jobs;
  driver_options.parse_only = options.parse_only;
  driver_options.project_scope = !options.no_project;
  if (!options.compile_commands_dir.empty()) {
    auto dir = sealint::cli::compile_commands_folder(options.compile_commands_dir);
    if (!dir) {
      std::cerr << "sealint: error: " << dir.error() << '\n';
      return kExitError;
    }
    driver_options.cpp.compile_commands_dir = *dir;
  }
  driver_options.cpp.headers = options.torch_headers == "system"
                                   ? sealint::cpp::TorchHeaders::System
                                   : sealint::cpp::TorchHeaders::Model;
  if (const std::string dir = cache_dir(options.cache_dir); !dir.empty())
    driver_options.cpp.pch_dir = dir + "/pch";
  sealint::RunResult result = driver.run(inputs, driver_options);
  for (sealint::InputError& error : walked.errors) result.errors.push_back(std::move(error));
  std::stable_sort(result.errors.begin(), result.errors.end(), sealint::input_error_less);

  // --diff shows what --fix would write, and nothing else; --fix writes, then reports the rest.
  size_t fixed = 0;
  if (options.fix || options.diff) {
    const auto outcome = sealint::cli::apply_fixes(result, stdin_content,
                                                   {options.diff, options.unsafe_fixes}, std::cout);
    if (options.diff) {
      sealint::output::write_input_errors(std::cerr, outcome.errors, {false});
      if (!outcome.errors.empty()) return kExitError;
      return outcome.changes ? kExitFindings : kExitClean;
    }
    fixed = outcome.fixed.size();
    for (auto it = outcome.fixed.rbegin(); it != outcome.fixed.rend(); ++it) {
      result.diagnostics.erase(result.diagnostics.begin() + static_cast<std::ptrdiff_t>(*it));
    }
    // Printed once, with the run's other input errors.
    result.errors.insert(result.errors.end(), outcome.errors.begin(), outcome.errors.end());
  }

  // Suppressed findings are counted in the summary, and printed only when asked for.
  std::vector<sealint::Diagnostic> shown;
  std::vector<sealint::Diagnostic> active;
  for (const sealint::Diagnostic& d : result.diagnostics) {
    if (!d.suppressed) active.push_back(d);
    if (!d.suppressed || options.show_suppressed) shown.push_back(d);
  }
  const size_t suppressed = result.diagnostics.size() - active.size();
  // With -o, findings go to the file (no colour); input errors stay on stderr.
  std::ofstream file_out;
  if (!options.output_path.empty()) {
    file_out.open(options.output_path, std::ios::binary | std::ios::trunc);
    if (!file_out) {
      std::cerr << fmt::format("sealint: error: cannot write '{}': {}\n", options.output_path,
                               std::strerror(errno));
      return kExitError;
    }
  }
  std::ostream& out = options.output_path.empty() ? std::cout : file_out;
  const bool color = options.output_path.empty() && use_color(options.color);
  sealint::output::TextOptions text_options{color};
  sealint::output::write_input_errors(std::cerr, result.errors,
                                      {use_color(options.color) && isatty(STDERR_FILENO)});
  LineCache cache(stdin_content);
  const sealint::output::LineLookup lines = [&](std::string_view path, uint32_t line) {
    return cache.line(path, line);
  };
  if (options.format == "json") {
    sealint::output::write_json(out, shown, result.errors);
  } else if (options.format == "sarif") {
    // SARIF keeps suppressed results, marked, as code scanning expects.
    std::error_code error;
    sealint::output::write_sarif(
        out, result.diagnostics, sarif_rules(registry), lines,
        {std::string(kVersion), std::filesystem::current_path(error).string(), result.errors});
  } else if (options.format == "github") {
    sealint::output::write_github(out, active, result.errors);
  } else if (!options.parse_only) {
    if (options.statistics) {
      sealint::output::write_statistics(out, active);
    } else {
      sealint::output::write_text(out, shown, lines, text_options);
    }
    if (fixed != 0) out << fmt::format("Fixed {} finding{}.\n", fixed, fixed == 1 ? "" : "s");
    out << sealint::output::summary_line(active, result.files, result.errors, suppressed) << '\n';
    if (const std::string hint =
            sealint::output::fix_hint_line(active, options.fix, options.unsafe_fixes);
        !hint.empty()) {
      out << hint << '\n';
    }
  }
  out.flush();
  if (!out) {
    std::cerr << fmt::format("sealint: error: cannot write '{}'\n",
                             options.output_path.empty() ? "stdout" : options.output_path);
    return kExitError;
  }
  const bool input_errors = std::any_of(result.errors.begin(), result.errors.end(),
                                        [](const sealint::InputError& e) { return !e.warning; });
  if (input_errors) return kExitError;
  // --exit-zero: findings do not fail the run (input errors still do).
  return active.empty() || options.exit_zero ? kExitClean : kExitFindings;
}

// A repeatable option of rule ids or names, comma-separated or given several times
// (`--select SL001,SL002 --select SL006`), as ruff takes them.
CLI::Option* add_rule_list(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return app.add_option(name, into, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

int run(int argc, char** argv) {
  Options options;
  CLI::App app{"sealint: finds GPU-memory leaks in deep-learning training code", "sealint"};
  app.set_version_flag("--version", "sealint " + std::string(kVersion));
  app.add_option("paths", options.paths,
                 "Python or C++ files or folders to analyse (default: `.`); `-` reads stdin");
  app.add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  app.add_option("--color", options.color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("-j,--jobs", options.jobs, "Files analysed in parallel (default: all cores)")
      ->check(CLI::Range(1U, 1024U));
  app.add_option("--exclude", options.exclude,
                 "Glob of files or folders to skip when walking folders (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--stdin-filename", options.stdin_filename, "The name to report for `-` (stdin)");
  app.add_option("-o,--output", options.output_path,
                 "Write the findings to this file instead of stdout");
  app.add_flag("--parse-only", options.parse_only,
               "Only parse the files (the speed floor for bench/)");
  app.add_flag("--no-project", options.no_project,
               "Analyse each Python file alone, without what the files it imports from its "
               "project define (a meter class, a helper that trains)");
  app.add_flag("--show-suppressed", options.show_suppressed,
               "Also print findings silenced by `# noqa: SLxxx` / `# sealint: ignore` comments");
  app.add_option("--config", options.config_path,
                 "Use this pyproject.toml or .sealint.toml for every file (default: the nearest "
                 "one up the tree)");
  add_rule_list(app, "--select", options.select, "Report only these rules (comma-separated ids)");
  app.add_flag("--exit-zero", options.exit_zero,
               "Exit 0 even when there are findings (an input error still exits 2)");
  app.add_flag("--statistics", options.statistics,
               "Print how many findings each rule made, instead of the findings");
  app.add_flag("--no-respect-gitignore", options.no_respect_gitignore,
               "Also walk what the work tree's .gitignore files list");
  app.add_flag("--force-exclude", options.force_exclude,
               "Apply the excludes (--exclude, `exclude`) to files named on the command line too, "
               "as pre-commit names them");
  add_rule_list(app, "--extend-select", options.extend_select,
                "Also report these rules, on top of the selected ones (turns on a rule that is "
                "off by default)");
  add_rule_list(app, "--ignore,--extend-ignore", options.ignore,
                "Do not report these rules (comma-separated ids)");
  app.add_flag("--fix", options.fix,
               "Apply the safe fixes to the files (atomically), then report the rest");
  app.add_flag("--unsafe-fixes", options.unsafe_fixes,
               "With --fix or --diff, also apply the fixes that may change behaviour (see each "
               "rule's Fix safety)");
  app.add_flag("--diff", options.diff,
               "Print the fixes as a unified diff instead of writing them (exit 1 if any)");
  app.add_option(
      "-p,--compile-commands", options.compile_commands_dir,
      "C++: a build folder holding compile_commands.json, or that file (flags, defines, include "
      "paths)");
  app.add_option("--torch-headers", options.torch_headers,
                 "C++: parse LibTorch code with sealint's model of the API (fast, default) or the "
                 "system's headers")
      ->check(CLI::IsMember({"model", "system"}));
  app.add_option("--cache-dir", options.cache_dir,
                 "C++: keep precompiled LibTorch headers (--torch-headers=system) here (default: "
                 "$SEALINT_CACHE_DIR, else $XDG_CACHE_HOME/sealint or ~/.cache/sealint)");
  sealint::cli::ConfirmOptions confirm;
  CLI::App* confirm_cmd = app.add_subcommand(
      "confirm", "Run a script for a few iterations and confirm each finding with measurements");
  confirm_cmd->add_option("script", confirm.script, "The Python training script")->required();
  confirm_cmd->add_option("args", confirm.script_args, "The script's own arguments, after --");
  confirm_cmd
      ->add_option("--steps", confirm.steps,
                   "Stop after this many iterations of the slowest flagged loop")
      ->check(CLI::Range(1U, 100000U));
  confirm_cmd->add_option("--python", confirm.python,
                          "The interpreter that runs the script (it needs torch)");
  confirm_cmd
      ->add_option("--timeout", confirm.timeout_seconds, "Seconds before the whole run is killed")
      ->check(CLI::Range(1, 86400));
  confirm_cmd->add_option("--format", confirm.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  confirm_cmd->add_option("--color", confirm.color, "Colour the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  confirm_cmd->add_option("-o,--output", confirm.output_path,
                          "Write the findings (or the plan) to this file instead of stdout");
  confirm_cmd->add_option("--snapshot", confirm.snapshot_path,
                          "On CUDA, write a memory snapshot here (view it at "
                          "pytorch.org/memory_viz)");
  confirm_cmd
      ->add_option("--device-memory", confirm.device_memory,
                   "Memory to project a confirmed growth against (80GiB, 16G); default: the GPU's")
      ->transform(CLI::AsSizeValue(false));
  confirm_cmd->add_flag(
      "--verify-fix", confirm.verify_fix,
      "Run again with every available fix applied to a temporary copy, and show each "
      "finding before and after");
  confirm_cmd->add_flag("--plan-only", confirm.plan_only,
                        "Write the probe's plan instead of running (for `python3 -m "
                        "sealint_probe` on another machine)");
  confirm_cmd
      ->add_option("--result", confirm.result_path,
                   "Give the verdicts from a result the probe wrote elsewhere")
      ->excludes("--plan-only")
      ->excludes("--verify-fix");
  confirm_cmd->add_option("--config", confirm.config_path, "Use this configuration file");
  add_rule_list(*confirm_cmd, "--select", confirm.select, "Confirm only these rules");
  add_rule_list(*confirm_cmd, "--extend-select", confirm.extend_select,
                "Also confirm these rules (turns on a rule that is off by default)");
  add_rule_list(*confirm_cmd, "--ignore", confirm.ignore, "Do not confirm these rules");
  CLI::App* rules = app.add_subcommand("rules", "List the rules");
  bool rules_markdown = false;
  rules->add_flag("--markdown", rules_markdown, "Print the README's rules table");
  CLI::App* config_cmd =
      app.add_subcommand("config", "Print the configuration in force for a path");
  config_cmd->add_option("path", options.config_for,
                         "A file or folder (default: the working directory)");
  CLI::App* explain_cmd = app.add_subcommand("explain", "Print a rule's documentation");
  explain_cmd->add_option("rule", options.explain_id, "Rule id or name, e.g. SL001")->required();
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    // CLI11 has its own exit codes (104, 105, 109, ...): usage errors are our 2.
    return code == 0 ? kExitClean : kExitError;
  }
  const sealint::rules::RuleRegistry registry;
  if (rules->parsed()) return list_rules(registry, rules_markdown);
  if (confirm_cmd->parsed()) return sealint::cli::run_confirm(confirm, registry);
  if (explain_cmd->parsed()) return explain(registry, options.explain_id);
  if (config_cmd->parsed()) return print_config(options, registry);
  return lint(options, registry);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "sealint: internal error: " << error.what() << " (please report)\n";
    return kExitError;
  }
}
