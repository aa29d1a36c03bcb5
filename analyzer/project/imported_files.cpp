#include "analyzer/project/imported_files.h"

#include <algorithm>

#include "analyzer/project/module_locator.h"

namespace sealint::project {

std::vector<std::filesystem::path> imported_files(const ir::Module& module,
                                                  const std::filesystem::path& importer) {
  std::vector<std::filesystem::path> files;
  const std::vector<std::filesystem::path> roots = import_roots(importer);
  for (const ir::ImportAlias& alias : module.imports) {
    const std::optional<ModuleLocation> location = locate_module(importer, roots, alias.dotted);
    if (!location || location->file == importer) continue;
    if (std::find(files.begin(), files.end(), location->file) == files.end())
      files.push_back(location->file);
  }
  return files;
}

}  // namespace sealint::project
