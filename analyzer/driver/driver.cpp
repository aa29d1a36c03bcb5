#include "analyzer/driver/driver.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "analyzer/core/bounded_read.h"
#include "analyzer/core/fixes.h"
#include "analyzer/cpp/project_headers.h"
#include "analyzer/driver/cpp_dependencies.h"
#include "analyzer/driver/import_order.h"
#include "analyzer/driver/suppression_pass.h"
#include "analyzer/driver/worker_threads.h"
#include "analyzer/ir/walk.h"
#include "analyzer/notebook/cell_positions.h"
#include "analyzer/notebook/notebook.h"
#include "analyzer/project/imported_files.h"
#include "analyzer/project/project_index.h"
#include "analyzer/python/frontend.h"
#include "analyzer/semantic/grad_flow.h"
#include "analyzer/semantic/model_steps.h"
#include "analyzer/semantic/test_code.h"
#include "analyzer/semantic/training_loops.h"

namespace sealint {

namespace fs = std::filesystem;

namespace {

// Of the notes said once a run, the first of each message in sorted order stays.
void keep_first_of_once_a_run_notes(std::vector<InputError>& errors) {
  std::set<std::string> said;
  std::erase_if(errors, [&](const InputError& error) {
    return error.once_a_run && !said.insert(error.message).second;
  });
}

// The rule whose findings the suppression pass makes.
constexpr std::string_view kUnusedSuppressionRule = "SL012";

struct FileResult {
  std::vector<Diagnostic> diagnostics;
  std::vector<InputError> errors;
  std::vector<WatchedLoop> watched;
  std::vector<fs::path> imported;  // DriverOptions::list_imports
  std::vector<LeftOutTest> left_out_tests;
  std::string path;
  std::optional<uint64_t> digest;
};

class Worker {
 public:
  Worker(const rules::RuleRegistry& registry, python::PythonFrontend frontend,
         const project::ProjectIndex* index)
      : registry_(registry), frontend_(std::move(frontend)), index_(index) {}

  // `imported`: another input of the run imports this file (import_order.h).
  FileResult analyse(const FileInput& input, const DriverOptions& options, bool imported) {
    FileResult result;
    const std::string shown = display_path(input.path);
    auto fail = [&](std::string message) {
      result.errors.push_back({shown, std::nullopt, std::move(message)});
    };
    Result<std::string> bytes = input.content ? Result<std::string>(*input.content)
                                              : read_file_bounded(input.path, shown, kMaxFileBytes);
    if (!bytes) {
      fail(bytes.error());
      return result;
    }
    result.path = shown;
    result.digest = content_digest(*bytes);
    std::optional<cache::EntryKey> key = cache_key(input, options, *bytes, result);
    if (key) {
      if (std::optional<cache::FileOutcome> hit = options.cache->lookup(*key)) {
        result.diagnostics = std::move(hit->diagnostics);
        result.errors = std::move(hit->errors);
        result.left_out_tests = std::move(hit->left_out_tests);
        return result;
      }
    }
    project::ProjectDependencies dependencies;
    project::ProjectDependencies* record = key ? &dependencies : nullptr;
    bool cacheable = true;
    if (notebook::is_notebook_path(input.path)) {
      analyse_notebook(input, options, *bytes, record, result);
    } else {
      cacheable = analyse_code(input, options, std::move(*bytes), record, result, imported);
    }
    if (key && cacheable) {
      options.cache->store(*key, {result.diagnostics, result.errors, std::move(dependencies),
                                  result.left_out_tests});
    }
    return result;
  }

  // The file's result from the result cache, when the cache holds one (nothing else is done: a
  // file that misses is read again by analyse).
  static bool from_cache(const FileInput& input, const DriverOptions& options, FileResult& result) {
    if (options.cache == nullptr || input.content) return false;
    FileResult found;
    found.path = display_path(input.path);
    Result<std::string> bytes = read_file_bounded(input.path, found.path, kMaxFileBytes);
    if (!bytes) return false;
    found.digest = content_digest(*bytes);
    const std::optional<cache::EntryKey> key = cache_key(input, options, *bytes, found);
    if (!key) return false;
    std::optional<cache::FileOutcome> hit = options.cache->lookup(*key);
    if (!hit) return false;
    found.diagnostics = std::move(hit->diagnostics);
    found.errors = std::move(hit->errors);
    found.left_out_tests = std::move(hit->left_out_tests);
    result = std::move(found);
    return true;
  }

