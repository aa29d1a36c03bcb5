#include "analyzer/server/analysis.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

#include <fmt/format.h>

#include "analyzer/core/display_path.h"
#include "analyzer/driver/driver.h"
#include "analyzer/server/log.h"

namespace sealint::server {

namespace fs = std::filesystem;

namespace {

// Whether `inner` is `outer` or lies under it (both absolute and normal).
bool is_within(const fs::path& inner, const fs::path& outer) {
  const auto outer_end =
      std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first;
  return outer_end == outer.end() || (std::next(outer_end) == outer.end() && outer_end->empty());
}

// The deepest of `roots` holding `file`, else the file's own folder.
fs::path search_limit(const fs::path& file, const std::vector<std::string>& roots) {
  fs::path limit;
  std::error_code error;
  for (const std::string& root : roots) {
    const fs::path normal = fs::absolute(root, error).lexically_normal();
    if (!error && is_within(file, normal) &&
        std::distance(normal.begin(), normal.end()) > std::distance(limit.begin(), limit.end()))
      limit = normal;
  }
  return limit.empty() ? file.parent_path() : limit;
}

}  // namespace

std::string compile_commands_for(const std::string& path, const std::string& setting,
                                 const std::vector<std::string>& roots) {
  std::error_code error;
  if (!setting.empty()) {
    const fs::path given(setting);
    if (fs::is_regular_file(given, error))
      return given.has_parent_path() ? given.parent_path().string() : std::string(".");
    return setting;
  }
  const fs::path file = fs::absolute(path, error).lexically_normal();
  const fs::path limit = search_limit(file, roots);
  for (fs::path folder = file.parent_path(); is_within(folder, limit);
       folder = folder.parent_path()) {
    for (const fs::path& candidate : {folder, folder / "build"}) {
      if (fs::is_regular_file(candidate / "compile_commands.json", error))
        return candidate.string();
    }
    if (folder == folder.root_path()) break;
  }
  return "";
}

AnalysisResult Analyzer::analyse(const AnalysisJob& job) const {
  AnalysisResult out;
  // The analysis is the driver's, which does not throw on any input; what could still escape
  // (memory exhaustion) must not end the server: it becomes the file's error.
  try {
    const ServerSettings& settings = *job.settings;
    config::Configurations configurations(registry_, settings.overrides);
    FileInput input{job.path, *job.text};
    const Config defaults;
    if (auto assigned = configurations.assign(input); !assigned) {
      // As ruff's server does: a broken configuration is shown, and the file is still analysed
      // with the defaults (the CLI stops instead: exit status 2).
      out.errors.push_back(
          {job.path, std::nullopt,
           fmt::format("{}; analysed with the default configuration", assigned.error())});
      input.config = &defaults;
      input.registry = nullptr;
    }
    // A file the configuration excludes gets no findings in the editor either (ruff's server).
    if (input.config->excludes(job.path)) return out;
    DriverOptions options;
    options.jobs = 1;
    if (job.language == DocumentLanguage::Cpp) {
      options.cpp.compile_commands_dir =
          compile_commands_for(job.path, settings.compile_commands, settings.workspace_roots);
      options.cpp.headers =
          settings.system_headers ? cpp::TorchHeaders::System : cpp::TorchHeaders::Model;
      if (!settings.cache_dir.empty()) options.cpp.pch_dir = settings.cache_dir + "/pch";
      options.cpp.on_pch_build = [](const std::string& path, const std::string& message) {
        log_line(fmt::format("{}: {}", path, message));
      };
      options.cpp.on_model_fallback = options.cpp.on_pch_build;
    }
    const Driver driver(registry_, grammar_);
    RunResult result = driver.run({input}, options);
    for (Diagnostic& diagnostic : result.diagnostics) {
      if (!diagnostic.suppressed) out.diagnostics.push_back(std::move(diagnostic));
    }
    const std::string own = display_path(job.path);
    for (LeftOutTest& test : result.left_out_tests)
      if (test.path == own) out.left_out_tests.push_back(std::move(test));
    // A problem of another file (one this file imports) has no position in this buffer: it goes
    // on the first line, naming its file.
    const std::string shown = display_path(job.path);
    for (InputError& error : result.errors) {
      if (error.path != shown) {
        error.message = fmt::format("{}: {}", error.path, error.message);
        error.at.reset();
      }
      out.errors.push_back(std::move(error));
    }
  } catch (const std::exception& error) {
    out.errors.push_back(
        {job.path, std::nullopt, fmt::format("internal error: {} (please report)", error.what())});
  }
  return out;
}

}  // namespace sealint::server
