// sealint's command line: `sealint [paths]`, `sealint confirm train.py`, `sealint rules`,
// `sealint explain SL001`, `sealint config`, `sealint clean`, `sealint server` (the Language
// Server, analyzer/server/).
// Exit status: 0 nothing found, 1 findings, 2 usage or input errors.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "analyzer/cli/cache_location.h"
#include "analyzer/cli/cli_support.h"
#include "analyzer/cli/confirm_command.h"
#include "analyzer/cli/lint_command.h"
#include "analyzer/config/configurations.h"
#include "analyzer/confirm/supervisor.h"
#include "analyzer/core/rule_metadata.h"
#include "analyzer/output/formats.h"
#include "analyzer/server/server.h"
#include "rules/registry.h"
#include "rules/rule_docs.h"

namespace {

using sealint::cli::kExitClean;
using sealint::cli::kExitError;
using sealint::cli::kVersion;
using sealint::output::format_help;
using sealint::output::format_names;
using sealint::output::FormatUser;

struct Options {
  sealint::cli::LintOptions lint;
  std::string explain_id;
  std::string config_for = ".";
};

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
  sealint::config::Configurations configurations(
      registry, {options.lint.config_path, options.lint.select, options.lint.extend_select,
                 options.lint.ignore, options.lint.analyse_tests, options.lint.config_settings});
  auto config = configurations.effective(options.config_for);
  if (!config) {
    std::cerr << "sealint: error: " << config.error() << '\n';
    return kExitError;
  }
  for (const std::string& skipped : configurations.passed_over())
    std::cerr << "sealint: warning: " << skipped << " (--config names a file to use)\n";
  // A configuration a run would refuse is refused here too.
  if (auto checked = sealint::rules::RuleRegistry::with_options(**config); !checked) {
    std::cerr << "sealint: error: " << checked.error() << '\n';
    return kExitError;
  }
  std::cout << (*config)->to_toml();
  return kExitClean;
}

int explain(const sealint::rules::RuleRegistry& registry, const std::string& id) {
  // In any case, as --select reads it (`explain sl001`, `explain Grad-Accumulation`); a prefix
  // only when it names one rule.
  const std::vector<std::string> ids = registry.rule_ids(id);
  const sealint::rules::Rule* rule = ids.size() == 1 ? registry.find(ids.front()) : nullptr;
  if (ids.size() > 1) {
    std::cerr << fmt::format(
        "sealint: error: '{}' names {} rules; explain one (see `sealint rules`)\n", id, ids.size());
    return kExitError;
  }
  if (rule == nullptr) {
    std::cerr << fmt::format("sealint: error: unknown rule '{}' (see `sealint rules`)\n", id);
    return kExitError;
  }
  std::cout << sealint::rules::rule_doc(rule->info().id);
  return kExitClean;
}

// --help's option groups.
constexpr const char* kOutputGroup = "Output";
constexpr const char* kRulesGroup = "Rule selection";
constexpr const char* kConfigGroup = "Configuration";
constexpr const char* kFilesGroup = "File selection";
constexpr const char* kFixGroup = "Fixes";
constexpr const char* kCppGroup = "C++";
constexpr const char* kRunGroup = "Run";

// ruff's `--config`: a file, or a `KEY = VALUE` setting (TOML) over the configuration in force.
// An argument that is neither is an error, and so are two files.
bool split_config_args(const std::vector<std::string>& args, sealint::cli::LintOptions& lint) {
  for (const std::string& arg : args) {
    std::error_code error;
    if (std::filesystem::is_regular_file(arg, error)) {
      if (!lint.config_path.empty()) {
        std::cerr << fmt::format(
            "sealint: error: --config names two configuration files ('{}' and '{}'); give one, "
            "and settings as `--config 'KEY = VALUE'`\n",
            lint.config_path, arg);
        return false;
      }
      lint.config_path = arg;
    } else if (arg.find('=') != std::string::npos) {
      lint.config_settings.push_back(arg);
    } else {
      std::cerr << fmt::format(
          "sealint: error: --config '{}': no such file, and not a `KEY = VALUE` setting\n", arg);
      return false;
    }
  }
  return true;
}