 private:
  // The file's key in the result cache; nullopt when its result is not cached.
  static std::optional<cache::EntryKey> cache_key(const FileInput& input,
                                                  const DriverOptions& options,
                                                  const std::string& bytes,
                                                  const FileResult& result) {
    if (options.cache == nullptr || input.content || options.parse_only || options.watch_loops ||
        options.list_imports) {
      return std::nullopt;
    }
    const bool is_cpp = cpp::is_cpp_source(input.path);
    const uint64_t config = options.cache->config_key(input.config);
    cache::EntryKey key{
        input.path,
        result.path,
        project::normal_absolute(input.path).string(),
        *result.digest,
        bytes.size(),
        is_cpp ? content_digest(std::to_string(config), cpp_settings_key(options.cpp)) : config,
        options.project_scope && !is_cpp};
    // The file's digest as the project index would record it: an importer's check need not
    // read it again.
    if (options.project_scope && bytes.size() <= project::kMaxIndexedBytes)
      options.cache->dependencies().known(key.absolute, *result.digest);
    return key;
  }

  // A notebook's code cells are analysed as one source; what is found points at the cells.
  void analyse_notebook(const FileInput& input, const DriverOptions& options,
                        std::string_view bytes, project::ProjectDependencies* record,
                        FileResult& result) {
    auto parsed = notebook::Notebook::parse(result.path, bytes);
    if (!parsed) {
      result.errors.push_back({result.path, std::nullopt, parsed.error()});
    } else if (parsed->not_python()) {
      result.errors.push_back({result.path, std::nullopt, *parsed->not_python(), true});
    } else {
      analyse_code(input, options, parsed->code(), record, result);
      notebook::point_at_cells(*parsed, result.diagnostics, result.errors);
    }
  }

  // `record`: what the analysis takes from the project, or what a C++ parse read, is added to it
  // (for the result cache). False when the result must not be cached (a file read that cannot
  // be keyed).
  bool analyse_code(const FileInput& input, const DriverOptions& options, std::string bytes,
                    project::ProjectDependencies* record, FileResult& result,
                    bool imported = false) {
    const std::string& shown = result.path;
    auto fail = [&](std::string message) {
      result.errors.push_back({shown, std::nullopt, std::move(message)});
    };
    auto file = SourceFile::from_bytes(shown, std::move(bytes));
    if (!file) {
      fail(file.error());
      return true;
    }
    auto shared = std::make_shared<const SourceFile>(std::move(*file));
    const bool is_cpp = cpp::is_cpp_source(input.path);
    if (options.parse_only && !is_cpp) {
      if (auto parsed = frontend_.parse_only(*shared); !parsed) fail(parsed.error());
      return true;
    }
    if (is_cpp && !cpp_) cpp_.emplace(options.cpp);
    cpp::CppInputs read;
    auto lowered = is_cpp ? cpp_->lower(shared, input.path, record != nullptr ? &read : nullptr)
                          : frontend_.lower(shared);
    if (!lowered) {
      fail(lowered.error());
      return !is_cpp;  // Clang could not run: nothing says what it would read
    }
    bool cacheable = true;
    if (is_cpp && record != nullptr) {
      std::optional<project::ProjectDependencies> read_from =
          cpp_dependencies(read, options.cache->dependencies());
      cacheable = read_from.has_value();
      if (read_from) record->merge(*read_from);
    }
    result.errors = std::move(lowered->problems);
    const ir::Module& module = *lowered->module;
    std::optional<project::FileScope> scope;
    if (index_ != nullptr && !is_cpp) scope.emplace(*index_, input.path, record);
    const ir::FileAnalysis analysis(module, scope ? &*scope : nullptr);
    const rules::RuleContext context{analysis};
    DiagnosticSink sink(module.file(), result.diagnostics);
    const rules::RuleRegistry& registry = input.registry != nullptr ? *input.registry : registry_;
    UnusedSuppressionCheck unused;
    unused.every_rule_ran = true;
    for (const auto& rule : registry.rules()) {
      const bool applies =
          module.language() == ir::Language::Cpp ? rule->info().cpp : rule->info().python;
      if (!applies) continue;
      // select / ignore / per-file-ignores: a rule the configuration turns off does not run.
      const bool off =
          input.config != nullptr &&
          !input.config->enabled(rule->info().id, rule->info().on_by_default, input.path);
      if (off) {
        unused.every_rule_ran = false;
        continue;
      }
      rule->check(module, context, sink);
      unused.rules_run.push_back(rule->info().id);
      // Without a configuration (the library's callers, the fixture runner) every rule runs, off
      // by default ones too; SL012 judges comments against the selection a user made, so it
      // needs one.
      if (rule->info().id == kUnusedSuppressionRule && input.config != nullptr)
        unused.rule = &rule->info();
    }
    // Part of the file was not analysed (a syntax error, a statement the grammar cannot read,
    // nesting past the bound, Clang's first error): its findings may be missing, so no comment
    // is called unused.
    if (!result.errors.empty()) unused.rule = nullptr;
    // A notebook is no module another file imports.
    if (scope && !notebook::is_notebook_path(input.path))
      offer_to_index(input, analysis, scope->importer(), *result.digest, imported);
    if (scope && options.list_imports)
      result.imported = project::imported_files(module, scope->importer());
    // Before findings are dropped (in test code, below `min-severity`): a comment that silences
    // one is in use.
    apply_suppressions(module, registry, unused, result.diagnostics, result.errors);
    if (input.config == nullptr || !input.config->analyse_tests)
      leave_out_findings_in_tests(module, registry, result);
    if (options.watch_loops) watch_loops(module, analysis, result);
    if (input.config != nullptr) {
      std::erase_if(result.diagnostics,
                    [&](const Diagnostic& d) { return d.severity < input.config->min_severity; });
    }
    return cacheable;
  }
  // A file this run analyses may be imported by another: when its analysis took no answer from
  // another file (it is then the file's own), its summary for the index is made from it, so that
  // the file is not parsed twice. When it did, and another input imports it (`imported`), the
  // file is analysed a second time on its own, from the same IR, unless the index has it: the
  // run's order (import_order.h) puts it before its importers, so that its parse serves both.
  // (Doing so for every file measured no faster than the index's own load: most are imported by
  // none.) Not for stdin's bytes (an importer reads the file on disk) nor past the index's size
  // bound.
  void offer_to_index(const FileInput& input, const ir::FileAnalysis& analysis,
                      const std::filesystem::path& file, uint64_t digest, bool imported) const {
    if (input.content || analysis.module().file().code().size() > project::kMaxIndexedBytes) return;
    if (!analysis.used_project()) {
      index_->offer(file, analysis, digest);
    } else if (imported && !index_->has(file)) {
      const ir::FileAnalysis alone(analysis.module());
      index_->offer(file, alone, digest);
    }
  }

