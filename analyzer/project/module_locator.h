#pragma once
// Where an import of a Python file points inside its project: the file that defines a dotted
// name, found the way Python's own import system would from the places a project is run from.
// Only the filesystem is read (existence of files); nothing is imported or run.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sealint::project {

struct ModuleLocation {
  std::filesystem::path file;  // the module's .py file, or a package's __init__.py
  std::string member;          // the name looked up in it; empty when the path names the module
};

// The folders an absolute import of `importer` (an absolute, normal path) is searched from, in
// order: the importer's folder (a script's sys.path[0]), the folder above its outermost package
// (the folders with an __init__.py that hold it), and the project root (the nearest folder above
// with a pyproject.toml, setup.py, setup.cfg or .git) and its src/.
[[nodiscard]] std::vector<std::filesystem::path> import_roots(
    const std::filesystem::path& importer);

// The file and member `dotted` names when imported from `importer`: `pkg.meters.AverageMeter`
// (absolute, searched from `roots`), `.meters.AverageMeter` or `..utils.step` (relative to the
// importer's package), or, for an absolute import not found there, from the folder above the
// nearest folder holding the importer that is named as its first part (a namespace package).
// The longest module prefix that is a file wins; what is left must be one name or none. Nothing
// outside the roots (or the importer's own folders, for relative imports) is ever named.
[[nodiscard]] std::optional<ModuleLocation> locate_module(
    const std::filesystem::path& importer, const std::vector<std::filesystem::path>& roots,
    std::string_view dotted);

}  // namespace sealint::project
