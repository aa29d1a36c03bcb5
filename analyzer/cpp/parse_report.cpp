#include "analyzer/cpp/parse_report.h"

#include <fmt/format.h>

#include <algorithm>

namespace sealint::cpp {

namespace {

// Past this many places, the list ends with "and N more": the user reads it, not a tool.
constexpr size_t kMaxPlaces = 5;

// The smallest of `items` (functions or classes) whose range holds `offset`.
template <class Items>
const typename Items::value_type* innermost(const Items& items, uint32_t offset) {
  const typename Items::value_type* best = nullptr;
  for (const auto& item : items) {
    if (offset < item.range.begin || offset >= item.range.end) continue;
    if (best == nullptr || item.range.end - item.range.begin < best->range.end - best->range.begin)
      best = &item;
  }
  return best;
}

// Where an error at `offset` is, as the user names it: "`Net::forward()` (line 12)", "class
// `Counter` (line 4)", or "file-scope declarations".
std::string place_of(const ir::Module& module, uint32_t offset) {
  const ir::Function* fn = innermost(module.functions(), offset);
  if (fn != nullptr && !fn->is_module) {
    std::string name(fn->name);
    if (fn->parent_class != nullptr) name = fmt::format("{}::{}", fn->parent_class->name, name);
    return fmt::format("`{}()` (line {})", name, module.file().position(fn->range.begin).line);
  }
  if (const ir::ClassDef* cls = innermost(module.classes(), offset)) {
    return fmt::format("class `{}` (line {})", cls->name,
                       module.file().position(cls->range.begin).line);
  }
  return "file-scope declarations";
}

std::string join_places(const std::vector<std::string>& places) {
  std::string out;
  const size_t shown = std::min(places.size(), kMaxPlaces);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == shown && shown == places.size() ? " and " : ", ";
    out += places[i];
  }
  if (places.size() > shown) out += fmt::format(" and {} more", places.size() - shown);
  return out;
}

// Which code had errors after what was lacking, so that findings there may be missed; or that
// none did.
std::string consequence(const ParseProblems& problems, const ir::Module& module) {
  const std::string places =
      affected_code(module, problems.error_offsets, problems.headers_with_errors);
  if (places.empty()) return "Clang resolved every name regardless";
  return fmt::format("names are unresolved in {}, so findings there may be missed", places);
}

}  // namespace

std::string affected_code(const ir::Module& module, const std::vector<uint32_t>& offsets,
                          const std::vector<std::string>& headers) {
  std::vector<uint32_t> sorted = offsets;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> places;
  for (uint32_t offset : sorted) {
    std::string place = place_of(module, offset);
    if (std::find(places.begin(), places.end(), place) == places.end())
      places.push_back(std::move(place));
  }
  places.insert(places.end(), headers.begin(), headers.end());
  return join_places(places);
}

std::vector<InputError> recovery_warnings(const ParseProblems& problems, const ir::Module& module,
                                          const std::string& shown_path) {
  std::vector<InputError> out;
  if (!problems.skipped.empty()) {
    const SkippedInclude& first = problems.skipped.front();
    std::string names = fmt::format("'{}' file not found", first.name);
    for (size_t i = 1; i < problems.skipped.size(); ++i)
      names += fmt::format("{}'{}'", i == 1 ? ", nor " : ", ", problems.skipped[i].name);
    const bool several = problems.skipped.size() > 1;
    InputError warning{shown_path, first.at, {}, true};
    for (const SkippedInclude& skipped : problems.skipped)
      warning.missing_headers.push_back(skipped.name);
    warning.message = fmt::format(
        "C++: {}{} (analysed without {}: {}; pass -p BUILD_DIR to use the project's "
        "compile_commands.json)",
        first.in_header.empty() ? ""
                                : fmt::format("in {}:{}: ", first.in_header, first.header_line),
        names, several ? "them" : "it", consequence(problems, module));
    out.push_back(std::move(warning));
  }
  if (problems.model_gap) {
    InputError warning{shown_path, problems.model_gap->at, {}, true};
    warning.message = fmt::format(
        "C++: sealint's model of LibTorch lacks `{}` (analysed without it: {}; pass "
        "--torch-headers=system where LibTorch is installed)",
        problems.model_gap->name, consequence(problems, module));
    out.push_back(std::move(warning));
  }
  return out;
}

}  // namespace sealint::cpp
