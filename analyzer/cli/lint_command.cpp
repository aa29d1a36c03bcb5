#include "analyzer/cli/lint_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "analyzer/cache/build_identity.h"
#include "analyzer/cache/result_cache.h"
#include "analyzer/cache/secret.h"
#include "analyzer/cli/cache_location.h"
#include "analyzer/cli/cli_support.h"
#include "analyzer/cli/fixing.h"
#include "analyzer/config/configurations.h"
#include "analyzer/core/bounded_read.h"
#include "analyzer/core/display_path.h"
#include "analyzer/core/file_walker.h"
#include "analyzer/core/glob.h"
#include "analyzer/driver/driver.h"
#include "analyzer/output/formats.h"
#include "analyzer/output/text_output.h"

namespace sealint::cli {

namespace {

// The result cache for this run (docs/cache.md), or null: --no-cache, --parse-only (the speed
// floor), or no input it would keep (stdin is not cached). A folder that cannot be
// made or read is one warning, and the run goes on without it.
std::unique_ptr<cache::ResultCache> open_result_cache(const LintOptions& options,
                                                      const std::vector<FileInput>& inputs) {
  if (options.no_cache || options.parse_only) return nullptr;
  const bool any = std::any_of(inputs.begin(), inputs.end(),
                               [](const FileInput& input) { return !input.content; });
  if (!any) return nullptr;
  const CacheLocation location = result_cache_location(options.cache_dir, options.config_path);
  const std::filesystem::path own = user_cache_folder();
  Result<cache::Secret> secret = make_error("no folder for the cache key: set HOME");
  if (!own.empty()) secret = cache::user_secret(own);
  auto opened =
      cache::ResultCache::open(location.folder, {std::string(kVersion), cache::build_identity()},
                               secret, {location.chosen, cache::kDefaultMaxBytes});
  if (!opened) {
    std::cerr << "sealint: warning: results not cached: " << opened.error() << '\n';
    return nullptr;
  }
  return std::move(*opened);
}

// "2 fixes available with `--unsafe-fixes`": the unsafe fixes of findings not suppressed, when
// --unsafe-fixes was not given; empty when there are none.
std::string unsafe_fixes_left_out(const std::vector<Diagnostic>& diagnostics, bool unsafe) {
  if (unsafe) return {};
  const auto count =
      static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
        return d.fix && !d.fix->safe && !d.suppressed;
      }));
  if (count == 0) return {};
  return fmt::format("{} {} available with `--diff --unsafe-fixes`", count,
                     count == 1 ? "fix" : "fixes");
}

}  // namespace

