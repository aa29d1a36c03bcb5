#include "analyzer/project/project_index.h"

#include <system_error>

#include "analyzer/core/bounded_read.h"
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

fs::path normal_absolute(const fs::path& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) absolute = path;
  return absolute.lexically_normal();
}

}  // namespace

FileScope::FileScope(const ProjectIndex& index, const fs::path& path)
    : index_(index), importer_(normal_absolute(path)) {}

const ir::ForeignClass* ProjectIndex::class_named(const fs::path& importer,
                                                  std::string_view dotted) const {
  return find(importer, dotted).cls;
}

const ir::ForeignFunction* ProjectIndex::function(const fs::path& importer,
                                                  std::string_view dotted) const {
  return find(importer, dotted).function;
}

bool ProjectIndex::up_the_bases(const ir::ForeignClass& cls,
                                const std::function<bool(const ir::ForeignClass&)>& holds) const {
  std::vector<const ir::ForeignClass*> queue = {&cls};
  for (size_t i = 0; i < queue.size() && i < kMaxBaseClasses; ++i) {
    if (holds(*queue[i])) return true;
    for (const std::string& base : queue[i]->imported_bases) {
      if (const ir::ForeignClass* up = class_named(queue[i]->file, base)) queue.push_back(up);
    }
  }
  return false;
}

const ir::ForeignFunction* ProjectIndex::method(const ir::ForeignClass& cls,
                                                std::string_view name) const {
  const ir::ForeignFunction* found = nullptr;
  up_the_bases(cls, [&](const ir::ForeignClass& c) {
    found = c.method(name);
    return found != nullptr;
  });
  return found;
}

bool ProjectIndex::is_module(const ir::ForeignClass& cls) const {
  return up_the_bases(cls, [](const ir::ForeignClass& c) { return c.is_module; });
}

bool ProjectIndex::holds_parameters(const ir::ForeignClass& cls) const {
  return up_the_bases(cls, [](const ir::ForeignClass& c) { return c.holds_parameters; });
}

size_t ProjectIndex::files_indexed() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

ProjectIndex::Symbol ProjectIndex::find(const fs::path& importer, std::string_view dotted) const {
  std::pair<std::string, std::string> key{importer.parent_path().string(), std::string(dotted)};
  {
    const std::lock_guard lock(mutex_);
    if (auto it = symbols_.find(key); it != symbols_.end()) return it->second;
  }
  const Symbol symbol = find_uncached(importer, dotted, 0);
  const std::lock_guard lock(mutex_);
  symbols_.emplace(std::move(key), symbol);
  return symbol;
}

ProjectIndex::Symbol ProjectIndex::find_uncached(const fs::path& importer, std::string_view dotted,
                                                 int hops) const {
  const auto location = locate_module(importer, roots_of(importer), dotted);
  if (!location || location->member.empty()) return {};
  const ModuleSummary* summary = summary_of(location->file);
  if (summary == nullptr) return {};
  const std::string_view member = location->member;
  if (auto it = summary->classes.find(member); it != summary->classes.end())
    return {&it->second, nullptr};
  if (auto it = summary->functions.find(member); it != summary->functions.end())
    return {nullptr, &it->second};
  if (auto it = summary->reexports.find(member);
      it != summary->reexports.end() && hops < kMaxReexportHops) {
    return find_uncached(location->file, it->second, hops + 1);
  }
  return {};
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

const ModuleSummary* ProjectIndex::summary_of(const fs::path& file) const {
  Entry& entry = entry_of(file);
  // Loading runs outside the index's lock, once per file; a second asker waits for the first.
  // A load reads only its own file, so it never waits on another entry: no deadlock.
  std::call_once(entry.once,
                 [&] { entry.summary = std::make_unique<const ModuleSummary>(load(file)); });
  return entry.summary.get();
}

bool ProjectIndex::has(const fs::path& file) const {
  const std::lock_guard lock(mutex_);
  return entries_.contains(file.string());
}

void ProjectIndex::offer(const fs::path& file, const ir::FileAnalysis& analysis) const {
  if (analysis.used_project() || has(file)) return;  // not the file's own answer, or made
  Entry& entry = entry_of(file);
  std::call_once(entry.once, [&] {
    entry.summary = std::make_unique<const ModuleSummary>(summarize(analysis, file.string()));
  });
}

ModuleSummary ProjectIndex::load(const fs::path& file) const {
  auto bytes = read_file_bounded(file.string(), file.string(), kMaxIndexedBytes);
  if (!bytes) return {};
  auto source = SourceFile::from_bytes(file.string(), std::move(*bytes));
  if (!source) return {};
  auto frontend = python::PythonFrontend::create(grammar_);
  if (!frontend) return {};
  auto lowered = frontend->lower(std::make_shared<const SourceFile>(std::move(*source)));
  if (!lowered) return {};
  const ir::FileAnalysis analysis(*lowered->module);
  return summarize(analysis, file.string());
}

}  // namespace sealint::project
