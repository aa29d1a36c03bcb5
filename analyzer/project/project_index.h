#pragma once
// The project index (SEMANTIC.md "Project scope"): the summaries of the project's Python files
// that another file imports from, made on first use and shared by every worker of one run.
//
// A file is read, lowered and analysed on its own (no other file's summaries: the answer never
// depends on which worker asked first), summarised, and its IR freed. Files are read within the
// same bounds as named inputs; one that cannot be read or parsed gives no summaries, silently:
// it is not an input of this run, and the importing file is still analysed.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/ir/foreign.h"
#include "analyzer/project/dependencies.h"
#include "analyzer/project/module_locator.h"
#include "analyzer/project/summarize.h"
#include "analyzer/python/grammar.h"

namespace sealint::project {

class ProjectIndex {
 public:
  explicit ProjectIndex(const python::PythonGrammar& grammar) : grammar_(grammar) {}
  ProjectIndex(const ProjectIndex&) = delete;
  ProjectIndex& operator=(const ProjectIndex&) = delete;

  // The class or function `dotted` names when `importer` (absolute, normal) imports it; nullptr
  // when no project file defines it. Thread-safe; pointers live as long as the index.
  // With `record`, every lookup and file the answer came from is added to it (dependencies.h).
  [[nodiscard]] const ir::ForeignClass* class_named(const std::filesystem::path& importer,
                                                    std::string_view dotted,
                                                    ProjectDependencies* record = nullptr) const;
  [[nodiscard]] const ir::ForeignFunction* function(const std::filesystem::path& importer,
                                                    std::string_view dotted,
                                                    ProjectDependencies* record = nullptr) const;
  // ProjectScope::method and ::is_module, following imported bases from each class's own file.
  [[nodiscard]] const ir::ForeignFunction* method(const ir::ForeignClass& cls,
                                                  std::string_view name,
                                                  ProjectDependencies* record = nullptr) const;
  [[nodiscard]] ir::ForeignMethod loop_caller(const ir::ForeignClass& cls, std::string_view name,
                                              ProjectDependencies* record = nullptr) const;
  [[nodiscard]] bool is_module(const ir::ForeignClass& cls,
                               ProjectDependencies* record = nullptr) const;
  [[nodiscard]] bool holds_parameters(const ir::ForeignClass& cls,
                                      ProjectDependencies* record = nullptr) const;
  // The driver's offer of a file it has lowered and analysed anyway (`analysis` must not have
  // used the project: ir::FileAnalysis::used_project), so that a file both named and imported is
  // parsed once; `digest` is that of the bytes it was lowered from. Nothing happens when the file
  // is summarised already; the summary is the one a load would make.
  void offer(const std::filesystem::path& file, const ir::FileAnalysis& analysis,
             IndexedDigest digest) const;
  // The file's summary is made, or being made (an offer then need not wait for it).
  [[nodiscard]] bool has(const std::filesystem::path& file) const;
  // How many files were summarised (for tests and --statistics).
  [[nodiscard]] size_t files_indexed() const;

 private:
  struct Entry {
    std::once_flag once;
    std::unique_ptr<const ModuleSummary> summary;  // null when the file could not be read
    IndexedDigest digest;                          // of the bytes the summary was made from
  };
  struct Symbol {
    const ir::ForeignClass* cls = nullptr;
    const ir::ForeignFunction* function = nullptr;
    ProjectDependencies dependencies;  // the lookups and files the answer came from
  };

  const Symbol& find(const std::filesystem::path& importer, std::string_view dotted,
                     ProjectDependencies* record) const;
  // Does `holds` hold for `cls` or a class up its imported bases (a bounded number)?
  bool up_the_bases(const ir::ForeignClass& cls,
                    const std::function<bool(const ir::ForeignClass&)>& holds,
                    ProjectDependencies* record) const;
  Symbol find_uncached(const std::filesystem::path& importer, std::string_view dotted,
                       int hops) const;
  const Entry& summary_of(const std::filesystem::path& file) const;
  Entry& entry_of(const std::filesystem::path& file) const;
  const std::vector<std::filesystem::path>& roots_of(const std::filesystem::path& importer) const;
  void load(const std::filesystem::path& file, Entry& entry) const;

  const python::PythonGrammar& grammar_;
  mutable std::mutex mutex_;  // guards the three maps, not the entries' loading
  mutable std::map<std::string, std::unique_ptr<Entry>> entries_;            // by file
  mutable std::map<std::string, std::vector<std::filesystem::path>> roots_;  // by folder
  mutable std::map<std::pair<std::string, std::string>, Symbol> symbols_;    // (folder, dotted)
};

// One file's view of its project, for its FileAnalysis.
class FileScope final : public ir::ProjectScope {
 public:
  // `path` as the user named it (relative to the working directory, or absolute). With `record`,
  // what the file's analysis takes from the project is added to it (for the result cache).
  FileScope(const ProjectIndex& index, const std::filesystem::path& path,
            ProjectDependencies* record = nullptr);
  // The file's absolute, normal path: the index's name for it.
  [[nodiscard]] const std::filesystem::path& importer() const { return importer_; }
  [[nodiscard]] const ir::ForeignFunction* function(std::string_view dotted) const override {
    return index_.function(importer_, dotted, record_);
  }
  [[nodiscard]] const ir::ForeignClass* class_named(std::string_view dotted) const override {
    return index_.class_named(importer_, dotted, record_);
  }
  [[nodiscard]] const ir::ForeignFunction* method(const ir::ForeignClass& cls,
                                                  std::string_view name) const override {
    return index_.method(cls, name, record_);
  }
  [[nodiscard]] ir::ForeignMethod loop_caller(const ir::ForeignClass& cls,
                                              std::string_view name) const override {
    return index_.loop_caller(cls, name, record_);
  }
  [[nodiscard]] bool is_module(const ir::ForeignClass& cls) const override {
    return index_.is_module(cls, record_);
  }
  [[nodiscard]] bool holds_parameters(const ir::ForeignClass& cls) const override {
    return index_.holds_parameters(cls, record_);
  }

 private:
  const ProjectIndex& index_;
  std::filesystem::path importer_;
  ProjectDependencies* record_;
};

}  // namespace sealint::project
