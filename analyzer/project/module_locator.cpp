#include "analyzer/project/module_locator.h"

#include <algorithm>
#include <array>
#include <span>
#include <system_error>

namespace sealint::project {

namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

bool is_identifier(std::string_view part) {
  if (part.empty() || (part.front() >= '0' && part.front() <= '9')) return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;  // a non-ASCII identifier
  });
}

// `a.b.C` -> {"a", "b", "C"}; empty when a part is not an identifier.
std::vector<std::string_view> split_dotted(std::string_view dotted) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t dot = dotted.find('.');
    const std::string_view part = dotted.substr(0, dot);
    if (!is_identifier(part)) return {};
    parts.push_back(part);
    if (dot == std::string_view::npos) return parts;
    dotted.remove_prefix(dot + 1);
  }
}

// The module file `parts` names under `root`: `root/a/b.py` or the package `root/a/b/__init__.py`.
std::optional<fs::path> module_file(const fs::path& root, std::span<const std::string_view> parts) {
  fs::path folder = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) folder /= std::string(parts[i]);
  const std::string last(parts.back());
  if (fs::path file = folder / (last + ".py"); is_file(file)) return file;
  if (fs::path init = folder / last / "__init__.py"; is_file(init)) return init;
  return std::nullopt;
}

// The member `parts` names from `root`: the longest prefix that is a module, then at most one
// name inside it.
std::optional<ModuleLocation> locate_from(const fs::path& root,
                                          const std::vector<std::string_view>& parts) {
  if (parts.empty()) return std::nullopt;
  const std::span<const std::string_view> all(parts);
  if (auto file = module_file(root, all)) return ModuleLocation{*file, ""};
  if (parts.size() >= 2) {
    if (auto file = module_file(root, all.first(parts.size() - 1)))
      return ModuleLocation{*file, std::string(parts.back())};
  }
  return std::nullopt;
}

}  // namespace

std::vector<fs::path> import_roots(const fs::path& importer) {
  std::vector<fs::path> roots;
  auto add = [&](const fs::path& root) {
    if (!root.empty() && std::find(roots.begin(), roots.end(), root) == roots.end())
      roots.push_back(root);
  };
  const fs::path folder = importer.parent_path();
  add(folder);
  fs::path package_parent = folder;
  while (package_parent.has_relative_path() && is_file(package_parent / "__init__.py"))
    package_parent = package_parent.parent_path();
  add(package_parent);
  static constexpr std::array<std::string_view, 4> kMarkers = {"pyproject.toml", "setup.py",
                                                               "setup.cfg", ".git"};
  for (fs::path up = folder; up.has_relative_path(); up = up.parent_path()) {
    std::error_code error;
    const bool marked = std::any_of(kMarkers.begin(), kMarkers.end(),
                                    [&](std::string_view m) { return fs::exists(up / m, error); });
    if (!marked) continue;
    add(up);
    add(up / "src");
    break;
  }
  return roots;
}

std::optional<ModuleLocation> locate_module(const fs::path& importer,
                                            const std::vector<fs::path>& roots,
                                            std::string_view dotted) {
  size_t level = 0;
  while (level < dotted.size() && dotted[level] == '.') ++level;
  if (level == 0) {
    const std::vector<std::string_view> parts = split_dotted(dotted);
    for (const fs::path& root : roots) {
      if (auto found = locate_from(root, parts)) return found;
    }
    // A folder without __init__.py that holds the importer and starts the import (a namespace
    // package): `from runners.misc import AverageMeter` in runners/sp_runner.py, whose project
    // runs its scripts from the folder above `runners`. The nearest such folder only.
    if (parts.empty()) return std::nullopt;
    for (fs::path up = importer.parent_path(); up.has_relative_path(); up = up.parent_path()) {
      if (up.filename() == parts.front()) return locate_from(up.parent_path(), parts);
    }
    return std::nullopt;
  }
  // `from .. import x`: one dot is the importer's package, each further dot one folder up.
  fs::path base = importer.parent_path();
  for (size_t up = 1; up < level; ++up) {
    if (!base.has_relative_path()) return std::nullopt;
    base = base.parent_path();
  }
  const std::vector<std::string_view> parts = split_dotted(dotted.substr(level));
  if (auto found = locate_from(base, parts)) return found;
  // `from . import f` (".f"): a name the package itself, its __init__.py, defines.
  if (parts.size() == 1 && is_file(base / "__init__.py"))
    return ModuleLocation{base / "__init__.py", std::string(parts.front())};
  return std::nullopt;
}

}  // namespace sealint::project