  // The findings in test code of rules that do not report in tests, each counted under its test
  // function (semantic/test_code.h): a test runs a few iterations, so growth per iteration never
  // matters there. Suppressed findings go too, uncounted: their comment was counted as used.
  static void leave_out_findings_in_tests(const ir::Module& module,
                                          const rules::RuleRegistry& registry, FileResult& result) {
    const std::vector<const ir::Function*> tests = semantic::test_functions(module);
    if (tests.empty()) return;
    struct Lines {
      uint32_t first;
      uint32_t last;
      LeftOutTest left_out;
    };
    std::vector<Lines> by_test;
    for (const ir::Function* test : tests) {
      const uint32_t first = module.file().position(test->range.begin).line;
      by_test.push_back({first,
                         module.file().position(test->range.end).line,
                         {result.path, std::string(test->name), first, {}}});
    }
    std::erase_if(result.diagnostics, [&](const Diagnostic& d) {
      const rules::Rule* rule = registry.find(d.rule_id);
      if (rule == nullptr || rule->info().reports_in_tests) return false;
      for (Lines& test : by_test) {
        if (d.span.begin.line < test.first || d.span.begin.line > test.last) continue;
        if (!d.suppressed) test.left_out.rules.push_back(d.rule_id);
        return true;
      }
      return false;
    });
    for (Lines& test : by_test) {
      if (!test.left_out.rules.empty()) result.left_out_tests.push_back(std::move(test.left_out));
    }
  }

  // The loops that train or run a model and whose growth no finding measures already (a loop
  // whose only finding is SL006's graph is watched too: a graph recorded per iteration is not a
  // growth), with what they carry.
  static void watch_loops(const ir::Module& module, const ir::FileAnalysis& analysis,
                          FileResult& result) {
    std::vector<ir::TrainingLoop> loops = ir::training_loops(module, analysis);
    for (ir::TrainingLoop& loop : ir::model_loops(module, analysis)) {
      if (std::none_of(loops.begin(), loops.end(),
                       [&](const ir::TrainingLoop& known) { return known.loop == loop.loop; }))
        loops.push_back(std::move(loop));
    }
    for (const ir::TrainingLoop& loop : loops) {
      ProbeHint hint = ir::probe_hint(module, *loop.loop, ProbeMeasure::Growth, loop.carried);
      // A kept graph holds the activations it saved: counted where no backward frees them.
      hint.saved_tensors = !loop.trains;
      WatchedLoop watched{result.path, std::move(hint), loop.trains, {}};
      bool measured = false;
      for (const Diagnostic& d : result.diagnostics) {
        if (!d.probe || d.probe->region != ProbeRegion::Loop ||
            d.probe->loop_line != watched.probe.loop_line)
          continue;
        if (d.probe->measure == ProbeMeasure::Growth) measured = true;
        watched.findings_there.push_back(
            fmt::format("{} at line {}", d.rule_id, d.span.begin.line));
      }
      if (!measured) result.watched.push_back(std::move(watched));
    }
    // The steps a framework runs that run a model and keep something on `self` across calls
    // (a local is freed when the call returns): measured per call.
    for (const semantic::ModelStep& step : semantic::model_steps(module, analysis)) {
      if (step.carried.empty()) continue;
      ProbeHint hint =
          ir::calls_probe_hint(module, *step.function, ProbeMeasure::Growth, step.carried);
      const bool measured =
          std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [&](const auto& d) {
            return d.probe && d.probe->region == ProbeRegion::Calls &&
                   d.probe->loop_line == hint.loop_line && d.probe->measure == ProbeMeasure::Growth;
          });
      if (!measured) result.watched.push_back({result.path, std::move(hint), false, {}});
    }
  }

