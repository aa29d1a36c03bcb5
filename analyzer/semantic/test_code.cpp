#include "analyzer/semantic/test_code.h"

#include "analyzer/knowledge/naming.h"
#include "analyzer/semantic/class_bases.h"

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
  auto is_test_case = [](std::string_view qualified) {
    return qualified == "TestCase" || qualified.ends_with(".TestCase");
  };
  std::vector<ir::SourceRange> ranges;
  for (const ir::ClassDef& cls : module.classes()) {
    if (!inherited_base(module, cls, is_test_case).empty()) ranges.push_back(cls.range);
  }
  return ranges;
}

}  // namespace sealint::semantic
