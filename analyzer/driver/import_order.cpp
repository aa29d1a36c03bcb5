#include "analyzer/driver/import_order.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "analyzer/cpp/frontend.h"
#include "analyzer/notebook/notebook.h"
#include "analyzer/project/dependencies.h"
#include "analyzer/project/import_scan.h"
#include "analyzer/project/module_locator.h"

namespace sealint {

namespace fs = std::filesystem;

ImportOrder import_order(const std::vector<FileInput>& inputs) {
  ImportOrder out;
  out.imported.assign(inputs.size(), false);
  // The inputs that take part, by their absolute normal path.
  std::map<fs::path, size_t> by_path;
  std::vector<fs::path> absolute(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const FileInput& input = inputs[i];
    if (input.content || cpp::is_cpp_source(input.path) || notebook::is_notebook_path(input.path))
      continue;
    absolute[i] = project::normal_absolute(input.path);
    by_path.emplace(absolute[i], i);
  }
  // Who imports whom, among the inputs.
  std::vector<std::vector<size_t>> imports(inputs.size());
  std::map<fs::path, std::vector<fs::path>> roots;  // by folder
  // Where a module imported from a folder is (an input's index), found once: files of one folder
  // import much the same modules, and each look-up asks the filesystem. `from m import x` looks
  // up `m` alone (that `x` may be a submodule only changes the order, never a finding), so that
  // the names of one module cost one look-up; `from . import x` looks up `.x`, the submodule.
  std::map<std::pair<fs::path, std::string>, std::optional<size_t>> located;
  for (const auto& [path, i] : by_path) {
    Result<std::string> bytes = project::read_indexed(path);
    if (!bytes) continue;
    const fs::path folder = path.parent_path();
    auto [folder_roots, added] = roots.try_emplace(folder);
    if (added) folder_roots->second = project::import_roots(path);
    for (const project::ScannedImport& scanned : project::scan_imports(*bytes)) {
      const bool only_dots = scanned.module.find_first_not_of('.') == std::string::npos;
      std::string key = only_dots ? scanned.dotted() : scanned.module;
      auto [known, first] = located.try_emplace({folder, std::move(key)});
      if (first) {
        const std::optional<project::ModuleLocation> location =
            project::locate_module(path, folder_roots->second, known->first.second);
        if (location) {
          if (const auto found = by_path.find(location->file); found != by_path.end())
            known->second = found->second;
        }
      }
      if (!known->second || *known->second == i) continue;
      imports[i].push_back(*known->second);
      out.imported[*known->second] = true;
    }
  }
  // Depth first, each file after what it imports; an explicit stack, since an import chain is as
  // long as a project makes it.
  std::vector<bool> placed(inputs.size(), false);
  std::vector<bool> entered(inputs.size(), false);
  out.order.reserve(inputs.size());
  for (size_t root = 0; root < inputs.size(); ++root) {
    if (placed[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack = {{root, 0}};  // file, next import to visit
    entered[root] = true;
    while (!stack.empty()) {
      auto& [file, next] = stack.back();
      if (next < imports[file].size()) {
        const size_t dependency = imports[file][next++];
        if (!entered[dependency]) {  // entered but not placed: a cycle, cut here
          entered[dependency] = true;
          stack.emplace_back(dependency, 0);
        }
        continue;
      }
      placed[file] = true;
      out.order.push_back(file);
      stack.pop_back();
    }
  }
  return out;
}

}  // namespace sealint