  const rules::RuleRegistry& registry_;
  python::PythonFrontend frontend_;
  std::optional<cpp::CppFrontend> cpp_;  // made on the first C++ file
  const project::ProjectIndex* index_;   // null without project scope
};

}  // namespace

RunResult Driver::run(const std::vector<FileInput>& inputs,
                      const DriverOptions& given_options) const {
  DriverOptions options = given_options;
  // Listed once a run, shared by the workers: the headers of each project a C++ file misses.
  if (!options.cpp.project_headers)
    options.cpp.project_headers = std::make_shared<const cpp::ProjectHeaders>();
  std::vector<FileResult> results(inputs.size());
  unsigned jobs =
      options.jobs != 0 ? options.jobs : std::max(1U, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, std::max<size_t>(inputs.size(), 1)));
  std::atomic<size_t> next{0};
  RunResult out;
  std::optional<project::ProjectIndex> index;
  if (options.project_scope) index.emplace(grammar_);
  // With project scope, the files are analysed in import order (import_order.h); the files
  // whose results the cache holds take those first and no part in the order, so that a warm run
  // reads no import statement.
  std::optional<ImportOrder> order;
  std::vector<char> done(inputs.size(), 0);  // char, not bool: workers write side by side
  if (index && !options.parse_only && inputs.size() > 1) {
    if (options.cache != nullptr) {
      run_on_worker_threads(jobs, kWorkerStackBytes, [&] {
        for (size_t i = next++; i < inputs.size(); i = next++)
          done[i] = Worker::from_cache(inputs[i], options, results[i]) ? 1 : 0;
      });
      next = 0;
    }
    std::vector<FileInput> left;
    std::vector<size_t> index_of;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (done[i] != 0) continue;
      left.push_back(inputs[i]);
      index_of.push_back(i);
    }
    order = import_order(left);
    for (size_t& k : order->order) k = index_of[k];
    std::vector<bool> imported(inputs.size(), false);
    for (size_t k = 0; k < left.size(); ++k) imported[index_of[k]] = order->imported[k];
    order->imported = std::move(imported);
  }
  auto work = [&]() {
    auto frontend = python::PythonFrontend::create(grammar_);
    if (!frontend) return;
    Worker worker(registry_, std::move(*frontend), index ? &*index : nullptr);
    const size_t count = order ? order->order.size() : inputs.size();
    for (size_t k = next++; k < count; k = next++) {
      const size_t i = order ? order->order[k] : k;
      results[i] = worker.analyse(inputs[i], options, order && order->imported[i]);
    }
  };
  // Even one job runs on a worker thread: its stack is the large one (worker_threads.h).
  run_on_worker_threads(jobs, kWorkerStackBytes, work);
  for (FileResult& result : results) {
    if (result.digest) out.digests[result.path] = *result.digest;
    std::move(result.diagnostics.begin(), result.diagnostics.end(),
              std::back_inserter(out.diagnostics));
    std::move(result.errors.begin(), result.errors.end(), std::back_inserter(out.errors));
    std::move(result.watched.begin(), result.watched.end(), std::back_inserter(out.watched));
    std::move(result.left_out_tests.begin(), result.left_out_tests.end(),
              std::back_inserter(out.left_out_tests));
    for (fs::path& file : result.imported) {
      if (std::find(out.imported.begin(), out.imported.end(), file) == out.imported.end())
        out.imported.push_back(std::move(file));
    }
  }
  out.files = inputs.size();
  std::sort(out.diagnostics.begin(), out.diagnostics.end(), diagnostic_less);
  std::sort(out.errors.begin(), out.errors.end(), input_error_less);
  keep_first_of_once_a_run_notes(out.errors);
  return out;
}

}  // namespace sealint