// A repeatable option that takes one value each time (`--exclude a --exclude b`).
CLI::Option* add_repeatable(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                            const std::string& help) {
  return app.add_option(name, into, help)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// A repeatable option of rule ids or names, comma-separated or given several times
// (`--select SL001,SL002 --select SL006`), as ruff takes them.
CLI::Option* add_rule_list(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return add_repeatable(app, name, into, help)->delimiter(',');
}

// Another tool's command word, as a first path that is not there (`sealint check x.py`, as ruff
// is run; `sealint rule SL001`): the command sealint has for it, or nothing.
std::string command_hint(const std::vector<std::string>& paths) {
  if (paths.empty()) return {};
  std::error_code missing;
  if (std::filesystem::exists(paths.front(), missing)) return {};
  const std::string& word = paths.front();
  if (word == "check" || word == "lint")
    return "sealint lints the paths it is given, with no command word: `sealint x.py`";
  if (word == "rule")
    return fmt::format("a rule's documentation is `sealint explain {}`",
                       paths.size() > 1 ? paths[1] : std::string("SL001"));
  return {};
}

int run(int argc, char** argv) {
  Options options;
  std::vector<std::string> config_args;  // --config: a file, or `KEY = VALUE` settings
  CLI::App app{"sealint: finds GPU-memory leaks in deep-learning training code", "sealint"};
  app.set_version_flag("--version", "sealint " + std::string(kVersion));
  app.add_option("paths", options.lint.paths,
                 "Python or C++ files or folders to analyse (default: `.`); `-` reads stdin");
  // --help shows the options in groups, in the order a user looks for them (ruff's groups).
  app.add_option("--format", options.lint.format, format_help(FormatUser::Lint))
      ->capture_default_str()
      ->check(CLI::IsMember(format_names(FormatUser::Lint)))
      ->group(kOutputGroup);
  app.add_option("-o,--output", options.lint.output_path,
                 "Write the findings to this file instead of stdout")
      ->group(kOutputGroup);
  app.add_option("--color", options.lint.color, "Colour the text output")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group(kOutputGroup);
  app.add_flag("--statistics", options.lint.statistics,
               "Print how many findings each rule made, instead of the findings")
      ->group(kOutputGroup);
  app.add_flag("--show-suppressed", options.lint.show_suppressed,
               "Also print findings silenced by `# noqa: SLxxx` / `# sealint: ignore` comments")
      ->group(kOutputGroup);
  app.add_flag("--exit-zero", options.lint.exit_zero,
               "Exit 0 even when there are findings (an input error still exits 2)")
      ->group(kOutputGroup);
  add_rule_list(app, "--select", options.lint.select,
                "Report only these rules (comma-separated ids, names, prefixes such as SL00, or "
                "ALL)")
      ->group(kRulesGroup);
  add_rule_list(app, "--extend-select", options.lint.extend_select,
                "Also report these rules, on top of the selected ones (turns on a rule that is "
                "off by default)")
      ->group(kRulesGroup);
  add_rule_list(app, "--ignore,--extend-ignore", options.lint.ignore,
                "Do not report these rules (comma-separated ids, names, prefixes or ALL)")
      ->group(kRulesGroup);
  app.add_flag("--analyse-tests", options.lint.analyse_tests,
               "Also report, in test code (pytest's `test_*` functions, unittest's TestCase "
               "methods, fixtures), the rules that by default do not (config: analyse-tests)")
      ->group(kRulesGroup);
  add_repeatable(
      app, "--config", config_args,
      "A pyproject.toml or .sealint.toml for every file (default: the nearest one up "
      "the tree), or a `KEY = VALUE` setting over it (`--config 'exclude = [\"old\"]'`); "
      "repeatable")
      ->group(kConfigGroup);
  add_repeatable(app, "--exclude,--extend-exclude", options.lint.exclude,
                 "Glob of files or folders to skip when walking folders (repeatable)")
      ->group(kFilesGroup);
  app.add_flag("--force-exclude", options.lint.force_exclude,
               "Apply the excludes (--exclude, `exclude`) to files named on the command line too, "
               "as pre-commit names them")
      ->group(kFilesGroup);
  app.add_flag("--no-respect-gitignore", options.lint.no_respect_gitignore,
               "Also walk what the work tree's .gitignore files list")
      ->group(kFilesGroup);
  app.add_option("--stdin-filename", options.lint.stdin_filename,
                 "The name to report for `-` (stdin); with no path, read stdin")
      ->group(kFilesGroup);
  app.add_flag("--no-project", options.lint.no_project,
               "Analyse each Python file alone, without what the files it imports from its "
               "project define (a meter class, a helper that trains)")
      ->group(kFilesGroup);
  app.add_flag("--fix", options.lint.fix,
               "Apply the safe fixes to the files (atomically), then report the rest; with `-`, "
               "print the fixed stdin and report on stderr")
      ->group(kFixGroup);
  app.add_flag("--unsafe-fixes", options.lint.unsafe_fixes,
               "With --fix or --diff, also apply the fixes that may change behaviour (see each "
               "rule's Fix safety)")
      ->group(kFixGroup);
  app.add_flag("--diff", options.lint.diff,
               "Print the fixes as a unified diff instead of writing them (exit 1 if any)")
      ->group(kFixGroup);
  app.add_flag("--show-fixes", options.lint.show_fixes,
               "With --fix, list what was fixed, per file and rule")
      ->group(kFixGroup);
  app.add_option("-p,--compile-commands", options.lint.compile_commands_dir,
                 "C++: a build folder holding compile_commands.json, or that file (flags, defines, "
                 "include paths)")
      ->group(kCppGroup);
  app.add_option("--torch-headers", options.lint.torch_headers,
                 "C++: parse LibTorch code with sealint's model of the API (fast, default) or the "
                 "system's headers")
      ->capture_default_str()
      ->check(CLI::IsMember({"model", "system"}))
      ->group(kCppGroup);
  app.add_option("-j,--jobs", options.lint.jobs, "Files analysed in parallel (default: all cores)")
      ->check(CLI::Range(1U, 1024U))
      ->group(kRunGroup);
  app.add_option("--cache-dir", options.lint.cache_dir,
                 "Keep cached results here, and C++'s precompiled LibTorch headers in its pch/ "
                 "(default: $SEALINT_CACHE_DIR, else results in .sealint_cache at the project root "
                 "and headers in $XDG_CACHE_HOME/sealint or ~/.cache/sealint)")
      ->group(kRunGroup);
  app.add_flag("--no-cache", options.lint.no_cache,
               "Analyse every file again: neither read nor write cached results")
      ->group(kRunGroup);
  // bench/'s speed floor, not a user's option: left out of --help.
  app.add_flag("--parse-only", options.lint.parse_only, "Only parse the files")->group("");
  app.footer(
      "Exit status: 0 no findings (or --exit-zero), 1 findings (with --diff: fixes to show), 2 "
      "usage error, unreadable or unparsable input, or a configuration sealint refuses.\n"
      "Configuration: the nearest pyproject.toml ([tool.sealint]) or .sealint.toml up the tree; "
      "`sealint config PATH` prints the one in force. Rules: `sealint rules`, `sealint explain "
      "SL001`.");
  sealint::cli::ConfirmOptions confirm;
  CLI::App* confirm_cmd = app.add_subcommand(
      "confirm", "Run a script for a few iterations and confirm each finding with measurements");
  confirm_cmd->footer(
      "Exit status: 0 no findings, 1 findings (whatever their verdicts), 2 usage error, bad input, "
      "an interpreter that cannot import torch, or a probe that could not run.");
  confirm_cmd->add_option("script", confirm.script, "The Python training script")->required();
  confirm_cmd->add_option("args", confirm.script_args, "The script's own arguments, after --");
  confirm_cmd
      ->add_option("--steps", confirm.steps,
                   "Stop after this many iterations of the slowest flagged loop")
      ->capture_default_str()
      ->check(CLI::Range(1U, 100000U));
  confirm_cmd
      ->add_option("--python", confirm.python,
                   "The interpreter that runs the script (it needs torch)")
      ->capture_default_str();
  confirm_cmd
      ->add_option("--timeout", confirm.timeout_seconds, "Seconds before the whole run is killed")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  confirm_cmd->add_option("--format", confirm.format, format_help(FormatUser::Confirm))
      ->capture_default_str()
      ->check(CLI::IsMember(format_names(FormatUser::Confirm)));
  confirm_cmd->add_option("--color", confirm.color, "Colour the text output")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  confirm_cmd->add_option("-o,--output", confirm.output_path,
                          "Write the findings (or the plan) to this file instead of stdout");
  confirm_cmd->add_option("--snapshot", confirm.snapshot_path,
                          "On CUDA, write a memory snapshot here (view it at "
                          "pytorch.org/memory_viz)");
  const CLI::AsSizeValue size_value(false);
  // The sign first: CLI11's size conversion reads `-5G` as 2^64 - 5 and reports an overflow.
  const CLI::Validator memory_size(
      [size_value](std::string& value) {
        if (value.find('-') != std::string::npos)
          return "a memory size is positive: give it as 80GiB or 16G, not '" + value + "'";
        return size_value(value);
      },
      size_value.get_description());
  confirm_cmd
      ->add_option("--device-memory", confirm.device_memory,
                   "Memory to project a confirmed growth against (80GiB, 16G); default: the GPU's")
      ->transform(memory_size);
  confirm_cmd
      ->add_option("--max-memory", confirm.max_memory,
                   "End the run, keeping what it measured, once its processes hold this much "
                   "memory (4GiB, 512M); default: half the machine's")
      ->transform(memory_size);
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
  confirm_cmd
      ->add_option("--report", confirm.report_path,
                   "Also write an HTML page charting each finding's measured series (with "
                   "--result, from a run made elsewhere)")
      ->excludes("--plan-only");
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
  CLI::App* clean_cmd = app.add_subcommand(
      "clean", "Remove the cached results (the .sealint_cache folder, or --cache-dir's)");
  std::string clean_cache_dir;
  clean_cmd->add_option("--cache-dir", clean_cache_dir,
                        "The cache folder to remove (default: $SEALINT_CACHE_DIR, else "
                        ".sealint_cache at the project root)");
  clean_cmd->add_option("--config", options.lint.config_path,
                        "The configuration whose folder is the project root");
  CLI::App* explain_cmd = app.add_subcommand("explain", "Print a rule's documentation");
  explain_cmd->add_option("rule", options.explain_id, "Rule id or name, e.g. SL001")->required();
  CLI::App* server_cmd = app.add_subcommand(
      "server", "Serve diagnostics, fixes and rule docs to an editor (LSP over stdio)");
  bool stdio = true;
  // Editors' LSP clients pass `--stdio` (vscode-languageclient does): stdio is the only transport.
  server_cmd->add_flag("--stdio", stdio, "Speak LSP over stdin and stdout (the default)");
  server_cmd->footer(
      "Configuration: each file's pyproject.toml or .sealint.toml as on the command line; the "
      "top-level --config, --select, --extend-select and --ignore given before `server` apply. "
      "See docs/editors.md.");
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // `sealint confirm train.py --lr 0.1`: the script's option, given without `--`.
    if (confirm_cmd->parsed() && dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
      const std::vector<std::string> extra = app.remaining(true);
      // The script's arguments in the order given: the options sealint does not know and the
      // words the `args` positional took (`0.1` of `--lr 0.1`).
      std::vector<std::string> script_args;
      for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const auto in = [&](const std::vector<std::string>& words) {
          return std::find(words.begin(), words.end(), arg) != words.end();
        };
        if (in(extra) || in(confirm.script_args)) script_args.emplace_back(arg);
      }
      std::cerr << fmt::format(
          "sealint: error: `sealint confirm` has no option '{}'; the script's own arguments go "
          "after `--`: `sealint confirm {} -- {}`\n",
          extra.empty() ? std::string() : extra.front(),
          confirm.script.empty() ? std::string("train.py") : confirm.script,
          fmt::join(script_args, " "));
      return kExitError;
    }
    const int code = app.exit(error);
    // CLI11 has its own exit codes (104, 105, 109, ...): usage errors are our 2.
    return code == 0 ? kExitClean : kExitError;
  }
  if (!split_config_args(config_args, options.lint)) return kExitError;
  const sealint::rules::RuleRegistry registry;
  if (rules->parsed()) return list_rules(registry, rules_markdown);
  if (confirm_cmd->parsed()) return sealint::cli::run_confirm(confirm, registry);
  if (explain_cmd->parsed()) return explain(registry, options.explain_id);
  if (config_cmd->parsed()) return print_config(options, registry);
  if (clean_cmd->parsed()) {
    // `sealint --cache-dir DIR clean` names it too.
    return sealint::cli::run_clean(
        clean_cache_dir.empty() ? options.lint.cache_dir : clean_cache_dir,
        options.lint.config_path);
  }
  if (server_cmd->parsed()) {
    return sealint::server::run_server(
        registry,
        {std::string(kVersion),
         {options.lint.config_path, options.lint.select, options.lint.extend_select,
          options.lint.ignore, options.lint.analyse_tests, options.lint.config_settings}});
  }
  if (const std::string hint = command_hint(options.lint.paths); !hint.empty()) {
    std::cerr << fmt::format("sealint: error: '{}' is neither a command nor a file: {}\n",
                             options.lint.paths.front(), hint);
    return kExitError;
  }
  return sealint::cli::run_lint(options.lint, registry);
}

}  // namespace

int main(int argc, char** argv) {
  // confirm mode starts sealint itself as the supervisor of a run (analyzer/confirm/supervisor.h).
  if (argc > 1 && argv[1] == sealint::confirm::kSuperviseFlag)
    return sealint::confirm::supervise(argc, argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "sealint: internal error: " << error.what() << " (please report)\n";
    return kExitError;
  }
}
