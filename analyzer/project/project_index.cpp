#include "analyzer/project/project_index.h"

#include <algorithm>
#include <system_error>

#include "analyzer/core/fixes.h"
#include "analyzer/core/source_file.h"
#include "analyzer/python/frontend.h"

namespace sealint::project {

namespace fs = std::filesystem;

namespace {

// Re-exports followed from one name (`pkg/__init__.py` -> `pkg/meters.py`), so that two
// packages re-exporting each other's name end.
constexpr int kMaxReexportHops = 4;
// Classes visited up an imported base chain (MetaSGD -> MetaOptimizer -> ...).
constexpr size_t kMaxBaseClasses = 8;

}  // namespace

FileScope::FileScope(const ProjectIndex& index, const fs::path& path, ProjectDependencies* record)
    : index_(index), importer_(normal_absolute(path)), record_(record) {}

const ir::ForeignClass* ProjectIndex::class_named(const fs::path& importer, std::string_view dotted,
                                                  ProjectDependencies* record) const {
  return find(importer, dotted, record).cls;
}

const ir::ForeignFunction* ProjectIndex::function(const fs::path& importer, std::string_view dotted,
                                                  ProjectDependencies* record) const {
  return find(importer, dotted, record).function;
}

bool ProjectIndex::up_the_bases(const ir::ForeignClass& cls,
                                const std::function<bool(const ir::ForeignClass&)>& holds,
                                ProjectDependencies* record) const {
  std::vector<const ir::ForeignClass*> queue = {&cls};
  for (size_t i = 0; i < queue.size() && i < kMaxBaseClasses; ++i) {
    if (holds(*queue[i])) return true;
    for (const std::string& base : queue[i]->imported_bases) {
      if (const ir::ForeignClass* up = class_named(queue[i]->file, base, record))
        queue.push_back(up);
    }
  }
  return false;
}

const ir::ForeignFunction* ProjectIndex::method(const ir::ForeignClass& cls, std::string_view name,
                                                ProjectDependencies* record) const {
  const ir::ForeignFunction* found = nullptr;
  up_the_bases(
      cls,
      [&](const ir::ForeignClass& c) {
        found = c.method(name);
        return found != nullptr;
      },
      record);
  return found;
}

ir::ForeignMethod ProjectIndex::loop_caller(const ir::ForeignClass& cls, std::string_view name,
                                            ProjectDependencies* record) const {
  ir::ForeignMethod found;
  up_the_bases(
      cls,
      [&](const ir::ForeignClass& c) {
        for (const auto& [method_name, method] : c.methods) {
          if (method.runs_without_grad) continue;
          const auto& calls = method.self_calls_in_loops;
          if (std::find(calls.begin(), calls.end(), name) != calls.end()) {
            found = {&c, &method};
            return true;
          }
        }
        return false;
      },
      record);
  return found;
}

bool ProjectIndex::is_module(const ir::ForeignClass& cls, ProjectDependencies* record) const {
  return up_the_bases(
      cls, [](const ir::ForeignClass& c) { return c.is_module; }, record);
}

bool ProjectIndex::holds_parameters(const ir::ForeignClass& cls,
                                    ProjectDependencies* record) const {
  return up_the_bases(
      cls, [](const ir::ForeignClass& c) { return c.holds_parameters; }, record);
}

size_t ProjectIndex::files_indexed() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

const ProjectIndex::Symbol& ProjectIndex::find(const fs::path& importer, std::string_view dotted,
                                               ProjectDependencies* record) const {
  std::pair<std::string, std::string> key{importer.parent_path().string(), std::string(dotted)};
  const Symbol* symbol = nullptr;
  {
    const std::lock_guard lock(mutex_);
    if (auto it = symbols_.find(key); it != symbols_.end()) symbol = &it->second;
  }
  if (symbol == nullptr) {
    Symbol found = find_uncached(importer, dotted, 0);
    const std::lock_guard lock(mutex_);
    // std::map's nodes do not move: the reference stays valid after the lock is released. A
    // worker that found it at the same time keeps the first (the same answer).
    symbol = &symbols_.emplace(std::move(key), std::move(found)).first->second;
  }
  if (record != nullptr) record->merge(symbol->dependencies);
  return *symbol;
}

ProjectIndex::Symbol ProjectIndex::find_uncached(const fs::path& importer, std::string_view dotted,
                                                 int hops) const {
  Symbol symbol;
  const auto location = locate_module(importer, roots_of(importer), dotted);
  ImportLookup lookup{importer.string(), std::string(dotted), "", ""};
  if (location) {
    lookup.file = location->file.string();
    lookup.member = location->member;
  }
  symbol.dependencies.lookups.insert(std::move(lookup));
  if (!location || location->member.empty()) return symbol;
  const Entry& entry = summary_of(location->file);
  symbol.dependencies.files.emplace(location->file.string(), entry.digest);
  const ModuleSummary* summary = entry.summary.get();
  if (summary == nullptr) return symbol;
  const std::string_view member = location->member;
  if (auto it = summary->classes.find(member); it != summary->classes.end()) {
    symbol.cls = &it->second;
  } else if (auto fn = summary->functions.find(member); fn != summary->functions.end()) {
    symbol.function = &fn->second;
  } else if (auto re = summary->reexports.find(member);
             re != summary->reexports.end() && hops < kMaxReexportHops) {
    Symbol next = find_uncached(location->file, re->second, hops + 1);
    next.dependencies.merge(symbol.dependencies);
    return next;
  }
  return symbol;
}

const std::vector<fs::path>& ProjectIndex::roots_of(const fs::path& importer) const {
  const std::string folder = importer.parent_path().string();
  {
    const std::lock_guard lock(mutex_);
    if (auto it = roots_.find(folder); it != roots_.end()) return it->second;
  }
  std::vector<fs::path> roots = import_roots(importer);
  const std::lock_guard lock(mutex_);
  // std::map's nodes do not move: the reference stays valid after the lock is released.
  return roots_.emplace(folder, std::move(roots)).first->second;
}

ProjectIndex::Entry& ProjectIndex::entry_of(const fs::path& file) const {
  const std::lock_guard lock(mutex_);
  auto& slot = entries_[file.string()];
  if (!slot) slot = std::make_unique<Entry>();
  return *slot;
}

const ProjectIndex::Entry& ProjectIndex::summary_of(const fs::path& file) const {
  Entry& entry = entry_of(file);
  // Loading runs outside the index's lock, once per file; a second asker waits for the first.
  // A load reads only its own file, so it never waits on another entry: no deadlock.
  std::call_once(entry.once, [&] { load(file, entry); });
  return entry;
}

bool ProjectIndex::has(const fs::path& file) const {
  const std::lock_guard lock(mutex_);
  return entries_.contains(file.string());
}

void ProjectIndex::offer(const fs::path& file, const ir::FileAnalysis& analysis,
                         IndexedDigest digest) const {
  if (analysis.used_project() || has(file)) return;  // not the file's own answer, or made
  Entry& entry = entry_of(file);
  std::call_once(entry.once, [&] {
    entry.summary = std::make_unique<const ModuleSummary>(summarize(analysis, file.string()));
    entry.digest = digest;
  });
}

void ProjectIndex::load(const fs::path& file, Entry& entry) const {
  entry.summary = std::make_unique<const ModuleSummary>();
  auto bytes = read_indexed(file);
  if (!bytes) return;
  entry.digest = content_digest(*bytes);
  auto source = SourceFile::from_bytes(file.string(), std::move(*bytes));
  if (!source) return;
  auto frontend = python::PythonFrontend::create(grammar_);
  if (!frontend) return;
  auto lowered = frontend->lower(std::make_shared<const SourceFile>(std::move(*source)));
  if (!lowered) return;
  const ir::FileAnalysis analysis(*lowered->module);
  entry.summary = std::make_unique<const ModuleSummary>(summarize(analysis, file.string()));
}

}  // namespace sealint::project
