#include "analyzer/semantic/test_code.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/knowledge/naming.h"

namespace sealint::semantic {

bool is_test_file(std::string_view shown_path) {
  size_t start = 0;
  while (true) {
    const size_t slash = shown_path.find('/', start);
    const std::string_view component = shown_path.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (slash == std::string_view::npos) return knowledge::is_test_file_name(component);
    if (knowledge::is_test_folder_name(component)) return true;
    start = slash + 1;
  }
}

std::vector<ir::SourceRange> test_class_ranges(const ir::Module& module) {
  std::unordered_map<std::string_view, const ir::ClassDef*> by_name;
  for (const ir::ClassDef& cls : module.classes()) by_name.emplace(cls.name, &cls);
  std::unordered_map<const ir::ClassDef*, bool> memo;
  // Bounded by the number of classes: a cycle of same-file bases (invalid Python) ends there.
  auto is_test_class = [&](const ir::ClassDef* cls, auto& self, size_t depth) -> bool {
    if (depth > by_name.size()) return false;
    if (auto it = memo.find(cls); it != memo.end()) return it->second;
    bool test = false;
    for (const ir::Expr* base : cls->bases) {
      const std::string name = ir::dotted_name(base);
      const std::string_view last = std::string_view(name).substr(
          name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
      if (last == "TestCase") test = true;
      if (auto it = by_name.find(name); !test && it != by_name.end() && it->second != cls)
        test = self(it->second, self, depth + 1);
    }
    memo[cls] = test;
    return test;
  };
  std::vector<ir::SourceRange> ranges;
  for (const ir::ClassDef& cls : module.classes()) {
    if (is_test_class(&cls, is_test_class, 0)) ranges.push_back(cls.range);
  }
  return ranges;
}

}  // namespace sealint::semantic