int run_lint(const LintOptions& options, const rules::RuleRegistry& registry) {
  const output::Format* format = output::find_format(options.format, output::FormatUser::Lint);
  if (format == nullptr) {
    std::cerr << fmt::format("sealint: error: unknown output format '{}'\n", options.format);
    return kExitError;
  }
  auto grammar = python::PythonGrammar::load();
  if (!grammar) {
    std::cerr << "sealint: error: " << grammar.error() << '\n';
    return kExitError;
  }
  // No path: the working directory, as ruff does; stdin when `--stdin-filename` names it.
  std::vector<std::string> paths = options.paths;
  if (paths.empty()) paths.emplace_back(options.stdin_filename.empty() ? "." : "-");
  // `--fix -` is an editor's pipe (as ruff's): the fixed source on stdout, the findings that
  // remain on stderr. Only stdin then, or the two would mix on stdout.
  const bool fix_stdin =
      options.fix && !options.diff && std::find(paths.begin(), paths.end(), "-") != paths.end();
  if (fix_stdin && paths.size() != 1) {
    std::cerr << "sealint: error: --fix with `-` prints the fixed stdin; name no other path\n";
    return kExitError;
  }
  std::vector<std::string> named;
  std::vector<FileInput> inputs;
  std::map<std::string, std::string> stdin_content;
  for (const std::string& path : paths) {
    if (path != "-") {
      named.push_back(path);
      continue;
    }
    const std::string name = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
    auto bytes = read_descriptor_bounded(STDIN_FILENO, name, kMaxFileBytes);
    if (!bytes) {
      std::cerr << "sealint: error: " << bytes.error() << '\n';
      return kExitError;
    }
    stdin_content[display_path(name)] = *bytes;
    inputs.push_back({name, std::move(*bytes)});
  }
  config::Configurations configurations(
      registry, {options.config_path, options.select, options.extend_select, options.ignore,
                 options.analyse_tests, options.config_settings});
  WalkOptions walk;
  walk.exclude = options.exclude;
  // `respect-gitignore` is read from the configuration in force for the working directory (or
  // --config), as ruff reads its file-discovery settings from the project's configuration.
  walk.respect_gitignore = !options.no_respect_gitignore;
  if (walk.respect_gitignore) {
    auto here = configurations.effective(".");
    if (!here) {
      std::cerr << "sealint: error: " << here.error() << '\n';
      return kExitError;
    }
    walk.respect_gitignore = (*here)->respect_gitignore;
  }
  WalkResult walked = walk_paths(named, walk);
  for (std::string& file : walked.files) inputs.push_back({std::move(file), std::nullopt});
  // `-o train.py` would overwrite the file being analysed with its own findings.
  if (!options.output_path.empty()) {
    for (const FileInput& input : inputs) {
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
  for (FileInput& input : inputs) {
    if (auto assigned = configurations.assign(input); !assigned) {
      std::cerr << "sealint: error: " << assigned.error() << '\n';
      return kExitError;
    }
  }
  // A configuration another user could have written is not applied, and never in silence.
  for (const std::string& skipped : configurations.passed_over())
    std::cerr << "sealint: warning: " << skipped << " (--config names a file to use)\n";
  // `exclude` from a configuration applies to files found by walking, not to files named, unless
  // `force-exclude` (pre-commit names every file; stdin is named by --stdin-filename).
  std::erase_if(inputs, [&](const FileInput& input) {
    const bool force = options.force_exclude || input.config->force_exclude;
    if (force) {
      const std::string shown = display_path(input.path);
      const bool by_option =
          std::any_of(options.exclude.begin(), options.exclude.end(),
                      [&](const std::string& glob) { return path_matches_glob(glob, shown); });
      return by_option || input.config->excludes(input.path);
    }
    // `./legacy/old.py` named on the command line is the walker's `legacy/old.py`.
    const bool named_here = std::any_of(named.begin(), named.end(), [&](const std::string& n) {
      return std::filesystem::path(n).lexically_normal() ==
             std::filesystem::path(input.path).lexically_normal();
    });
    return !input.content && !named_here && input.config->excludes(input.path);
  });

  const Driver driver(registry, *grammar);
  DriverOptions driver_options;
  driver_options.jobs = options.jobs;
  driver_options.parse_only = options.parse_only;
  driver_options.project_scope = !options.no_project;
  if (!options.compile_commands_dir.empty()) {
    auto dir = cli::compile_commands_folder(options.compile_commands_dir);
    if (!dir) {
      std::cerr << "sealint: error: " << dir.error() << '\n';
      return kExitError;
    }
    driver_options.cpp.compile_commands_dir = *dir;
  }
  driver_options.cpp.headers =
      options.torch_headers == "system" ? cpp::TorchHeaders::System : cpp::TorchHeaders::Model;
  if (const std::string dir = pch_cache_dir(options.cache_dir); !dir.empty())
    driver_options.cpp.pch_dir = dir;
  const std::unique_ptr<cache::ResultCache> result_cache = open_result_cache(options, inputs);
  driver_options.cache = result_cache.get();
  // In the findings' shape (`path: note: ...`), one whole line per write: workers may say it at
  // once.
  driver_options.cpp.on_pch_build = [](const std::string& path, const std::string& message) {
    const std::string line = fmt::format("{}: note: {}\n", path, message);
    std::fputs(line.c_str(), stderr);
  };
  // Said once a run: the first file that needed the real headers stands for the others.
  auto fallback_said = std::make_shared<std::atomic<bool>>(false);
  driver_options.cpp.on_model_fallback = [fallback_said](const std::string& path,
                                                         const std::string& message) {
    if (fallback_said->exchange(true)) return;
    const std::string line = fmt::format("{}: note: {}\n", path, message);
    std::fputs(line.c_str(), stderr);
  };
  RunResult result = driver.run(inputs, driver_options);
  if (result_cache) {
    if (const auto warning = result_cache->warning())
      std::cerr << "sealint: warning: results not cached: " << *warning << '\n';
    result_cache->evict();
  }
  for (InputError& error : walked.errors) result.errors.push_back(std::move(error));
  std::stable_sort(result.errors.begin(), result.errors.end(), input_error_less);

  // --diff shows what --fix would write, and nothing else; --fix writes, then reports the rest.
  std::vector<Diagnostic> fixed;
  if (options.fix || options.diff) {
    std::ostringstream fixed_stdin;
    const auto outcome =
        cli::apply_fixes(result, stdin_content, {options.diff, options.unsafe_fixes},
                         fix_stdin ? fixed_stdin : std::cout);
    if (options.diff) {
      output::write_input_errors(std::cerr, outcome.errors, {false});
      if (!outcome.errors.empty()) return kExitError;
      // The fixes --diff left out: an empty diff must not read as "nothing to fix".
      if (const std::string left = unsafe_fixes_left_out(result.diagnostics, options.unsafe_fixes);
          !left.empty()) {
        std::cerr << fmt::format("sealint: {}{}\n", outcome.changes ? "" : "no safe fix to show; ",
                                 left);
      }
      return outcome.changes ? kExitFindings : kExitClean;
    }
    // stdin is printed whole whatever was fixed: a pipe that gets nothing back would empty the
    // editor's buffer.
    if (fix_stdin) {
      std::cout << (outcome.fixed.empty() ? stdin_content.begin()->second : fixed_stdin.str());
      std::cout.flush();
    }
    for (auto it = outcome.fixed.rbegin(); it != outcome.fixed.rend(); ++it) {
      const auto at = result.diagnostics.begin() + static_cast<std::ptrdiff_t>(*it);
      fixed.insert(fixed.begin(), std::move(*at));
      result.diagnostics.erase(at);
    }
    // Printed once, with the run's other input errors.
    result.errors.insert(result.errors.end(), outcome.errors.begin(), outcome.errors.end());
  }

  // Suppressed findings are counted in the summary, and printed only when asked for.
  std::vector<Diagnostic> shown;
  std::vector<Diagnostic> active;
  for (const Diagnostic& d : result.diagnostics) {
    if (!d.suppressed) active.push_back(d);
    if (!d.suppressed || options.show_suppressed) shown.push_back(d);
  }
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
  std::ostream& out = !options.output_path.empty() ? file_out : fix_stdin ? std::cerr : std::cout;
  const bool color = options.output_path.empty() && !fix_stdin && use_color(options.color);
  output::write_input_errors(std::cerr, result.errors,
                             {use_color(options.color) && isatty(STDERR_FILENO)});
  LineCache cache(stdin_content);
  const output::LineLookup lines = [&](std::string_view path, const Position& at) {
    return cache.line(path, at);
  };
  const std::vector<output::SarifRule> rules = sarif_rules(registry);
  std::error_code no_cwd;
  format->write_lint(out, {.diagnostics = result.diagnostics,
                           .shown = shown,
                           .active = active,
                           .fixed = fixed,
                           .errors = result.errors,
                           .rules = rules,
                           .lines = lines,
                           .tool_version = std::string(kVersion),
                           .source_root = std::filesystem::current_path(no_cwd).string(),
                           .files = result.files,
                           .text = {color, options.unsafe_fixes},
                           .parse_only = options.parse_only,
                           .statistics = options.statistics,
                           .fixing = options.fix,
                           .show_fixes = options.show_fixes,
                           .left_out_tests = result.left_out_tests});
  out.flush();
  // The text summary counts the findings left out of test functions; a data format's stdout is
  // read by programs, so the same sentence goes to stderr, where input problems go too (SARIF
  // also counts them in its log, JSON's --statistics per rule: docs/output-json.md).
  if (format->name != "text" && !options.parse_only) {
    if (const std::string left_out = output::left_out_tests_line(result.left_out_tests);
        !left_out.empty())
      std::cerr << "sealint: note: " << left_out << '\n';
  }
  if (!out) {
    std::cerr << fmt::format("sealint: error: cannot write '{}'\n",
                             options.output_path.empty() ? "stdout" : options.output_path);
    return kExitError;
  }
  const bool input_errors = std::any_of(result.errors.begin(), result.errors.end(),
                                        [](const InputError& e) { return !e.warning; });
  if (input_errors) return kExitError;
  // --exit-zero: findings do not fail the run (input errors still do).
  return active.empty() || options.exit_zero ? kExitClean : kExitFindings;
}

}  // namespace sealint::cli
